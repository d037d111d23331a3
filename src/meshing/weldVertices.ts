/**
 * Welding of coincident vertices (UV / normal seams of render meshes) into single particles, by spatial hashing.
 */

/** Result of {@link weldVertices}. */
export interface WeldResult {
    /** Number of distinct (welded) points. */
    particleCount: number;
    /** Input vertex → welded point index. */
    renderToParticle: Int32Array;
    /** Welded point positions, xyz interleaved: each is the position of the first input vertex that created it. */
    positions: Float64Array;
    /** The tolerance actually used (world units). */
    tolerance: number;
}

/** Relative weld tolerance: the default tolerance is this fraction of the bounding-box diagonal. */
export const DEFAULT_RELATIVE_WELD_TOLERANCE = 1e-6;

/**
 * Length of the bounding-box diagonal of xyz-interleaved `positions` (0 for fewer than two distinct points).
 * @param positions - Positions, xyz interleaved.
 */
export function boundingBoxDiagonal(positions: ArrayLike<number>): number {
    let minX = Infinity,
        minY = Infinity,
        minZ = Infinity;
    let maxX = -Infinity,
        maxY = -Infinity,
        maxZ = -Infinity;
    for (let i = 0; i < positions.length; i += 3) {
        const x = positions[i],
            y = positions[i + 1],
            z = positions[i + 2];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (z < minZ) minZ = z;
        if (z > maxZ) maxZ = z;
    }
    if (positions.length === 0) return 0;
    return Math.hypot(maxX - minX, maxY - minY, maxZ - minZ);
}

/**
 * Merges vertices closer than `tolerance` into one point, in input order: a vertex joins the first existing point
 * within `tolerance` (Euclidean), else it starts a new point. A spatial hash with cells of size `tolerance`
 * makes this O(n) (27 neighbouring cells are searched per vertex), not O(n²).
 * @param positions - Vertex positions, xyz interleaved (finite).
 * @param tolerance - Weld distance; default {@link DEFAULT_RELATIVE_WELD_TOLERANCE} × bounding-box diagonal.
 *   0 welds only exactly equal positions.
 */
export function weldVertices(positions: ArrayLike<number>, tolerance?: number): WeldResult {
    const vertexCount = Math.floor(positions.length / 3);
    const diagonal = boundingBoxDiagonal(positions);
    const tol = tolerance ?? DEFAULT_RELATIVE_WELD_TOLERANCE * diagonal;
    if (!(tol >= 0)) throw new Error(`weldVertices: tolerance must be >= 0 (got ${tol})`);
    // Cells no smaller than the tolerance keep every neighbour within the 27-cell block; a zero tolerance still needs
    // a finite cell size.
    const cellSize = tol > 0 ? tol : diagonal > 0 ? diagonal * DEFAULT_RELATIVE_WELD_TOLERANCE : 1;
    const inverseCell = 1 / cellSize;
    const tolSquared = tol * tol;

    let tableSize = 1;
    while (tableSize < 2 * vertexCount) tableSize <<= 1;
    const mask = tableSize - 1;
    const head = new Int32Array(tableSize).fill(-1);
    const next = new Int32Array(vertexCount);
    const cellOf = new Int32Array(vertexCount * 3);
    const out = new Float64Array(vertexCount * 3);
    const renderToParticle = new Int32Array(vertexCount);
    let particleCount = 0;

    for (let v = 0; v < vertexCount; v++) {
        const x = positions[3 * v],
            y = positions[3 * v + 1],
            z = positions[3 * v + 2];
        // `| 0` keeps cell coordinates int32 (far-away coordinates wrap; the distance test keeps that correct).
        const cx = Math.floor(x * inverseCell) | 0,
            cy = Math.floor(y * inverseCell) | 0,
            cz = Math.floor(z * inverseCell) | 0;
        let found = -1;
        for (let dz = -1; dz <= 1 && found < 0; dz++) {
            for (let dy = -1; dy <= 1 && found < 0; dy++) {
                for (let dx = -1; dx <= 1 && found < 0; dx++) {
                    const hx = (cx + dx) | 0,
                        hy = (cy + dy) | 0,
                        hz = (cz + dz) | 0;
                    for (let p = head[hashCell(hx, hy, hz) & mask]; p >= 0; p = next[p]) {
                        if (cellOf[3 * p] !== hx || cellOf[3 * p + 1] !== hy || cellOf[3 * p + 2] !== hz) continue;
                        const ex = out[3 * p] - x,
                            ey = out[3 * p + 1] - y,
                            ez = out[3 * p + 2] - z;
                        if (ex * ex + ey * ey + ez * ez <= tolSquared) found = p;
                    }
                }
            }
        }
        if (found < 0) {
            found = particleCount++;
            out[3 * found] = x;
            out[3 * found + 1] = y;
            out[3 * found + 2] = z;
            cellOf[3 * found] = cx;
            cellOf[3 * found + 1] = cy;
            cellOf[3 * found + 2] = cz;
            const slot = hashCell(cx, cy, cz) & mask;
            next[found] = head[slot];
            head[slot] = found;
        }
        renderToParticle[v] = found;
    }
    return { particleCount, renderToParticle, positions: out.slice(0, particleCount * 3), tolerance: tol };
}

function hashCell(x: number, y: number, z: number): number {
    return Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791);
}
