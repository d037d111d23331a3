/**
 * Tetrahedralisation of a closed triangle mesh on a body-centred-cubic lattice, for soft bodies.
 */
import { buildMeshEdges } from "./meshEdges.js";
import { validateTriangleMesh } from "./meshValidation.js";
import { tetVolume } from "../core/volumeConstraints.js";
import { describeValue } from "../core/argumentChecks.js";
import { SurfaceTree } from "./surfaceTree.js";
import { tetQuality } from "./tetGeometry.js";
import { sortedTripleOrder, writeSortedTriple } from "./tripleOrder.js";
import { weldVertices } from "./weldVertices.js";
import { finishSteps, phaseSteps, type MeshingSteps } from "./meshingSteps.js";
import { snapBoundaryVertices } from "./boundarySnap.js";

/** Default lattice resolution: cells along the longest axis of the mesh bounds. */
export const DEFAULT_TET_RESOLUTION = 10;

/**
 * Largest accepted resolution, refused before anything is allocated. At 64 a 1 m sphere already has 1.6 million tets
 * and 290,000 particles (6 s to build, 220 MB), far beyond a real-time step; 256 would need gigabytes.
 */
export const MAX_TET_RESOLUTION = 64;

/**
 * Lattice shift, in cells, off the mesh centre: keeps lattice planes off the faces of axis-aligned meshes
 * (boxes), where centroid classification would be a tie decided by rounding.
 */
const LATTICE_SHIFT = 0.1234;

/** Lattice nodes, straddling-tet rows or boundary vertices handled between two progress reports of {@link tetrahedralizeSteps}. */
const STEP_CHUNK = 64;

/**
 * Where each phase of {@link tetrahedralizeSteps} ends in its progress, measured (roughly) on a 10k-triangle sphere at
 * resolution 24: classifying lattice nodes, keeping tets (centroids of straddling ones), snapping boundary vertices.
 */
const NODES_DONE = 0.5;
const TETS_DONE = 0.62;
const SNAP_DONE = 0.8;

/** Options of {@link tetrahedralize}. */
export interface TetrahedralizeOptions {
    /**
     * Lattice cells along the longest axis of the mesh bounds (integer 1–{@link MAX_TET_RESOLUTION}). Default {@link DEFAULT_TET_RESOLUTION}
     * (10): roughly 12 tets per interior cell, e.g. ≈ 6,400 tets / 1,500 particles for a sphere.
     */
    resolution?: number;
    /**
     * Accept a mesh with boundary edges (default false: such a mesh throws). Inside/outside then comes from the
     * generalised winding number, which fills small holes sensibly but is only a best effort; a warning says so.
     */
    allowOpen?: boolean;
    /** Move boundary lattice vertices onto the surface (closest point) where that keeps tets valid. Default true. */
    snapToSurface?: boolean;
}

/** Figures about a {@link TetMesh}. */
export interface TetMeshStats {
    /** Number of tetrahedra. */
    tetCount: number;
    /** Number of particles (lattice vertices used by a tet). */
    particleCount: number;
    /** Total volume of the tets. */
    volume: number;
    /** Volume enclosed by the input mesh (divergence theorem; approximate for an open mesh). */
    meshVolume: number;
    /**
     * Smallest tet quality `6√2 · V / ℓ³rms` (ℓrms: root mean square edge length): 1 for a regular tet, 0.93 for
     * an untouched lattice tet, lower where snapping moved vertices. Always positive.
     */
    minQuality: number;
    /** Boundary vertices moved onto the surface (fully or part of the way). */
    snappedVertices: number;
    /** Boundary vertices left in place because every snap tried would have degraded or inverted a tet. */
    rejectedSnaps: number;
}

/** A tetrahedral mesh for the core's `SoftBodyDescriptor`: `positions` and `tets` plug in directly. */
export interface TetMesh {
    /** Particle rest positions, xyz interleaved. */
    positions: Float64Array;
    /** Tetrahedra, 4 particle indices each, all with `((b − a) × (c − a)) · (d − a) > 0`. */
    tets: Int32Array;
    /**
     * Boundary faces of the tet mesh (faces used by one tet), 3 particle indices each, wound like Babylon meshes:
     * the outward normal is `(p0 − p1) × (p2 − p1)` (what `VertexData.ComputeNormals` computes; counter-clockwise
     * seen from outside in Babylon's left-handed frame). Closed; where two tets touch only along an edge (thin parts
     * at a low resolution) that edge has four boundary faces.
     */
    surfaceTriangles: Int32Array;
    /** Counts, volumes and quality. */
    stats: TetMeshStats;
    /** Non-fatal problems (open or non-manifold input), human-readable. */
    warnings: string[];
}

