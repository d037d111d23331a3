/**
 * SoftBodyImpostor builds its tets in the mesh's own axes: a turned, moved mesh gives the same body, turned and
 * moved, with no particle outside the mesh (real Havok scene, NullEngine).
 */
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";

describe("SoftBodyImpostor", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("gives a turned mesh the same tets as an unturned one, none sticking out of it", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const straight = CreateBox("straight", { width: 0.4, height: 0.3, depth: 0.2 }, h.scene);
        const turned = CreateBox("turned", { width: 0.4, height: 0.3, depth: 0.2 }, h.scene);
        turned.rotationQuaternion = Quaternion.RotationYawPitchRoll(0.7, 0.35, 0.2);
        turned.position.set(3, 1, -2);
        const a = new SoftBodyImpostor(straight, { resolution: 5 }, xpbd);
        const b = new SoftBodyImpostor(turned, { resolution: 5 }, xpbd);
        expect(b.body.particleCount).toBe(a.body.particleCount);
        expect(b.body.volume.count).toBe(a.body.volume.count);
        // Every particle of the turned body, taken back into the box's frame, is where the straight body has it, and
        // inside the box (its half extents 0.2, 0.15, 0.1).
        const toBox = turned.computeWorldMatrix(true).clone().invert();
        let mismatch = 0;
        let outside = -Infinity;
        for (let p = 0; p < b.body.particleCount; p++) {
            const local = Vector3.TransformCoordinates(Vector3.FromArray(b.body.positions, 3 * p), toBox);
            mismatch = Math.max(mismatch, local.subtract(Vector3.FromArray(a.body.positions, 3 * p)).length());
            outside = Math.max(outside, Math.abs(local.x) - 0.2, Math.abs(local.y) - 0.15, Math.abs(local.z) - 0.1);
        }
        // Babylon's matrices are 32-bit floats: a round trip through them at 3 m is good to about 1e-7 m.
        expect(mismatch).toBeLessThan(1e-6);
        expect(outside).toBeLessThan(1e-6);
        expect(Matrix.Identity().equals(straight.computeWorldMatrix(true))).toBe(true);
    });
});
