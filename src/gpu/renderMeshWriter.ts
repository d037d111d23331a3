import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { compiledSolverPipelines } from "./gpuPipelines.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { RENDER_PARAMS_SIZE } from "./renderMeshShader.js";

/** Render vertices that are particles (a cloth's: its weld map). */
export interface WeldedVertices {
    /** Render vertex → particle. */
    readonly vertexToParticle: ArrayLike<number>;
}

/** Render vertices embedded in tetrahedra, as `applyTetBinding` moves them (a soft body's `TetBinding` is one). */
export interface TetEmbeddedVertices {
    /** The tets, four particles each. */
    readonly tets: ArrayLike<number>;
    /** Per render vertex, its tet (every vertex must have one: an unbound vertex, −1, is refused). */
    readonly tetIndex: ArrayLike<number>;
    /** Per render vertex, the barycentric weights of its tet's four corners, in corner order. */
    readonly weights: ArrayLike<number>;
}

/**
 * Render vertices tied to particle triangles, as `applySurfaceBinding` moves them (a surface-only soft body's
 * `SurfaceBinding` is one): the weighted corners of the triangle plus an offset along its orthonormal frame.
 */
export interface SurfaceBoundVertices {
    /** The particle triangles, three indices each. */
    readonly triangles: ArrayLike<number>;
    /** Per render vertex, its triangle's first index into {@link triangles} (a multiple of 3). */
    readonly triangle: ArrayLike<number>;
    /** Per render vertex, the barycentric weights of its triangle's three corners. */
    readonly weights: ArrayLike<number>;
    /** Per render vertex, its offset (m) along the triangle's first edge, across it in its plane, and along its normal. */
    readonly offsets: ArrayLike<number>;
}

/** How each render vertex's position follows the particles. */
export type RenderVertexBinding = WeldedVertices | TetEmbeddedVertices | SurfaceBoundVertices;

/** How a render mesh follows a body's particles, as `RenderMeshSync` draws it on the CPU. */
export interface RenderMeshMapping {
    /** Where each render vertex is: a particle, a point of a tet, or a point tied to a surface triangle. */
    vertices: RenderVertexBinding;
    /** Render vertex → the vertex whose normal it shares: the first vertex of its smoothing group (itself for that one). */
    normalSource: ArrayLike<number>;
    /** The render triangles, three vertex indices each, re-indexed onto {@link normalSource}. */
    triangles: ArrayLike<number>;
    /** 1, or −1 where the mesh's authored normals face the other way than the triangles' winding gives. */
    normalSign: number;
}

/** The GPU tables of a {@link RenderMeshMapping} (see `RENDER_MESH_WGSL`). */
export interface RenderMeshTables {
    /** Per vertex, two records: its four corner particles; then its group's first adjacency entry, adjacency count, 0, 0. */
    vertices: Uint32Array;
    /** Per vertex, its corners' weights. */
    weights: Float32Array;
    /** Per vertex, its offset along its triangle's frame (xyz, 0) when {@link surface}; else one unread vec4 of zeros. */
    offsets: Float32Array;
    /** Whether the vertices are bound to surface triangles (the kernel adds their offsets along the triangles' frames). */
    surface: boolean;
    /** Per smoothing group, its triangles in triangle order (a triangle that has the group at two corners twice). */
    adjacency: Uint32Array;
    /** Per triangle, its corners' render vertices (their groups' first vertices), and 0. */
    triangles: Uint32Array;
    /**
     * The most a render vertex moves when no particle moves by more than 1 (the largest sum of a vertex's weights'
     * magnitudes: 1 for a particle or a point inside its tet or triangle, more for a point extrapolated from a tet),
     * leaving aside {@link turnReach}.
     */
    motionScale: number;
    /**
     * How far (m) a render vertex may move on top of {@link motionScale} times its corners' motion as its triangle's
     * frame turns: twice the longest offset (a frame can turn any way as its triangle moves); 0 without offsets.
     */
    turnReach: number;
}

