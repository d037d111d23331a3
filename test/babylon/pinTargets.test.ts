/**
 * Pins driven by animation (real Havok scene stepping): a cloth pinned with weight 1 to an animated node and to a
 * bone of a skinned mesh follows the target's world transform of its rest position.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { Bone } from "@babylonjs/core/Bones/bone";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";

/** Largest distance between each pinned particle and `world × rest-local`, the rest-local taken at pin time. */
function pinError(cloth: ClothImpostor, vertices: number[], restLocal: Vector3[], world: () => Matrix): number {
    let error = 0;
    vertices.forEach((v, k) => {
        const expected = Vector3.TransformCoordinates(restLocal[k], world());
        error = Math.max(
            error,
            Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[v])
                .subtract(expected)
                .length(),
        );
    });
    return error;
}

function restLocalOf(cloth: ClothImpostor, vertices: number[], world: Matrix): Vector3[] {
    const inverse = world.clone().invert();
    return vertices.map((v) =>
        Vector3.TransformCoordinates(Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[v]), inverse),
    );
}

/** The edge row of an 8×8-quad, 1 m ground mesh hung vertically at y = 2 (render vertex indices). */
const TOP_ROW = [72, 74, 76, 78, 80];

/** A plugin, a handle node at (0, 2, 0) and a 0.3 kg cloth hanging in the plane z = 0, not yet pinned. */
function hangingCloth(h: HavokScene): { handle: TransformNode; cloth: ClothImpostor } {
    const xpbd = new XpbdPlugin(h.scene);
    const handle = new TransformNode("handle", h.scene);
    handle.position.set(0, 2, 0);
    const mesh = CreateGround("cape", { width: 1, height: 1, subdivisions: 8 }, h.scene);
    mesh.position.y = 2;
    mesh.rotation.x = -Math.PI / 2; // hanging vertically
    return { handle, cloth: new ClothImpostor(mesh, { mass: 0.3 }, xpbd) };
}

describe("pinTo", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("follows an animated TransformNode within 1e-6 m", () => {
        const { handle, cloth } = hangingCloth(h);
        const top = TOP_ROW;
        const restLocal = restLocalOf(cloth, top, handle.computeWorldMatrix(true));
        cloth.pinTo(top, handle, 1);
        let t = 0;
        // The node is animated before physics each frame, like an Animatable would.
        h.scene.onAfterAnimationsObservable.add(() => {
            t += 1 / 60;
            handle.position.set(Math.sin(2 * t), 2 + 0.3 * Math.sin(3 * t), 0.5 * t);
            handle.rotationQuaternion = Quaternion.RotationYawPitchRoll(t, 0.3 * Math.sin(t), 0);
        });
        let maxError = 0;
        for (let s = 0; s < 60; s++) {
            h.step();
            maxError = Math.max(
                maxError,
                pinError(cloth, top, restLocal, () => handle.computeWorldMatrix(true)),
            );
        }
        console.log(`pin to animated node: max error ${maxError.toExponential(3)} m`);
        expect(maxError).toBeLessThan(1e-6);
        // The free part hangs below the pins and moves with them.
        expect(cloth.getCenterOfMass().z).toBeGreaterThan(0.1);
    });

    it("follows a bone of a skinned mesh within 1e-6 m", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const skeleton = new Skeleton("rig", "rig", h.scene);
        const root = new Bone("root", skeleton, null, Matrix.Translation(0, 1, 0));
        const arm = new Bone("arm", skeleton, root, Matrix.Translation(0, 1, 0));
        const character = CreateBox("character", { size: 0.2 }, h.scene);
        character.skeleton = skeleton;
        character.position.set(1, 0, 0);
        character.rotation.y = 0.5;
        const mesh = CreateGround("flag", { width: 0.6, height: 0.6, subdivisions: 6 }, h.scene);
        mesh.position.set(1, 2.1, 0);
        const cloth = new ClothImpostor(mesh, { mass: 0.2 }, xpbd);
        const boneWorld = (): Matrix => arm.getAbsoluteMatrix().multiply(character.computeWorldMatrix(true));
        const pinned = [0, 1, 2, 3];
        const restLocal = restLocalOf(cloth, pinned, boneWorld());
        cloth.pinTo(pinned, arm, 1);
        let t = 0;
        h.scene.onAfterAnimationsObservable.add(() => {
            t += 1 / 60;
            root.setRotationQuaternion(Quaternion.RotationAxis(new Vector3(0, 0, 1), 0.6 * Math.sin(2 * t)));
            arm.setRotationQuaternion(Quaternion.RotationAxis(new Vector3(1, 0, 0), 0.4 * Math.sin(3 * t)));
            character.position.x = 1 + 0.2 * t;
        });
        let maxError = 0;
        let travel = 0;
        const start = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0]);
        for (let s = 0; s < 60; s++) {
            h.step();
            maxError = Math.max(maxError, pinError(cloth, pinned, restLocal, boneWorld));
            travel = Math.max(
                travel,
                Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0])
                    .subtract(start)
                    .length(),
            );
        }
        console.log(`pin to bone: max error ${maxError.toExponential(3)} m, pinned vertex travelled up to ${travel.toFixed(3)} m`);
        expect(travel).toBeGreaterThan(0.3);
        expect(maxError).toBeLessThan(1e-6);
    });

    it("unpin frees vertices from their target; a later weight-1 pin holds them where they are", () => {
        const { handle, cloth } = hangingCloth(h);
        const restLocal = restLocalOf(cloth, [72, 74], handle.computeWorldMatrix(true));
        cloth.pinTo(TOP_ROW, handle, 1);
        h.scene.onAfterAnimationsObservable.add(() => {
            handle.position.x += 0.01;
        });
        for (let s = 0; s < 30; s++) {
            h.step();
        }
        cloth.unpin([76, 78, 80]);
        expect([72, 74, 76, 78, 80].map((v) => cloth.getPinWeight(v))).toEqual([1, 1, 0, 0, 0]);
        // Re-pinned by weight alone, vertex 80 stays where it is and no longer follows the moving handle, while the
        // vertices still pinned to the handle keep following it.
        cloth.setPinWeight(80, 1);
        const held = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[80]);
        const handleX = handle.position.x;
        let followError = 0;
        for (let s = 0; s < 30; s++) {
            h.step();
            followError = Math.max(
                followError,
                pinError(cloth, [72, 74], restLocal, () => handle.computeWorldMatrix(true)),
            );
        }
        expect(handle.position.x).toBeGreaterThan(handleX + 0.25);
        expect(
            Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[80])
                .subtract(held)
                .length(),
        ).toBeLessThan(1e-9);
        expect(followError).toBeLessThan(1e-6);
        // Everything released: the cloth falls (0.5 s of free fall is 1.23 m; air drag on 1 m² of 0.3 kg takes some).
        cloth.unpin([72, 74, 80]);
        const before = cloth.getCenterOfMass().y;
        for (let s = 0; s < 30; s++) {
            h.step();
        }
        expect(before - cloth.getCenterOfMass().y).toBeGreaterThan(0.3);
    });
});
