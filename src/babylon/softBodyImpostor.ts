/**
 * A volumetric soft body: a closed triangle mesh filled with tetrahedra (stretch along tet edges, volume per
 * tet); the render mesh follows the tets through barycentric weights.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { booleanValue, getDefaults, resolveDefaultsVersion, SoftBody, type SoftBodyImpostorDefaults } from "../core/index.js";
import {
    applySurfaceBinding,
    applyTetBinding,
    bindToSurface,
    bindToTets,
    buildClothTopology,
    dominantSurfaceParticles,
    latticeSurface,
    tetEdges,
    tetrahedralize,
    tetResolution,
    type SurfaceBinding,
    type TetBinding,
} from "../meshing/index.js";
import { readMeshData, transformPoints } from "./meshData.js";
import { RenderMeshSync } from "./renderMeshSync.js";
import { SoftImpostor } from "./softImpostor.js";
import { coreOptions, massSource, type SoftImpostorOptions, type SoftImpostorOptionValues } from "./softImpostorOptions.js";
import { XpbdPlugin } from "./xpbdPlugin.js";

/** Options of a {@link SoftBodyImpostor}; see {@link SoftImpostorOptions} for the shared ones. */
export interface SoftBodyImpostorOptions extends SoftImpostorOptions {
    /** Resistance to volume change in [0, 1] (`complianceFromStiffness(s, "volume")`; 1 keeps every tet's volume). Default 1. */
    volumeStiffness?: number;
    /**
     * Tet lattice cells along the mesh's longest side (integer 1–256; see `tetrahedralize`). Cost grows with its
     * cube: 4 ≈ 200 tets, 6 ≈ 700, 10 ≈ 3,000 for a box. Default 6.
     */
    resolution?: number;
    /**
     * Whether the body is filled with tetrahedra. Default true. With false it keeps only the lattice's surface
     * particles (stretch and shear along the surface, no bending, no volume constraints): a jelly at a fraction of
     * the cost, which needs {@link SoftImpostorOptions.shapeMatching} to hold its shape (without it, the constructor
     * throws). `resolution` still sets how fine the surface is.
     */
    tetrahedra?: boolean;
}

/**
 * Defaults of the soft-body-only options in the newest defaults version (every version: `getDefaults(version).softBody`),
 * and the soft body's own aerodynamic defaults: half the cloth's drag (0.6) and lift (0.5). The core's aerodynamic
 * model is made for thin sheets, which the air meets on both sides, and it pushes every surface triangle whatever its
 * orientation; on a closed surface the leeward faces are pushed as well as the windward ones, so with the sheet's
 * coefficients a soft body would feel about twice a solid's drag.
 */
export const SOFT_BODY_IMPOSTOR_DEFAULTS: Readonly<SoftBodyImpostorDefaults> = getDefaults().softBody;

/**
 * Simulates a closed mesh as a soft body. The mesh is read in world space once (its transform is honoured) and
 * tetrahedralised; its vertex buffers become updatable and are rewritten before each render.
 * @example
 * ```ts
 * const jelly = new SoftBodyImpostor(box, { mass: 2, volumeStiffness: 1, stretchStiffness: 0.7, resolution: 5 }, xpbd);
 * ```
 */
export class SoftBodyImpostor extends SoftImpostor {
    /** Tet lattice resolution the body was built with. */
    public readonly resolution: number;
    /** How each render vertex follows the tets; null for a body without them ({@link surfaceBinding}). */
    public readonly binding: TetBinding | null;
    /** How each render vertex follows the surface particles of a body without tets; null for one with them. */
    public readonly surfaceBinding: SurfaceBinding | null;
    /** Whether the body is filled with tetrahedra (see {@link SoftBodyImpostorOptions.tetrahedra}). */
    public readonly tetrahedra: boolean;
    /** Volume enclosed by the mesh as it was built (m³): what a `density` is multiplied by. */
    public readonly meshVolume: number;

