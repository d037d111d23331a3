/** Which bodies the WebGPU solver refuses, and why (plain Node: no GPU needed to ask). */
import { Collider } from "../../src/core/collider";
import { unsupportedGpuFeature } from "../../src/gpu/colliderRecords";
import { clothBody } from "../support/coreScenes";

describe("unsupportedGpuFeature", () => {
    test("names shape matching, restitution and self-collision, which the GPU lacks; a plain cloth over a sphere is fine", () => {
        const sphere = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.3 }]);
        expect(unsupportedGpuFeature(clothBody(4).body, [sphere])).toBeNull();
        expect(unsupportedGpuFeature(clothBody(4, { shapeMatchingCompliance: 1e-3 }).body, [sphere])).toBe("constraint kind ShapeMatching");
        expect(unsupportedGpuFeature(clothBody(4, { restitution: 0.5 }).body, [sphere])).toBe("restitution");
        expect(unsupportedGpuFeature(clothBody(4, { selfCollision: true }).body, [sphere])).toBe("self-collision");
    });
});
