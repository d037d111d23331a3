import { closestPointOnTriangle } from "../core/index.js";
import type { TetMesh } from "./tetrahedralize.js";
import type { WritableNumberArray } from "./renderBinding.js";
import { finishSteps, type MeshingSteps } from "./meshingSteps.js";

/**
 * How render vertices follow a surface of particles without tetrahedra inside: each vertex is tied to its nearest
 * surface triangle by the barycentric weights of its closest point there and its offset from that point in the
 * triangle's own frame (along its first edge, across it in its plane, and along its normal). As the triangle
 * moves, turns and stretches, the vertex keeps those weights and that offset, so a rigid motion moves it exactly.
 */
export interface SurfaceBinding {
    /** The particle triangles (three indices each) the binding refers to. */
    readonly triangles: Int32Array;
    /** Per render vertex, the index of its triangle (a multiple of 3 into {@link triangles}). */
    readonly triangle: Int32Array;
    /** Per render vertex, the barycentric weights of its corners (three each). */
    readonly weights: Float64Array;
    /** Per render vertex, its offset from its closest point in the triangle's frame (m, three each). */
    readonly offsets: Float64Array;
    /** Scratch of {@link applySurfaceBinding} (a triangle's frame), so that it allocates nothing. */
    readonly frame: Float64Array;
}

/** The surface of a tet lattice as a mesh of its own: its surface particles only, and its triangles renumbered. */
export function latticeSurface(tets: TetMesh): { positions: Float64Array; triangles: Int32Array } {
    const index = new Int32Array(tets.positions.length / 3).fill(-1);
    const triangles = new Int32Array(tets.surfaceTriangles.length);
    let count = 0;
    for (let k = 0; k < triangles.length; k++) {
        const p = tets.surfaceTriangles[k];
        if (index[p] < 0) {
            index[p] = count++;
        }
        triangles[k] = index[p];
    }
    const positions = new Float64Array(3 * count);
    for (let p = 0; p < index.length; p++) {
        if (index[p] >= 0) {
            positions.set(tets.positions.subarray(3 * p, 3 * p + 3), 3 * index[p]);
        }
    }
    return { positions, triangles };
}

/**
 * Ties every render vertex to its nearest particle triangle (see {@link SurfaceBinding}). A brute-force search:
 * vertices × triangles closest-point queries, once when a body is built.
 *
 * @param renderPositions - render vertex positions, xyz
 * @param positions - particle positions, xyz
 * @param triangles - particle triangles, three indices each (none degenerate)
 */
export function bindToSurface(renderPositions: ArrayLike<number>, positions: Float64Array, triangles: Int32Array): SurfaceBinding {
    return finishSteps(bindToSurfaceSteps(renderPositions, positions, triangles));
}

/** {@link bindToSurface} in steps (see `MeshingSteps`), yielding its progress every few render vertices. */
export function* bindToSurfaceSteps(
    renderPositions: ArrayLike<number>,
    positions: Float64Array,
    triangles: Int32Array,
): MeshingSteps<SurfaceBinding> {
    // Each vertex is a search of every triangle: a few vertices per step keep a step well under a millisecond.
    const chunk = Math.max(1, Math.floor(20_000 / Math.max(1, triangles.length / 3)));
    const vertexCount = renderPositions.length / 3;
    const triangle = new Int32Array(vertexCount);
    const weights = new Float64Array(3 * vertexCount);
    const offsets = new Float64Array(3 * vertexCount);
    const query = new Float64Array(3);
    const closest = new Float64Array(7);
    const frame = new Float64Array(9);
    for (let v = 0; v < vertexCount; v++) {
        if (v % chunk === 0) yield v / vertexCount;
        query[0] = renderPositions[3 * v];
        query[1] = renderPositions[3 * v + 1];
        query[2] = renderPositions[3 * v + 2];
        let best = 0;
        let bestDistance = Infinity;
        for (let t = 0; t < triangles.length; t += 3) {
            closestPointOnTriangle(positions, 3 * triangles[t], 3 * triangles[t + 1], 3 * triangles[t + 2], query, closest);
            if (closest[3] < bestDistance) {
                bestDistance = closest[3];
                best = t;
            }
        }
        closestPointOnTriangle(positions, 3 * triangles[best], 3 * triangles[best + 1], 3 * triangles[best + 2], query, closest);
        weights.set(closest.subarray(4, 7), 3 * v);
        triangleFrame(positions, 3 * triangles[best], 3 * triangles[best + 1], 3 * triangles[best + 2], frame);
        triangle[v] = best;
        for (let k = 0; k < 3; k++) {
            offsets[3 * v + k] =
                (query[0] - closest[0]) * frame[3 * k] +
                (query[1] - closest[1]) * frame[3 * k + 1] +
                (query[2] - closest[2]) * frame[3 * k + 2];
        }
    }
    return { triangles, triangle, weights, offsets, frame };
}

