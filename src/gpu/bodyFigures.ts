import { MAX_COORDINATE, type SoftBody } from "../core/index.js";
import { ConstraintKernel, type ConstraintRecords } from "./bodyRecords.js";
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE, UNIFORM, createBuffer, type BodyBuffers } from "./bodyBuffers.js";
import { FIGURE_INVALID, FIGURE_MOST_STRETCHED, FIGURE_PARAMS_SIZE, FIGURE_WORDS, FigureBendModel } from "./figuresShader.js";
import { GAS_LAMBDA_WORDS } from "./gasPressureShader.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import type { ValidState } from "./validState.js";

/**
 * A body's figures as the GPU reduced them (see `figuresShader.ts`), the same figures as the core's `measureBody`
 * writes into `SoftBody.stats` and the world's sleep test reads, in f32.
 */
export interface GpuFigures {
    /** The solver's step count when they were requested: the figures are of the state after that step. */
    step: number;
    /** Kinetic energy ½ Σ m v² (J). */
    kineticEnergy: number;
    /** The largest speed of a particle that is not pinned with weight 1 (m/s): the world's sleep test. */
    maxSpeed: number;
    /** Largest length / rest over stretch constraints (0 without any). */
    maxEdgeRatio: number;
    /** Mean length / rest over stretch constraints (0 without any). */
    meanEdgeRatio: number;
    /** Largest |length / rest − 1| over stretch constraints. */
    maxStretchResidual: number;
    /** Mean |length / rest − 1| over stretch constraints. */
    meanStretchResidual: number;
    /** Stretch constraints longer than the body's over-stretch ratio. */
    overStretchedEdges: number;
    /**
     * The stretch constraint of {@link maxEdgeRatio} (its index in `body.stretch`, the first of equals, as the CPU's
     * `OverStretch` event names it), or −1 without stretch constraints.
     */
    mostStretchedEdge: number;
    /**
     * Particles whose position or velocity has a coordinate that is not finite or beyond `MAX_COORDINATE` (m): when
     * not 0 the other figures are meaningless, and the read has restored the body's last valid state (see
     * `GpuSoftBodySolver.readFigures`).
     */
    invalidParticles: number;
    /** Largest bend residual over bend elements (as the core's `measureBend`: rad for the dihedral model; 0 without any). */
    maxBendResidual: number;
    /** Mean bend residual over bend elements (0 without any). */
    meanBendResidual: number;
    /** Largest |V / V₀ − 1| over tets (0 without any). */
    maxVolumeResidual: number;
    /** Mean |V / V₀ − 1| over tets (0 without any). */
    meanVolumeResidual: number;
    /** Total volume of the tets over their total rest volume (0 without any). */
    volumeRatio: number;
    /** Whether this read also wrote the per-particle residual arrays (`stretchResidual`, `volumeResidual`, `bendResidual`). */
    residuals: boolean;
    /** The volume (m³) the gas's last projection of the step found (as the core's `GasPressure.volume`); 0 without gas. */
    gasVolume: number;
    /**
     * The gas's multiplier after its last projection of the step (as the core's `GasPressure.lambdas[0]`: over h², the
     * pressure applied, Pa); 0 without gas.
     */
    gasMultiplier: number;
}

/**
 * Measures one body's figures on the GPU and reads them back asynchronously, one read at a time: a compute pass
 * after the steps already submitted (the per-particle residuals when asked, then one workgroup's fixed-order
 * reduction), a copy to a staging buffer, a map. Nothing waits inside a step. The figures are 64 bytes; the
 * per-particle residual arrays (12 bytes a particle) are read only when asked. A read that finds a particle invalid
 * (not finite, or beyond `MAX_COORDINATE`) restores the body's last state a read found valid ({@link ValidState}).
 */
export class BodyFigures {
    private readonly _params: GPUBuffer;
    private readonly _paramData = new ArrayBuffer(FIGURE_PARAMS_SIZE);
    private readonly _figures: GPUBuffer;
    private readonly _residual: GPUBuffer;
    private readonly _staging: GPUBuffer;
    private _group!: GPUBindGroup;
    private _stretchCount = 0;
    private _volumeCount = 0;
    private _bendCount = 0;
    /** The rest volume of all tets (m³), summed in f64 once. */
    private _restVolume = 0;
    private readonly _result: GpuFigures = {
        step: 0,
        kineticEnergy: 0,
        maxSpeed: 0,
        maxEdgeRatio: 0,
        meanEdgeRatio: 0,
        maxStretchResidual: 0,
        meanStretchResidual: 0,
        overStretchedEdges: 0,
        mostStretchedEdge: -1,
        invalidParticles: 0,
        maxBendResidual: 0,
        meanBendResidual: 0,
        maxVolumeResidual: 0,
        meanVolumeResidual: 0,
        volumeRatio: 0,
        residuals: false,
        gasVolume: 0,
        gasMultiplier: 0,
    };
    /** Word of the gas's multiplier in the multiplier buffer, or −1 without gas. */
    private readonly _gasWord: number;
    private _reading = false;
    private _disposed = false;

