/**
 * Render meshes that Babylon deforms itself. An impostor writes the simulated shape into its render mesh; a skeleton
 * or morph targets left on that mesh would deform the simulated positions a second time and fight the simulation.
 * So the simulation takes over: it starts from the shape the mesh shows now, and the mesh stops being skinned and
 * morphed (one `Logger.Warn` says so). To make such a mesh follow its character, pin it to the bones with `pinTo`.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Logger } from "@babylonjs/core/Misc/logger";

/**
 * When `mesh` has a skeleton or a morph target manager: bakes its current skinned and morphed positions and normals
 * into its vertex buffers, then detaches the skeleton and the manager (`mesh.skeleton = null`,
 * `mesh.morphTargetManager = null`; they are not reattached when the impostor is disposed, since the mesh then
 * holds the simulated shape). Does nothing to other meshes. `caller` names the API in the warning.
 */
export function takeOverDeformedMesh(mesh: Mesh, caller: string): void {
    const skeleton = mesh.skeleton;
    const morphs = mesh.morphTargetManager;
    if (!skeleton && !morphs) {
        return;
    }
    // The skinning matrices are otherwise only computed at render time, and may not have been yet.
    skeleton?.prepare(true);
    const positions = mesh.getPositionData(!!skeleton, !!morphs);
    const normals = mesh.isVerticesDataPresent(VertexBuffer.NormalKind) ? mesh.getNormalsData(!!skeleton, !!morphs) : null;
    mesh.skeleton = null;
    mesh.morphTargetManager = null;
    if (positions) {
        mesh.setVerticesData(VertexBuffer.PositionKind, positions, true);
    }
    if (normals) {
        mesh.setVerticesData(VertexBuffer.NormalKind, normals, true);
    }
    const what = [skeleton ? `skinned to skeleton "${skeleton.name}"` : "", morphs ? `has ${morphs.numTargets} morph targets` : ""];
    Logger.Warn(
        `${caller}: mesh "${mesh.name}" ${what.filter(Boolean).join(" and ")}; the simulation starts from the shape it shows now ` +
            "and drives it from here on, so its skeleton and morph targets were detached (pin it to bones with pinTo to follow a character)",
    );
}
