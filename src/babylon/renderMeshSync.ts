/**
 * Writes simulated world-space vertex positions back into a Babylon mesh, with normals and bounding info.
 *
 * Frame choice: the simulation runs in world space and the mesh keeps its transform (position, rotation, scaling,
 * parent). Each write converts world positions into the mesh's local space with the inverse of its current world
 * matrix, so the mesh renders where the simulation is even if its node (or a parent) is moved later (teleported):
 * moving the node does not move the simulated body, and a mesh moved while its body sleeps is rewritten too.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { computeVertexNormals, weldVertices } from "../meshing/index.js";
import type { RenderMeshMapping, RenderVertexBinding } from "../gpu/index.js";
import type { MeshData } from "./meshData.js";

/** What writes a mesh's positions and normals on the GPU (`GpuRenderMeshWriter`), given its inverse world matrix. */
export interface GpuMeshWriter {
    write(inverseWorld: ArrayLike<number>): void;
}

/** Rest normals closer than this (cosine) share a smoothed normal; sharper creases stay hard. */
const SMOOTH_COSINE = 0.99;

/**
 * Owns a mesh's updatable position and normal buffers. The impostor fills {@link RenderMeshSync.worldPositions};
 * {@link RenderMeshSync.update} does the rest without allocating.
 */
export class RenderMeshSync {
    /** World-space positions per render vertex, written by the impostor before {@link update} (a new array after a tear added vertices). */
    public worldPositions: Float64Array;

    private _positions: Float32Array;
    private _normals: Float32Array;
    /** Per vertex, the vertex whose normal it shares (itself when it is the representative). */
    private _normalSource: Int32Array;
    /** Triangles re-indexed onto the representatives, so seams shade smoothly and creases stay hard. */
    private _smoothIndices: Uint32Array;
    /** Per vertex of the mesh as built, its smoothing group's first vertex (what {@link followTear} keeps apart). */
    private readonly _restGroup: Int32Array;
    /** −1 when the mesh's authored normals face the other way than `computeVertexNormals` (right-handed scenes, flipped sides). */
    private _normalSign = 1;
    private readonly _inverseWorld = new Matrix();
    /** The world matrix of the last write, to see the node move between writes. */
    private readonly _lastWorld = new Matrix();
    private readonly _min = new Vector3();
    private readonly _max = new Vector3();
    /** What writes positions and normals while the GPU draws the mesh ({@link drawFromGpu}), else null. */
    private _gpuWriter: GpuMeshWriter | null = null;
    /** While the GPU draws: whether the next update refreshes the bounding info, and the margin it adds (m, world). */
    private _boundsStale = false;
    private _boundsMargin = 0;

    /**
     * Makes the mesh's positions and normals updatable (and its geometry unique when it is shared).
     * @param mesh - the render mesh
     * @param data - its geometry as read when the impostor was built
     */
    public constructor(
        private readonly _mesh: Mesh,
        data: MeshData,
    ) {
        const n = data.vertexCount;
        this.worldPositions = new Float64Array(data.worldPositions);
        this._positions = Float32Array.from(data.localPositions);
        this._normals = new Float32Array(3 * n);
        this._normalSource = smoothingGroups(data);
        this._restGroup = this._normalSource;
        this._smoothIndices = new Uint32Array(data.indices.length);
        for (let i = 0; i < data.indices.length; i++) {
            this._smoothIndices[i] = this._normalSource[data.indices[i]];
        }
        const geometry = _mesh.geometry;
        if (geometry && geometry.meshes.length > 1) {
            _mesh.makeGeometryUnique();
        }
        _mesh.setVerticesData(VertexBuffer.PositionKind, this._positions, true);
        this._computeNormals();
        const authored = data.localNormals;
        if (authored) {
            let agreement = 0;
            for (let i = 0; i < authored.length; i++) {
                agreement += authored[i] * this._normals[i];
            }
            if (agreement < 0) {
                this._normalSign = -1;
                this._computeNormals();
            }
        }
        _mesh.setVerticesData(VertexBuffer.NormalKind, this._normals, true);
    }

    /** Whether the mesh's world matrix changed since the last {@link update} (the node or a parent was moved). */
    public get meshMoved(): boolean {
        return worldMatrixChanged(this._mesh, this._lastWorld);
    }