/** Returns `value` if it is a lattice resolution {@link tetrahedralize} accepts; otherwise throws naming `name`. */
export function tetResolution(value: number, name: string): number {
    if (!Number.isInteger(value) || value < 1 || value > MAX_TET_RESOLUTION) {
        throw new RangeError(`${name} must be an integer in [1, ${MAX_TET_RESOLUTION}] (got ${describeValue(value)})`);
    }
    return value;
}

/**
 * Fills a closed triangle mesh (box, sphere, torus knot, glTF model; UV seams are welded first, either winding
 * is accepted) with tetrahedra.
 *
 * Method: a body-centred-cubic lattice (cube corners plus cube centres; 4 tets around each face shared by two
 * cubes, all congruent) over the mesh bounds. Lattice nodes are classified inside/outside by the generalised
 * winding number (grid-clustered: exact near, dipole far); a tet with all four nodes inside is kept, with none
 * inside dropped, and a straddling tet is kept when its centroid is inside. Then each boundary vertex of the kept
 * tets is moved onto its closest surface point (or half / a quarter of the way) unless that would bring an
 * incident tet below quality 0.1 (and below its quality before), so no tet is ever inverted or flat.
 *
 * Tet volume / mesh volume − 1, measured on Babylon vertex data (box size 1; sphere diameter 1, 32 segments;
 * torus diameter 1, thickness 0.3, 32 segments), at resolutions 6 / 10 (default) / 16:
 * box −3.0% / −1.5% / −0.8%, sphere −3.4% / −1.3% / −0.6%, torus −15.8% / −4.6% / −3.1%. The snapped boundary
 * is inscribed in curved surfaces, so the tets fall slightly short; thin parts (the torus tube is 2.3 cells across
 * at resolution 10) need a higher resolution. Minimum quality ≈ 0.1 (the snap limit) on curved meshes, 0.235 on
 * the box; untouched lattice tets have 0.93.
 * @param positions - Vertex positions, xyz interleaved.
 * @param indices - Triangle indices, 3 per triangle.
 * @param options - Resolution, open-mesh policy, snapping.
 * @throws Error for an empty mesh, a non-finite coordinate, an out-of-range index or a length that is not a
 *   multiple of 3 (naming the element); `tetrahedralize: mesh is not closed (N boundary edges)` unless
 *   `allowOpen`; a bad resolution; a mesh that encloses no lattice tet.
 */
export function tetrahedralize(positions: ArrayLike<number>, indices: ArrayLike<number>, options: TetrahedralizeOptions = {}): TetMesh {
    return finishSteps(tetrahedralizeSteps(positions, indices, options));
}

/**
 * {@link tetrahedralize} in steps (see `MeshingSteps`): the same work, yielding its progress every few dozen
 * lattice nodes, tet rows or boundary vertices, so that it can run in time slices or report its progress. Input
 * errors throw at the first step.
 */
