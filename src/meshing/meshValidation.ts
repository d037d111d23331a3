/**
 * Input checks shared by the builders: an indexed triangle mesh must have xyz positions, finite coordinates and
 * in-range integer indices in groups of three. Each failure throws an Error naming the caller and the offending element.
 */

/**
 * Throws a clear Error when `positions` / `indices` do not form a usable indexed triangle mesh: a length that is not a
 * multiple of 3, no vertices or no triangles, a non-finite coordinate (the message names the vertex and axis), or an
 * index that is not an integer in `[0, vertexCount)` (the message names the index slot and its triangle).
 * @param caller - Name of the public function, prefixed to every message.
 * @param positions - Vertex positions, xyz interleaved.
 * @param indices - Triangle vertex indices, 3 per triangle.
 */
export function validateTriangleMesh(caller: string, positions: ArrayLike<number>, indices: ArrayLike<number>): void {
    if (positions.length % 3 !== 0) {
        throw new Error(`${caller}: positions length ${positions.length} is not a multiple of 3`);
    }
    if (indices.length % 3 !== 0) {
        throw new Error(`${caller}: indices length ${indices.length} is not a multiple of 3`);
    }
    const vertexCount = positions.length / 3;
    if (vertexCount === 0 || indices.length === 0) {
        throw new Error(`${caller}: mesh is empty (${vertexCount} vertices, ${indices.length / 3} triangles)`);
    }
    for (let i = 0; i < positions.length; i++) {
        const value = positions[i];
        if (!Number.isFinite(value)) {
            throw new Error(`${caller}: vertex ${Math.floor(i / 3)} has a non-finite ${"xyz"[i % 3]} coordinate (${value})`);
        }
    }
    for (let i = 0; i < indices.length; i++) {
        const index = indices[i];
        if (!Number.isInteger(index) || index < 0 || index >= vertexCount) {
            throw new Error(`${caller}: index ${i} (triangle ${Math.floor(i / 3)}) is ${index}, out of range [0, ${vertexCount})`);
        }
    }
}