    /**
     * Whether {@link update} reads {@link worldPositions}: always when the CPU writes the mesh; when the GPU draws
     * it, only to refresh the bounding info (after {@link refreshGpuBounds}, or when the node moved).
     */
    public get needsWorldPositions(): boolean {
        return this._gpuWriter === null || this._boundsStale || this.meshMoved;
    }

    /**
     * Converts {@link worldPositions} to local space and uploads positions, normals and bounding info; while the GPU
     * draws the mesh ({@link drawFromGpu}), has the GPU write positions and normals in the current local frame instead,
     * and refreshes the bounding info only when asked to or when the node moved.
     */
    public update(): void {
        const mesh = this._mesh;
        const writer = this._gpuWriter;
        const refreshBounds = writer === null || this._boundsStale || this.meshMoved;
        const world = currentWorldMatrix(mesh);
        this._lastWorld.copyFrom(world);
        world.invertToRef(this._inverseWorld);
        if (writer !== null) {
            writer.write(this._inverseWorld.m);
            if (refreshBounds) {
                this._toLocal();
                this._setBounds(world, this._boundsMargin * frobenius3(this._inverseWorld));
                this._boundsStale = false;
            }
            return;
        }
        this._toLocal();
        this._computeNormals();
        mesh.updateVerticesData(VertexBuffer.PositionKind, this._positions);
        mesh.updateVerticesData(VertexBuffer.NormalKind, this._normals);
        this._setBounds(world, 0);
    }

    /**
     * The mapping from particles to this mesh's vertices, for a GPU writer (`GpuRenderMeshWriter`): where the vertices
     * are, the smoothing groups and the normals' sign, as {@link update} uses them.
     * @param vertices - how the impostor places the render vertices (its weld map, or its tet binding)
     */
    public gpuMapping(vertices: RenderVertexBinding): RenderMeshMapping {
        return {
            vertices,
            normalSource: this._normalSource,
            triangles: this._smoothIndices,
            normalSign: this._normalSign,
        };
    }

    /**
     * Draws the mesh from GPU buffers from now on: `positions` and `normals` (vertex buffers over the buffers `writer`
     * writes into) replace the mesh's, and each {@link update} has `writer` write them, with nothing read back. The
     * bounding info comes from {@link worldPositions} when {@link refreshGpuBounds} asks for it.
     */
    public drawFromGpu(writer: GpuMeshWriter, positions: VertexBuffer, normals: VertexBuffer): void {
        const count = this._normalSource.length;
        this._gpuWriter = writer;
        this._boundsStale = true;
        this._mesh.setVerticesBuffer(positions, true, count);
        this._mesh.setVerticesBuffer(normals, true, count);
    }

    /**
     * Back to the CPU's buffers (after {@link drawFromGpu}), holding the shape of the last bounds refresh until the
     * next {@link update} writes the current one.
     */
    public drawFromCpu(): void {
        if (this._gpuWriter === null) {
            return;
        }
        this._gpuWriter = null;
        this._computeNormals();
        this._mesh.setVerticesData(VertexBuffer.PositionKind, this._positions, true);
        this._mesh.setVerticesData(VertexBuffer.NormalKind, this._normals, true);
    }

    /**
     * While the GPU draws the mesh: the next {@link update} sets the bounding info from {@link worldPositions} (a state
     * read back), grown by `margin` (m, world) on every side for how far the body may move before the next refresh.
     */
    public refreshGpuBounds(margin: number): void {
        this._boundsMargin = margin;
        this._boundsStale = true;
    }

