/**
 * `babylon-xpbd/meshing`: pure functions turning mesh arrays into simulation data (cloth topology,
 * tetrahedralisation) and binding render vertices to the simulation. No Babylon import.
 */
export { buildClothTopology } from "./clothTopology.js";
export type { ClothTopology, ClothTopologyOptions, ClothTopologyReport } from "./clothTopology.js";
export { createClothGrid } from "./clothGrid.js";
export type { ClothGrid, ClothGridOptions } from "./clothGrid.js";
export { DEFAULT_TET_RESOLUTION, MAX_TET_RESOLUTION, tetrahedralize, tetrahedralizeSteps, tetResolution } from "./tetrahedralize.js";
export { finishSteps, phaseSteps, runStepsSliced } from "./meshingSteps.js";
export type { MeshingSteps, SlicedRunOptions } from "./meshingSteps.js";
export { softBodyMeshingSteps } from "./softBodyMeshing.js";
export type { SoftBodyMeshing, SoftBodyMeshingInput } from "./softBodyMeshing.js";
export { buildSoftBodyMeshingAsync } from "./softBodyMeshingAsync.js";
export type { SoftBodyMeshingAsyncOptions } from "./softBodyMeshingAsync.js";
export type { SoftBodyMeshingMessage } from "./softBodyMeshingMessage.js";
export type { TetMesh, TetMeshStats, TetrahedralizeOptions } from "./tetrahedralize.js";
export {
    applyTetBinding,
    applyWeldBinding,
    BINDING_WEIGHT_MAX,
    BINDING_WEIGHT_MIN,
    bindToTets,
    bindToTetsSteps,
    computeVertexNormals,
} from "./renderBinding.js";
export type { TetBinding, TetBindingReport, WritableNumberArray } from "./renderBinding.js";
export { applySurfaceBinding, bindToSurface, bindToSurfaceSteps, dominantSurfaceParticles, latticeSurface } from "./surfaceBinding.js";
export type { SurfaceBinding } from "./surfaceBinding.js";
export { TearBinding } from "./tearBinding.js";
export type { TearBindingChange } from "./tearBinding.js";
export { DEFAULT_RELATIVE_WELD_TOLERANCE, weldVertices } from "./weldVertices.js";
export type { WeldResult } from "./weldVertices.js";
export { tetQuality } from "./tetGeometry.js";
export { tetEdges } from "./tetEdges.js";
export { buildRopeChain } from "./ropeChain.js";
export type { RopeChain } from "./ropeChain.js";
