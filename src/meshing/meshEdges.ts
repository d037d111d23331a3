/**
 * Unique undirected edges of a triangle list with their incident triangles: the adjacency that cloth topology,
 * closedness checks and boundary counts are derived from.
 */

/** Edges of a triangle list, from {@link buildMeshEdges}. */
export interface MeshEdges {
    /** Number of unique edges. */
    count: number;
    /** Edge end points, 2 per edge, smaller index first. */
    vertices: Int32Array;
    /** Number of triangles using each edge (1 = boundary, 2 = interior manifold, more than 2 = non-manifold). */
    triangleCount: Int32Array;
    /**
     * Per edge, the first two incident triangles as "corner slots" `3·triangle + k`: the triangle traverses the edge
     * from its corner `k` to corner `(k + 1) % 3`, and corner `(k + 2) % 3` is the opposite vertex. −1 when absent.
     */
    firstSlot: Int32Array;
    /** Second incident corner slot (see {@link MeshEdges.firstSlot}), −1 when the edge has a single triangle. */
    secondSlot: Int32Array;
}

/**
 * Builds the unique undirected edges of `triangles` (3 vertex indices each, all in `[0, vertexCount)`), numbered in
 * order of first appearance.
 * @param triangles - Triangle vertex indices.
 * @param vertexCount - Number of vertices the indices refer to.
 */
export function buildMeshEdges(triangles: ArrayLike<number>, vertexCount: number): MeshEdges {
    const slotCount = triangles.length - (triangles.length % 3);
    const edgeOf = new Map<number, number>();
    const vertices = new Int32Array(slotCount * 2);
    const triangleCount = new Int32Array(slotCount);
    const firstSlot = new Int32Array(slotCount).fill(-1);
    const secondSlot = new Int32Array(slotCount).fill(-1);
    let count = 0;
    for (let slot = 0; slot < slotCount; slot++) {
        const corner = slot % 3;
        const a = triangles[slot];
        const b = triangles[slot - corner + ((corner + 1) % 3)];
        const lo = a < b ? a : b,
            hi = a < b ? b : a;
        // vertexCount² stays below 2^53 for any mesh that fits in memory, so the key is exact.
        const key = lo * vertexCount + hi;
        let edge = edgeOf.get(key);
        if (edge === undefined) {
            edge = count++;
            edgeOf.set(key, edge);
            vertices[2 * edge] = lo;
            vertices[2 * edge + 1] = hi;
        }
        const n = triangleCount[edge]++;
        if (n === 0) firstSlot[edge] = slot;
        else if (n === 1) secondSlot[edge] = slot;
    }
    return {
        count,
        vertices: vertices.slice(0, 2 * count),
        triangleCount: triangleCount.slice(0, count),
        firstSlot: firstSlot.slice(0, count),
        secondSlot: secondSlot.slice(0, count),
    };
}
