/**
 * Impostors touching each other and themselves through the plugin (real Havok, NullEngine): a jelly lands in a cloth
 * hammock instead of falling through it to the Havok floor, `selfCollision` is an option like the others, and a soft
 * contact overflow is reported by kind.
 */
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import type { XpbdPluginOptions } from "../../src/babylon/xpbdPluginOptions";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import type { XpbdCapacityKind } from "../../src/babylon/stepEvents";
import { parametersAsCode } from "../../src/inspector/parameterSnippet";

/** Lowest particle height of a body (m). */
function lowest(positions: Float64Array): number {
    let y = Infinity;
    for (let i = 1; i < positions.length; i += 3) {
        y = Math.min(y, positions[i]);
    }
    return y;
}

describe("soft contacts through the plugin", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    /** A 1 m, 0.5 kg cloth hammock pinned by its four corners at 1 m, over a Havok floor, and a 1 kg jelly above it. */
    function hammock(options: XpbdPluginOptions): { xpbd: XpbdPlugin; cloth: ClothImpostor; jelly: SoftBodyImpostor } {
        const xpbd = new XpbdPlugin(h.scene, options);
        createBody(h.scene, { kind: "box", extents: [6, 0.2, 6] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const n = 16;
        const ground = CreateGround("hammock", { width: 1, height: 1, subdivisions: n, updatable: true }, h.scene);
        ground.position.y = 1;
        const cloth = new ClothImpostor(ground, { mass: 0.5, pins: [0, n, n * (n + 1), (n + 1) * (n + 1) - 1] }, xpbd);
        const box = CreateBox("jelly", { size: 0.3, updatable: true }, h.scene);
        box.position.y = 1.4;
        const jelly = new SoftBodyImpostor(box, { mass: 1, resolution: 4 }, xpbd);
        return { xpbd, cloth, jelly };
    }

    it("a jelly dropped into a cloth hammock rests in it; with softContacts: false it falls through to the floor", async () => {
        const caught = hammock({});
        h.step(180);
        const clothLow = lowest(caught.cloth.body.positions);
        const jellyLow = lowest(caught.jelly.body.positions);
        console.log(`hammock: jelly's lowest particle at ${jellyLow.toFixed(3)} m, the cloth's at ${clothLow.toFixed(3)} m`);
        // In the sag of the hammock, far above the floor, and above the cloth's lowest point.
        expect(jellyLow).toBeGreaterThan(0.5);
        expect(jellyLow).toBeGreaterThan(clothLow);
        expect(caught.xpbd.world.stats.softContacts).toBeGreaterThan(0);
        h.dispose();

        h = await createHavokScene();
        const through = hammock({ softContacts: false });
        h.step(180);
        expect(lowest(through.jelly.body.positions)).toBeLessThan(0.05);
    });

    it("selfCollision is an option: default false, set later, validated by name, copied as code", () => {
        expect(() => new XpbdPlugin(h.scene, { softContacts: 0 as unknown as boolean })).toThrow(
            "XpbdPlugin: softContacts must be a boolean, got 0 (number)",
        );
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8, updatable: true }, h.scene);
        const cloth = new ClothImpostor(mesh, { selfCollision: true }, xpbd);
        expect(cloth.selfCollision).toBe(true);
        expect(cloth.body.selfCollision).toBe(true);
        expect(cloth.getOptions().selfCollision).toBe(true);
        expect(parametersAsCode(cloth)).toContain("selfCollision: true,");
        cloth.selfCollision = false;
        expect(cloth.body.selfCollision).toBe(false);
        expect(new ClothImpostor(CreateGround("other", { width: 1, height: 1 }, h.scene), {}, xpbd).selfCollision).toBe(false);
        expect(() => (cloth.selfCollision = 1 as unknown as boolean)).toThrow(
            "ClothImpostor: selfCollision must be a boolean, got 1 (number)",
        );
        expect(
            () =>
                new ClothImpostor(
                    CreateGround("bad", { width: 1, height: 1 }, h.scene),
                    { selfCollision: "yes" as unknown as boolean },
                    xpbd,
                ),
        ).toThrow('ClothImpostor: selfCollision must be a boolean, got "yes" (string)');
    });

    it("more soft contacts than softContactCapacity: reported once, as kind softContacts", () => {
        const { xpbd } = hammock({ softContactCapacity: 4 });
        const kinds: XpbdCapacityKind[] = [];
        xpbd.onCapacityExceededObservable.add((event) => kinds.push(event.kind));
        h.step(120);
        expect(kinds).toEqual(["softContacts"]);
    });
});
