import { colourBatches } from "../../src/gpu/colourBatches";
import { clothBody, tetBlock } from "../support/coreScenes";

/** The GPU's dispatch batches: independent runs of the CPU's sweep order, no more of them than colours. */
describe("colour batches", () => {
    /** Checks that every batch touches each particle once, and returns the batch count. */
    function checkedBatches(indices: Int32Array, arity: number, particleCount: number): number {
        const starts = colourBatches(indices, arity, particleCount);
        expect(starts[0]).toBe(0);
        expect(starts[starts.length - 1]).toBe(indices.length / arity);
        for (let b = 0; b + 1 < starts.length; b++) {
            expect(starts[b + 1]).toBeGreaterThan(starts[b]);
            const seen = new Set<number>();
            for (let c = starts[b]; c < starts[b + 1]; c++) {
                for (let k = 0; k < arity; k++) {
                    const p = indices[arity * c + k];
                    expect(seen.has(p)).toBe(false);
                    seen.add(p);
                }
            }
            // Maximal: the next constraint touches the batch (else it would have joined it).
            if (b + 2 < starts.length) {
                const next = Array.from(indices.subarray(arity * starts[b + 1], arity * starts[b + 1] + arity));
                expect(next.some((p) => seen.has(p))).toBe(true);
            }
        }
        return starts.length - 1;
    }

    test("a cloth's and a jelly's coloured sets split into few independent batches", () => {
        const { body } = clothBody(32);
        const jelly = tetBlock([1, 1, 1], [0, 0, 0]);
        const counts = {
            stretch: checkedBatches(body.stretch.indices, 2, body.particleCount),
            shear: checkedBatches(body.shear.indices, 2, body.particleCount),
            bend: checkedBatches(body.bend.indices, 4, body.particleCount),
            tetEdges: checkedBatches(jelly.stretch.indices, 2, jelly.particleCount),
            tets: checkedBatches(jelly.volume.indices, 4, jelly.particleCount),
        };
        console.log(`dispatch batches: ${JSON.stringify(counts)}`);
        // Sets in colour order: one batch per colour at most (greedy colouring of these meshes: ≤ 32 colours).
        for (const count of Object.values(counts)) {
            expect(count).toBeLessThanOrEqual(32);
        }
    });

    test("constraints out of colour order still split exactly (more batches), and a chain needs one batch per link", () => {
        // A chain 0–1–2–3–4 in order: every constraint touches the one before.
        expect(Array.from(colourBatches(Int32Array.from([0, 1, 1, 2, 2, 3, 3, 4]), 2, 5))).toEqual([0, 1, 2, 3, 4]);
        // The same chain coloured (even links, then odd): two batches.
        expect(Array.from(colourBatches(Int32Array.from([0, 1, 2, 3, 1, 2, 3, 4]), 2, 5))).toEqual([0, 2, 4]);
        expect(Array.from(colourBatches(new Int32Array(0), 2, 0))).toEqual([0]);
    });
});