    /** {@link worldPositions} into the local frame of {@link _inverseWorld}, in {@link _positions}, with their box. */
    private _toLocal(): void {
        const m = this._inverseWorld.m;
        const src = this.worldPositions;
        const dst = this._positions;
        let minX = Infinity,
            minY = Infinity,
            minZ = Infinity;
        let maxX = -Infinity,
            maxY = -Infinity,
            maxZ = -Infinity;
        for (let i = 0; i < src.length; i += 3) {
            const x = src[i],
                y = src[i + 1],
                z = src[i + 2];
            const lx = x * m[0] + y * m[4] + z * m[8] + m[12];
            const ly = x * m[1] + y * m[5] + z * m[9] + m[13];
            const lz = x * m[2] + y * m[6] + z * m[10] + m[14];
            dst[i] = lx;
            dst[i + 1] = ly;
            dst[i + 2] = lz;
            minX = lx < minX ? lx : minX;
            minY = ly < minY ? ly : minY;
            minZ = lz < minZ ? lz : minZ;
            maxX = lx > maxX ? lx : maxX;
            maxY = ly > maxY ? ly : maxY;
            maxZ = lz > maxZ ? lz : maxZ;
        }
        this._min.set(minX, minY, minZ);
        this._max.set(maxX, maxY, maxZ);
    }

    /** The bounding info from the box of {@link _toLocal}, grown by `margin` (local units) on every side. */
    private _setBounds(world: Matrix, margin: number): void {
        const mesh = this._mesh;
        this._min.addInPlaceFromFloats(-margin, -margin, -margin);
        this._max.addInPlaceFromFloats(margin, margin, margin);
        mesh.getBoundingInfo().reConstruct(this._min, this._max, world);
        const subMeshes = mesh.subMeshes;
        if (subMeshes) {
            for (let s = 0; s < subMeshes.length; s++) {
                // A global sub-mesh uses the mesh's bounding info; only partial ones keep their own.
                if (!subMeshes[s].IsGlobal) {
                    subMeshes[s].refreshBoundingInfo(this._positions);
                }
            }
        }
    }

    /**
     * Follows a tear of the cloth (see `TearBinding`): appends a copy of each vertex in `sources` (every vertex
     * attribute the mesh has: uv, colour…), sets the new triangle indices, and regroups the normals so that two
     * vertices share one only if they follow the same particle and shared one at rest: each side of a tear is shaded
     * from its own triangles. Allocates (new vertex buffers); runs only after a step that tore.
     * @param indices - the render triangles now (copied)
     * @param vertexToParticle - render vertex → particle now
     * @param vertexOrigin - render vertex → the mesh's own vertex it descends from
     * @param sources - for each vertex added since the last call, in order, the vertex it copies
     */
    public followTear(indices: Uint32Array, vertexToParticle: Int32Array, vertexOrigin: Int32Array, sources: Int32Array): void {
        const mesh = this._mesh;
        const before = this._normalSource.length;
        const count = vertexToParticle.length;
        if (sources.length > 0) {
            for (const kind of mesh.getVerticesDataKinds()) {
                const buffer = mesh.getVertexBuffer(kind);
                const data = mesh.getVerticesData(kind, true, true);
                if (kind === VertexBuffer.PositionKind || kind === VertexBuffer.NormalKind || !buffer || !data) {
                    continue;
                }
                mesh.setVerticesData(
                    kind,
                    withCopies(Float32Array.from(data), buffer.getSize(), sources),
                    buffer.isUpdatable(),
                    buffer.getSize(),
                );
            }
            this.worldPositions = withCopies(this.worldPositions, 3, sources);
            this._positions = withCopies(this._positions, 3, sources);
            this._normals = new Float32Array(3 * count);
        }
        // Normal groups: the first vertex of each (particle, group at rest) pair represents it, so comes first.
        const representative = new Map<number, number>();
        this._normalSource = new Int32Array(count);
        for (let v = 0; v < count; v++) {
            const key = vertexToParticle[v] * before + this._restGroup[vertexOrigin[v]];
            const first = representative.get(key);
            this._normalSource[v] = first ?? v;
            if (first === undefined) {
                representative.set(key, v);
            }
        }
        this._smoothIndices = Uint32Array.from(indices, (v) => this._normalSource[v]);
        this._computeNormals();
        if (sources.length > 0) {
            mesh.setVerticesData(VertexBuffer.PositionKind, this._positions, true);
            mesh.setVerticesData(VertexBuffer.NormalKind, this._normals, true);
        }
        // One global sub-mesh is made again over all the vertices; several keep their index ranges, their vertex
        // ranges reaching to the end, where the copies are.
        const subMeshes = mesh.subMeshes ?? [];
        mesh.setIndices(Uint32Array.from(indices), count, false, subMeshes.length > 1);
        if (subMeshes.length > 1) {
            for (const subMesh of subMeshes) {
                subMesh.verticesCount = count - subMesh.verticesStart;
            }
        }
    }

