/**
 * Binding of render vertices to simulation particles, and the per-frame functions that move the render mesh:
 * cloth render vertices follow their welded particle, soft-body render vertices follow barycentric weights in
 * a tetrahedron.
 */
import { closestPointOnTriangle } from "../core/closestPointOnTriangle.js";

/** An indexable output array: `Float32Array` (Babylon vertex buffers), `Float64Array` or `number[]`. */
export interface WritableNumberArray {
    [index: number]: number;
    readonly length: number;
}

/** Barycentric weights outside `[BINDING_WEIGHT_MIN, BINDING_WEIGHT_MAX]` are reported as anomalies. */
export const BINDING_WEIGHT_MIN = -0.5;
/** See {@link BINDING_WEIGHT_MIN}. */
export const BINDING_WEIGHT_MAX = 1.5;

/** Problems found by {@link bindToTets}. */
export interface TetBindingReport {
    /**
     * Vertices bound with a weight below {@link BINDING_WEIGHT_MIN} or above {@link BINDING_WEIGHT_MAX}: far
     * outside their tet, so they will amplify its deformation (check the render mesh matches the tet mesh).
     */
    anomalousVertices: Int32Array;
    /** Vertices with a non-finite position: not bound (`tetIndex` −1), left untouched by {@link applyTetBinding}. */
    unboundVertices: Int32Array;
    /** Vertices outside every tet, bound to the nearest tet by extrapolation. */
    outsideVertexCount: number;
    /** Largest distance from an outside vertex to the tet it is bound to (0 when none is outside). */
    maxOutsideDistance: number;
}

/** Render vertices expressed in tets of a simulation mesh, from {@link bindToTets}. */
export interface TetBinding {
    /** The simulation tets (4 particle indices each), copied. */
    tets: Int32Array;
    /** Per render vertex, the tet it follows (−1: unbound). */
    tetIndex: Int32Array;
    /** Per render vertex, 4 barycentric weights (sum 1) for the tet's corners in order. */
    weights: Float64Array;
    /** Anomalies. */
    report: TetBindingReport;
}

/**
 * Binds each render vertex to the tet containing it (the one where it lies deepest when on a shared face), or,
 * when it lies outside every tet, to a nearest tet with extrapolated weights: among the tets within half a grid
 * cell of the nearest distance, the one whose smallest weight is largest (the mildest extrapolation). Candidate tets come from a uniform
 * grid over the tets (about 2 tets per cell), searched in growing rings, never all tets per vertex.
 * @param renderPositions - Render vertex positions in the rest pose, xyz interleaved.
 * @param simPositions - Particle rest positions, xyz interleaved.
 * @param tets - Tets, 4 particle indices each.
 * @throws Error when there are no tets, a tet index is out of range, or a particle position is not finite.
 */
