/**
 * Reads what the simulation needs from a Babylon mesh: its vertices in world space (the simulation frame), its
 * local vertices and normals (for the render write-back) and its triangle indices.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";

/** A mesh's geometry as plain arrays, read once when an impostor is built. */
export interface MeshData {
    /** Vertex positions in world space (the mesh's world matrix applied), xyz interleaved. */
    worldPositions: Float64Array;
    /** Vertex positions in the mesh's local space, as stored in its vertex buffer. */
    localPositions: Float32Array;
    /** Local normals, or null when the mesh has none. */
    localNormals: Float32Array | null;
    /** Triangle indices, 3 per triangle. */
    indices: Uint32Array;
    /** Number of render vertices. */
    vertexCount: number;
}

/**
 * Reads `mesh` (world matrix recomputed first). `caller` names the API in error messages.
 * @throws Error when the mesh is disposed, has no positions or has no indices (unindexed meshes are not supported).
 */
export function readMeshData(mesh: Mesh, caller: string): MeshData {
    if (!mesh || mesh.isDisposed()) {
        throw new Error(`${caller}: mesh "${mesh?.name}" is disposed`);
    }
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind, true, true);
    if (!positions || positions.length === 0) {
        throw new Error(`${caller}: mesh "${mesh.name}" has no vertex positions`);
    }
    const indices = mesh.getIndices(true, true);
    if (!indices || indices.length === 0) {
        throw new Error(`${caller}: mesh "${mesh.name}" has no indices (an indexed triangle mesh is required)`);
    }
    const normals = mesh.getVerticesData(VertexBuffer.NormalKind, true, true);
    const vertexCount = positions.length / 3;
    const world = mesh.computeWorldMatrix(true).m;
    const worldPositions = new Float64Array(positions.length);
    for (let v = 0; v < vertexCount; v++) {
        const x = positions[3 * v];
        const y = positions[3 * v + 1];
        const z = positions[3 * v + 2];
        // Babylon matrices are row-vector: p' = p · M.
        worldPositions[3 * v] = x * world[0] + y * world[4] + z * world[8] + world[12];
        worldPositions[3 * v + 1] = x * world[1] + y * world[5] + z * world[9] + world[13];
        worldPositions[3 * v + 2] = x * world[2] + y * world[6] + z * world[10] + world[14];
    }
    return {
        worldPositions,
        localPositions: Float32Array.from(positions),
        localNormals: normals && normals.length === positions.length ? Float32Array.from(normals) : null,
        indices: Uint32Array.from(indices),
        vertexCount,
    };
}
