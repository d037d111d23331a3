/**
 * `babylon-xpbd/gpu`: the XPBD solver on WebGPU. A {@link GpuSoftBodySolver} steps one core `SoftBody` on a
 * `GPUDevice`, with an `XpbdWorld` as its environment (gravity, air, substeps, colliders); a {@link GpuContactGroup}
 * steps several that touch each other; see docs/webgpu.md for what runs on the GPU today.
 */
export { GpuSoftBodySolver } from "./gpuSoftBodySolver.js";
export { unsupportedGpuFeature } from "./colliderRecords.js";
export type { StepImpulses } from "./colliderImpulses.js";
export type { GpuFigures } from "./bodyFigures.js";
export { colourBatches } from "./colourBatches.js";
export { GpuRenderMeshWriter, packRenderMesh } from "./renderMeshWriter.js";
export type {
    RenderMeshMapping,
    RenderMeshTables,
    RenderVertexBinding,
    SurfaceBoundVertices,
    TetEmbeddedVertices,
    WeldedVertices,
} from "./renderMeshWriter.js";
export { GpuContactGroup } from "./gpuContactGroup.js";