export function bindToTets(renderPositions: ArrayLike<number>, simPositions: ArrayLike<number>, tets: ArrayLike<number>): TetBinding {
    const particleCount = Math.floor(simPositions.length / 3);
    if (tets.length === 0 || tets.length % 4 !== 0) {
        throw new Error(`bindToTets: tets length ${tets.length} must be a positive multiple of 4`);
    }
    for (let i = 0; i < tets.length; i++) {
        if (!Number.isInteger(tets[i]) || tets[i] < 0 || tets[i] >= particleCount) {
            throw new Error(`bindToTets: tet index ${i} (tet ${i >> 2}) is ${tets[i]}, out of range [0, ${particleCount})`);
        }
    }
    for (let i = 0; i < 3 * particleCount; i++) {
        if (!Number.isFinite(simPositions[i])) {
            throw new Error(`bindToTets: particle ${Math.floor(i / 3)} has a non-finite ${"xyz"[i % 3]} coordinate`);
        }
    }
    const p = Float64Array.from(simPositions);
    const tetList = Int32Array.from(tets);
    const grid = new TetGrid(p, tetList);
    const vertexCount = Math.floor(renderPositions.length / 3);
    const tetIndex = new Int32Array(vertexCount).fill(-1);
    const weights = new Float64Array(vertexCount * 4);
    const w = new Float64Array(4);
    const anomalous: number[] = [];
    const unbound: number[] = [];
    let outsideVertexCount = 0,
        maxOutsideDistance = 0;
    for (let v = 0; v < vertexCount; v++) {
        const x = renderPositions[3 * v],
            y = renderPositions[3 * v + 1],
            z = renderPositions[3 * v + 2];
        if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
            unbound.push(v);
            continue;
        }
        let tet = grid.containingTet(x, y, z);
        if (tet < 0) {
            const distanceSquared = grid.nearestTet(x, y, z);
            tet = grid.found;
            outsideVertexCount++;
            maxOutsideDistance = Math.max(maxOutsideDistance, Math.sqrt(distanceSquared));
        }
        barycentric(p, tetList, tet, x, y, z, w);
        tetIndex[v] = tet;
        weights.set(w, 4 * v);
        for (let k = 0; k < 4; k++) {
            if (w[k] < BINDING_WEIGHT_MIN || w[k] > BINDING_WEIGHT_MAX) {
                anomalous.push(v);
                break;
            }
        }
    }
    return {
        tets: tetList,
        tetIndex,
        weights,
        report: {
            anomalousVertices: Int32Array.from(anomalous),
            unboundVertices: Int32Array.from(unbound),
            outsideVertexCount,
            maxOutsideDistance,
        },
    };
}

/**
 * Writes each bound render vertex as the weighted sum of its tet's current particle positions. Allocation-free;
 * unbound vertices are left as they are.
 * @param binding - From {@link bindToTets}.
 * @param particlePositions - Current particle positions, xyz interleaved.
 * @param outRenderPositions - Render positions to overwrite (3 per render vertex).
 */
export function applyTetBinding(binding: TetBinding, particlePositions: ArrayLike<number>, outRenderPositions: WritableNumberArray): void {
    const { tets, tetIndex, weights } = binding;
    for (let v = 0; v < tetIndex.length; v++) {
        const t = tetIndex[v];
        if (t < 0) continue;
        const a = 3 * tets[4 * t],
            b = 3 * tets[4 * t + 1],
            c = 3 * tets[4 * t + 2],
            d = 3 * tets[4 * t + 3];
        const wa = weights[4 * v],
            wb = weights[4 * v + 1],
            wc = weights[4 * v + 2],
            wd = weights[4 * v + 3];
        for (let k = 0; k < 3; k++) {
            outRenderPositions[3 * v + k] =
                wa * particlePositions[a + k] +
                wb * particlePositions[b + k] +
                wc * particlePositions[c + k] +
                wd * particlePositions[d + k];
        }
    }
}

/**
 * Copies each render vertex's particle position (cloth: the weld map from `buildClothTopology`). Allocation-free.
 * Works for any per-particle xyz quantity, e.g. particle normals from {@link computeVertexNormals} on the
 * particle triangles, which shades seams smoothly.
 * @param renderToParticle - Render vertex → particle.
 * @param particlePositions - Current particle positions (or other xyz data), xyz interleaved.
 * @param outRenderPositions - Render array to overwrite (3 per render vertex).
 */
export function applyWeldBinding(
    renderToParticle: ArrayLike<number>,
    particlePositions: ArrayLike<number>,
    outRenderPositions: WritableNumberArray,
): void {
    for (let v = 0; v < renderToParticle.length; v++) {
        const p = 3 * renderToParticle[v];
        outRenderPositions[3 * v] = particlePositions[p];
        outRenderPositions[3 * v + 1] = particlePositions[p + 1];
        outRenderPositions[3 * v + 2] = particlePositions[p + 2];
    }
}

/**
 * Area-weighted unit vertex normals, allocation-free. Winding as Babylon's `VertexData.ComputeNormals` (left-handed,
 * the default): the face normal of triangle (p0, p1, p2) is `(p0 − p1) × (p2 − p1)`, i.e. the face is
 * counter-clockwise seen from the side the normal points to, in Babylon's left-handed frame. Unlike Babylon, which
 * averages unit face normals, faces are weighted by area (the unnormalised cross product), so slivers do not tilt
 * the normal; on meshes of uniform triangles the two agree. A vertex in no triangle (or only zero-area ones) gets
 * (0, 0, 0), as in Babylon.
 * @param positions - Vertex positions, xyz interleaved.
 * @param indices - Triangle indices, 3 per triangle.
 * @param outNormals - Normals to overwrite (3 per vertex).
 */
