import { SubstepContext } from "../../src/core/substepContext";

describe("SubstepContext", () => {
    it("starts as one consistent 1/60 s substep, before any step sets it", () => {
        const context = new SubstepContext();
        expect(context.dt).toBe(1 / 60);
        expect(context.h).toBe(context.dt);
        expect(context.invH * context.h).toBeCloseTo(1, 14);
        expect(context.invH2).toBeCloseTo(context.invH * context.invH, 8);
        expect(context.t).toBe(1);
    });

    it("derives h and its inverses from the step and the substep count", () => {
        const context = new SubstepContext();
        context.setStep(0.02, 4);
        expect(context.h).toBe(0.005);
        expect(context.invH).toBeCloseTo(200, 10);
        expect(context.invH2).toBeCloseTo(40000, 6);
    });
});