    public constructor(
        private readonly _device: GPUDevice,
        private readonly _body: SoftBody,
        private readonly _pipelines: SolverPipelines,
        private readonly _buffers: BodyBuffers,
        constraints: ConstraintRecords,
        private readonly _validState: ValidState,
    ) {
        const n = _body.particleCapacity;
        this._gasWord = constraints.sets.find((s) => s.kernel === ConstraintKernel.Gas)?.firstLambda ?? -1;
        this._params = createBuffer(_device, FIGURE_PARAMS_SIZE, UNIFORM | COPY_DST, "figure params");
        this._figures = createBuffer(_device, 4 * FIGURE_WORDS, STORAGE | COPY_SRC | COPY_DST, "figures");
        this._residual = createBuffer(_device, 12 * n, STORAGE | COPY_SRC | COPY_DST, "residuals");
        this._staging = createBuffer(_device, 4 * FIGURE_WORDS + 12 * n + 4 * GAS_LAMBDA_WORDS, MAP_READ | COPY_DST, "figures read-back");
        this.bind(constraints);
    }

    /**
     * Measures the body's constraint sets as `constraints` packs them, over the solver's buffers as they are now: at
     * construction, and again after a tear replaced the records (`GpuSoftBodySolver.tear`). A read in flight is not
     * affected.
     */
    public bind(constraints: ConstraintRecords): void {
        const body = this._body;
        const buffers = this._buffers;
        type MeasuredSet = SoftBody["stretch"] | SoftBody["volume"] | SoftBody["bend"];
        const first = (set: MeasuredSet): number => constraints.sets.find((s) => s.set === set)?.firstRecord ?? 0;
        const inSets = (set: MeasuredSet): number => (constraints.sets.some((s) => s.set === set) ? set.count : 0);
        this._stretchCount = inSets(body.stretch);
        this._volumeCount = inSets(body.volume);
        this._bendCount = inSets(body.bend);
        const bendKernel = constraints.sets.find((s) => s.set === body.bend)?.kernel ?? ConstraintKernel.IsometricBend;
        let rest = 0;
        for (let t = 0; t < this._volumeCount; t++) {
            rest += body.volume.restVolumes[t];
        }
        this._restVolume = rest;
        const u = new Uint32Array(this._paramData);
        u[0] = body.particleCount;
        u[1] = first(body.stretch);
        u[2] = this._stretchCount;
        u[3] = first(body.volume);
        u[4] = this._volumeCount;
        u[6] = new Uint32Array(Float32Array.of(MAX_COORDINATE).buffer)[0];
        u[7] = first(body.bend);
        u[8] = this._bendCount;
        u[9] =
            this._bendCount === 0
                ? FigureBendModel.None
                : bendKernel === ConstraintKernel.DihedralBend
                  ? FigureBendModel.Dihedral
                  : FigureBendModel.Isometric;
        this._group = this._device.createBindGroup({
            layout: this._pipelines.layouts.figures,
            entries: [
                this._params,
                buffers.positions,
                buffers.velocities,
                buffers.masses,
                buffers.records[ConstraintKernel.Distance],
                buffers.records[ConstraintKernel.Volume],
                buffers.records[bendKernel],
                this._residual,
                this._figures,
            ].map((buffer, binding) => ({ binding, resource: { buffer } })),
        });
    }

