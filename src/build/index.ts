/**
 * `src/build`: pure functions turning mesh arrays into simulation data (cloth topology, tetrahedralisation) and
 * binding render vertices to the simulation. No Babylon import.
 */
export { buildClothTopology } from "./clothTopology";
export type { ClothTopology, ClothTopologyOptions, ClothTopologyReport } from "./clothTopology";
export { createClothGrid } from "./clothGrid";
export type { ClothGrid, ClothGridOptions } from "./clothGrid";
export { DEFAULT_TET_RESOLUTION, tetrahedralize } from "./tetrahedralize";
export type { TetMesh, TetMeshStats, TetrahedralizeOptions } from "./tetrahedralize";
export {
    applyTetBinding, applyWeldBinding, BINDING_WEIGHT_MAX, BINDING_WEIGHT_MIN, bindToTets, computeVertexNormals,
} from "./renderBinding";
export type { TetBinding, TetBindingReport, WritableNumberArray } from "./renderBinding";
export { DEFAULT_RELATIVE_WELD_TOLERANCE, weldVertices } from "./weldVertices";
export type { WeldResult } from "./weldVertices";
export { tetQuality, tetSignedVolume } from "./tetGeometry";