/** The corners and weights of every render vertex (see {@link RenderMeshTables}). */
type VertexCorners = Pick<RenderMeshTables, "weights" | "offsets" | "surface" | "motionScale" | "turnReach"> & { corners: Uint32Array };

/**
 * Per render vertex, four corner particles and their weights: a welded vertex is its particle with weights 1, 0, 0, 0;
 * a surface-bound one its triangle's corners and weights, the fourth corner its first with weight 0, and its offset.
 */
function vertexCorners(binding: RenderVertexBinding, particleCount: number): VertexCorners {
    const welded = "vertexToParticle" in binding;
    const surface = "triangle" in binding;
    const n = welded ? binding.vertexToParticle.length : surface ? binding.triangle.length : binding.tetIndex.length;
    const corners = new Uint32Array(4 * n);
    const weights = new Float32Array(4 * n);
    const offsets = new Float32Array(surface ? Math.max(4 * n, 4) : 4);
    let motionScale = 0;
    let turnReach = 0;
    for (let v = 0; v < n; v++) {
        let reach = 0;
        for (let k = 0; k < 4; k++) {
            let particle: number;
            let weight: number;
            if (welded) {
                particle = binding.vertexToParticle[v];
                weight = k === 0 ? 1 : 0;
            } else if (surface) {
                const t = binding.triangle[v];
                if (!(t >= 0 && t % 3 === 0 && t + 2 < binding.triangles.length)) {
                    throw new RangeError(
                        `packRenderMesh: vertex ${v} has triangle index ${t} (of ${binding.triangles.length} indices); unbound vertices cannot be drawn`,
                    );
                }
                particle = binding.triangles[t + (k % 3)];
                weight = k < 3 ? binding.weights[3 * v + k] : 0;
            } else {
                const t = binding.tetIndex[v];
                if (!(t >= 0 && 4 * t + 3 < binding.tets.length)) {
                    throw new RangeError(
                        `packRenderMesh: vertex ${v} has tet ${t} (of ${binding.tets.length / 4}); unbound vertices cannot be drawn`,
                    );
                }
                particle = binding.tets[4 * t + k];
                weight = binding.weights[4 * v + k];
            }
            if (!(particle >= 0 && particle < particleCount) || !Number.isFinite(weight)) {
                throw new RangeError(
                    `packRenderMesh: vertex ${v} has corner particle ${particle} (of ${particleCount}) with weight ${weight}`,
                );
            }
            corners[4 * v + k] = particle;
            weights[4 * v + k] = weight;
            reach += Math.abs(weight);
        }
        if (surface) {
            const o = binding.offsets;
            if (!(Number.isFinite(o[3 * v]) && Number.isFinite(o[3 * v + 1]) && Number.isFinite(o[3 * v + 2]))) {
                throw new RangeError(`packRenderMesh: vertex ${v} has offset ${o[3 * v]}, ${o[3 * v + 1]}, ${o[3 * v + 2]}`);
            }
            for (let k = 0; k < 3; k++) {
                offsets[4 * v + k] = o[3 * v + k];
            }
            turnReach = Math.max(turnReach, 2 * Math.hypot(o[3 * v], o[3 * v + 1], o[3 * v + 2]));
        }
        motionScale = Math.max(motionScale, reach);
    }
    return { corners, weights, offsets, surface, motionScale, turnReach };
}

/**
 * Packs `mapping` for the render kernels. Each vertex points at its group's triangle list, so the vertices of a group
 * sum the same cross products in the same order as `computeVertexNormals` does for the group (triangle order).
 * @throws RangeError when the arrays disagree in length or an index is out of range
 */
