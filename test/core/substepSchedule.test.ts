import { bodySubsteps, substepSpan } from "../../src/core/substepSchedule";

describe("substepSchedule", () => {
    it("spreads a body's m substeps over the world's n, ending on world substeps and covering the step once", () => {
        for (let n = 1; n <= 12; n++) {
            for (let m = 1; m < n; m++) {
                const spans: number[] = [];
                for (let s = 0; s < n; s++) {
                    const span = substepSpan(s, n, m);
                    if (span > 0) {
                        spans.push(span);
                    }
                }
                expect(spans.length).toBe(m);
                expect(spans.reduce((a, b) => a + b, 0)).toBe(n);
                // As even as whole world substeps allow.
                expect(Math.max(...spans) - Math.min(...spans)).toBeLessThanOrEqual(1);
            }
        }
        expect([0, 1, 2, 3, 4].map((s) => substepSpan(s, 5, 3))).toEqual([0, 2, 0, 2, 1]);
    });

    it("solves a body in the world's substeps when it asks for none of its own, or as many or more", () => {
        expect(bodySubsteps(8, 0)).toBe(8);
        expect(bodySubsteps(8, 8)).toBe(8);
        expect(bodySubsteps(8, 20)).toBe(8);
        expect(bodySubsteps(8, 3)).toBe(3);
    });
});
