/**
 * Binding of render vertices to simulation particles, and the per-frame functions that move the render mesh:
 * cloth render vertices follow their welded particle, soft-body render vertices follow barycentric weights in
 * a tetrahedron.
 */
import { finishSteps, type MeshingSteps } from "./meshingSteps.js";
import { barycentric, TetGrid } from "./tetGrid.js";

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
    return finishSteps(bindToTetsSteps(renderPositions, simPositions, tets));
}

/** {@link bindToTets} in steps (see `MeshingSteps`), yielding its progress every 64 render vertices. */
export function* bindToTetsSteps(
    renderPositions: ArrayLike<number>,
    simPositions: ArrayLike<number>,
    tets: ArrayLike<number>,
): MeshingSteps<TetBinding> {
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
    yield 0;
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
        if (v % 64 === 0) yield v / vertexCount;
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
