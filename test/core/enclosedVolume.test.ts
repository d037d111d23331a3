import { enclosedVolume } from "../../src/core/enclosedVolume";
import { boxMesh } from "../support/coreScenes";

describe("enclosedVolume", () => {
    test("a closed box encloses its volume wherever it is; turned inside out, the negative", () => {
        for (const center of [
            [0, 0, 0],
            [10, -3, 7],
        ] as [number, number, number][]) {
            const box = boxMesh([2, 3, 4], center);
            expect(enclosedVolume(box.indices, box.positions)).toBeCloseTo(24, 10);
            const flipped = box.indices.map((_, k) => box.indices[k - (k % 3) + 2 - (k % 3)]);
            expect(enclosedVolume(flipped, box.positions)).toBeCloseTo(-24, 10);
        }
    });
});
