/**
 * Meshing work cut into steps: a generator that yields its progress (a fraction in [0, 1]) every so often and
 * returns its result. The same steps run to the end at once (the synchronous API), in time slices between which
 * the event loop runs (no frame is blocked for long), or in a worker: one code path, so every way gives the same
 * result bit for bit.
 */

/** Stepwise meshing work: yields its progress in [0, 1] (never decreasing) and returns `T`. */
export type MeshingSteps<T> = Generator<number, T, void>;

/** Runs `steps` to the end at once and returns the result. */
export function finishSteps<T>(steps: MeshingSteps<T>): T {
    for (;;) {
        const r = steps.next();
        if (r.done) return r.value;
    }
}

/** Runs `steps`, mapping its progress from [0, 1] onto [from, to] (a phase of a longer job). */
export function* phaseSteps<T>(steps: MeshingSteps<T>, from: number, to: number): MeshingSteps<T> {
    for (;;) {
        const r = steps.next();
        if (r.done) return r.value;
        yield from + (to - from) * r.value;
    }
}

/** Options of {@link runStepsSliced}. */
export interface SlicedRunOptions {
    /** Longest time (ms) the work runs before it yields to the event loop. Default 8: half a 60 Hz frame. */
    sliceMs?: number;
    /** Called with the progress in [0, 1] after every slice and once with 1 at the end. */
    onProgress?: (progress: number) => void;
    /** Aborts the run between slices: it rejects with the signal's reason. */
    signal?: AbortSignal;
}

/**
 * Runs `steps` on this thread in slices of at most about `sliceMs`, letting the event loop run (rendering, input)
 * between slices; resolves with the result. A throw inside the steps rejects with that error.
 */
export async function runStepsSliced<T>(steps: MeshingSteps<T>, options: SlicedRunOptions = {}): Promise<T> {
    const sliceMs = options.sliceMs ?? 8;
    for (;;) {
        options.signal?.throwIfAborted();
        const end = performance.now() + sliceMs;
        let r = steps.next();
        while (!r.done && performance.now() < end) r = steps.next();
        if (r.done) {
            options.onProgress?.(1);
            return r.value;
        }
        options.onProgress?.(r.value);
        await nextTask();
    }
}

/** Resolves in a later task of the event loop (after pending rendering and input; a timer is clamped to ≥ 4 ms in pages, a message is not). */
function nextTask(): Promise<void> {
    if (typeof MessageChannel === "undefined") return new Promise((resolve) => setTimeout(resolve, 0));
    return new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
            channel.port1.close();
            resolve();
        };
        channel.port2.postMessage(null);
    });
}