    /**
     * @param mesh - a closed, indexed triangle mesh (not disposed); a skinned or morphed one is simulated from the shape
     *   it shows, and its skeleton and morph targets are detached with one `Logger.Warn` (see `meshDeformers.ts`)
     * @param options - see {@link SoftBodyImpostorOptions}
     * @param plugin - the {@link XpbdPlugin} to join; default: the one of the mesh's scene (`XpbdPlugin.FromScene`)
     * @throws Error for a disposed mesh, a mesh without indices or not closed, or an invalid option (RangeError)
     */
    public constructor(mesh: Mesh, options: SoftBodyImpostorOptions = {}, plugin?: XpbdPlugin) {
        const xpbd = XpbdPlugin._ForMesh(mesh, plugin, "SoftBodyImpostor");
        const defaultsVersion = resolveDefaultsVersion(
            options.defaultsVersion ?? xpbd.defaultsVersion,
            "SoftBodyImpostor: defaultsVersion",
        );
        const defaults = getDefaults(defaultsVersion);
        const o = { ...defaults.impostor, ...defaults.softBody, ...options };
        booleanValue(o.tetrahedra, "SoftBodyImpostor: tetrahedra");
        if (!o.tetrahedra && o.shapeMatching === undefined) {
            throw new Error("SoftBodyImpostor: tetrahedra: false needs shapeMatching to hold the surface's shape");
        }
        // Without tets, the surface's diagonals (shear) are as stiff as its edges.
        const stiffness = { stretch: o.stretchStiffness, shear: o.tetrahedra ? 1 : o.stretchStiffness, bend: 1, volume: o.volumeStiffness };
        const bodyOptions = { ...coreOptions("SoftBodyImpostor", o, stiffness), defaultsVersion };
        const mass = massSource("SoftBodyImpostor", options, o.mass);
        tetResolution(o.resolution, "SoftBodyImpostor: resolution");
        const data = readMeshData(mesh, "SoftBodyImpostor");
        // Tetrahedralised in the mesh's own axes (its world placement without the scaling), then placed in the world:
        // the lattice, and so the body, is the same however the mesh is turned. In world axes a turned box would be cut
        // by a lattice it is not aligned with, and particles would stick out of its faces by up to a cell.
        const placement = rigidPlacement(mesh);
        const framePositions = transformPoints(data.worldPositions, placement.clone().invert());
        const tets = tetrahedralize(framePositions, data.indices, { resolution: o.resolution });
        // A density weighs the mesh's own volume (the tets fall a little short of it at low resolutions).
        const bodyMass = mass.density === undefined ? mass.mass : mass.density * tets.stats.meshVolume;
        let body: SoftBody;
        let binding: TetBinding | null = null;
        let surfaceBinding: SurfaceBinding | null = null;
        if (o.tetrahedra) {
            binding = bindToTets(framePositions, tets.positions, tets.tets);
            body = new SoftBody(
                {
                    positions: transformPoints(tets.positions, placement),
                    tets: tets.tets,
                    triangles: tets.surfaceTriangles,
                    stretch: tetEdges(tets.tets, tets.positions.length / 3),
                    mass: bodyMass,
                },
                bodyOptions,
            );
        } else {
            const surface = latticeSurface(tets);
            const t = buildClothTopology(surface.positions, surface.triangles);
            surfaceBinding = bindToSurface(framePositions, t.positions, t.triangles);
            body = new SoftBody(
                {
                    positions: transformPoints(t.positions, placement),
                    triangles: t.triangles,
                    stretch: t.stretch,
                    shear: t.shear,
                    bend: t.bend,
                    mass: bodyMass,
                },
                bodyOptions,
            );
            // Shape matching holds the shape: bending would only cost time.
            body.bend.enabled = false;
        }
        if (mass.density !== undefined) {
            // The total mass is what the density gave.
            o.mass = body.totalMass;
        }
        const corners = binding !== null ? dominantCorners(binding) : dominantSurfaceParticles(surfaceBinding!);
        super("softBody", mesh, body, corners, xpbd, o, stiffness, new RenderMeshSync(mesh, data));
        this.resolution = o.resolution;
        this.tetrahedra = o.tetrahedra;
        this.binding = binding;
        this.surfaceBinding = surfaceBinding;
        this.meshVolume = tets.stats.meshVolume;
    }

    /** Returns "SoftBodyImpostor". */
    public getClassName(): string {
        return "SoftBodyImpostor";
    }

    protected _writeRenderPositions(out: Float64Array): void {
        if (this.binding !== null) {
            applyTetBinding(this.binding, this.body.positions, out);
        } else {
            applySurfaceBinding(this.surfaceBinding!, this.body.positions, out);
        }
    }

    protected _kindOptions(): Partial<SoftImpostorOptionValues> {
        return { volumeStiffness: this.volumeStiffness, resolution: this.resolution, tetrahedra: this.tetrahedra };
    }
}

/** The mesh's world matrix without its scaling: rotation then translation. */
function rigidPlacement(mesh: Mesh): Matrix {
    const scaling = new Vector3();
    const rotation = new Quaternion();
    const translation = new Vector3();
    mesh.computeWorldMatrix(true).decompose(scaling, rotation, translation);
    return Matrix.Compose(Vector3.One(), rotation, translation);
}

/** Per render vertex, the tet corner with the largest barycentric weight (unbound vertices, which have a non-finite position, map to particle 0). */
function dominantCorners(binding: TetBinding): Int32Array {
    const { tets, tetIndex, weights } = binding;
    const out = new Int32Array(tetIndex.length);
    for (let v = 0; v < tetIndex.length; v++) {
        const t = tetIndex[v];
        if (t < 0) {
            continue;
        }
        let best = 0;
        for (let k = 1; k < 4; k++) {
            if (weights[4 * v + k] > weights[4 * v + best]) {
                best = k;
            }
        }
        out[v] = tets[4 * t + best];
    }
    return out;
}
