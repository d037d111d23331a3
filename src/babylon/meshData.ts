/**
 * Reads what the simulation needs from a Babylon mesh: its vertices in world space (the simulation frame), its
 * local vertices and normals (for the render write-back) and its triangle indices.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { FloatArray } from "@babylonjs/core/types";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Matrix } from "@babylonjs/core/Maths/math.vector";
import { takeOverDeformedMesh } from "./meshDeformers.js";

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
 * Reads `mesh` (world matrix recomputed first). `caller` names the API in error messages. A skinned or morphed mesh
 * is first taken over by the simulation (see `takeOverDeformedMesh`): what is read is the shape it shows.
 * @throws Error when the mesh is disposed, already has a Havok body, has no positions, a non-finite coordinate, or no
 *   indices (unindexed meshes are not supported).
 */
export function readMeshData(mesh: Mesh, caller: string): MeshData {
    if (!mesh || mesh.isDisposed()) {
        throw new Error(`${caller}: mesh "${mesh?.name}" is disposed`);
    }
    // Havok would move the node the simulation writes vertices under, and the cloth would collide with its own body.
    const body = (mesh as { physicsBody?: { isDisposed: boolean } | null }).physicsBody;
    if (body && !body.isDisposed) {
        throw new Error(
            `${caller}: mesh "${mesh.name}" already has a Havok physics body (mesh.physicsBody); ` +
                "dispose it (or its PhysicsAggregate) first, or simulate a copy of the mesh",
        );
    }
    if (!mesh.isVerticesDataPresent(VertexBuffer.PositionKind) || mesh.getTotalVertices() === 0) {
        throw new Error(`${caller}: mesh "${mesh.name}" has no vertex positions`);
    }
    const indices = mesh.getIndices(true, true);
    if (!indices || indices.length === 0) {
        throw new Error(`${caller}: mesh "${mesh.name}" has no indices (an indexed triangle mesh is required)`);
    }
    // Only once the mesh is known to be usable: taking it over detaches its skeleton and morph targets.
    takeOverDeformedMesh(mesh, caller);
    // Present and not empty (checked above); read after the take-over, which bakes the shape shown into them.
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind, true, true) as FloatArray;
    // Checked before the world matrix mixes the axes (an infinite y would read as a NaN x).
    for (let i = 0; i < positions.length; i++) {
        if (!Number.isFinite(positions[i])) {
            throw new Error(
                `${caller}: mesh "${mesh.name}" vertex ${Math.floor(i / 3)} has a non-finite ${"xyz"[i % 3]} coordinate (${positions[i]})`,
            );
        }
    }
    const normals = mesh.getVerticesData(VertexBuffer.NormalKind, true, true);
    const vertexCount = positions.length / 3;
    return {
        worldPositions: transformPoints(positions, mesh.computeWorldMatrix(true)),
        localPositions: Float32Array.from(positions),
        localNormals: normals && normals.length === positions.length ? Float32Array.from(normals) : null,
        indices: Uint32Array.from(indices),
        vertexCount,
    };
}

/** `points` (xyz interleaved) transformed by `matrix`, as a new array. */
export function transformPoints(points: ArrayLike<number>, matrix: Matrix): Float64Array {
    const m = matrix.m;
    const out = new Float64Array(points.length);
    for (let i = 0; i < points.length; i += 3) {
        const x = points[i];
        const y = points[i + 1];
        const z = points[i + 2];
        // Babylon matrices are row-vector: p' = p · M.
        out[i] = x * m[0] + y * m[4] + z * m[8] + m[12];
        out[i + 1] = x * m[1] + y * m[5] + z * m[9] + m[13];
        out[i + 2] = x * m[2] + y * m[6] + z * m[10] + m[14];
    }
    return out;
}
