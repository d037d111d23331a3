/**
 * Everything a soft body is built from that depends only on its mesh's arrays: the tets, and how the render
 * vertices follow them (or, for a body without tets, the lattice's surface and how the render vertices follow it).
 * Pure data in and out, so that it can run in a worker or in time slices as well as at once.
 */
import { buildClothTopology, type ClothTopology } from "./clothTopology.js";
import { phaseSteps, type MeshingSteps } from "./meshingSteps.js";
import { bindToTetsSteps, type TetBinding } from "./renderBinding.js";
import { bindToSurfaceSteps, latticeSurface, type SurfaceBinding } from "./surfaceBinding.js";
import { tetrahedralizeSteps, type TetMesh } from "./tetrahedralize.js";

/** Input of {@link softBodyMeshingSteps}. */
export interface SoftBodyMeshingInput {
    /** Render vertex positions in the frame the body is built in, xyz interleaved. */
    positions: Float64Array;
    /** Triangle indices, 3 per triangle. */
    indices: Uint32Array;
    /** Tet lattice resolution (see `TetrahedralizeOptions.resolution`). */
    resolution: number;
    /** Whether the body is filled with tets; false: only the lattice's surface (a cloth topology) is built. */
    tetrahedra: boolean;
}

/** Result of {@link softBodyMeshingSteps}: structured-clonable (typed arrays and plain objects only). */
export interface SoftBodyMeshing {
    /** The tetrahedralised mesh (its surface is what a body without tets keeps). */
    tets: TetMesh;
    /** With tets: how each render vertex follows them; otherwise null. */
    binding: TetBinding | null;
    /** Without tets: the lattice surface's particles and constraints; otherwise null. */
    surface: ClothTopology | null;
    /** Without tets: how each render vertex follows the surface; otherwise null. */
    surfaceBinding: SurfaceBinding | null;
}

/** Share of the progress of {@link softBodyMeshingSteps} taken by the tetrahedralisation (the binding takes the rest). */
const TETRAHEDRALIZE_SHARE = 0.85;

/**
 * Tetrahedralises the input and binds its render vertices, in steps (see `MeshingSteps`).
 * @throws Error (at the first step) for the input errors of `tetrahedralize`
 */
export function* softBodyMeshingSteps(input: SoftBodyMeshingInput): MeshingSteps<SoftBodyMeshing> {
    const tets = yield* phaseSteps(
        tetrahedralizeSteps(input.positions, input.indices, { resolution: input.resolution }),
        0,
        TETRAHEDRALIZE_SHARE,
    );
    if (input.tetrahedra) {
        const binding = yield* phaseSteps(bindToTetsSteps(input.positions, tets.positions, tets.tets), TETRAHEDRALIZE_SHARE, 1);
        return { tets, binding, surface: null, surfaceBinding: null };
    }
    const lattice = latticeSurface(tets);
    yield TETRAHEDRALIZE_SHARE;
    const surface = buildClothTopology(lattice.positions, lattice.triangles);
    const surfaceBinding = yield* phaseSteps(
        bindToSurfaceSteps(input.positions, surface.positions, surface.triangles),
        TETRAHEDRALIZE_SHARE,
        1,
    );
    return { tets, binding: null, surface, surfaceBinding };
}
