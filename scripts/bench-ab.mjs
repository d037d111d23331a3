// In-process A/B (`npm run bench:ab`): our default quality against Jolt with long-range attachments at 10 iterations,
// in alternating blocks in one process, so that both see the same machine load. On a shared, noisy host only such
// same-process ratios are worth comparing between two versions of the code.
//   Scene: the benchmark cloth (scripts/benchmarkCloth.mjs, n×n quads, 1 m, 1 kg, two top corners pinned, 60 Hz) in
//   `new XpbdWorld({ timing: false })` (the default substeps and iterations), and the "jolt-lra" cloth of
//   scripts/peerCloth.mjs at 10 iterations, both from rest.
//   Method: each side first runs WARMUP steps on a throwaway scene; then ROUNDS rounds, each one BLOCK-step block of
//   every side (the order rotating from round to round), every step timed with performance.now(). Each
//   side's scene runs on from rest and is rebuilt (untimed) every 180 steps (3 s), so the blocks cover the same motion.
// Env: AB_SIZE (32), AB_ROUNDS (30), AB_BLOCK (60), AB_WARMUP (2000), AB_TILT (0, below); AB_SUBSTEPS and AB_ITERATIONS set ours (default:
// the world's defaults). AB_BASELINE=<directory>: a third side, ours as built in <directory>/dist (another checkout,
// compiled: its own modules and kernels, so neither build runs on code the JIT specialised for the other), in the
// same rounds; the line then adds base_best_ms, base_median_ms, ours_over_base_paired_median (the median over the
// rounds of ours / base) and base_over_jolt_best.
// Output (stdout), one line:
//   scene=cloth<n> ours_best_ms ours_median_ms jolt_best_ms jolt_median_ms ratio_best ratio_median ratio_paired_median
//   ours_stretch jolt_stretch
//   *_best_ms / *_median_ms: the lowest and the median over the rounds of a block's median step time;
//   ratio_best = ours_best / jolt_best, ratio_median = ours_median / jolt_median; ratio_paired_median: the median
//   over the rounds of that round's ours / Jolt; *_stretch: max structural stretch after 180 steps from rest.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as core from "../dist/core/index.js";
import { benchmarkCloth } from "./benchmarkCloth.mjs";
import { clothGrid, createJoltCloth, DT, GRAVITY, loadJolt, maxStretch, median } from "./peerCloth.mjs";

const N = Number(process.env.AB_SIZE ?? 32);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 30);
const BLOCK = Number(process.env.AB_BLOCK ?? 60);
const WARMUP = Number(process.env.AB_WARMUP ?? 2000);
const SCENE_STEPS = 180;

// AB_TILT (radians, default 0) tilts gravity out of the cloth's plane on both sides: the cloth then sways in 3-D and
// bends, where the default scene hangs exactly flat and its bending elements have nothing to do.
const TILT = Number(process.env.AB_TILT ?? 0);
const gravity = [0, -GRAVITY * Math.cos(TILT), -GRAVITY * Math.sin(TILT)];
const worldOptions = { timing: false, gravity };
if (process.env.AB_SUBSTEPS) worldOptions.substeps = Number(process.env.AB_SUBSTEPS);
if (process.env.AB_ITERATIONS) worldOptions.iterations = Number(process.env.AB_ITERATIONS);

/** Our cloth as `library` (`{ createClothGrid, SoftBody, XpbdWorld }` of one build) builds it. */
function oursOf(library) {
    return () => {
        const { body } = benchmarkCloth(N, {}, library);
        const world = new library.XpbdWorld(worldOptions);
        world.addBody(body);
        return { step: () => world.step(DT), readPositions: () => body.positions, destroy() {} };
    };
}

/** The library of the build in `directory` (its dist/), or null without one. */
async function libraryIn(directory) {
    if (!directory) return null;
    const url = (path) => pathToFileURL(resolve(directory, "dist", path)).href;
    const baseCore = await import(url("core/index.js"));
    const baseMeshing = await import(url("meshing/index.js"));
    return { createClothGrid: baseMeshing.createClothGrid, SoftBody: baseCore.SoftBody, XpbdWorld: baseCore.XpbdWorld };
}

const { createClothGrid } = await import("../dist/meshing/index.js");
const ours = oursOf({ createClothGrid, SoftBody: core.SoftBody, XpbdWorld: core.XpbdWorld });
const baseline = await libraryIn(process.env.AB_BASELINE);
const { Jolt } = await loadJolt();
const grid = clothGrid(N);
const jolt = () => createJoltCloth(Jolt, grid, { lraType: "EuclideanDistance", numIterations: 10, gravity });

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
const c = baseline ? side(oursOf(baseline)) : null;
// Each round runs every side once, in an order that rotates from round to round.
const sides = c ? [a, b, c] : [a, b];
for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) sides[(r + k) % sides.length].block();
}
const best = (m) => Math.min(...m);
const pairedMedian = (x, y) => median(x.medians.map((m, r) => m / y.medians[r]));
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
    ratio_paired_median: pairedMedian(a, b).toFixed(3),
    ...(c
        ? {
              base_best_ms: best(c.medians).toFixed(3),
              base_median_ms: median(c.medians).toFixed(3),
              ours_over_base_paired_median: pairedMedian(a, c).toFixed(3),
              base_over_jolt_best: (best(c.medians) / best(b.medians)).toFixed(3),
          }
        : {}),
    ours_stretch: a.stretch().toFixed(4),
    jolt_stretch: b.stretch().toFixed(4),
};
process.stdout.write(
    `${Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}\n`,
);
