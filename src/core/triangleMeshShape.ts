import { closestPointOnTriangle } from "./closestPointOnTriangle.js";

/**
 * A triangle mesh's data as {@link TriangleMeshShape.query} reads it, for solvers that evaluate the query elsewhere
 * (the WebGPU backend). The arrays are the shape's own: read only.
 */
export interface TriangleMeshData {
    /** xyz per vertex (collider frame, m). */
    readonly positions: Float64Array;
    /** 3 vertex indices per triangle. */
    readonly indices: Int32Array;
    /** Outward unit normal per triangle (zero for a zero-area triangle, which the grid leaves out). */
    readonly normals: Float64Array;
    /** The grid's lowest corner (m). */
    readonly origin: Float64Array;
    /** Cells along x, y and z. */
    readonly dims: Int32Array;
    /** Edge of a cubic cell (m). */
    readonly cellSize: number;
    /** Per cell (x fastest, then y, then z) where its triangles start in {@link cellTriangles}; one more at the end. */
    readonly cellStart: Int32Array;
    /** The triangles overlapping each cell's bounds, cell after cell. */
    readonly cellTriangles: Int32Array;
}

/**
 * A triangle mesh collider (Havok mesh and heightfield shapes): a uniform grid over the triangles answers "closest
 * surface point within reach". A closed mesh (every edge shared by two triangles) is solid: its inside is negative,
 * told by the closest triangle's outward normal. An open mesh is a two-sided sheet: the distance is never negative,
 * so particles are kept their thickness away from either side.
 */
export class TriangleMeshShape {
    /** Whether the mesh is closed (and so has an inside). */
    public readonly closed: boolean;
    /** Scratch for `closestPointOnTriangle`'s result (point, squared distance, weights). */
    private readonly _closest = new Float64Array(7);
    private readonly _positions: Float64Array;
    private readonly _indices: Int32Array;
    private readonly _normals: Float64Array;
    private readonly _origin = new Float64Array(3);
    private readonly _dims = new Int32Array(3);
    private readonly _cellSize: number;
    private readonly _cellStart: Int32Array;
    private readonly _cellTriangles: Int32Array;
    private readonly _stamp: Int32Array;
    private _query = 0;

