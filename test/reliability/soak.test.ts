import { spawnSync } from "node:child_process";
import path from "node:path";

/** What scripts/soak.mjs prints with SOAK_JSON=1 (the parts checked here). */
interface SoakFigures {
    steps: number;
    restoreEvents: number;
    softBodies: { start: number; end: number };
    havokBodies: { start: number; end: number };
    kineticEnergy: Record<"soft" | "havok", { runMax: number; min: number; max: number; end: number }>;
    heapMB: { start: number; settled: number; end: number; toleranceAfterSettling: number };
    farthest: { distance: number; body: string; bounds: { min: number[]; max: number[] } };
    failures: string[];
}

const STEPS = 2000;

/**
 * The soak run (`npm run soak`, ten simulated minutes) cut to 2,000 steps: the stress scene with wind and animated
 * pins on real Havok, in a child Node process with --expose-gc on the compiled library, as the script runs (jest's
 * sandbox changes what the heap holds). The script checks its invariants and lists what failed; the figures are
 * checked here again so that a script that stopped checking cannot pass.
 */
test(`the stress scene runs ${STEPS} steps with no body lost, non-finite or out of bounds, no containment and no heap growth`, () => {
    const script = path.join(__dirname, "../../scripts/soak.mjs");
    const run = spawnSync(process.execPath, ["--expose-gc", script], {
        encoding: "utf8",
        timeout: 300_000,
        env: { ...process.env, SOAK_STEPS: String(STEPS), SOAK_JSON: "1" },
    });
    if (run.status === null || run.stdout.trim() === "") {
        throw new Error(`soak.mjs did not finish (signal ${run.signal}):\n${run.stderr}`);
    }
    const figures = JSON.parse(run.stdout) as SoakFigures;
    const { heapMB, farthest, kineticEnergy } = figures;
    console.log(
        `${figures.steps} steps; heap ${heapMB.start} MB at the start, ${heapMB.settled} after settling, ${heapMB.end} at the end; ` +
            `farthest body ${farthest.distance} m (${farthest.body})`,
    );

    expect(figures.failures).toEqual([]);
    expect(run.status).toBe(0);
    expect(figures.steps).toBe(STEPS);
    expect(figures.restoreEvents).toBe(0);
    expect(figures.softBodies).toEqual({ start: 12, end: 12 });
    // The stress scene's 43 and the soak's fence of 4.
    expect(figures.havokBodies).toEqual({ start: 47, end: 47 });
    // Within the ground's square and under the highest start; the script checks every point of every step.
    expect(farthest.distance).toBeLessThan(Math.hypot(...farthest.bounds.max));
    expect(heapMB.end - heapMB.settled).toBeLessThanOrEqual(heapMB.toleranceAfterSettling);
    // The run is not idle: the hooks and the wind keep the cloths moving after everything else has settled.
    expect(kineticEnergy.soft.min).toBeGreaterThan(0.01);
    for (const energy of Object.values(kineticEnergy)) {
        expect(Object.values(energy).every(Number.isFinite)).toBe(true);
    }
}, 300_000);