export function computeVertexNormals(positions: ArrayLike<number>, indices: ArrayLike<number>, outNormals: WritableNumberArray): void {
    const vertexCount = Math.floor(positions.length / 3);
    for (let i = 0; i < 3 * vertexCount; i++) outNormals[i] = 0;
    for (let t = 0; t + 2 < indices.length; t += 3) {
        const i0 = 3 * indices[t],
            i1 = 3 * indices[t + 1],
            i2 = 3 * indices[t + 2];
        const ux = positions[i0] - positions[i1],
            uy = positions[i0 + 1] - positions[i1 + 1],
            uz = positions[i0 + 2] - positions[i1 + 2];
        const vx = positions[i2] - positions[i1],
            vy = positions[i2 + 1] - positions[i1 + 1],
            vz = positions[i2 + 2] - positions[i1 + 2];
        const nx = uy * vz - uz * vy,
            ny = uz * vx - ux * vz,
            nz = ux * vy - uy * vx;
        outNormals[i0] += nx;
        outNormals[i0 + 1] += ny;
        outNormals[i0 + 2] += nz;
        outNormals[i1] += nx;
        outNormals[i1 + 1] += ny;
        outNormals[i1 + 2] += nz;
        outNormals[i2] += nx;
        outNormals[i2 + 1] += ny;
        outNormals[i2 + 2] += nz;
    }
    for (let i = 0; i < 3 * vertexCount; i += 3) {
        const length = Math.sqrt(
            outNormals[i] * outNormals[i] + outNormals[i + 1] * outNormals[i + 1] + outNormals[i + 2] * outNormals[i + 2],
        );
        if (length > 0) {
            outNormals[i] /= length;
            outNormals[i + 1] /= length;
            outNormals[i + 2] /= length;
        }
    }
}

/** Barycentric weights of q in tet t; all zero except the first when the tet is flat (never for valid tets). */
function barycentric(p: Float64Array, tets: Int32Array, t: number, qx: number, qy: number, qz: number, out: Float64Array): void {
    const a = 3 * tets[4 * t],
        b = 3 * tets[4 * t + 1],
        c = 3 * tets[4 * t + 2],
        d = 3 * tets[4 * t + 3];
    const ux = p[b] - p[a],
        uy = p[b + 1] - p[a + 1],
        uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a],
        vy = p[c + 1] - p[a + 1],
        vz = p[c + 2] - p[a + 2];
    const wx = p[d] - p[a],
        wy = p[d + 1] - p[a + 1],
        wz = p[d + 2] - p[a + 2];
    const rx = qx - p[a],
        ry = qy - p[a + 1],
        rz = qz - p[a + 2];
    const det = triple(ux, uy, uz, vx, vy, vz, wx, wy, wz);
    if (det === 0) {
        out[0] = 1;
        out[1] = out[2] = out[3] = 0;
        return;
    }
    out[1] = triple(rx, ry, rz, vx, vy, vz, wx, wy, wz) / det;
    out[2] = triple(ux, uy, uz, rx, ry, rz, wx, wy, wz) / det;
    out[3] = triple(ux, uy, uz, vx, vy, vz, rx, ry, rz) / det;
    out[0] = 1 - out[1] - out[2] - out[3];
}

