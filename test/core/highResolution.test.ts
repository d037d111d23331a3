import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { compileSources } from "../support/compileSources";

/**
 * A 128×128 cloth (16,641 particles, 1 kg, 1 m wide) hanging from its two top corners with inextensible stretch
 * is the load case that makes plain XPBD diverge. This runs it for 1 s at the default quality in a child Node
 * process (jest's sandbox slows the solver down about tenfold), on the sources compiled afresh for the run: a stale
 * dist/ cannot pass or fail it.
 */
test("a 128×128 cloth under heavy pin load stretches ×1.016 at most at the default quality, as the README states", () => {
    const script = path.join(__dirname, "../support/hangingCloth128.mjs");
    const compiled = compileSources();
    let output: string;
    try {
        output = execFileSync(process.execPath, [script, compiled], { encoding: "utf8", timeout: 120_000 });
    } finally {
        rmSync(compiled, { recursive: true, force: true });
    }
    const figures = JSON.parse(output) as { finite: boolean; maxEdgeRatio: number; meanEdgeRatio: number; lowest: number };
    console.log(
        `128×128 after 1 s: max edge ratio ${figures.maxEdgeRatio.toFixed(4)}, mean ${figures.meanEdgeRatio.toFixed(5)}, ` +
            `lowest point ${figures.lowest.toFixed(4)} m`,
    );
    expect(figures.finite).toBe(true);
    // README: "stretches ×1.016 at the default 5" (the worst edge: the middle of the taut top hem between the pins);
    // the figure is rounded to 3 decimals, so anything that rounds to it passes (measured 1.0162).
    expect(figures.maxEdgeRatio).toBeLessThan(1.0165);
    // On average the edges keep their length within 0.1% (measured 0.9996: hanging folds compress a few).
    expect(Math.abs(figures.meanEdgeRatio - 1)).toBeLessThan(0.001);
    // It starts hanging in its vertical plane with its bottom edge 1 m below the pins at y = 0.5; held, it stays
    // there, lower by no more than the stretch allowed (and not lifted: measured −0.49999992 m).
    expect(figures.lowest).toBeLessThan(0.5 - 0.999);
    expect(figures.lowest).toBeGreaterThan(0.5 - 1.0155);
});
