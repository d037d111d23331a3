/** Which bodies the WebGPU solver refuses, and why (plain Node: no GPU needed to ask). */
import { Collider, ColliderMotion } from "../../src/core/collider";
import { unsupportedGpuFeature } from "../../src/gpu/colliderRecords";
import { SoftBody } from "../../src/core/softBody";
import { clothBody } from "../support/coreScenes";

/** A closed octahedron holding gas at 1 kPa, shape-matched with `shapeMatchingCompliance` when given. */
function balloon(shapeMatchingCompliance?: number): SoftBody {
    const positions = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
    const triangles = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
    return new SoftBody(
        { positions, triangles, mass: 1 },
        { pressure: 1000, ...(shapeMatchingCompliance !== undefined ? { shapeMatchingCompliance } : {}) },
    );
}

describe("unsupportedGpuFeature", () => {
    test("names level of detail, which the GPU lacks; a plain, bouncy, shape-matched, pressurised, self-colliding or tied cloth is fine", () => {
        expect(unsupportedGpuFeature(clothBody(4).body)).toBeNull();
        // Restitution runs on the GPU (and every collider shape and motion: the colliders are no longer asked).
        expect(unsupportedGpuFeature(clothBody(4, { restitution: 0.5 }).body)).toBeNull();
        // Shape matching has its kernels (shapeMatchingShader.ts); five constraint sets fit the GPU's compliances.
        expect(unsupportedGpuFeature(clothBody(4, { shapeMatchingCompliance: 1e-3 }).body)).toBeNull();
        // Gas pressure has its kernels (gasPressureShader.ts), with shape matching too: the gas takes no compliance slot.
        expect(unsupportedGpuFeature(balloon())).toBeNull();
        expect(unsupportedGpuFeature(balloon(1e-3))).toBeNull();
        // Self-collision has its pass (selfCollisionShader.ts).
        expect(unsupportedGpuFeature(clothBody(4, { selfCollision: true }).body)).toBeNull();
        // Attachments run on the GPU for colliders of every motion (a dynamic one shares the correction and is held by
        // the particle's tethers, as on the CPU).
        const sphere = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.3 }], { motion: ColliderMotion.Kinematic });
        const tied = clothBody(4).body;
        tied.attachments.attach(0, sphere, 0, 0.3, 0);
        expect(unsupportedGpuFeature(tied)).toBeNull();
        sphere.motion = ColliderMotion.Dynamic;
        expect(unsupportedGpuFeature(tied)).toBeNull();
        // Level of detail (a body's own substeps) has no GPU path yet.
        tied.substeps = 2;
        expect(unsupportedGpuFeature(tied)).toBe("level of detail (SoftBody.substeps, holdAsleep)");
    });
});