    /**
     * @param positions - xyz per vertex
     * @param indices - 3 per triangle
     */
    public constructor(positions: ArrayLike<number>, indices: ArrayLike<number>) {
        const vertexCount = positions.length / 3;
        if (indices.length === 0 || indices.length % 3 !== 0) {
            throw new Error(`mesh collider needs triangles (a multiple of 3 indices), got ${indices.length} indices`);
        }
        this._positions = Float64Array.from(positions);
        this._indices = Int32Array.from(indices);
        const triangleCount = indices.length / 3;
        for (let k = 0; k < indices.length; k++) {
            if (!Number.isInteger(indices[k]) || indices[k] < 0 || indices[k] >= vertexCount) {
                throw new Error(`mesh collider triangle ${Math.floor(k / 3)} has index ${indices[k]} out of range [0, ${vertexCount})`);
            }
        }
        this.closed = isClosed(this._indices, vertexCount);
        // Outward normals: flip all when the enclosed volume comes out negative (winding differs between hosts).
        this._normals = new Float64Array(indices.length);
        let volume = 0;
        const p = this._positions;
        for (let t = 0; t < triangleCount; t++) {
            const a = 3 * this._indices[3 * t];
            const b = 3 * this._indices[3 * t + 1];
            const c = 3 * this._indices[3 * t + 2];
            const ux = p[b] - p[a];
            const uy = p[b + 1] - p[a + 1];
            const uz = p[b + 2] - p[a + 2];
            const vx = p[c] - p[a];
            const vy = p[c + 1] - p[a + 1];
            const vz = p[c + 2] - p[a + 2];
            const nx = uy * vz - uz * vy;
            const ny = uz * vx - ux * vz;
            const nz = ux * vy - uy * vx;
            volume += p[a] * nx + p[a + 1] * ny + p[a + 2] * nz;
            const length = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
            this._normals[3 * t] = nx / length;
            this._normals[3 * t + 1] = ny / length;
            this._normals[3 * t + 2] = nz / length;
        }
        if (this.closed && volume < 0) {
            for (let k = 0; k < this._normals.length; k++) {
                this._normals[k] = -this._normals[k];
            }
        }
        // Grid: about two triangles per occupied cell, at most 64 cells a side.
        const min = [Infinity, Infinity, Infinity];
        const max = [-Infinity, -Infinity, -Infinity];
        for (let i = 0; i < p.length; i += 3) {
            for (let axis = 0; axis < 3; axis++) {
                if (!Number.isFinite(p[i + axis])) {
                    throw new Error(`mesh collider vertex ${i / 3} is not finite`);
                }
                min[axis] = Math.min(min[axis], p[i + axis]);
                max[axis] = Math.max(max[axis], p[i + axis]);
            }
        }
        const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2], 1e-6);
        this._cellSize = Math.max(extent / 64, extent / Math.max(1, Math.cbrt(triangleCount) * 2));
        for (let axis = 0; axis < 3; axis++) {
            this._origin[axis] = min[axis];
            this._dims[axis] = Math.max(1, Math.ceil((max[axis] - min[axis]) / this._cellSize) + 1);
        }
        const cellCount = this._dims[0] * this._dims[1] * this._dims[2];
        const counts = new Int32Array(cellCount + 1);
        this._forEachTriangleCell(triangleCount, (cell) => counts[cell + 1]++);
        for (let c = 0; c < cellCount; c++) {
            counts[c + 1] += counts[c];
        }
        this._cellStart = counts;
        this._cellTriangles = new Int32Array(counts[cellCount]);
        const fill = new Int32Array(cellCount);
        this._forEachTriangleCell(triangleCount, (cell, t) => {
            this._cellTriangles[counts[cell] + fill[cell]++] = t;
        });
        this._stamp = new Int32Array(triangleCount);
    }

    /** The triangles and the grid, as {@link query} reads them. */
    public get data(): TriangleMeshData {
        return {
            positions: this._positions,
            indices: this._indices,
            normals: this._normals,
            origin: this._origin,
            dims: this._dims,
            cellSize: this._cellSize,
            cellStart: this._cellStart,
            cellTriangles: this._cellTriangles,
        };
    }

    /** See {@link ColliderShape.query}: the distance is Infinity when nothing lies within `point[3]`. */
    public query(point: Float64Array, out: Float64Array): void {
        const px = point[0];
        const py = point[1];
        const pz = point[2];
        const reach = point[3];
        if (++this._query === 0x7fffffff) {
            this._stamp.fill(0);
            this._query = 1;
        }
        const stamp = this._query;
        const size = this._cellSize;
        const o = this._origin;
        const d = this._dims;
        const x0 = clampCell(Math.floor((px - reach - o[0]) / size), d[0]);
        const x1 = clampCell(Math.floor((px + reach - o[0]) / size), d[0]);
        const y0 = clampCell(Math.floor((py - reach - o[1]) / size), d[1]);
        const y1 = clampCell(Math.floor((py + reach - o[1]) / size), d[1]);
        const z0 = clampCell(Math.floor((pz - reach - o[2]) / size), d[2]);
        const z1 = clampCell(Math.floor((pz + reach - o[2]) / size), d[2]);
        let best2 = reach * reach;
        let bestTriangle = -1;
        let qx = 0;
        let qy = 0;
        let qz = 0;
        for (let z = z0; z <= z1; z++) {
            for (let y = y0; y <= y1; y++) {
                for (let x = x0; x <= x1; x++) {
                    const cell = x + d[0] * (y + d[1] * z);
                    for (let k = this._cellStart[cell]; k < this._cellStart[cell + 1]; k++) {
                        const t = this._cellTriangles[k];
                        if (this._stamp[t] === stamp) {
                            continue;
                        }
                        this._stamp[t] = stamp;
                        const a = 3 * this._indices[3 * t];
                        const b = 3 * this._indices[3 * t + 1];
                        const c = 3 * this._indices[3 * t + 2];
                        const closest = this._closest;
                        closestPointOnTriangle(this._positions, a, b, c, point, closest);
                        const dist2 = closest[3];
                        if (dist2 < best2) {
                            best2 = dist2;
                            bestTriangle = t;
                            qx = closest[0];
                            qy = closest[1];
                            qz = closest[2];
                        }
                    }
                }
            }
        }
        if (bestTriangle < 0) {
            out[3] = Infinity;
            return;
        }
        const n = this._normals;
        const nx = n[3 * bestTriangle];
        const ny = n[3 * bestTriangle + 1];
        const nz = n[3 * bestTriangle + 2];
        const dx = px - qx;
        const dy = py - qy;
        const dz = pz - qz;
        const distance = Math.sqrt(best2);
        const side = dx * nx + dy * ny + dz * nz;
        if (distance > 1e-9) {
            const s = this.closed && side < 0 ? -1 : 1;
            out[0] = (s * dx) / distance;
            out[1] = (s * dy) / distance;
            out[2] = (s * dz) / distance;
            out[3] = this.closed && side < 0 ? -distance : distance;
            return;
        }
        const s = !this.closed && side < 0 ? -1 : 1;
        out[0] = s * nx;
        out[1] = s * ny;
        out[2] = s * nz;
        out[3] = 0;
        return;
    }

    private _forEachTriangleCell(triangleCount: number, visit: (cell: number, triangle: number) => void): void {
        const p = this._positions;
        const size = this._cellSize;
        const o = this._origin;
        const d = this._dims;
        for (let t = 0; t < triangleCount; t++) {
            // Zero-area triangles have no normal and no closest point worth reporting: leave them out of the grid.
            if (this._normals[3 * t] === 0 && this._normals[3 * t + 1] === 0 && this._normals[3 * t + 2] === 0) {
                continue;
            }
            const lo = [Infinity, Infinity, Infinity];
            const hi = [-Infinity, -Infinity, -Infinity];
            for (let corner = 0; corner < 3; corner++) {
                const v = 3 * this._indices[3 * t + corner];
                for (let axis = 0; axis < 3; axis++) {
                    lo[axis] = Math.min(lo[axis], p[v + axis]);
                    hi[axis] = Math.max(hi[axis], p[v + axis]);
                }
            }
            const x0 = clampCell(Math.floor((lo[0] - o[0]) / size), d[0]);
            const x1 = clampCell(Math.floor((hi[0] - o[0]) / size), d[0]);
            const y0 = clampCell(Math.floor((lo[1] - o[1]) / size), d[1]);
            const y1 = clampCell(Math.floor((hi[1] - o[1]) / size), d[1]);
            const z0 = clampCell(Math.floor((lo[2] - o[2]) / size), d[2]);
            const z1 = clampCell(Math.floor((hi[2] - o[2]) / size), d[2]);
            for (let z = z0; z <= z1; z++) {
                for (let y = y0; y <= y1; y++) {
                    for (let x = x0; x <= x1; x++) {
                        visit(x + d[0] * (y + d[1] * z), t);
                    }
                }
            }
        }
    }
}

function clampCell(value: number, count: number): number {
    return value < 0 ? 0 : value >= count ? count - 1 : value;
}

function isClosed(indices: Int32Array, vertexCount: number): boolean {
    const uses = new Map<number, number>();
    for (let t = 0; t < indices.length; t += 3) {
        for (let corner = 0; corner < 3; corner++) {
            const a = indices[t + corner];
            const b = indices[t + ((corner + 1) % 3)];
            const key = Math.min(a, b) * vertexCount + Math.max(a, b);
            uses.set(key, (uses.get(key) ?? 0) + 1);
        }
    }
    for (const count of uses.values()) {
        if (count !== 2) {
            return false;
        }
    }
    return true;
}
