import type { SoftBody } from "../core/index.js";
import { interiorEdges } from "../core/softContacts.js";
import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { SCAN_SIZE } from "./particleContactShader.js";
import { encodeParticleHashBuild } from "./particleHashBuild.js";
import { PARAMS_SIZE } from "./substepParams.js";

/**
 * Self-collision of one body on the GPU (`SELF_COLLISION_WGSL`): the hash of the particles rebuilt every substep
 * (five dispatches, {@link encodeBuild}) and the contacts projected after every solver pass (two dispatches,
 * {@link encodeProject}), in buffers made once for the body: the triangle records (corners and interior-edge bits),
 * the cells (counts, starts and sorted particles, with buckets for twice the particles, a power of two, as the core's
 * `ParticleHash`), the predicted and rest positions, and the fixed-point correction sums.
 */
export class SelfCollisionPass {
    private readonly _params: GPUBuffer;
    private readonly _triangles: GPUBuffer;
    private readonly _counts: GPUBuffer;
    private readonly _table: GPUBuffer;
    private readonly _frozen: GPUBuffer;
    private readonly _sums: GPUBuffer;
    private _group: GPUBindGroup | null = null;
    /** `SelfParams` as written (1/cell, bucket mask, buckets, μs, μk), reused every step. */
    private readonly _data = new ArrayBuffer(32);
    private readonly _floats = new Float32Array(this._data);
    private readonly _words = new Uint32Array(this._data);
    private readonly _buckets: number;
    private readonly _particles: number;
    private readonly _triangleCount: number;

    /** @param _device - the body's device; @param body - the body (its triangles, rest positions, friction) */
    public constructor(
        private readonly _device: GPUDevice,
        body: SoftBody,
    ) {
        const n = body.particleCount;
        const tri = body.triangles;
        this._particles = n;
        this._triangleCount = tri.length / 3;
        let buckets = 16;
        while (buckets < 2 * n) {
            buckets *= 2;
        }
        this._buckets = buckets;
        // As the core: cells of about one triangle edge (the mean rest edge), so a triangle's box spans a few cells.
        const rest = body.restPositions;
        const edge = (i: number, j: number): number =>
            Math.hypot(rest[3 * i] - rest[3 * j], rest[3 * i + 1] - rest[3 * j + 1], rest[3 * i + 2] - rest[3 * j + 2]);
        let edgeSum = 0;
        for (let t = 0; t < tri.length; t += 3) {
            edgeSum += edge(tri[t], tri[t + 1]) + edge(tri[t + 1], tri[t + 2]) + edge(tri[t + 2], tri[t]);
        }
        const cell = edgeSum > 0 ? edgeSum / tri.length : 1;
        const interior = interiorEdges(body);
        const records = new Uint32Array(Math.max(this._triangleCount, 1) * 4);
        for (let t = 0; t < this._triangleCount; t++) {
            records.set([tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], interior !== null ? interior[t] : 0], 4 * t);
        }
        // Rest positions, w 1 for the particles that take part (the corners of triangles: a cloth's every particle,
        // a tetrahedral body's surface, as the core's `surfaceParticles`).
        const frozen = new Float32Array(8 * n);
        for (let p = 0; p < n; p++) {
            frozen.set([rest[3 * p], rest[3 * p + 1], rest[3 * p + 2]], 4 * (n + p));
        }
        for (let k = 0; k < tri.length; k++) {
            frozen[4 * (n + tri[k]) + 3] = 1;
        }
        const storage = (data: ArrayBufferView | number, label: string): GPUBuffer =>
            createBuffer(_device, data, STORAGE | COPY_DST, label);
        this._triangles = storage(records, "self-collision triangles");
        this._counts = storage(4 * buckets, "self-collision cell counts");
        this._table = storage(4 * (buckets + 1 + n + SCAN_SIZE), "self-collision cell table");
        this._frozen = storage(frozen, "self-collision predicted and rest positions");
        this._sums = storage(4 * (4 * n + 1), "self-collision sums");
        this._params = createBuffer(_device, this._data, UNIFORM | COPY_DST, "self-collision params");
        this._floats[0] = 1 / cell;
        this._words[1] = buckets - 1;
        this._words[2] = buckets;
    }

    /** Builds the bind group over the step's uniforms and the body's positions (after either is replaced). */
    public bind(layouts: SolverPipelines["layouts"], params: GPUBuffer, positions: GPUBuffer, previous: GPUBuffer): void {
        const resources = [
            { buffer: params, size: PARAMS_SIZE },
            { buffer: this._params },
            { buffer: positions },
            { buffer: previous },
            { buffer: this._triangles },
            { buffer: this._counts },
            { buffer: this._table },
            { buffer: this._frozen },
            { buffer: this._sums },
        ];
        this._group = this._device.createBindGroup({
            layout: layouts.selfCollision,
            entries: resources.map((resource, binding) => ({ binding, resource })),
        });
    }

    /** Writes the body's friction for the step (allocates nothing). */
    public write(body: SoftBody): void {
        this._floats[3] = body.staticFriction;
        this._floats[4] = body.kineticFriction;
        this._device.queue.writeBuffer(this._params, 0, this._data);
    }

    /** Encodes the hash's rebuild from the predicted positions, at the substep's `Params` offset. */
    public encodeBuild(pass: GPUComputePassEncoder, pipelines: SolverPipelines, params: number, offsets: Uint32Array): void {
        this._setGroup(pass, params, offsets);
        encodeParticleHashBuild(pass, pipelines.selfCollision, this._buckets, this._particles);
    }

    /** Encodes one projection of the contacts (after a solver pass), at the substep's `Params` offset. */
    public encodeProject(pass: GPUComputePassEncoder, pipelines: SolverPipelines, params: number, offsets: Uint32Array): void {
        const k = pipelines.selfCollision;
        this._setGroup(pass, params, offsets);
        pass.setPipeline(k.projectContacts);
        pass.dispatchWorkgroups(Math.ceil(this._triangleCount / WORKGROUP_SIZE));
        pass.setPipeline(k.applyCorrections);
        pass.dispatchWorkgroups(Math.ceil(this._particles / WORKGROUP_SIZE));
    }

    /** Releases the buffers. */
    public dispose(): void {
        this._params.destroy();
        this._triangles.destroy();
        this._counts.destroy();
        this._table.destroy();
        this._frozen.destroy();
        this._sums.destroy();
    }

    private _setGroup(pass: GPUComputePassEncoder, params: number, offsets: Uint32Array): void {
        offsets[0] = params;
        pass.setBindGroup(0, this._group!, offsets, 0, 1);
    }
}
