/**
 * Cloth topology of an indexed triangle mesh: welded particles and the stretch, shear and bend elements that
 * `SoftBodyDescriptor` consumes.
 */
import { ClothElements } from "../core/clothElements.js";
import { validateTriangleMesh } from "./meshValidation.js";
import { sortedTripleOrder, writeSortedTriple } from "./tripleOrder.js";
import { weldVertices } from "./weldVertices.js";

/** Options of {@link buildClothTopology}. */
export interface ClothTopologyOptions {
    /**
     * Vertices closer than this (world units) become one particle. Default `DEFAULT_RELATIVE_WELD_TOLERANCE`
     * (1e-6) × the bounding-box diagonal: it merges UV / normal seams, never distinct vertices.
     */
    weldTolerance?: number;
}

/** What {@link buildClothTopology} found wrong or noteworthy in the mesh; nothing here is an error. */
export interface ClothTopologyReport {
    /** Weld tolerance used (world units). */
    weldTolerance: number;
    /** Non-manifold edges (used by more than two triangles), 2 particle indices each: they get no shear or bend. */
    nonManifoldEdges: Int32Array;
    /** Particles used by no kept triangle (they still appear in `positions`, with no element attached). */
    isolatedParticles: Int32Array;
    /**
     * Input triangles dropped as degenerate: two corners welded into one particle, or zero area
     * (`|e₁ × e₂| ≤ 1e-12 · ℓ²max`, collinear corners).
     */
    degenerateTriangles: Int32Array;
    /** Input triangles dropped because an earlier kept triangle has the same three particles (any winding). */
    duplicateTriangles: Int32Array;
    /** Edges used by exactly one triangle (the cloth border; 0 for a closed surface). */
    boundaryEdgeCount: number;
    /**
     * Interior edges whose two triangles traverse them in the same direction (the winding flips there, as on a
     * Möbius strip or a mesh with mixed winding). They still get shear and bend elements.
     */
    inconsistentEdgeCount: number;
}

/**
 * Particles and constraint elements of a cloth, in particle indices. `positions`, `triangles`, `stretch`, `shear`
 * and `bend` plug straight into `SoftBodyDescriptor`.
 */
export interface ClothTopology {
    /** Particle rest positions, xyz interleaved. */
    positions: Float64Array;
    /** Kept triangles in particle indices, with the input winding. */
    triangles: Int32Array;
    /** Input triangle index of each kept triangle. */
    triangleSource: Int32Array;
    /** Render vertex → particle (the weld map; feed it to `applyWeldBinding`). */
    renderToParticle: Int32Array;
    /** Stretch pairs: every unique edge of the kept triangles, smaller index first. */
    stretch: Int32Array;
    /**
     * Shear pairs: for each interior edge shared by exactly two triangles, the two vertices opposite it (the other
     * diagonal of the quad the two triangles form). A pair already present as a stretch edge or as an earlier shear
     * pair is skipped, so no distance constraint is doubled.
     */
    shear: Int32Array;
    /**
     * Bend elements `[a, b, c, d]`, one per interior edge shared by exactly two triangles: `c`–`d` is the hinge,
     * `(a, c, d)` is (a rotation of) the triangle that traverses the hinge from `c` to `d` and `(b, d, c)` the one
     * that traverses it from `d` to `c`, so both keep the mesh winding (see `SoftBodyDescriptor.bend`).
     */
    bend: Int32Array;
    /** Anomalies found while building. */
    report: ClothTopologyReport;
}

/**
 * Builds cloth topology from any indexed triangle mesh (Babylon vertex data: seams, poles and double sides are fine).
 *
 * Definitions: coincident vertices (within the weld tolerance) become one particle; triangles are mapped to
 * particles, degenerate ones and repeats are dropped (and listed in the report); stretch = every unique edge;
 * shear = the opposite-vertex pair across each two-triangle edge; bend = one dihedral element per two-triangle
 * edge. Edges with more than two triangles are listed as non-manifold and get neither shear nor bend; nothing in a
 * malformed but finite mesh makes this throw.
 * @param positions - Render vertex positions, xyz interleaved.
 * @param indices - Triangle indices into the render vertices, 3 per triangle.
 * @param options - Weld tolerance.
 * @throws Error for an empty mesh, a non-finite coordinate or an out-of-range index (see `validateTriangleMesh`).
 */