    private _computeNormals(): void {
        computeVertexNormals(this._positions, this._smoothIndices, this._normals);
        const source = this._normalSource;
        const normals = this._normals;
        const sign = this._normalSign;
        for (let v = 0; v < source.length; v++) {
            // Representatives come first in their group, so their normals are final (signed) when copied.
            const s = source[v];
            if (s === v) {
                normals[3 * v] *= sign;
                normals[3 * v + 1] *= sign;
                normals[3 * v + 2] *= sign;
            } else {
                normals[3 * v] = normals[3 * s];
                normals[3 * v + 1] = normals[3 * s + 1];
                normals[3 * v + 2] = normals[3 * s + 2];
            }
        }
    }
}

/**
 * The mesh's world matrix as of now. In `onBeforeRenderObservable` the scene's render id is still the last frame's,
 * so a plain `computeWorldMatrix()` returns the matrix cached then, from before a move. Forcing it every frame would
 * allocate inside Babylon, so it is forced only when the node or a parent changed.
 */
function currentWorldMatrix(mesh: Mesh): Matrix {
    return mesh.isSynchronized() ? mesh.computeWorldMatrix() : mesh.computeWorldMatrix(true);
}

/** Whether `mesh`'s current world matrix differs from `last` (the one its render positions were written for). */
export function worldMatrixChanged(mesh: Mesh, last: Matrix): boolean {
    const m = currentWorldMatrix(mesh).m;
    const l = last.m;
    for (let i = 0; i < 16; i++) {
        if (m[i] !== l[i]) {
            return true;
        }
    }
    return false;
}

/**
 * Groups render vertices that share a position and (when the mesh has normals) a rest normal direction: UV seams
 * and the duplicated vertices of sphere poles shade smoothly, while the hard edges of a box and the back side of
 * a double-sided cloth keep their own normals. Returns, per vertex, its group's first vertex.
 */
function smoothingGroups(data: MeshData): Int32Array {
    const weld = weldVertices(data.localPositions);
    const source = new Int32Array(data.vertexCount);
    const groups: number[][] = Array.from({ length: weld.particleCount }, () => []);
    const normals = data.localNormals;
    for (let v = 0; v < data.vertexCount; v++) {
        const members = groups[weld.renderToParticle[v]];
        let found = -1;
        for (const r of members) {
            if (!normals || normalCosine(normals, r, v) > SMOOTH_COSINE) {
                found = r;
                break;
            }
        }
        if (found < 0) {
            members.push(v);
            found = v;
        }
        source[v] = found;
    }
    return source;
}

/** `values` (`size` numbers per vertex) with a copy of the vertex `sources[k]` appended for each k, as a new array. */
function withCopies<T extends Float32Array | Float64Array>(values: T, size: number, sources: Int32Array): T {
    const grown = new (values.constructor as new (length: number) => T)(values.length + size * sources.length);
    grown.set(values);
    for (let k = 0; k < sources.length; k++) {
        grown.set(values.subarray(size * sources[k], size * sources[k] + size), values.length + size * k);
    }
    return grown;
}

/**
 * The Frobenius norm of `matrix`'s linear part: no vector grows by more under it, so a world-space margin times
 * this covers the same margin in the local frame of an inverse world matrix.
 */
function frobenius3(matrix: Matrix): number {
    const m = matrix.m;
    let sum = 0;
    for (let column = 0; column < 3; column++) {
        for (let row = 0; row < 3; row++) {
            sum += m[4 * column + row] ** 2;
        }
    }
    return Math.sqrt(sum);
}

function normalCosine(normals: Float32Array, a: number, b: number): number {
    const ax = normals[3 * a],
        ay = normals[3 * a + 1],
        az = normals[3 * a + 2];
    const bx = normals[3 * b],
        by = normals[3 * b + 1],
        bz = normals[3 * b + 2];
    const la = Math.hypot(ax, ay, az),
        lb = Math.hypot(bx, by, bz);
    return la > 0 && lb > 0 ? (ax * bx + ay * by + az * bz) / (la * lb) : 1;
}
