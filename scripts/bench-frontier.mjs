// Frontier benchmark (`npm run bench:frontier`): cost per step against stretch, ours swept over substeps and Jolt with
// long-range attachments swept over iterations, and the cost of each at equal stretch.
//   Scene: the hanging cloth of scripts/peerCloth.mjs (also scripts/bench.mjs and scripts/bench-peers.mjs): n×n quads
//   (n = 32, 64, 128; env FRONTIER_SIZES=32,64 restricts), 1 m × 1 m, 1 kg, top-left and top-right corners pinned,
//   gravity 9.81 m/s², 1/60 s steps, from rest.
//   Ours: the cloth of scripts/benchmarkCloth.mjs (createClothGrid, SoftBody with default options, mass 1 lumped by triangle
//   area, allowSleep off, the two top corners pinned with weight 1) in `new XpbdWorld({ substeps: S, iterations: 1,
//   timing: false })` for S in OURS_SUBSTEPS, plus one setting "default": the world's default substeps and
//   iterations (timing off as well), and "default,kernels=js": the default with SoftBodyOptions.wasmKernels false
//   (the same results, the hot loops in JavaScript; printed for comparison, not part of the frontier).
//   Jolt: jolt-physics (WASM, single thread), the "jolt-lra" cloth of bench-peers (EuclideanDistance long-range
//   attachments, settings JOLT in peerCloth.mjs) with SoftBodyCreationSettings.mNumIterations in JOLT_ITERATIONS.
//   Method: for each setting, a throwaway identical scene first runs WARMUP steps (so V8 has optimised the JavaScript
//   and tiered up the WASM), then a fresh scene runs STEPS = 180 steps (3 s) from rest, each step timed with
//   performance.now(), REPEATS = 3 times (a fresh scene each time); the lowest median counts.
// Fields:
//   scene=cloth<n> solver=ours|jolt-lra setting=substeps=<S>,iterations=1 | default | iterations=<k>
//     ms_per_step = the lowest of the REPEATS medians of one step's wall time over the 180 steps.
//     max_stretch = after the 180th step, max over the structural (horizontal and vertical grid) edges of
//       current length / rest length.
//   scene=cloth<n> target_stretch=<T> ours_setting=<setting> ours_ms=<ms> ours_stretch=<ratio> jolt_ms=<ms>
//     ratio_at_equal_stretch=<ours_ms / jolt_ms> [extrapolated=jolt] target_ratio=<ratio> [target_extrapolated=…]
//     for T = 1.05 and 1.02. Ours: the cheapest of our settings (the default included) whose max_stretch is within T;
//     Jolt: its cost at that same stretch (ours_stretch), read off its frontier: the Pareto points of its settings (a
//     point slower and more stretched than another is dropped) sorted by cost, log(ms) linearly interpolated against
//     log(max_stretch − 1) between the two points that bracket it, or extrapolated from the nearest two (then
//     `extrapolated=jolt`). When none of ours is within T, ours is read off our own frontier at T the same way
//     (`extrapolated=ours…`) and Jolt at T. `target_ratio` reads both sides at T itself, as this script did before
//     (ours extrapolated beyond our loosest setting when that is tighter than T; `target_extrapolated` names the
//     sides). "na" where a side has fewer than two frontier points.
//   scene=cloth<n> default_ms=<ms> jolt10_ms=<ms> default_over_jolt10=<ratio>: our default setting against Jolt at
//     10 iterations (both from the lines above).
//   At 128² every line of ours also carries max_stretch_60s=<ratio>: the same scene continued to 3600 steps (60 s),
//     then measured as max_stretch. Then one derived line:
//   scene=cloth128 good_cloth_setting=<setting> ms_per_step=<ms> max_stretch=<ratio> max_stretch_60s=<ratio>
//     jolt10_ms=<ms> good_over_jolt10=<ratio>: the cheapest of our settings whose stretch is within ×1.10
//     (GOOD_STRETCH) at 3 s and at 60 s, against Jolt at 10 iterations; "none" when no setting holds.
// Env FRONTIER_FAST=1: smoke test (20 warm-up steps, 60 timed steps, fewer settings, no 60 s run); its figures are
// not the benchmark's. Lines go to stdout; the setup and notes to stderr. If Jolt does not load, its lines are
// skipped ("# peer jolt skipped" on stderr) and ours are still printed.
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { createRequire } from "node:module";
import { XpbdWorld } from "../dist/core/index.js";
import { benchmarkCloth } from "./benchmarkCloth.mjs";
import { clothGrid, createJoltCloth, DT, joltSettingsText, loadJolt, maxStretch, median } from "./peerCloth.mjs";

