/**
 * Every default lives in the core: an impostor built with nothing but its mass ends up with exactly the core's
 * defaults (`SOFT_BODY_DEFAULTS`), read back through the Babylon API and from the core body it made.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { SOFT_BODY_DEFAULTS, type SoftBody } from "../../src/core/index";

/** The options both kinds of body share, as the core body holds them. */
function sharedOptions(body: SoftBody): Record<string, unknown> {
    return {
        stretchCompliance: body.stretch.compliance,
        volumeCompliance: body.volume.compliance,
        damping: body.damping,
        staticFriction: body.staticFriction,
        kineticFriction: body.kineticFriction,
        restitution: body.restitution,
        thickness: body.thickness,
        tethers: body.tethers.enabled,
        allowSleep: body.allowSleep,
        sleepVelocity: body.sleepVelocity,
        sleepTime: body.sleepTime,
        membership: body.membership,
        collideWith: body.collideWith,
        overStretchRatio: body.overStretchRatio,
        windScale: body.windScale,
    };
}

function expected(names: readonly string[]): Record<string, unknown> {
    return Object.fromEntries(names.map((name) => [name, SOFT_BODY_DEFAULTS[name as keyof typeof SOFT_BODY_DEFAULTS]]));
}

describe("option defaults have one home", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    beforeEach(async () => {
        h = await createHavokScene();
        xpbd = new XpbdPlugin(h.scene);
    });
    afterEach(() => h.dispose());

    it("a cloth built with only its mass has the core's defaults", () => {
        const cloth = new ClothImpostor(CreateGround("cloth", { width: 1, height: 1, subdivisions: 4 }, h.scene), { mass: 0.5 }, xpbd);
        const body = cloth.body;
        const actual = {
            ...sharedOptions(body),
            shearCompliance: body.shear.compliance,
            bendCompliance: body.bend.compliance,
            dragCoefficient: body.dragCoefficient,
            liftCoefficient: body.liftCoefficient,
        };
        expect(actual).toEqual(expected(Object.keys(actual)));
        // The Babylon API reads the same values back.
        expect([cloth.friction, cloth.staticFriction, cloth.damping, cloth.thickness]).toEqual([
            SOFT_BODY_DEFAULTS.kineticFriction,
            SOFT_BODY_DEFAULTS.staticFriction,
            SOFT_BODY_DEFAULTS.damping,
            SOFT_BODY_DEFAULTS.thickness,
        ]);
    });

    it("a soft body built with only its mass has the core's defaults (but its own drag and lift coefficients)", () => {
        const jelly = new SoftBodyImpostor(CreateBox("jelly", { size: 0.4 }, h.scene), { mass: 1, resolution: 3 }, xpbd);
        const actual = sharedOptions(jelly.body);
        expect(actual).toEqual(expected(Object.keys(actual)));
    });
});
