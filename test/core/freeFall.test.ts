import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

const g = 9.81;

/** Centre-of-mass drop of a free cloth after `seconds` of 60 Hz steps at the given quality. */
function drop(substeps: number, seconds: number): number {
    const world = new XpbdWorld({ substeps });
    const { body } = clothBody(8, { allowSleep: false });
    world.addBody(body);
    const start = [0, 0, 0];
    const end = [0, 0, 0];
    body.getCenterOfMass(start);
    for (let s = 0; s < Math.round(seconds * 60); s++) {
        world.step(1 / 60);
    }
    body.getCenterOfMass(end);
    return start[1] - end[1];
}

describe("free fall", () => {
    test("a free cloth falls 4.905 m in 1 s (± 1%) at the default quality", () => {
        expect(Math.abs(drop(10, 1) - 4.905) / 4.905).toBeLessThan(0.01);
    });

    test.each([1, 4, 10, 20])("at %i substeps the drop is the integrator's own ½gt²(1 + 1/N) to 1e-9", (substeps) => {
        // Symplectic Euler with N equal substeps (v += g·h; x += v·h) drops exactly g·h²·N(N+1)/2 = ½gt²(1 + 1/N):
        // the error is +1/N of the exact drop, positive, and shrinks with the substep count.
        const n = substeps * 60;
        const expected = 0.5 * g * (1 + 1 / n);
        expect(Math.abs(drop(substeps, 1) - expected)).toBeLessThan(1e-9);
    });
});
