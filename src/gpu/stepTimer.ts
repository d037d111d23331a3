import { COPY_DST, COPY_SRC, MAP_READ, createBuffer } from "./bodyBuffers.js";

/** WebGPU's `QUERY_RESOLVE` buffer usage (the spec's value; the globals may not exist outside a browser). */
const QUERY_RESOLVE = 0x200;

/**
 * GPU time of a step's compute pass from timestamp queries, on a device created with the `timestamp-query` feature:
 * the pass writes a timestamp at its start and end, the two are resolved into a buffer in the same command buffer,
 * and copied to a staging buffer that is read asynchronously, one read in flight (so the figure comes at a lower rate
 * than the steps when reads are slow). Without the feature it measures nothing and {@link ms} stays NaN.
 */
export class StepTimer {
    /** GPU milliseconds of the last step whose timestamps were read back; NaN before the first read or without the feature. */
    public ms = NaN;

    private readonly _querySet: GPUQuerySet | null = null;
    private readonly _resolve: GPUBuffer | null = null;
    private readonly _staging: GPUBuffer | null = null;
    private _reading = false;
    private _disposed = false;

    public constructor(device: GPUDevice) {
        if (!device.features.has("timestamp-query")) {
            return;
        }
        this._querySet = device.createQuerySet({ label: "xpbd step timestamps", type: "timestamp", count: 2 });
        this._resolve = createBuffer(device, 16, QUERY_RESOLVE | COPY_SRC, "step timestamps");
        this._staging = createBuffer(device, 16, MAP_READ | COPY_DST, "step timestamps read-back");
    }

    /** The pass descriptor's `timestampWrites` for the step's compute pass, or undefined without the feature. */
    public get timestampWrites(): GPUComputePassTimestampWrites | undefined {
        return this._querySet ? { querySet: this._querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } : undefined;
    }

    /**
     * After the step's pass: resolves its timestamps and, unless a read is in flight, copies them for reading.
     * Returns whether it did (then call {@link read} after submitting).
     */
    public encodeResolve(encoder: GPUCommandEncoder): boolean {
        if (!this._querySet || !this._resolve || !this._staging || this._reading) {
            return false;
        }
        encoder.resolveQuerySet(this._querySet, 0, 2, this._resolve, 0);
        encoder.copyBufferToBuffer(this._resolve, 0, this._staging, 0, 16);
        return true;
    }

    /** Reads the copied timestamps into {@link ms} when the GPU has written them (after the submit). */
    public read(): void {
        const staging = this._staging;
        if (!staging) {
            return;
        }
        this._reading = true;
        staging.mapAsync(MAP_READ).then(
            () => {
                this._reading = false;
                if (this._disposed) {
                    return;
                }
                const ticks = new BigUint64Array(staging.getMappedRange(), 0, 2);
                // Timestamps are nanoseconds; an end before its start (a reset counter) is not a figure. Read before
                // unmapping, which detaches the view.
                this.ms = ticks[1] >= ticks[0] ? Number(ticks[1] - ticks[0]) / 1e6 : NaN;
                staging.unmap();
            },
            () => {
                // Destroyed by dispose while mapping: nothing to read.
                this._reading = false;
            },
        );
    }

    /** Releases the query set and buffers. */
    public dispose(): void {
        this._disposed = true;
        this._querySet?.destroy();
        this._resolve?.destroy();
        this._staging?.destroy();
    }
}