/** Writes the render vertex positions that `binding` gives for the particle positions `positions` into `out`. */
export function applySurfaceBinding(binding: SurfaceBinding, positions: Float64Array, out: WritableNumberArray): void {
    const { triangles, triangle, weights, offsets, frame } = binding;
    const x = positions;
    for (let v = 0; v < triangle.length; v++) {
        const t = triangle[v];
        const a = 3 * triangles[t];
        const b = 3 * triangles[t + 1];
        const c = 3 * triangles[t + 2];
        triangleFrame(x, a, b, c, frame);
        const wa = weights[3 * v];
        const wb = weights[3 * v + 1];
        const wc = weights[3 * v + 2];
        const o1 = offsets[3 * v];
        const o2 = offsets[3 * v + 1];
        const on = offsets[3 * v + 2];
        for (let k = 0; k < 3; k++) {
            out[3 * v + k] = wa * x[a + k] + wb * x[b + k] + wc * x[c + k] + o1 * frame[k] + o2 * frame[3 + k] + on * frame[6 + k];
        }
    }
}

/** The particle with the largest weight for each render vertex (the one a pin painted on it belongs to). */
export function dominantSurfaceParticles(binding: SurfaceBinding): Int32Array {
    const { triangles, triangle, weights } = binding;
    const out = new Int32Array(triangle.length);
    for (let v = 0; v < triangle.length; v++) {
        let best = 0;
        for (let k = 1; k < 3; k++) {
            if (weights[3 * v + k] > weights[3 * v + best]) {
                best = k;
            }
        }
        out[v] = triangles[triangle[v] + best];
    }
    return out;
}

/**
 * The triangle's orthonormal frame into `out`: the unit first edge (a → b), the in-plane direction across it, and
 * the unit normal `(b − a) × (c − a) / |…|`, three numbers each.
 */
function triangleFrame(x: Float64Array, a: number, b: number, c: number, out: Float64Array): void {
    const e1x = x[b] - x[a];
    const e1y = x[b + 1] - x[a + 1];
    const e1z = x[b + 2] - x[a + 2];
    const e2x = x[c] - x[a];
    const e2y = x[c + 1] - x[a + 1];
    const e2z = x[c + 2] - x[a + 2];
    const nx = e1y * e2z - e1z * e2y;
    const ny = e1z * e2x - e1x * e2z;
    const nz = e1x * e2y - e1y * e2x;
    const ln = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const le = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
    out[0] = e1x / le;
    out[1] = e1y / le;
    out[2] = e1z / le;
    out[6] = nx / ln;
    out[7] = ny / ln;
    out[8] = nz / ln;
    // n × t: in the plane, perpendicular to the first edge.
    out[3] = out[7] * out[2] - out[8] * out[1];
    out[4] = out[8] * out[0] - out[6] * out[2];
    out[5] = out[6] * out[1] - out[7] * out[0];
}
