import type { SoftBody } from "../core/index.js";
import type { StrainLimit } from "../core/strainLimit.js";
import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { colourBatches } from "./colourBatches.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { DISPATCH_SIZE, PARAMS_SIZE, UNIFORM_STRIDE } from "./substepParams.js";

/**
 * The strain limit on the GPU (`STRAIN_LIMIT_WGSL`): the core's sweep (`StrainLimit.project`) over the stretch edges
 * in its order (by level from the weight-1 pins), split into maximal runs of edges that share no particle
 * (`colourBatches`), one dispatch each: projecting such a run at once is projecting it edge after edge, so the GPU
 * sweeps in the CPU's order. Records (16 bytes per edge: its particles, rest length, which end stays) and one
 * `Dispatch` record per run are rebuilt when the pins change the levels ({@link upload}); a 32² cloth hung by two
 * corners sweeps in 221 runs, about 7 per level.
 */
export class StrainLimitPass {
    private _records: GPUBuffer | null = null;
    private _dispatches: GPUBuffer | null = null;
    private _group: GPUBindGroup | null = null;
    /** Run `b` is edges `[starts[b], starts[b + 1])` of the sweep order. */
    private _starts: Int32Array = new Int32Array(1);

    /** @param _device - the body's device; @param _limiter - the body's strain limiter (its order and levels) */
    public constructor(
        private readonly _device: GPUDevice,
        private readonly _limiter: StrainLimit,
    ) {}

    /**
     * Writes the edges in the limiter's current order and their runs (after the body's `_rebuildPins`); the caller
     * then rebuilds the bind group ({@link bind}).
     */
    public upload(body: SoftBody): void {
        const order = this._limiter.order;
        const levels = this._limiter.levels;
        const stretch = body.stretch;
        const rank = (p: number): number => (levels[p] < 0 ? levels.length : levels[p]);
        const indices = new Int32Array(2 * order.length);
        const data = new ArrayBuffer(Math.max(order.length, 1) * 16);
        const u = new Uint32Array(data);
        const f = new Float32Array(data);
        for (let k = 0; k < order.length; k++) {
            const c = order[k];
            const a = stretch.indices[2 * c];
            const b = stretch.indices[2 * c + 1];
            indices[2 * k] = a;
            indices[2 * k + 1] = b;
            u[4 * k] = a;
            u[4 * k + 1] = b;
            f[4 * k + 2] = stretch.restLengths[c];
            // As the core: the end nearer the pins stays, an unreached particle ranking behind every reached one.
            u[4 * k + 3] = rank(a) < rank(b) ? 1 : rank(b) < rank(a) ? 2 : 0;
        }
        this._starts = colourBatches(indices, 2, body.particleCount);
        const runs = this._starts.length - 1;
        const dispatches = new Uint32Array((Math.max(runs, 1) * UNIFORM_STRIDE) / 4);
        for (let b = 0; b < runs; b++) {
            dispatches.set([this._starts[b], this._starts[b + 1] - this._starts[b], 0, 0], (b * UNIFORM_STRIDE) / 4);
        }
        this._records?.destroy();
        this._dispatches?.destroy();
        this._records = createBuffer(this._device, data, STORAGE | COPY_DST, "strain limit records");
        this._dispatches = createBuffer(this._device, dispatches, UNIFORM | COPY_DST, "strain limit dispatches");
        this._group = null;
    }

    /** Builds the bind group (the constraint kernels' layout) over the step's uniforms and the body's buffers. */
    public bind(layouts: SolverPipelines["layouts"], params: GPUBuffer, positions: GPUBuffer, lambdas: GPUBuffer): void {
        const resources = [
            { buffer: params, size: PARAMS_SIZE },
            { buffer: this._dispatches!, size: DISPATCH_SIZE },
            { buffer: positions },
            { buffer: lambdas },
            { buffer: this._records! },
        ];
        this._group = this._device.createBindGroup({
            layout: layouts.constraint,
            entries: resources.map((resource, binding) => ({ binding, resource })),
        });
    }

    /** Encodes one sweep at the substep's `Params` offset; `offsets` is the step's reused dynamic-offset array. */
    public encode(pass: GPUComputePassEncoder, pipelines: SolverPipelines, params: number, offsets: Uint32Array): void {
        pass.setPipeline(pipelines.strainLimit);
        const starts = this._starts;
        offsets[0] = params;
        for (let b = 0; b + 1 < starts.length; b++) {
            offsets[1] = b * UNIFORM_STRIDE;
            pass.setBindGroup(0, this._group!, offsets, 0, 2);
            pass.dispatchWorkgroups(Math.ceil((starts[b + 1] - starts[b]) / WORKGROUP_SIZE));
        }
    }

    /** Releases the buffers. */
    public dispose(): void {
        this._records?.destroy();
        this._dispatches?.destroy();
    }
}