const require = createRequire(import.meta.url);
const FAST = process.env.FRONTIER_FAST === "1";
const SIZES = parseSizes(process.env.FRONTIER_SIZES ?? "32,64,128");
const STEPS = FAST ? 60 : 180;
const REPEATS = FAST ? 1 : 3;
const WARMUP = (n) => (FAST ? 20 : n >= 128 ? 300 : n >= 64 ? 1000 : 2000);
const OURS_SUBSTEPS = (n) => (FAST ? [1, 2, 4] : n >= 128 ? [1, 2, 3, 4, 6] : [1, 2, 3, 4, 6, 8, 10]);
const JOLT_ITERATIONS = FAST ? [5, 10, 40] : [5, 10, 20, 40];
const TARGETS = [1.05, 1.02];
const LONG_SIZE = 128;
const LONG_STEPS = 3600;
/** Max stretch at which a cloth still looks like cloth (at 3 s and at 60 s). */
const GOOD_STRETCH = 1.1;

function parseSizes(text) {
    const sizes = text.split(",").map((s) => Number(s.trim()));
    if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error(`FRONTIER_SIZES must be a comma-separated list of positive integers (got "${text}")`);
    }
    return sizes;
}

function line(fields) {
    process.stdout.write(
        `${Object.entries(fields)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")}\n`,
    );
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "na");

/** Our cloth of n×n quads in a world of the given options (`bodyOptions` added to the body's). */
function ourCloth(n, worldOptions, bodyOptions = {}) {
    const { body } = benchmarkCloth(n, bodyOptions);
    const world = new XpbdWorld(worldOptions);
    world.addBody(body);
    return { step: () => world.step(DT), readPositions: () => body.positions, destroy() {} };
}

/**
 * One setting: `create()` builds a scene ({ step, readPositions, destroy }). Warms up on a throwaway scene, then
 * times STEPS steps of a fresh one, REPEATS times (a fresh scene each time). The machine is shared and its noise only
 * ever adds time, so the lowest of the repeats' medians is the figure. Returns it, the max stretch (the same every
 * repeat: the simulation is deterministic) and the last scene.
 */
function runSetting(grid, create) {
    const warm = create();
    for (let s = 0; s < WARMUP(grid.n); s++) warm.step();
    warm.destroy();
    let best = Infinity;
    let scene = null;
    for (let r = 0; r < REPEATS; r++) {
        scene?.destroy();
        scene = create();
        const times = new Float64Array(STEPS);
        for (let s = 0; s < STEPS; s++) {
            const start = performance.now();
            scene.step();
            times[s] = performance.now() - start;
        }
        best = Math.min(best, median(times));
    }
    return { msPerStep: best, stretch: maxStretch(grid, scene.readPositions()), scene };
}

/** Pareto frontier of { ms, stretch } points: sorted by cost, each point less stretched than every cheaper one. */
function paretoFrontier(points) {
    const sorted = points.filter((p) => Number.isFinite(p.ms) && Number.isFinite(p.stretch) && p.stretch > 1).sort((a, b) => a.ms - b.ms);
    const front = [];
    for (const p of sorted) {
        if (front.length === 0 || p.stretch < front[front.length - 1].stretch) front.push(p);
    }
    return front;
}

/**
 * Cost at max stretch `target` on a frontier (stretch strictly decreasing with cost): log(ms) linear in
 * log(stretch − 1) between the bracketing points, or extrapolated from the nearest two. Null below two points.
 */
function msAtStretch(front, target) {
    if (front.length < 2) return null;
    let k = 0;
    let extrapolated = false;
    if (target > front[0].stretch) {
        extrapolated = true;
    } else if (target < front[front.length - 1].stretch) {
        k = front.length - 2;
        extrapolated = true;
    } else {
        while (front[k + 1].stretch > target) k++;
    }
    const a = front[k],
        b = front[k + 1];
    const x = (p) => Math.log(p.stretch - 1);
    const t = (Math.log(target - 1) - x(a)) / (x(b) - x(a));
    return { ms: Math.exp(Math.log(a.ms) + t * (Math.log(b.ms) - Math.log(a.ms))), extrapolated };
}