export function* tetrahedralizeSteps(
    positions: ArrayLike<number>,
    indices: ArrayLike<number>,
    options: TetrahedralizeOptions = {},
): MeshingSteps<TetMesh> {
    validateTriangleMesh("tetrahedralize", positions, indices);
    const resolution = tetResolution(options.resolution ?? DEFAULT_TET_RESOLUTION, "tetrahedralize: resolution");
    const warnings: string[] = [];

    // Weld seams so that closedness and the winding number see one connected surface.
    yield 0;
    const weld = weldVertices(positions);
    yield 0;
    const surfacePositions = weld.positions;
    const surface: number[] = [];
    for (let i = 0; i < indices.length; i += 3) {
        const a = weld.renderToParticle[indices[i]];
        const b = weld.renderToParticle[indices[i + 1]];
        const c = weld.renderToParticle[indices[i + 2]];
        if (a !== b && b !== c && c !== a) surface.push(a, b, c);
    }
    if (surface.length === 0) throw new Error("tetrahedralize: every triangle is degenerate");
    const edges = buildMeshEdges(surface, weld.particleCount);
    yield 0;
    let boundaryEdges = 0,
        nonManifoldEdges = 0;
    for (let e = 0; e < edges.count; e++) {
        if (edges.triangleCount[e] === 1) boundaryEdges++;
        else if (edges.triangleCount[e] > 2) nonManifoldEdges++;
    }
    if (boundaryEdges > 0) {
        if (!options.allowOpen) throw new Error(`tetrahedralize: mesh is not closed (${boundaryEdges} boundary edges)`);
        warnings.push(`mesh is not closed (${boundaryEdges} boundary edges): inside/outside is a winding-number best effort`);
    }
    if (nonManifoldEdges > 0) warnings.push(`mesh has ${nonManifoldEdges} non-manifold edges`);

    let signedVolume = 0;
    const bounds = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let i = 0; i < surface.length; i += 3) {
        // Tets from vertex 0 to each face: the divergence theorem, well conditioned for meshes far from the origin.
        signedVolume += tetVolume(surfacePositions, surface[0], surface[i], surface[i + 1], surface[i + 2]);
        for (let k = 0; k < 3; k++) {
            for (let axis = 0; axis < 3; axis++) {
                const x = surfacePositions[3 * surface[i + k] + axis];
                if (x < bounds[axis]) bounds[axis] = x;
                if (x > bounds[3 + axis]) bounds[3 + axis] = x;
            }
        }
    }
    // Inside is where the winding number has the sign of the enclosed volume, whichever way the mesh is wound.
    const orientation = signedVolume >= 0 ? 1 : -1;
    yield 0;
    const surfaceTree = new SurfaceTree(surfacePositions, surface);
    yield 0;
    const isInside = (x: number, y: number, z: number): boolean => orientation * surfaceTree.windingNumber(x, y, z) >= 0.5;

    // Lattice: at least two empty cells of margin on every side, so dropped outer faces never matter.
    const extent = [bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]];
    const cell = Math.max(extent[0], extent[1], extent[2]) / resolution;
    if (!(cell > 0)) throw new Error("tetrahedralize: mesh has zero extent");
    const n = extent.map((e) => Math.ceil(e / cell) + 4);
    const origin = [0, 1, 2].map((a) => (bounds[a] + bounds[3 + a]) / 2 - (n[a] * cell) / 2 + LATTICE_SHIFT * cell);
    const [nx, ny, nz] = n;
    const cornerCount = (nx + 1) * (ny + 1) * (nz + 1);
    const nodeCount = cornerCount + nx * ny * nz;
    const nodes = new Float64Array(nodeCount * 3);
    for (let k = 0; k <= nz; k++) {
        for (let j = 0; j <= ny; j++) {
            for (let i = 0; i <= nx; i++) {
                const v = 3 * (i + (nx + 1) * (j + (ny + 1) * k));
                nodes[v] = origin[0] + i * cell;
                nodes[v + 1] = origin[1] + j * cell;
                nodes[v + 2] = origin[2] + k * cell;
                if (i < nx && j < ny && k < nz) {
                    const c = 3 * (cornerCount + i + nx * (j + ny * k));
                    nodes[c] = nodes[v] + cell / 2;
                    nodes[c + 1] = nodes[v + 1] + cell / 2;
                    nodes[c + 2] = nodes[v + 2] + cell / 2;
                }
            }
        }
    }
    yield 0;
    const nodeInside = new Uint8Array(nodeCount);
    for (let v = 0; v < nodeCount; v++) {
        const x = nodes[3 * v],
            y = nodes[3 * v + 1],
            z = nodes[3 * v + 2];
        const inBounds = x >= bounds[0] && x <= bounds[3] && y >= bounds[1] && y <= bounds[4] && z >= bounds[2] && z <= bounds[5];
        nodeInside[v] = inBounds && isInside(x, y, z) ? 1 : 0;
        if (v % STEP_CHUNK === 0) yield (NODES_DONE * v) / nodeCount;
    }

    // Four tets around every face shared by two cubes: (centre, centre', face edge).
    const corner = (i: number, j: number, k: number): number => i + (nx + 1) * (j + (ny + 1) * k);
    const centre = (i: number, j: number, k: number): number => cornerCount + i + nx * (j + ny * k);
    const kept: number[] = [];
    const c = [0, 0, 0];
    for (let axis = 0; axis < 3; axis++) {
        const u = (axis + 1) % 3,
            w = (axis + 2) % 3;
        for (c[2] = 0; c[2] < nz; c[2]++) {
            for (c[1] = 0; c[1] < ny; c[1]++) {
                if (c[1] % 4 === 0) yield NODES_DONE + ((TETS_DONE - NODES_DONE) * (axis * nz + c[2])) / (3 * nz);
                for (c[0] = 0; c[0] < nx; c[0]++) {
                    if (c[axis] + 1 >= n[axis]) continue;
                    const c1 = centre(c[0], c[1], c[2]);
                    c[axis]++;
                    const c2 = centre(c[0], c[1], c[2]);
                    const square: number[] = [];
                    for (const [du, dw] of [
                        [0, 0],
                        [1, 0],
                        [1, 1],
                        [0, 1],
                    ]) {
                        c[u] += du;
                        c[w] += dw;
                        square.push(corner(c[0], c[1], c[2]));
                        c[u] -= du;
                        c[w] -= dw;
                    }
                    c[axis]--;
                    for (let e = 0; e < 4; e++) {
                        let q0 = square[e],
                            q1 = square[(e + 1) % 4];
                        const inside = nodeInside[c1] + nodeInside[c2] + nodeInside[q0] + nodeInside[q1];
                        if (inside === 0) continue;
                        if (inside < 4) {
                            const x = (nodes[3 * c1] + nodes[3 * c2] + nodes[3 * q0] + nodes[3 * q1]) / 4;
                            const y = (nodes[3 * c1 + 1] + nodes[3 * c2 + 1] + nodes[3 * q0 + 1] + nodes[3 * q1 + 1]) / 4;
                            const z = (nodes[3 * c1 + 2] + nodes[3 * c2 + 2] + nodes[3 * q0 + 2] + nodes[3 * q1 + 2]) / 4;
                            if (!isInside(x, y, z)) continue;
                        }
                        if (tetVolume(nodes, c1, c2, q0, q1) < 0) {
                            const t = q0;
                            q0 = q1;
                            q1 = t;
                        }
                        kept.push(c1, c2, q0, q1);
                    }
                }
            }
        }
    }
    if (kept.length === 0) {
        throw new Error(
            `tetrahedralize: no lattice tet lies inside the mesh at resolution ${resolution} (mesh volume ` +
                `${Math.abs(signedVolume)}); raise the resolution or check that the mesh is closed`,
        );
    }
    const tetCount = kept.length / 4;

    yield TETS_DONE;
    let boundaryFaces = findBoundaryFaces(kept);
    yield TETS_DONE;
    let snappedVertices = 0,
        rejectedSnaps = 0;
    if (options.snapToSurface ?? true) {
        const snap = snapBoundaryVertices(nodes, nodeCount, kept, boundaryFaces, surfaceTree);
        [snappedVertices, rejectedSnaps] = yield* phaseSteps(snap, TETS_DONE, SNAP_DONE);
    }

    // Keep only the lattice nodes that tets use, in lattice order.
    yield SNAP_DONE;
    const newIndex = new Int32Array(nodeCount).fill(-1);
    for (const v of kept) newIndex[v] = 0;
    let particleCount = 0;
    for (let v = 0; v < nodeCount; v++) if (newIndex[v] === 0) newIndex[v] = particleCount++;
    const out = new Float64Array(particleCount * 3);
    for (let v = 0; v < nodeCount; v++) {
        if (newIndex[v] >= 0) out.set(nodes.subarray(3 * v, 3 * v + 3), 3 * newIndex[v]);
    }
    const tets = Int32Array.from(kept, (v) => newIndex[v]);
    boundaryFaces = boundaryFaces.map((v) => newIndex[v]);

    yield SNAP_DONE;
    let volume = 0,
        minQuality = Infinity;
    for (let t = 0; t < tets.length; t += 4) {
        volume += tetVolume(out, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]);
        minQuality = Math.min(minQuality, tetQuality(out, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]));
        if (t % (64 * STEP_CHUNK) === 0) yield SNAP_DONE + ((1 - SNAP_DONE) * t) / tets.length;
    }
    return {
        positions: out,
        tets,
        surfaceTriangles: boundaryFaces,
        stats: {
            tetCount,
            particleCount,
            volume,
            meshVolume: Math.abs(signedVolume),
            minQuality,
            snappedVertices,
            rejectedSnaps,
        },
        warnings,
    };
}

