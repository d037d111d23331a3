/**
 * Static and kinetic friction of the impostors against a Havok ramp (real Havok WASM, NullEngine). A jelly set on a
 * 20° ramp (tan 20° = 0.364) must stay put when its static friction holds it and slide when only kinetic friction
 * acts; the coefficients combine with the ramp material's (friction 1) by geometric mean.
 */
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { ClothImpostor } from "../../src/babylon/clothImpostor";

const SLOPE = (20 * Math.PI) / 180;

/**
 * Distance (m) a jelly travels down a 20° ramp in 2 s after landing on it (0.5 s), with the given friction options:
 * between its mean positions over 0.5 s windows (it wobbles on its springs after landing).
 */
async function slide(options: { friction: number; staticFriction?: number }): Promise<number> {
    const h = await createHavokScene();
    const xpbd = new XpbdPlugin(h.scene);
    const rotation = Quaternion.RotationAxis(new Vector3(0, 0, 1), SLOPE);
    const ramp = createBody(
        h.scene,
        { kind: "box", extents: [6, 0.2, 2] },
        { motionType: PhysicsMotionType.STATIC, rotation: rotation.asArray() as [number, number, number, number] },
    );
    ramp.shape.material = { friction: 1, staticFriction: 1, restitution: 0 };
    // A 0.3 m cube resting on the ramp's top face (local y = 0.1), its bottom 5 mm above it.
    const mesh = CreateBox("jelly", { size: 0.3 }, h.scene);
    mesh.rotationQuaternion = rotation.clone();
    mesh.position = new Vector3(0, 0.1 + 0.155, 0).applyRotationQuaternion(rotation);
    const jelly = new SoftBodyImpostor(mesh, { mass: 1, resolution: 4, damping: 2, ...options }, xpbd);
    const meanPosition = (): Vector3 => {
        const sum = Vector3.Zero();
        for (let s = 0; s < 30; s++) {
            h.step();
            sum.addInPlace(jelly.getCenterOfMass());
        }
        return sum.scale(1 / 30);
    };
    h.step(30); // landing
    const start = meanPosition();
    h.step(90);
    // Along the slope only: a jelly also sags a little into its resting shape, which moves its centre along the normal.
    const downhill = new Vector3(-Math.cos(SLOPE), -Math.sin(SLOPE), 0);
    const travelled = Vector3.Dot(meanPosition().subtract(start), downhill);
    h.dispose();
    return travelled;
}

describe("static and kinetic friction", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("a jelly held by static friction stays on a 20° ramp; with only the kinetic coefficient it slides", async () => {
        const held = await slide({ friction: 0.05, staticFriction: 0.8 });
        const sliding = await slide({ friction: 0.05 });
        console.log(`20° ramp, 2 s: ${(held * 1000).toFixed(2)} mm with static friction 0.8, ${sliding.toFixed(3)} m with 0.05 only`);
        // Held: μs = √0.8 = 0.89 > tan 20° = 0.36.
        expect(Math.abs(held)).toBeLessThan(0.005);
        // Sliding: μk = √0.05 = 0.22 < tan 20°, so it accelerates at g(sin 20° − 0.22 cos 20°) = 1.29 m/s², 2.6 m in
        // 2 s without air drag; at least half of that.
        expect(sliding).toBeGreaterThan(1.3);
    });

    it("staticFriction defaults to friction and follows it until set on its own", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = new ClothImpostor(CreateGround("cloth", { width: 1, height: 1, subdivisions: 4 }, h.scene), { friction: 0.3 }, xpbd);
        expect([cloth.friction, cloth.staticFriction, cloth.body.kineticFriction, cloth.body.staticFriction]).toEqual([0.3, 0.3, 0.3, 0.3]);
        cloth.friction = 0.6;
        expect([cloth.body.kineticFriction, cloth.body.staticFriction]).toEqual([0.6, 0.6]);
        cloth.staticFriction = 0.9;
        cloth.friction = 0.2;
        expect([cloth.body.kineticFriction, cloth.body.staticFriction]).toEqual([0.2, 0.9]);
        expect(cloth.getOptions()).toMatchObject({ friction: 0.2, staticFriction: 0.9 });
        const given = new ClothImpostor(
            CreateGround("cloth2", { width: 1, height: 1, subdivisions: 4 }, h.scene),
            { friction: 0.1, staticFriction: 0.7 },
            xpbd,
        );
        given.friction = 0.4;
        expect([given.body.kineticFriction, given.body.staticFriction]).toEqual([0.4, 0.7]);
        expect(() => (given.staticFriction = -1)).toThrow(/staticFriction must be/);
        expect(() => new ClothImpostor(CreateGround("bad", { width: 1, height: 1 }, h.scene), { staticFriction: NaN }, xpbd)).toThrow(
            /staticFriction must be/,
        );
    });
});