    /**
     * Measures the state after the steps submitted so far and resolves with its figures (one object, reused by the
     * next read: copy what you keep). With `residuals`, also writes the body's `stretchResidual`, `volumeResidual`
     * and `bendResidual` (per particle, as the core's `measureBody` with residuals on) when the read arrives. When
     * it finds invalid particles ({@link GpuFigures.invalidParticles}) it restores the last state a read found valid,
     * after the steps submitted meanwhile (the caller rewrites the inverse masses); else the state measured becomes
     * that valid state. Rejects when a read is already in flight.
     * @param step - the solver's step count, handed back in {@link GpuFigures.step}
     */
    public async read(step: number, residuals: boolean): Promise<GpuFigures> {
        if (this._reading) {
            throw new Error("readFigures: a read is already in flight; wait for it");
        }
        this._reading = true;
        const device = this._device;
        const n = this._body.particleCount;
        new Float32Array(this._paramData)[5] = this._body.overStretchRatio;
        device.queue.writeBuffer(this._params, 0, this._paramData);
        const encoder = device.createCommandEncoder({ label: "xpbd figures" });
        const elements = Math.max(this._stretchCount, this._volumeCount, this._bendCount);
        if (residuals) {
            encoder.clearBuffer(this._residual);
        }
        const pass = encoder.beginComputePass({ label: "xpbd figures" });
        pass.setBindGroup(0, this._group);
        if (residuals && elements > 0) {
            pass.setPipeline(this._pipelines.figureResiduals);
            pass.dispatchWorkgroups(Math.ceil(elements / WORKGROUP_SIZE));
        }
        pass.setPipeline(this._pipelines.figureReduce);
        pass.dispatchWorkgroups(1);
        pass.end();
        this._validState.encodeCandidate(encoder);
        const figureBytes = 4 * FIGURE_WORDS;
        encoder.copyBufferToBuffer(this._figures, 0, this._staging, 0, figureBytes);
        if (residuals) {
            encoder.copyBufferToBuffer(this._residual, 0, this._staging, figureBytes, 12 * n);
        }
        if (this._gasWord >= 0) {
            // The gas's words as the step left them, copied rather than bound: the reduction binds 8 storage buffers.
            encoder.copyBufferToBuffer(this._buffers.lambdas, 4 * this._gasWord, this._staging, figureBytes + 12 * n, 4 * GAS_LAMBDA_WORDS);
        }
        device.queue.submit([encoder.finish()]);
        try {
            await this._staging.mapAsync(MAP_READ);
        } catch (error) {
            this._reading = false;
            if (this._disposed) {
                // Disposed meanwhile: the staging buffer is destroyed, which aborts the map.
                return this._result;
            }
            throw error;
        }
        try {
            const mapped = this._staging.getMappedRange();
            this._unpack(new Float32Array(mapped), new Uint32Array(mapped), step, residuals, n);
            this._staging.unmap();
            if (this._result.invalidParticles > 0) {
                this._validState.restore();
            } else {
                this._validState.promote();
            }
        } finally {
            this._reading = false;
        }
        return this._result;
    }

    /** Releases the buffers (a read in flight resolves with the last figures). */
    public dispose(): void {
        this._disposed = true;
        this._params.destroy();
        this._figures.destroy();
        this._residual.destroy();
        this._staging.destroy();
    }

    /** `n`: the particle count the read measured (a tear may have added particles since). */
    private _unpack(words: Float32Array, integers: Uint32Array, step: number, residuals: boolean, n: number): void {
        const r = this._result;
        const edges = this._stretchCount;
        const tets = this._volumeCount;
        r.step = step;
        r.residuals = residuals;
        r.kineticEnergy = words[0];
        r.maxSpeed = Math.sqrt(words[1]);
        r.maxEdgeRatio = words[2];
        r.meanEdgeRatio = edges > 0 ? 1 + words[3] / edges : 0;
        r.maxStretchResidual = words[4];
        r.meanStretchResidual = edges > 0 ? words[5] / edges : 0;
        r.overStretchedEdges = words[6];
        const edge = integers[FIGURE_MOST_STRETCHED];
        r.mostStretchedEdge = edge === 0xffffffff ? -1 : edge;
        r.invalidParticles = integers[FIGURE_INVALID];
        r.maxBendResidual = words[12];
        r.meanBendResidual = this._bendCount > 0 ? words[13] / this._bendCount : 0;
        r.maxVolumeResidual = words[7];
        r.meanVolumeResidual = tets > 0 ? words[8] / tets : 0;
        r.volumeRatio = tets > 0 ? words[9] / this._restVolume : 0;
        const gas = FIGURE_WORDS + 3 * n;
        r.gasMultiplier = this._gasWord >= 0 ? words[gas] : 0;
        r.gasVolume = this._gasWord >= 0 ? words[gas + 2] : 0;
        if (residuals) {
            // The residual words are the bits of non-negative f32s: read as floats they are the values.
            const base = FIGURE_WORDS;
            this._body.stretchResidual.set(words.subarray(base, base + n));
            if (tets > 0) {
                this._body.volumeResidual.set(words.subarray(base + n, base + 2 * n));
            }
            if (this._bendCount > 0) {
                this._body.bendResidual.set(words.subarray(base + 2 * n, base + 3 * n));
            }
        }
    }
}
