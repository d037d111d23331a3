/**
 * Bone colliders (real Havok scene stepping): capsules fitted to a skinned cylinder's bones lie along the bones, have
 * the skin's radius, follow an animated bone (Havok's own proximity query sees them there), and go away on dispose.
 */
import { Bone } from "@babylonjs/core/Bones/bone";
import { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { ProximityCastResult } from "@babylonjs/core/Physics/proximityCastResult";
import { Scene } from "@babylonjs/core/scene";
import { createHavokScene, observerCounts, type HavokScene } from "../support/havokScene";
import { createBoneColliders, type BoneCollider } from "../../src/babylon/boneColliders";

/**
 * A 2 m open cylinder of radius 0.1 along +y in mesh space, skinned with weight 1 to a chain of bones at y = 0, 1, 2
 * (the lower half to "lower", the upper half to "upper"; "tip" is a leaf), the mesh node at (1, 0, 0) scaled by 2.
 */
function skinnedCylinder(scene: Scene): { mesh: Mesh; skeleton: Skeleton; lower: Bone; upper: Bone; tip: Bone } {
    const skeleton = new Skeleton("rig", "rig", scene);
    const lower = new Bone("lower", skeleton, null, Matrix.Identity());
    const upper = new Bone("upper", skeleton, lower, Matrix.Translation(0, 1, 0));
    const tip = new Bone("tip", skeleton, upper, Matrix.Translation(0, 1, 0));
    const mesh = CreateCylinder("limb", { height: 2, diameter: 0.2, tessellation: 16, subdivisions: 2, cap: Mesh.NO_CAP }, scene);
    mesh.bakeTransformIntoVertices(Matrix.Translation(0, 1, 0));
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const count = positions.length / 3;
    const indices = new Float32Array(4 * count);
    const weights = new Float32Array(4 * count);
    for (let v = 0; v < count; v++) {
        indices[4 * v] = positions[3 * v + 1] < 0.999 ? 0 : 1;
        weights[4 * v] = 1;
    }
    mesh.setVerticesData(VertexBuffer.MatricesIndicesKind, indices, false, 4);
    mesh.setVerticesData(VertexBuffer.MatricesWeightsKind, weights, false, 4);
    mesh.skeleton = skeleton;
    mesh.position.set(1, 0, 0);
    mesh.scaling.setAll(2);
    return { mesh, skeleton, lower, upper, tip };
}

/** Largest distance of a capsule's world end points from its bone's and its child's world positions. */
function endpointError(c: BoneCollider, mesh: Mesh): number {
    const world = c.node.computeWorldMatrix(true);
    const a = Vector3.TransformCoordinates(c.pointA, world);
    const b = Vector3.TransformCoordinates(c.pointB, world);
    return Math.max(Vector3.Distance(a, c.bone.getAbsolutePosition(mesh)), Vector3.Distance(b, c.child.getAbsolutePosition(mesh)));
}

describe("createBoneColliders", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("fits one capsule per bone with a child, along the bone, with the skin's radius in world units", () => {
        const { mesh, skeleton, lower, upper } = skinnedCylinder(h.scene);
        const colliders = createBoneColliders(skeleton, mesh);
        expect(colliders.getClassName()).toBe("BoneColliders");
        expect(colliders.colliders.map((c) => c.bone)).toEqual([lower, upper]);
        for (const c of colliders.colliders) {
            // Mesh scaled by 2: 2 m long, 0.2 m radius (every vertex weighted to a bone lies 0.1 from its segment).
            expect(Vector3.Distance(c.pointA, c.pointB)).toBeCloseTo(2, 6);
            expect(c.radius).toBeCloseTo(0.2, 6);
            expect(endpointError(c, mesh)).toBeLessThan(1e-5);
        }
        expect(createBoneColliders(skeleton, mesh, { radius: 0.05, bones: ["upper"] }).colliders.map((c) => [c.bone, c.radius])).toEqual([
            [upper, 0.05],
        ]);
        expect(createBoneColliders(skeleton, mesh, { radiusScale: 0.5, bones: (b) => b === lower }).colliders[0].radius).toBeCloseTo(
            0.1,
            6,
        );
    });

    it("follows an animated bone every step, in Havok too", () => {
        const { mesh, skeleton, upper } = skinnedCylinder(h.scene);
        const colliders = createBoneColliders(skeleton, mesh);
        const capsule = colliders.colliders[1];
        let t = 0;
        h.scene.onAfterAnimationsObservable.add(() => {
            t += 1 / 60;
            upper.setRotationQuaternion(Quaternion.RotationAxis(new Vector3(0, 0, 1), 1.2 * Math.sin(3 * t)));
            mesh.position.z = 0.5 * t;
        });
        const result = new ProximityCastResult();
        let maxError = 0;
        let maxHavokError = 0;
        for (let s = 0; s < 40; s++) {
            h.step();
            maxError = Math.max(maxError, endpointError(capsule, mesh));
            // Havok's view: 0.1 m off the middle of the upper segment, sideways, lies 0.1 m outside the 0.2 m capsule.
            const a = upper.getAbsolutePosition(mesh);
            const b = capsule.child.getAbsolutePosition(mesh);
            const probe = a
                .add(b)
                .scale(0.5)
                .add(new Vector3(0, 0, 0.3));
            h.havok.pointProximity({ position: probe, maxDistance: 1, collisionFilter: {}, shouldHitTriggers: false }, result);
            expect(result.hasHit).toBe(true);
            maxHavokError = Math.max(maxHavokError, Math.abs(result.hitDistance - 0.1));
        }
        console.log(
            `bone colliders: end points within ${maxError.toExponential(2)} m, Havok distance within ${maxHavokError.toExponential(2)} m`,
        );
        expect(Math.abs(t - 40 / 60)).toBeLessThan(1e-9);
        expect(maxError).toBeLessThan(1e-5);
        expect(maxHavokError).toBeLessThan(1e-3);
    });

    it("dispose removes every body, shape, node and observer", async () => {
        const { mesh, skeleton } = skinnedCylinder(h.scene);
        const engine = h.physicsEngine;
        const before = { bodies: engine.getBodies().length, nodes: h.scene.transformNodes.length, observers: observerCounts(h) };
        const colliders = createBoneColliders(skeleton, mesh);
        expect(engine.getBodies().length).toBe(before.bodies + 2);
        h.step(2);
        colliders.dispose();
        colliders.dispose();
        expect(colliders.isDisposed).toBe(true);
        expect(colliders.colliders.every((c) => c.body.isDisposed && c.node.isDisposed())).toBe(true);
        expect(engine.getBodies().length).toBe(before.bodies);
        expect(h.scene.transformNodes.length).toBe(before.nodes);
        // Babylon's Observable.remove unregisters on a zero-delay timeout.
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(observerCounts(h)).toEqual(before.observers);
        h.step(2);
    });

    it("gives clear errors for bad input", () => {
        const { mesh, skeleton } = skinnedCylinder(h.scene);
        const unskinned = CreateCylinder("other", {}, h.scene);
        expect(() => createBoneColliders(skeleton, unskinned)).toThrow(/"other" is not skinned to skeleton "rig"/);
        expect(() => createBoneColliders(skeleton, mesh, { bones: ["nope"] })).toThrow(/no bone named "nope"/);
        expect(() => createBoneColliders(skeleton, mesh, { bones: ["tip"] })).toThrow(/"tip" has no child bone/);
        expect(() => createBoneColliders(skeleton, mesh, { radius: -1 })).toThrow(/radius must be a finite number > 0, got -1/);
        expect(() => createBoneColliders(skeleton, mesh, { minWeight: 0 })).toThrow(RangeError);
        expect(() => createBoneColliders(skeleton, mesh, { minLength: NaN })).toThrow(/minLength/);
        const engine = new NullEngine();
        const bare = new Scene(engine);
        const other = skinnedCylinder(bare);
        expect(() => createBoneColliders(other.skeleton, other.mesh)).toThrow(/no physics v2 engine/);
        engine.dispose();
        expect(h.physicsEngine.getBodies().length).toBe(0);
    });
});
