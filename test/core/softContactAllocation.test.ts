import { allocationFigures } from "../support/allocationFigures.js";

/**
 * Soft contacts allocate nothing per step: a folding cloth with self-collision and a jelly in a hammock, stepped in a
 * child Node process with --expose-gc on the compiled library (see `steadyStateAllocation.test.ts` for why).
 */
test("a steady-state step with self-collision and contacts between bodies allocates nothing", () => {
    const figures = allocationFigures<{ warmup: number; bytesPerStep: number; gcEvents: number; softContacts: number; finite: boolean }>(
        "softContactAllocation.mjs",
    );
    console.log(
        `soft contacts: ${figures.bytesPerStep} bytes per step after ${figures.warmup} warm-up steps, ${figures.gcEvents} collections`,
    );
    // The measured steps really touch (the hammock and jelly, the folds).
    expect(figures.softContacts).toBeGreaterThan(10);
    expect(figures.finite).toBe(true);
    // The step timer is off: one boxed number per step would be 16 bytes.
    expect(figures.bytesPerStep).toBeLessThan(1);
    expect(figures.gcEvents).toBe(0);
});