function triple(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number {
    return (ay * bz - az * by) * cx + (az * bx - ax * bz) * cy + (ax * by - ay * bx) * cz;
}

/** Uniform grid of cubic cells over the tets; each tet is listed in every cell its bounding box overlaps. */
class TetGrid {
    /** Tet chosen by the last {@link TetGrid.nearestTet} call. */
    found = -1;
    private readonly min: Float64Array;
    private readonly n: Int32Array;
    private readonly inverseCell: number;
    private readonly cellSize: number;
    private readonly start: Int32Array;
    private readonly entries: Int32Array;
    private readonly stamp: Int32Array;
    private readonly visitedTets: Int32Array;
    private readonly visitedDistances: Float64Array;
    private stampValue = 0;
    private readonly weights = new Float64Array(4);
    private readonly point = new Float64Array(4);
    private readonly query = new Float64Array(3);

    constructor(
        private readonly p: Float64Array,
        private readonly tets: Int32Array,
    ) {
        const tetCount = tets.length >> 2;
        const min = new Float64Array([Infinity, Infinity, Infinity]);
        const max = new Float64Array([-Infinity, -Infinity, -Infinity]);
        for (let i = 0; i < tets.length; i++) {
            for (let k = 0; k < 3; k++) {
                min[k] = Math.min(min[k], p[3 * tets[i] + k]);
                max[k] = Math.max(max[k], p[3 * tets[i] + k]);
            }
        }
        const longest = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
        const cellsAlongLongest = Math.max(1, Math.round(Math.cbrt(tetCount / 2)));
        this.cellSize = longest > 0 ? longest / cellsAlongLongest : 1;
        this.inverseCell = 1 / this.cellSize;
        this.min = min;
        this.n = Int32Array.from([0, 1, 2], (k) => Math.max(1, Math.ceil((max[k] - min[k]) * this.inverseCell)));
        const cellCount = this.n[0] * this.n[1] * this.n[2];
        this.start = new Int32Array(cellCount + 1);
        const range = new Int32Array(6);
        for (let t = 0; t < tetCount; t++) {
            this.cellRange(t, range);
            for (let z = range[2]; z <= range[5]; z++) {
                for (let y = range[1]; y <= range[4]; y++) {
                    for (let x = range[0]; x <= range[3]; x++) this.start[x + this.n[0] * (y + this.n[1] * z) + 1]++;
                }
            }
        }
        for (let cell = 0; cell < cellCount; cell++) this.start[cell + 1] += this.start[cell];
        this.entries = new Int32Array(this.start[cellCount]);
        const fill = this.start.slice(0, cellCount);
        for (let t = 0; t < tetCount; t++) {
            this.cellRange(t, range);
            for (let z = range[2]; z <= range[5]; z++) {
                for (let y = range[1]; y <= range[4]; y++) {
                    for (let x = range[0]; x <= range[3]; x++) this.entries[fill[x + this.n[0] * (y + this.n[1] * z)]++] = t;
                }
            }
        }
        this.stamp = new Int32Array(tetCount);
        this.visitedTets = new Int32Array(tetCount);
        this.visitedDistances = new Float64Array(tetCount);
    }

    /** The tet containing q where q lies deepest (largest smallest weight), or −1. */
    containingTet(x: number, y: number, z: number): number {
        const cx = this.cellCoordinate(x, 0),
            cy = this.cellCoordinate(y, 1),
            cz = this.cellCoordinate(z, 2);
        if (cx < 0 || cy < 0 || cz < 0 || cx >= this.n[0] || cy >= this.n[1] || cz >= this.n[2]) return -1;
        const cell = cx + this.n[0] * (cy + this.n[1] * cz);
        let best = -1,
            bestDepth = -1e-9;
        for (let s = this.start[cell]; s < this.start[cell + 1]; s++) {
            const t = this.entries[s];
            barycentric(this.p, this.tets, t, x, y, z, this.weights);
            const depth = Math.min(this.weights[0], this.weights[1], this.weights[2], this.weights[3]);
            if (depth >= bestDepth) {
                if (depth > bestDepth || best < 0) best = t;
                bestDepth = depth;
            }
        }
        return best;
    }

    /**
     * Sets {@link TetGrid.found} to the tet q is least outside of, and returns q's squared distance to it. Among the
     * tets within half a cell of the nearest distance, the one with the largest smallest weight wins: near the
     * surface the strictly nearest tet is often a thin snapped one whose extrapolated weights would be large.
     */
    nearestTet(x: number, y: number, z: number): number {
        const cx = this.cellCoordinate(x, 0),
            cy = this.cellCoordinate(y, 1),
            cz = this.cellCoordinate(z, 2);
        const n = this.n;
        const maxRing = Math.max(
            cx,
            n[0] - 1 - cx,
            cy,
            n[1] - 1 - cy,
            cz,
            n[2] - 1 - cz,
            -cx,
            cx - n[0] + 1,
            -cy,
            cy - n[1] + 1,
            -cz,
            cz - n[2] + 1,
        );
        const margin = 0.5 * this.cellSize;
        this.stampValue++;
        let nearest = Infinity;
        let visited = 0;
        for (let r = 0; r <= maxRing; r++) {
            for (let iz = Math.max(cz - r, 0); iz <= Math.min(cz + r, n[2] - 1); iz++) {
                for (let iy = Math.max(cy - r, 0); iy <= Math.min(cy + r, n[1] - 1); iy++) {
                    const onShell = iz === cz - r || iz === cz + r || iy === cy - r || iy === cy + r;
                    for (let ix = Math.max(cx - r, 0); ix <= Math.min(cx + r, n[0] - 1); ix++) {
                        if (!onShell && ix !== cx - r && ix !== cx + r) continue;
                        const cell = ix + n[0] * (iy + n[1] * iz);
                        for (let s = this.start[cell]; s < this.start[cell + 1]; s++) {
                            const t = this.entries[s];
                            if (this.stamp[t] === this.stampValue) continue;
                            this.stamp[t] = this.stampValue;
                            const d = Math.sqrt(this.distanceSquaredToTet(t, x, y, z));
                            this.visitedTets[visited] = t;
                            this.visitedDistances[visited++] = d;
                            if (d < nearest) nearest = d;
                        }
                    }
                }
            }
            // Tets not met yet lie outside the (2r + 1)³ block of cells around q, hence at least r cells away.
            if (nearest + margin <= r * this.cellSize) break;
        }
        let bestDepth = -Infinity,
            bestDistance = Infinity;
        this.found = -1;
        for (let i = 0; i < visited; i++) {
            if (this.visitedDistances[i] > nearest + margin) continue;
            const t = this.visitedTets[i];
            barycentric(this.p, this.tets, t, x, y, z, this.weights);
            const depth = Math.min(this.weights[0], this.weights[1], this.weights[2], this.weights[3]);
            if (depth > bestDepth) {
                bestDepth = depth;
                bestDistance = this.visitedDistances[i];
                this.found = t;
            }
        }
        return bestDistance * bestDistance;
    }

    private distanceSquaredToTet(t: number, x: number, y: number, z: number): number {
        const p = this.p,
            tets = this.tets,
            point = this.point,
            query = this.query;
        query[0] = x;
        query[1] = y;
        query[2] = z;
        let best = Infinity;
        for (let f = 0; f < 4; f++) {
            // Faces: every corner triple (the skipped corner is f).
            const a = 3 * tets[4 * t + (f === 0 ? 1 : 0)];
            const b = 3 * tets[4 * t + (f <= 1 ? 2 : 1)];
            const c = 3 * tets[4 * t + (f <= 2 ? 3 : 2)];
            closestPointOnTriangle(p, a, b, c, query, point);
            if (point[3] < best) best = point[3];
        }
        return best;
    }

    private cellCoordinate(value: number, axis: number): number {
        return Math.floor((value - this.min[axis]) * this.inverseCell);
    }

    private cellRange(t: number, out: Int32Array): void {
        for (let k = 0; k < 3; k++) {
            let lo = Infinity,
                hi = -Infinity;
            for (let c = 0; c < 4; c++) {
                const value = this.p[3 * this.tets[4 * t + c] + k];
                lo = Math.min(lo, value);
                hi = Math.max(hi, value);
            }
            out[k] = clamp(this.cellCoordinate(lo, k), 0, this.n[k] - 1);
            out[3 + k] = clamp(this.cellCoordinate(hi, k), 0, this.n[k] - 1);
        }
    }
}

function clamp(value: number, lo: number, hi: number): number {
    return value < lo ? lo : value > hi ? hi : value;
}