/**
 * The fields of one `target_stretch` line (see the header): our cheapest setting within `target` against Jolt's cost at
 * its stretch, and both sides read at `target` itself.
 */
function equalStretch(ours, oursFront, joltFront, target) {
    const within = ours.filter((p) => Number.isFinite(p.ms) && p.stretch <= target).sort((a, b) => a.ms - b.ms)[0];
    const atTarget = { ours: msAtStretch(oursFront, target), jolt: msAtStretch(joltFront, target) };
    const ours_ = within ? { ms: within.ms, extrapolated: false } : atTarget.ours;
    const jolt = within ? msAtStretch(joltFront, within.stretch) : atTarget.jolt;
    const flags = (a, b) => [a?.extrapolated ? "ours" : "", b?.extrapolated ? "jolt" : ""].filter(Boolean).join(",");
    const extrapolated = flags(ours_, jolt);
    const targetExtrapolated = flags(atTarget.ours, atTarget.jolt);
    return {
        ours_setting: within?.setting ?? "none",
        ours_ms: fixed(ours_?.ms, 3),
        ours_stretch: within ? fixed(within.stretch, 4) : "na",
        jolt_ms: fixed(jolt?.ms, 3),
        ratio_at_equal_stretch: ours_ && jolt ? fixed(ours_.ms / jolt.ms, 2) : "na",
        ...(extrapolated ? { extrapolated } : {}),
        target_ratio: atTarget.ours && atTarget.jolt ? fixed(atTarget.ours.ms / atTarget.jolt.ms, 2) : "na",
        ...(targetExtrapolated ? { target_extrapolated: targetExtrapolated } : {}),
    };
}

// ---------------------------------------------------------------------------------------------------------------
/**
 * One of our settings in a worker thread: a fresh V8 isolate, so that no setting runs on code that the JIT
 * specialised for the settings before it (in one process, a setting measured after others ran up to 50% slower than
 * on its own). With `long`, the scene then continues to LONG_STEPS steps and its stretch comes back as `stretch60`.
 */
function runOursIsolated(n, worldOptions, long, bodyOptions = {}) {
    return new Promise((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { n, worldOptions, long, bodyOptions } });
        worker.once("message", resolve);
        worker.once("error", reject);
    });
}

