/** Which bodies the WebGPU solver refuses, and why (plain Node: no GPU needed to ask). */
import { Collider, ColliderMotion } from "../../src/core/collider";
import { unsupportedGpuFeature } from "../../src/gpu/colliderRecords";
import { SoftBody } from "../../src/core/softBody";
import { boxMesh, clothBody } from "../support/coreScenes";

/** A closed octahedron holding gas at 1 kPa. */
function balloon(): SoftBody {
    const positions = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
    const triangles = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];
    return new SoftBody({ positions, triangles, mass: 1 }, { pressure: 1000 });
}

describe("unsupportedGpuFeature", () => {
    test("names shape matching, gas pressure, self-collision and collider attachments, which the GPU lacks; a plain cloth over a sphere is fine", () => {
        const sphere = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.3 }]);
        expect(unsupportedGpuFeature(clothBody(4).body, [sphere])).toBeNull();
        expect(unsupportedGpuFeature(clothBody(4, { shapeMatchingCompliance: 1e-3 }).body, [sphere])).toBe("constraint kind ShapeMatching");
        expect(unsupportedGpuFeature(balloon(), [sphere])).toBe("constraint kind GasPressure");
        expect(unsupportedGpuFeature(clothBody(4, { selfCollision: true }).body, [sphere])).toBe("self-collision");
        const tied = clothBody(4).body;
        tied.attachments.attach(0, sphere, 0, 0.3, 0);
        expect(unsupportedGpuFeature(tied, [sphere])).toBe("collider attachments");
        tied.attachments.detach(0);
        expect(unsupportedGpuFeature(tied, [sphere])).toBeNull();
    });

    test("convex hull and triangle mesh colliders and restitution (of the body or a collider) run on the GPU", () => {
        const box = boxMesh([0.2, 0.2, 0.2]);
        const shapes = [
            new Collider([{ kind: "convexHull", ...box }]),
            new Collider([{ kind: "mesh", ...box }]),
            new Collider([{ kind: "mesh", positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 2] }]),
            new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { restitution: 0.5 }),
        ];
        expect(unsupportedGpuFeature(clothBody(4, { restitution: 0.5 }).body, shapes)).toBeNull();
        // What is still missing is still named, next to the lifted ones.
        const dynamic = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 1 }], { motion: ColliderMotion.Dynamic });
        expect(unsupportedGpuFeature(clothBody(4, { restitution: 0.5 }).body, [...shapes, dynamic])).toBe(
            "dynamic colliders (two-way coupling)",
        );
    });
});
