// The plugin benchmark (`npm run bench:plugin`): the stress demo's scene (playground/demos/stress.ts, rebuilt from the
// library's public API in scripts/stressScene.mjs) on a NullEngine with the real Havok WASM, one fixed 1/60 s Havok step per
// frame. Prints one line: milliseconds per frame (medians) of Havok's step, the XPBD core step and each part of the
// plugin's own work (from `XpbdPlugin.timings`), and the young-generation bytes the plugin allocates per frame.
// It imports the compiled ES modules in dist/ (the npm script compiles them first) and needs
// `node --expose-gc` (larger semi-spaces keep collections out of the allocation windows, see the npm script).
//
// Environment: BENCH_WARMUP frames before anything is measured (default 300), BENCH_FRAMES timed frames (default 300),
// BENCH_BYTES_FRAMES frames whose allocation is measured (default 300).
import { GCProfiler, getHeapStatistics } from "node:v8";
import { loadHavok, stressScene } from "./stressScene.mjs";

const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const BYTES_FRAMES = Number(process.env.BENCH_BYTES_FRAMES ?? 300);
/** Frames per allocation window: each window starts with a forced collection and is dropped if one runs inside. */
const WINDOW = 20;

function line(fields) {
    console.log(
        Object.entries(fields)
            .map(([k, v]) => `${k}=${v}`)
            .join(" "),
    );
}

function median(values) {
    const sorted = Float64Array.from(values).sort();
    return sorted[Math.floor(sorted.length / 2)];
}

/** Renders `frames` frames with `xpbd.profile` on and returns the per-frame median of every phase. */
function timePhases(scene, xpbd, frames) {
    const t = xpbd.timings;
    const phases = ["havokStepMs", "coreStepMs", "pinTargetsMs", "colliderSyncMs", "impulsesMs", "eventsMs", "renderSyncMs"];
    const samples = Object.fromEntries(phases.map((p) => [p, new Float64Array(frames)]));
    const overhead = new Float64Array(frames);
    const overheadShare = new Float64Array(frames);
    xpbd.profile = true;
    for (let f = 0; f < frames; f++) {
        const steps = t.steps;
        scene.render();
        if (t.steps !== steps + 1) {
            throw new Error(`expected one Havok step per frame, got ${t.steps - steps}`);
        }
        for (const p of phases) {
            samples[p][f] = t[p];
        }
        overhead[f] = t.pinTargetsMs + t.colliderSyncMs + t.impulsesMs + t.eventsMs + t.renderSyncMs;
        overheadShare[f] = overhead[f] / t.coreStepMs;
    }
    xpbd.profile = false;
    const result = Object.fromEntries(phases.map((p) => [p, median(samples[p])]));
    return { ...result, overheadMs: median(overhead), overheadShare: median(overheadShare) };
}

/**
 * Heap bytes allocated per frame by each part of the plugin's work, with `xpbd.profile` off. Regions are delimited
 * by observers placed around the plugin's own (first and last on `onBeforePhysicsObservable` and
 * `onBeforeRenderObservable`) and by a wrapper around `world.step`; each boundary records the heap's used bytes
 * (`v8.getHeapStatistics`, which samples before it builds its result object), and the differences are added up
 * after each frame. What a boundary allocates by itself is measured in every frame on an empty region (two more
 * observers, last on `onBeforeRenderObservable`) and subtracted. Windows of
 * {@link WINDOW} frames start after a forced collection; a window in which a collection ran is dropped and run again.
 */
