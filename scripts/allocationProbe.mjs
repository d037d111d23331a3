// Measures garbage: what a function allocates per call in V8's young generation (where short-lived objects such as
// boxed numbers go) and how many collections a run of calls causes. Needs `node --expose-gc`. Shared by the
// benchmark (scripts/bench.mjs) and the steady-state allocation test (test/support/steadyStateAllocation.mjs).
import { GCProfiler, getHeapSpaceStatistics } from "node:v8";

if (typeof globalThis.gc !== "function") {
    throw new Error("run this script with `node --expose-gc`: it measures allocation");
}

/** Bytes in use in the young generation. */
function youngBytes() {
    return getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_used_size;
}

/**
 * Runs `step` `calls` times after a full collection and returns the young-generation bytes allocated per call and
 * the collections that ran meanwhile (when that is not 0, the bytes figure is NaN: a collection empties the space).
 * With `windows` > 1 it does so that many times and keeps the least figure: what the step allocates every time shows
 * in every window, while a one-off (V8 re-optimising a function late, hundreds of bytes once) shows in one only.
 */
export function allocationPerCall(step, calls, windows = 1) {
    let least = { bytesPerCall: NaN, collections: Infinity };
    for (let w = 0; w < windows; w++) {
        const figure = allocationWindow(step, calls);
        if (Number.isNaN(least.bytesPerCall) || figure.bytesPerCall < least.bytesPerCall) {
            least = figure;
        }
    }
    return least;
}

function allocationWindow(step, calls) {
    globalThis.gc();
    // What reading the figure allocates by itself (its result objects), measured back to back.
    const a = youngBytes();
    const overhead = youngBytes() - a;
    const profiler = new GCProfiler();
    profiler.start();
    const before = youngBytes();
    for (let k = 0; k < calls; k++) {
        step();
    }
    const after = youngBytes();
    const collections = profiler.stop().statistics.length;
    return { bytesPerCall: collections === 0 ? (after - before - overhead) / calls : NaN, collections };
}

/**
 * The warm-up allowance for a simulation step with its timer on: the timer's two clock reads come back from V8 as
 * 16-byte heap numbers, plus a byte of slack.
 */
export const TIMED_STEP_BYTES = 33;

/**
 * Calls `step` in windows of `window` calls until one window allocates at most `allowance` bytes per call without
 * a collection, and returns how many calls that took (at most `maxCalls`). V8 runs a function unoptimised, boxing
 * every number it computes, until the function has run enough; code that runs once per simulation step gets there
 * only after hundreds or thousands of steps. After this warm-up, what is measured is the steady state.
 */
export function warmUp(step, { allowance = TIMED_STEP_BYTES, window = 200, minCalls = 300, maxCalls = 20000 } = {}) {
    let calls = 0;
    while (calls < maxCalls) {
        const { bytesPerCall } = allocationPerCall(step, window);
        calls += window;
        if (calls >= minCalls && bytesPerCall <= allowance) {
            break;
        }
    }
    return calls;
}

/** Runs `step` `calls` times after a full collection and returns how many collections ran meanwhile. */
export function collectionsDuring(step, calls) {
    globalThis.gc();
    const profiler = new GCProfiler();
    profiler.start();
    for (let k = 0; k < calls; k++) {
        step();
    }
    return profiler.stop().statistics.length;
}
