/**
 * `softBodyMeshingSteps` without blocking the page: in a Web Worker where `Worker` exists, otherwise (Node, or a
 * worker that fails to start) on this thread in time slices between which the event loop runs.
 */
import { runStepsSliced } from "./meshingSteps.js";
import { softBodyMeshingSteps, type SoftBodyMeshing, type SoftBodyMeshingInput } from "./softBodyMeshing.js";
import type { SoftBodyMeshingMessage } from "./softBodyMeshingMessage.js";

/** Options of {@link buildSoftBodyMeshingAsync}. */
export interface SoftBodyMeshingAsyncOptions {
    /** Called with the progress in [0, 1], increasing, last with 1. */
    onProgress?: (progress: number) => void;
    /** Aborts the build (the worker is terminated): the promise rejects with the signal's reason. */
    signal?: AbortSignal;
    /** Whether to try a Web Worker first. Default true; false always runs in time slices on this thread. */
    useWorker?: boolean;
}

/**
 * Builds what `softBodyMeshingSteps` builds, bit for bit the same, without blocking this thread for long: in a
 * module worker (`softBodyMeshingWorker.js` next to this module; bundlers such as webpack 5 and Vite follow the
 * `new Worker(new URL(…, import.meta.url))` pattern) or, where none can start, in slices of about 8 ms.
 * @throws (rejects) the errors of `tetrahedralize` for bad input, or the signal's reason when aborted
 */
export function buildSoftBodyMeshingAsync(
    input: SoftBodyMeshingInput,
    options: SoftBodyMeshingAsyncOptions = {},
): Promise<SoftBodyMeshing> {
    // A worker that fails after reporting some progress is replaced by a sliced run from the start: report no step back.
    let reported = 0;
    const onProgress = (progress: number): void => {
        if (progress <= reported) return;
        reported = progress;
        options.onProgress?.(progress);
    };
    const sliced = (): Promise<SoftBodyMeshing> => runStepsSliced(softBodyMeshingSteps(input), { onProgress, signal: options.signal });
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const worker = (options.useWorker ?? true) ? startWorker() : null;
    if (worker === null) return sliced();
    return new Promise<SoftBodyMeshing>((resolve, reject) => {
        const finish = (): void => {
            worker.terminate();
            options.signal?.removeEventListener("abort", abort);
        };
        const abort = (): void => {
            finish();
            reject(options.signal!.reason);
        };
        options.signal?.addEventListener("abort", abort);
        // A worker that cannot load (a bundler that did not emit it, a strict Content-Security-Policy) reports an error event.
        worker.onerror = (event) => {
            event.preventDefault();
            finish();
            sliced().then(resolve, reject);
        };
        worker.onmessage = (event: MessageEvent<SoftBodyMeshingMessage>) => {
            const m = event.data;
            if (m.type === "progress") {
                onProgress(m.progress);
                return;
            }
            finish();
            if (m.type === "done") {
                onProgress(1);
                resolve(m.result);
            } else {
                reject(m.name === "RangeError" ? new RangeError(m.message) : new Error(m.message));
            }
        };
        worker.postMessage(input);
    });
}

/** A module worker running `softBodyMeshingWorker.js`, or null where workers do not exist or refuse to start. */
function startWorker(): Worker | null {
    if (typeof Worker === "undefined") return null;
    try {
        return new Worker(new URL("./softBodyMeshingWorker.js", import.meta.url), { type: "module" });
    } catch {
        return null;
    }
}