function measureBytes(scene, xpbd, frames) {
    // Boundaries: 0 step start, 1 core start, 2 core end, 3 step end, 4 render start, 5 render end, 6–7 an empty region.
    const marks = new Float64Array(8);
    const mark = (i) => {
        marks[i] = getHeapStatistics().used_heap_size;
    };
    const world = xpbd.world;
    const step = world.step;
    world.step = function (dt) {
        mark(1);
        step.call(this, dt);
        mark(2);
    };
    const observers = [
        [scene.onBeforePhysicsObservable, scene.onBeforePhysicsObservable.add(() => mark(0), undefined, true)],
        [scene.onBeforePhysicsObservable, scene.onBeforePhysicsObservable.add(() => mark(3))],
        [scene.onBeforeRenderObservable, scene.onBeforeRenderObservable.add(() => mark(4), undefined, true)],
        [scene.onBeforeRenderObservable, scene.onBeforeRenderObservable.add(() => mark(5))],
        // An empty region, delimited the same way in the same frame: what a boundary allocates by itself.
        [scene.onBeforeRenderObservable, scene.onBeforeRenderObservable.add(() => mark(6))],
        [scene.onBeforeRenderObservable, scene.onBeforeRenderObservable.add(() => mark(7))],
    ];
    // [pins + collider sync, core step, impulses + events, render sync, empty]
    const totals = new Float64Array(5);
    const window = new Float64Array(5);
    let measured = 0;
    let dropped = 0;
    let windows = 0;
    while (measured < frames) {
        const n = Math.min(WINDOW, frames - measured);
        window.fill(0);
        globalThis.gc();
        const profiler = new GCProfiler();
        profiler.start();
        for (let f = 0; f < n; f++) {
            scene.render();
            window[0] += marks[1] - marks[0];
            window[1] += marks[2] - marks[1];
            window[2] += marks[3] - marks[2];
            window[3] += marks[5] - marks[4];
            window[4] += marks[7] - marks[6];
        }
        if (profiler.stop().statistics.length > 0) {
            dropped++;
            if (dropped > 50) {
                throw new Error("collections in every allocation window: run with larger semi-spaces");
            }
            continue;
        }
        for (let r = 0; r < 5; r++) {
            totals[r] += window[r];
        }
        measured += n;
        windows++;
    }
    delete world.step;
    for (const [observable, observer] of observers) {
        observable.remove(observer);
    }
    const empty = totals[4] / measured;
    // One region of each kind per frame (one Havok step per frame), each less an empty region's bytes.
    const perFrame = (r) => totals[r] / measured - empty;
    const sync = perFrame(0);
    const core = perFrame(1);
    const afterStep = perFrame(2);
    const render = perFrame(3);
    return { plugin: sync + afterStep + render, sync, core, afterStep, render, empty, windows, dropped };
}

const hk = await loadHavok();
const { engine, scene, xpbd } = stressScene(hk);
for (let f = 0; f < WARMUP; f++) {
    scene.render();
}
const times = timePhases(scene, xpbd, FRAMES);
const bytes = measureBytes(scene, xpbd, BYTES_FRAMES);
const stats = xpbd.stats;
line({
    scene: "stress",
    havok_bodies: xpbd.physicsEngine.getBodies().length,
    soft_bodies: xpbd.impostors.length,
    particles: stats.particles,
    substeps: xpbd.substeps,
    iterations: xpbd.iterations,
    warmup_frames: WARMUP,
    frames: FRAMES,
    havok_ms: times.havokStepMs.toFixed(3),
    core_step_ms: times.coreStepMs.toFixed(3),
    pins_ms: times.pinTargetsMs.toFixed(3),
    collider_sync_ms: times.colliderSyncMs.toFixed(3),
    impulses_ms: times.impulsesMs.toFixed(3),
    events_ms: times.eventsMs.toFixed(3),
    render_sync_ms: times.renderSyncMs.toFixed(3),
    plugin_overhead_ms: times.overheadMs.toFixed(3),
    plugin_overhead_pct: (100 * times.overheadShare).toFixed(1),
    bytes_frames: BYTES_FRAMES,
    plugin_bytes_per_frame: bytes.plugin.toFixed(0),
    sync_bytes_per_frame: bytes.sync.toFixed(0),
    impulse_bytes_per_frame: bytes.afterStep.toFixed(0),
    render_bytes_per_frame: bytes.render.toFixed(0),
    core_bytes_per_frame: bytes.core.toFixed(0),
    dropped_windows: bytes.dropped,
    empty_region_bytes: bytes.empty.toFixed(1),
});
scene.dispose();
engine.dispose();
