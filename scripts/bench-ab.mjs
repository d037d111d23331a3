// In-process A/B (`npm run bench:ab`): our default quality against Jolt with long-range attachments at 10 iterations,
// in alternating blocks in one process, so that both see the same machine load. On a shared, noisy host only such
// same-process ratios are worth comparing between two versions of the code.
//   Scene: the benchmark cloth (scripts/benchmarkCloth.mjs, n×n quads, 1 m, 1 kg, two top corners pinned, 60 Hz) in
//   `new XpbdWorld({ timing: false })` (the default substeps and iterations), and the "jolt-lra" cloth of
//   scripts/peerCloth.mjs at 10 iterations, both from rest.
//   Method: each side first runs WARMUP steps on a throwaway scene; then ROUNDS rounds, each one BLOCK-step block of
//   ours and one of Jolt (the first of the two alternates by round), every step timed with performance.now(). Each
//   side's scene runs on from rest and is rebuilt (untimed) every 180 steps (3 s), so the blocks cover the same motion.
// Env: AB_SIZE (32), AB_ROUNDS (30), AB_BLOCK (60), AB_WARMUP (2000); AB_SUBSTEPS and AB_ITERATIONS set ours (default:
// the world's defaults).
// Output (stdout), one line:
//   scene=cloth<n> ours_best_ms ours_median_ms jolt_best_ms jolt_median_ms ratio_best ratio_median ratio_paired_median
//   ours_stretch jolt_stretch
//   *_best_ms / *_median_ms: the lowest and the median over the rounds of a block's median step time;
//   ratio_best = ours_best / jolt_best, ratio_median = ours_median / jolt_median; ratio_paired_median: the median
//   over the rounds of that round's ours / Jolt; *_stretch: max structural stretch after 180 steps from rest.
import { performance } from "node:perf_hooks";
import { XpbdWorld } from "../dist/core/index.js";
import { benchmarkCloth } from "./benchmarkCloth.mjs";
import { clothGrid, createJoltCloth, DT, loadJolt, maxStretch, median } from "./peerCloth.mjs";

const N = Number(process.env.AB_SIZE ?? 32);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 30);
const BLOCK = Number(process.env.AB_BLOCK ?? 60);
const WARMUP = Number(process.env.AB_WARMUP ?? 2000);
const SCENE_STEPS = 180;

const worldOptions = { timing: false };
if (process.env.AB_SUBSTEPS) worldOptions.substeps = Number(process.env.AB_SUBSTEPS);
if (process.env.AB_ITERATIONS) worldOptions.iterations = Number(process.env.AB_ITERATIONS);

function ours() {
    const { body } = benchmarkCloth(N);
    const world = new XpbdWorld(worldOptions);
    world.addBody(body);
    return { step: () => world.step(DT), readPositions: () => body.positions, destroy() {} };
}

const { Jolt } = await loadJolt();
const grid = clothGrid(N);
const jolt = () => createJoltCloth(Jolt, grid, { lraType: "EuclideanDistance", numIterations: 10 });

/** One side: a scene that runs on, rebuilt every SCENE_STEPS steps; `block()` returns the median step time. */
function side(create) {
    const warm = create();
    for (let s = 0; s < WARMUP; s++) warm.step();
    warm.destroy();
    let scene = create();
    let steps = 0;
    const times = new Float64Array(BLOCK);
    const medians = [];
    return {
        medians,
        block() {
            for (let s = 0; s < BLOCK; s++) {
                if (steps === SCENE_STEPS) {
                    scene.destroy();
                    scene = create();
                    steps = 0;
                }
                const start = performance.now();
                scene.step();
                times[s] = performance.now() - start;
                steps++;
            }
            medians.push(median(times));
        },
        stretch() {
            const fresh = create();
            for (let s = 0; s < SCENE_STEPS; s++) fresh.step();
            const r = maxStretch(grid, fresh.readPositions());
            fresh.destroy();
            return r;
        },
    };
}

const a = side(ours);
const b = side(jolt);
for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
        a.block();
        b.block();
    } else {
        b.block();
        a.block();
    }
}
const best = (m) => Math.min(...m);
const paired = a.medians.map((m, r) => m / b.medians[r]);
const fields = {
    scene: `cloth${N}`,
    ours:
        worldOptions.substeps || worldOptions.iterations
            ? `substeps=${worldOptions.substeps ?? "default"},iterations=${worldOptions.iterations ?? "default"}`
            : "default",
    ours_best_ms: best(a.medians).toFixed(3),
    ours_median_ms: median(a.medians).toFixed(3),
    jolt_best_ms: best(b.medians).toFixed(3),
    jolt_median_ms: median(b.medians).toFixed(3),
    ratio_best: (best(a.medians) / best(b.medians)).toFixed(3),
    ratio_median: (median(a.medians) / median(b.medians)).toFixed(3),
    ratio_paired_median: median(paired).toFixed(3),
    ours_stretch: a.stretch().toFixed(4),
    jolt_stretch: b.stretch().toFixed(4),
};
process.stdout.write(
    `${Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}\n`,
);
