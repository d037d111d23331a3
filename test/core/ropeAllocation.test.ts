import { allocationFigures } from "../support/allocationFigures.js";

/**
 * What a step of ropes tied to colliders allocates (the held solve, the two-way attachments, the carry at step start),
 * measured in a child Node process with --expose-gc on the compiled library, as `steadyStateAllocation.test.ts` does.
 */
test("ropes tied to a swinging dynamic box and a static post allocate nothing per step", () => {
    const figures = allocationFigures<{
        warmup: number;
        bytesPerStep: number;
        gcEvents: number;
        finite: boolean;
        swing: number;
        held: number;
    }>("ropeAllocation.mjs");
    console.log(`warm-up ${figures.warmup} steps; ${figures.bytesPerStep} bytes per step; ${figures.gcEvents} collections in 5,000 steps`);
    // The scene really runs: the box still swings, held up by the rope (about m·g·dt = 0.16 N·s per step).
    expect(figures.finite).toBe(true);
    expect(figures.swing).toBeGreaterThan(0.01);
    expect(figures.held).toBeGreaterThan(0.1);
    // A single number boxed per step would be 16 bytes.
    expect(figures.bytesPerStep).toBeLessThan(1);
    expect(figures.gcEvents).toBe(0);
});
