import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { compiledSolverPipelines } from "./gpuPipelines.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { RENDER_PARAMS_SIZE } from "./renderMeshShader.js";

/** How a render mesh follows a body's particles, as `RenderMeshSync` draws it on the CPU. */
export interface RenderMeshMapping {
    /** Render vertex → particle (the weld map of a cloth). */
    vertexToParticle: ArrayLike<number>;
    /** Render vertex → the vertex whose normal it shares: the first vertex of its smoothing group (itself for that one). */
    normalSource: ArrayLike<number>;
    /** The render triangles, three vertex indices each, re-indexed onto {@link normalSource}. */
    triangles: ArrayLike<number>;
    /** 1, or −1 where the mesh's authored normals face the other way than the triangles' winding gives. */
    normalSign: number;
}

/** The GPU tables of a {@link RenderMeshMapping} (see `RENDER_MESH_WGSL`). */
export interface RenderMeshTables {
    /** Per vertex: particle, first adjacency entry, adjacency count, 0. */
    vertices: Uint32Array;
    /** Per smoothing group, its triangles in triangle order (a triangle that has the group at two corners twice). */
    adjacency: Uint32Array;
    /** Per triangle, its corners' particles, and 0. */
    triangles: Uint32Array;
}

/**
 * Packs `mapping` for the render kernel. Each vertex points at its group's triangle list, so the vertices of a group
 * sum the same cross products in the same order as `computeVertexNormals` does for the group (triangle order).
 * @throws RangeError when the arrays disagree in length or an index is out of range
 */
export function packRenderMesh(mapping: RenderMeshMapping, particleCount: number): RenderMeshTables {
    const { vertexToParticle, normalSource, triangles } = mapping;
    const n = vertexToParticle.length;
    if (normalSource.length !== n) {
        throw new RangeError(`packRenderMesh: ${normalSource.length} normal sources for ${n} vertices`);
    }
    if (triangles.length % 3 !== 0) {
        throw new RangeError(`packRenderMesh: ${triangles.length} triangle indices is not a multiple of 3`);
    }
    for (let v = 0; v < n; v++) {
        const p = vertexToParticle[v];
        const s = normalSource[v];
        if (!(p >= 0 && p < particleCount) || !(s >= 0 && s < n)) {
            throw new RangeError(`packRenderMesh: vertex ${v} has particle ${p} (of ${particleCount}) and normal source ${s} (of ${n})`);
        }
    }
    const count = new Uint32Array(n + 1);
    for (let i = 0; i < triangles.length; i++) {
        const v = triangles[i];
        if (!(v >= 0 && v < n)) {
            throw new RangeError(`packRenderMesh: triangle index ${v} is out of range [0, ${n})`);
        }
        count[v + 1]++;
    }
    for (let v = 0; v < n; v++) {
        count[v + 1] += count[v];
    }
    const adjacency = new Uint32Array(Math.max(triangles.length, 1));
    const fill = count.slice(0, n);
    // Triangles in increasing order, so each list is in triangle order.
    for (let i = 0; i < triangles.length; i++) {
        adjacency[fill[triangles[i]]++] = Math.floor(i / 3);
    }
    const vertices = new Uint32Array(4 * n);
    for (let v = 0; v < n; v++) {
        const s = normalSource[v];
        vertices[4 * v] = vertexToParticle[v];
        vertices[4 * v + 1] = count[s];
        vertices[4 * v + 2] = count[s + 1] - count[s];
    }
    const packed = new Uint32Array(Math.max(triangles.length / 3, 1) * 4);
    for (let t = 0; 3 * t < triangles.length; t++) {
        for (let c = 0; c < 3; c++) {
            packed[4 * t + c] = vertexToParticle[triangles[3 * t + c]];
        }
    }
    return { vertices, adjacency, triangles: packed };
}

/**
 * Writes a render mesh's positions and normals from a body's particles on the GPU, into buffers the caller owns
 * (for instance the vertex buffers a renderer draws from): one dispatch per {@link write}, after the steps submitted
 * before it, so nothing is read back to draw. The mapping tables are uploaded once, at construction; each write
 * uploads only the world → local transform.
 */
export class GpuRenderMeshWriter {
    /** Render vertices written. */
    public readonly vertexCount: number;