export function packRenderMesh(mapping: RenderMeshMapping, particleCount: number): RenderMeshTables {
    const { normalSource, triangles } = mapping;
    const { corners, ...placement } = vertexCorners(mapping.vertices, particleCount);
    const n = corners.length / 4;
    if (normalSource.length !== n) {
        throw new RangeError(`packRenderMesh: ${normalSource.length} normal sources for ${n} vertices`);
    }
    if (triangles.length % 3 !== 0) {
        throw new RangeError(`packRenderMesh: ${triangles.length} triangle indices is not a multiple of 3`);
    }
    for (let v = 0; v < n; v++) {
        const s = normalSource[v];
        if (!(s >= 0 && s < n)) {
            throw new RangeError(`packRenderMesh: vertex ${v} has normal source ${s} (of ${n})`);
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
    const vertices = new Uint32Array(8 * n);
    for (let v = 0; v < n; v++) {
        const s = normalSource[v];
        vertices.set(corners.subarray(4 * v, 4 * v + 4), 8 * v);
        vertices[8 * v + 4] = count[s];
        vertices[8 * v + 5] = count[s + 1] - count[s];
    }
    const packed = new Uint32Array(Math.max(triangles.length / 3, 1) * 4);
    for (let t = 0; 3 * t < triangles.length; t++) {
        for (let c = 0; c < 3; c++) {
            packed[4 * t + c] = triangles[3 * t + c];
        }
    }
    return { vertices, adjacency, triangles: packed, ...placement };
}

/**
 * Writes a render mesh's positions and normals from a body's particles on the GPU, into buffers the caller owns
 * (for instance the vertex buffers a renderer draws from): two dispatches (positions, then normals from them) per
 * {@link write}, after the steps submitted before it, so nothing is read back to draw. The mapping tables are uploaded once, at construction; each write
 * uploads only the world → local transform.
 */
export class GpuRenderMeshWriter {
    /** Render vertices written. */
    public readonly vertexCount: number;
    /** See {@link RenderMeshTables.motionScale}: how far a vertex may move for each metre its particles move. */
    public readonly motionScale: number;
    /** See {@link RenderMeshTables.turnReach}: how far (m) a vertex may move on top of that as its triangle's frame turns. */
    public readonly turnReach: number;

    private readonly _params: GPUBuffer;
    private readonly _tables: GPUBuffer[];
    private readonly _group: GPUBindGroup;
    private readonly _pipelines: readonly GPUComputePipeline[];
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
        const tables = packRenderMesh(mapping, particleCount);
        const n = tables.weights.length / 4;
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
        this.vertexCount = n;
        this.motionScale = tables.motionScale;
        this.turnReach = tables.turnReach;
        this._pipelines = [pipelines.renderPositions, pipelines.renderNormals];
        this._params = createBuffer(device, RENDER_PARAMS_SIZE, UNIFORM | COPY_DST, "render params");
        this._tables = [
            createBuffer(device, tables.vertices, STORAGE | COPY_DST, "render vertices"),
            createBuffer(device, tables.weights, STORAGE | COPY_DST, "render weights"),
            createBuffer(device, tables.adjacency, STORAGE | COPY_DST, "render adjacency"),
            createBuffer(device, tables.triangles, STORAGE | COPY_DST, "render triangles"),
            createBuffer(device, tables.offsets, STORAGE | COPY_DST, "render offsets"),
        ];
        new Uint32Array(this._data, 64, 1)[0] = n;
        new Float32Array(this._data, 68, 1)[0] = mapping.normalSign < 0 ? -1 : 1;
        new Uint32Array(this._data, 72, 1)[0] = tables.surface ? 1 : 0;
        const [vertices, weights, adjacency, triangles, offsets] = this._tables;
        const resources = [this._params, particlePositions, vertices, weights, adjacency, triangles, positions, normals, offsets];
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
        pass.setBindGroup(0, this._group);
        // The normals read the positions: the second dispatch sees the first's writes.
        for (const pipeline of this._pipelines) {
            pass.setPipeline(pipeline);
            pass.dispatchWorkgroups(Math.ceil(this.vertexCount / WORKGROUP_SIZE));
        }
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