export function buildClothTopology(
    positions: ArrayLike<number>,
    indices: ArrayLike<number>,
    options: ClothTopologyOptions = {},
): ClothTopology {
    validateTriangleMesh("buildClothTopology", positions, indices);
    const weld = weldVertices(positions, options.weldTolerance);
    const particles = weld.positions;
    const particleCount = weld.particleCount;
    const inputTriangleCount = indices.length / 3;

    // 1. Map to particles and drop degenerate triangles.
    const mapped = new Int32Array(inputTriangleCount * 3);
    const mappedSource = new Int32Array(inputTriangleCount);
    const degenerate: number[] = [];
    let mappedCount = 0;
    for (let t = 0; t < inputTriangleCount; t++) {
        const a = weld.renderToParticle[indices[3 * t]];
        const b = weld.renderToParticle[indices[3 * t + 1]];
        const c = weld.renderToParticle[indices[3 * t + 2]];
        if (a === b || b === c || c === a || isCollinear(particles, a, b, c)) {
            degenerate.push(t);
            continue;
        }
        mapped[3 * mappedCount] = a;
        mapped[3 * mappedCount + 1] = b;
        mapped[3 * mappedCount + 2] = c;
        mappedSource[mappedCount++] = t;
    }

    // 2. Drop repeats of the same particle triple (e.g. the back of a double-sided mesh).
    const sortedTriples = new Int32Array(mappedCount * 3);
    for (let t = 0; t < mappedCount; t++) {
        writeSortedTriple(sortedTriples, t, mapped[3 * t], mapped[3 * t + 1], mapped[3 * t + 2]);
    }
    const order = sortedTripleOrder(sortedTriples, mappedCount);
    const isDuplicate = new Uint8Array(mappedCount);
    for (let k = 1; k < mappedCount; k++) {
        const i = order[k - 1],
            j = order[k];
        if (
            sortedTriples[3 * i] === sortedTriples[3 * j] &&
            sortedTriples[3 * i + 1] === sortedTriples[3 * j + 1] &&
            sortedTriples[3 * i + 2] === sortedTriples[3 * j + 2]
        ) {
            isDuplicate[j] = 1;
        }
    }
    const duplicates: number[] = [];
    let keptCount = 0;
    for (let t = 0; t < mappedCount; t++) if (!isDuplicate[t]) keptCount++;
    const triangles = new Int32Array(keptCount * 3);
    const triangleSource = new Int32Array(keptCount);
    keptCount = 0;
    for (let t = 0; t < mappedCount; t++) {
        if (isDuplicate[t]) {
            duplicates.push(mappedSource[t]);
            continue;
        }
        triangles.set(mapped.subarray(3 * t, 3 * t + 3), 3 * keptCount);
        triangleSource[keptCount++] = mappedSource[t];
    }
    duplicates.sort((x, y) => x - y);

    // 3. Edges → stretch, shear, bend (the core's derivation, which a tearing cloth repeats after each tear).
    const elements = new ClothElements(keptCount);
    elements.derive(triangles, keptCount);
    const edges = elements.edges;
    const nonManifold: number[] = [];
    for (let e = 0; e < edges.count; e++) {
        if (edges.triangleCount[e] > 2) {
            nonManifold.push(edges.edges.pairs[2 * e], edges.edges.pairs[2 * e + 1]);
        }
    }

    const used = new Uint8Array(particleCount);
    for (let i = 0; i < triangles.length; i++) used[triangles[i]] = 1;
    const isolated: number[] = [];
    for (let p = 0; p < particleCount; p++) if (!used[p]) isolated.push(p);

    return {
        positions: particles,
        triangles,
        triangleSource,
        renderToParticle: weld.renderToParticle,
        stretch: elements.stretch.slice(0, 2 * elements.stretchCount),
        shear: elements.shear.slice(0, 2 * elements.shearCount),
        bend: elements.bend.slice(0, 4 * elements.bendCount),
        report: {
            weldTolerance: weld.tolerance,
            nonManifoldEdges: Int32Array.from(nonManifold),
            isolatedParticles: Int32Array.from(isolated),
            degenerateTriangles: Int32Array.from(degenerate),
            duplicateTriangles: Int32Array.from(duplicates),
            boundaryEdgeCount: elements.boundaryEdgeCount,
            inconsistentEdgeCount: elements.inconsistentEdgeCount,
        },
    };
}

/** True when the triangle's area is negligible relative to its longest edge (collinear corners). */
function isCollinear(p: Float64Array, a: number, b: number, c: number): boolean {
    const ux = p[3 * b] - p[3 * a],
        uy = p[3 * b + 1] - p[3 * a + 1],
        uz = p[3 * b + 2] - p[3 * a + 2];
    const vx = p[3 * c] - p[3 * a],
        vy = p[3 * c + 1] - p[3 * a + 1],
        vz = p[3 * c + 2] - p[3 * a + 2];
    const wx = p[3 * c] - p[3 * b],
        wy = p[3 * c + 1] - p[3 * b + 1],
        wz = p[3 * c + 2] - p[3 * b + 2];
    const nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
    const longestSquared = Math.max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz);
    return Math.sqrt(nx * nx + ny * ny + nz * nz) <= 1e-12 * longestSquared;
}
