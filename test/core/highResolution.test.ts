import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * A 128×128 cloth (16,641 particles, 1 kg, 1 m wide) hanging from its two top corners with inextensible stretch
 * is the load case that makes plain XPBD diverge. This runs it for 1 s at the default quality in a child Node
 * process on the compiled library (`npm test` builds dist/ first).
 */
test("a 128×128 cloth under heavy pin load stays finite and bounded at the default quality", () => {
    const script = path.join(__dirname, "../support/hangingCloth128.mjs");
    const figures = JSON.parse(execFileSync(process.execPath, [script], { encoding: "utf8", timeout: 120_000 })) as {
        finite: boolean;
        maxEdgeRatio: number;
        meanEdgeRatio: number;
        lowest: number;
    };
    console.log(`128×128 after 1 s: max edge ratio ${figures.maxEdgeRatio.toFixed(4)}, mean ${figures.meanEdgeRatio.toFixed(5)}`);
    expect(figures.finite).toBe(true);
    // Bounded: the worst edge (the middle of the taut top hem between the two pins) stays under 1.5 and the mean
    // within 1%; and the cloth really hangs (its lowest point is more than 0.9 m below the pins at y = 0.5).
    expect(figures.maxEdgeRatio).toBeLessThan(1.5);
    expect(figures.meanEdgeRatio).toBeLessThan(1.01);
    expect(figures.lowest).toBeLessThan(-0.4);
});
