import { allocationFigures } from "../support/allocationFigures.js";

/**
 * What a cloth that may tear allocates, measured in a child Node process with --expose-gc on the compiled library (as
 * `steadyStateAllocation.test.ts` does, and for the same reason): its steady state while nothing tears, the steps in
 * which it tears, and the steps after, once the JIT has run 80 whole tearing runs.
 */
test("a cloth that may tear allocates nothing per step in steady state, nor after it tore; tear steps no arrays", () => {
    const figures = allocationFigures<{
        warmup: number;
        steadyBytes: number;
        tearBytes: number;
        afterBytes: number;
        tearSteps: number;
        splits: number;
    }>("tearAllocation.mjs");
    console.log(
        `steady state ${figures.steadyBytes} bytes per step after ${figures.warmup} warm-up steps; ${figures.tearBytes} bytes over ` +
            `${figures.tearSteps} tear steps (${figures.splits} particles split); ${figures.afterBytes} bytes per step after`,
    );
    // The measured window really tears.
    expect(figures.tearSteps).toBeGreaterThanOrEqual(2);
    expect(figures.splits).toBeGreaterThan(10);
    // Nothing at all while no edge tears, with the step timer off (a single boxed number would be 16 bytes).
    expect(figures.steadyBytes).toBeLessThan(1);
    expect(figures.afterBytes).toBeLessThan(1);
    // The tear steps allocate no arrays: every buffer is sized when the body is built. What remains (measured: 224
    // bytes, 14 boxed numbers over 3 tear steps) is code that runs only when a cloth tears, which the JIT optimises
    // less; one array of the smallest cloth element list would already be over 1 kB.
    expect(figures.tearBytes).toBeLessThan(512);
});