if (!isMainThread) {
    const { n, worldOptions, long, bodyOptions } = workerData;
    const grid = clothGrid(n);
    const r = runSetting(grid, () => ourCloth(n, worldOptions, bodyOptions));
    let stretch60 = NaN;
    if (long) {
        for (let s = STEPS; s < LONG_STEPS; s++) r.scene.step();
        stretch60 = maxStretch(grid, r.scene.readPositions());
    }
    parentPort.postMessage({ msPerStep: r.msPerStep, stretch: r.stretch, stretch60 });
} else {
    const version = require("../package.json").version;
    const defaults = new XpbdWorld();
    process.stderr.write(
        `# frontier: node ${process.version}, babylon-xpbd@${version} (dist/), sizes ${SIZES.join(",")}, ${STEPS} timed steps of 1/60 s from rest, ` +
            `warm-up ${SIZES.map((n) => `${WARMUP(n)}`).join("/")} steps on a throwaway scene per setting${FAST ? " (FRONTIER_FAST=1: smoke test, not benchmark figures)" : ""}\n`,
    );
    process.stderr.write(
        `# ours: XpbdWorld({ substeps: S, iterations: 1, timing: false }), S = ${SIZES.map((n) => `${OURS_SUBSTEPS(n).join(",")} (${n}²)`).join("; ")}; ` +
            `setting=default: substeps=${defaults.substeps}, iterations=${defaults.iterations}, timing: false; SoftBody defaults, mass 1, allowSleep false\n`,
    );
    let jolt = null;
    try {
        const loaded = await loadJolt();
        jolt = loaded.Jolt;
        process.stderr.write(
            `# peer jolt-physics@${loaded.version} (wasm-compat, single thread), solver=jolt-lra: mLRAType=EuclideanDistance, ` +
                `SoftBodyCreationSettings.mNumIterations = ${JOLT_ITERATIONS.join(",")}, ${joltSettingsText()}\n`,
        );
    } catch (error) {
        process.stderr.write(`# peer jolt skipped: ${error?.stack ?? error}\n`);
    }
    process.stderr.write(
        `# targets ${TARGETS.join(", ")}: our cheapest setting within the target against Jolt at its stretch; log(ms) interpolated in log(max_stretch - 1) on Jolt's Pareto frontier\n`,
    );

    for (const n of SIZES) {
        const grid = clothGrid(n);
        const scene = `cloth${n}`;
        const ours = [];
        let defaultRun = null;
        // At LONG_SIZE every setting of ours also runs on to 60 s: good cloth must hold there at some setting.
        const long = n === LONG_SIZE && !FAST;
        const longField = (r) => (long ? { max_stretch_60s: fixed(r.stretch60, 4) } : {});
        for (const substeps of OURS_SUBSTEPS(n)) {
            const r = await runOursIsolated(n, { substeps, iterations: 1, timing: false }, long);
            const setting = `substeps=${substeps},iterations=1`;
            ours.push({ setting, ms: r.msPerStep, stretch: r.stretch, stretch60: r.stretch60 });
            line({ scene, solver: "ours", setting, ms_per_step: fixed(r.msPerStep, 3), max_stretch: fixed(r.stretch, 4), ...longField(r) });
        }
        {
            const r = await runOursIsolated(n, { timing: false }, long);
            defaultRun = r;
            ours.push({ setting: "default", ms: r.msPerStep, stretch: r.stretch, stretch60: r.stretch60 });
            line({
                scene,
                solver: "ours",
                setting: "default",
                ms_per_step: fixed(r.msPerStep, 3),
                max_stretch: fixed(r.stretch, 4),
                ...longField(r),
            });
        }
        {
            // The same default with the hot loops in JavaScript: what the WebAssembly kernels save (not on the frontier).
            const r = await runOursIsolated(n, { timing: false }, false, { wasmKernels: false });
            line({
                scene,
                solver: "ours",
                setting: "default,kernels=js",
                ms_per_step: fixed(r.msPerStep, 3),
                max_stretch: fixed(r.stretch, 4),
            });
        }

        const peer = [];
        if (jolt) {
            try {
                for (const numIterations of JOLT_ITERATIONS) {
                    const r = runSetting(grid, () => createJoltCloth(jolt, grid, { lraType: "EuclideanDistance", numIterations }));
                    r.scene.destroy();
                    const setting = `iterations=${numIterations}`;
                    peer.push({ setting, iterations: numIterations, ms: r.msPerStep, stretch: r.stretch });
                    line({ scene, solver: "jolt-lra", setting, ms_per_step: fixed(r.msPerStep, 3), max_stretch: fixed(r.stretch, 4) });
                }
            } catch (error) {
                process.stderr.write(`# peer jolt skipped at ${scene}: ${error?.stack ?? error}\n`);
            }
        }

        const oursFront = paretoFrontier(ours);
        const joltFront = paretoFrontier(peer);
        const names = (front) => front.map((p) => p.setting).join(" | ");
        process.stderr.write(`# ${scene} frontier ours: ${names(oursFront) || "none"}; jolt-lra: ${names(joltFront) || "none"}\n`);
        for (const target of TARGETS) {
            line({ scene, target_stretch: target, ...equalStretch(ours, oursFront, joltFront, target) });
        }
        const jolt10 = peer.find((p) => p.iterations === 10);
        if (jolt10) {
            line({
                scene,
                default_ms: fixed(defaultRun.msPerStep, 3),
                jolt10_ms: fixed(jolt10.ms, 3),
                default_over_jolt10: fixed(defaultRun.msPerStep / jolt10.ms, 2),
            });
        }
        if (long && jolt10) {
            // Good cloth: the cheapest of our settings within GOOD_STRETCH at 3 s and at 60 s, against Jolt at 10.
            const good = ours.filter((p) => p.stretch <= GOOD_STRETCH && p.stretch60 <= GOOD_STRETCH).sort((a, b) => a.ms - b.ms)[0];
            line({
                scene,
                good_cloth_setting: good?.setting ?? "none",
                ms_per_step: fixed(good?.ms, 3),
                max_stretch: fixed(good?.stretch, 4),
                max_stretch_60s: fixed(good?.stretch60, 4),
                jolt10_ms: fixed(jolt10.ms, 3),
                good_over_jolt10: good ? fixed(good.ms / jolt10.ms, 2) : "na",
            });
        }
    }
}
