/**
 * Unique undirected edges of a triangle list with their incident triangles: the adjacency that cloth topology,
 * closedness checks and boundary counts are derived from (the core's `TriangleEdges`, as plain arrays).
 */
import { TriangleEdges } from "../core/triangleEdges.js";

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
    const triangleCount = Math.floor(triangles.length / 3);
    for (let i = 0; i < 3 * triangleCount; i++) {
        if (!(triangles[i] >= 0 && triangles[i] < vertexCount)) {
            throw new RangeError(`buildMeshEdges: index ${triangles[i]} at ${i} is out of range [0, ${vertexCount})`);
        }
    }
    const table = new TriangleEdges(triangleCount);
    table.build(triangles, triangleCount);
    const count = table.count;
    return {
        count,
        vertices: table.edges.pairs.slice(0, 2 * count),
        triangleCount: table.triangleCount.slice(0, count),
        firstSlot: table.firstSlot.slice(0, count),
        secondSlot: table.secondSlot.slice(0, count),
    };
}
