import { allocationFigures } from "../support/allocationFigures.js";

/**
 * Soft contacts allocate nothing per step: a folding cloth with self-collision and a jelly in a hammock, stepped in a
 * child Node process with --expose-gc on the compiled library (see `steadyStateAllocation.test.ts` for why). Reading
 * the contacts between steps allocates nothing either.
 */
let figures: {
    warmup: number;
    bytesPerStep: number;
    gcEvents: number;
    softContacts: number;
    finite: boolean;
    bytesPerRead: number;
    contactsRead: number;
    contactCount: number;
};

beforeAll(() => {
    figures = allocationFigures("softContactAllocation.mjs");
});

test("a steady-state step with self-collision and contacts between bodies allocates nothing", () => {
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

test("reading the contacts after a step (XpbdWorld.writeContacts) allocates nothing", () => {
    console.log(`reading ${figures.contactsRead} contacts: ${figures.bytesPerRead} bytes per read`);
    expect(figures.contactsRead).toBe(figures.contactCount);
    expect(figures.contactsRead).toBeGreaterThan(100);
    expect(figures.bytesPerRead).toBeLessThan(1);
});