/**
 * Faces used by exactly one tet, wound with the outward normal `(p0 − p1) × (p2 − p1)`: for a positive tet
 * (a, b, c, d) those are (a, b, c), (a, d, b), (b, d, c), (a, c, d).
 */
function findBoundaryFaces(tets: number[]): Int32Array {
    const faceCount = tets.length;
    const faces = new Int32Array(faceCount * 3);
    const sorted = new Int32Array(faceCount * 3);
    for (let t = 0; t < tets.length; t += 4) {
        const a = tets[t],
            b = tets[t + 1],
            c = tets[t + 2],
            d = tets[t + 3];
        faces.set([a, b, c, a, d, b, b, d, c, a, c, d], 3 * t);
        for (let f = t; f < t + 4; f++) writeSortedTriple(sorted, f, faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]);
    }
    const order = sortedTripleOrder(sorted, faceCount);
    const same = (i: number, j: number): boolean =>
        sorted[3 * i] === sorted[3 * j] && sorted[3 * i + 1] === sorted[3 * j + 1] && sorted[3 * i + 2] === sorted[3 * j + 2];
    const boundary: number[] = [];
    for (let k = 0; k < faceCount;) {
        let end = k + 1;
        while (end < faceCount && same(order[k], order[end])) end++;
        if (end - k === 1) boundary.push(order[k]);
        k = end;
    }
    boundary.sort((x, y) => x - y);
    const result = new Int32Array(boundary.length * 3);
    boundary.forEach((f, i) => result.set(faces.subarray(3 * f, 3 * f + 3), 3 * i));
    return result;
}