    private readonly _params: GPUBuffer;
    private readonly _tables: GPUBuffer[];
    private readonly _group: GPUBindGroup;
    private readonly _pipeline: GPUComputePipeline;
    /** The uniform block, rewritten by each {@link write}. */
    private readonly _data = new ArrayBuffer(RENDER_PARAMS_SIZE);
    private readonly _matrix = new Float32Array(this._data, 0, 16);
    private _disposed = false;
    private readonly _device: GPUDevice;

    /**
     * @param device - the device of the body's buffers; `GpuSoftBodySolver.compile(device)` must have settled
     * @param particlePositions - the body's positions (`GpuSoftBodySolver.particlePositions`)
     * @param particleCount - the body's particle count
     * @param mapping - how the render mesh follows the particles
     * @param positions - receives xyz per render vertex (f32, the mesh's local frame); storage usage, ≥ 12 bytes a vertex
     * @param normals - receives the unit normal per render vertex, likewise
     * @throws Error when the kernels are not compiled for `device` or an output buffer is too small or not storage
     */
    public constructor(
        device: GPUDevice,
        particlePositions: GPUBuffer,
        particleCount: number,
        mapping: RenderMeshMapping,
        positions: GPUBuffer,
        normals: GPUBuffer,
    ) {
        this._device = device;
        const pipelines = compiledSolverPipelines(device);
        if (!pipelines) {
            throw new Error(
                "GpuRenderMeshWriter: the solver's kernels are not compiled for this device yet: await GpuSoftBodySolver.compile(device)",
            );
        }
        const n = mapping.vertexToParticle.length;
        for (const [name, buffer] of [
            ["positions", positions],
            ["normals", normals],
        ] as const) {
            if (buffer.size < 12 * n || (buffer.usage & STORAGE) === 0) {
                throw new Error(
                    `GpuRenderMeshWriter: the ${name} buffer must have storage usage and hold ${12 * n} bytes (${n} vertices), ` +
                        `it has ${buffer.size} bytes and usage ${buffer.usage}`,
                );
            }
        }
        const tables = packRenderMesh(mapping, particleCount);
        this.vertexCount = n;
        this._pipeline = pipelines.renderMesh;
        this._params = createBuffer(device, RENDER_PARAMS_SIZE, UNIFORM | COPY_DST, "render params");
        this._tables = [
            createBuffer(device, tables.vertices, STORAGE | COPY_DST, "render vertices"),
            createBuffer(device, tables.adjacency, STORAGE | COPY_DST, "render adjacency"),
            createBuffer(device, tables.triangles, STORAGE | COPY_DST, "render triangles"),
        ];
        new Uint32Array(this._data, 64, 1)[0] = n;
        new Float32Array(this._data, 68, 1)[0] = mapping.normalSign < 0 ? -1 : 1;
        const resources = [this._params, particlePositions, ...this._tables, positions, normals];
        this._group = device.createBindGroup({
            label: "xpbd render mesh",
            layout: pipelines.layouts.render,
            entries: resources.map((buffer, binding) => ({ binding, resource: { buffer } })),
        });
    }

    /**
     * Writes the positions and normals from the particles as of the steps submitted so far, in the frame of
     * `inverseWorld` (the mesh's inverse world matrix: 16 numbers, Babylon's `Matrix.m` order, translation in 12–14).
     * Never waits for the GPU.
     */
    public write(inverseWorld: ArrayLike<number>): void {
        if (this._disposed) {
            throw new Error("GpuRenderMeshWriter: disposed");
        }
        for (let i = 0; i < 16; i++) {
            this._matrix[i] = inverseWorld[i];
        }
        const device = this._device;
        device.queue.writeBuffer(this._params, 0, this._data);
        const encoder = device.createCommandEncoder({ label: "xpbd render mesh" });
        const pass = encoder.beginComputePass({ label: "xpbd render mesh" });
        pass.setPipeline(this._pipeline);
        pass.setBindGroup(0, this._group);
        pass.dispatchWorkgroups(Math.ceil(this.vertexCount / WORKGROUP_SIZE));
        pass.end();
        device.queue.submit([encoder.finish()]);
    }

    /** Releases the tables and the uniform buffer (not the output buffers, which the caller owns). */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._params.destroy();
        for (const buffer of this._tables) {
            buffer.destroy();
        }
    }
}
