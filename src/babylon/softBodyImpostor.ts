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
    buildSoftBodyMeshingAsync,
    dominantSurfaceParticles,
    finishSteps,
    softBodyMeshingSteps,
    tetEdges,
    tetResolution,
    type SoftBodyMeshing,
    type SoftBodyMeshingInput,
    type SurfaceBinding,
    type TetBinding,
} from "../meshing/index.js";
import type { GpuDrawable } from "./gpuDrawnMesh.js";
import { readMeshData, transformPoints, type MeshData } from "./meshData.js";
import { RenderMeshSync } from "./renderMeshSync.js";
import { SoftImpostor } from "./softImpostor.js";
import { coreOptions, massSource, type SoftImpostorOptions, type SoftImpostorOptionValues } from "./softImpostorOptions.js";
import { XpbdPlugin } from "./xpbdPlugin.js";

/** Options of {@link SoftBodyImpostor.CreateAsync} about the build itself. */
export interface SoftBodyImpostorAsyncOptions {
    /** Called with the build's progress in [0, 1], increasing, last with 1 just before the impostor is made. Default none. */
    onProgress?: (progress: number) => void;
    /**
     * Whether the meshing may run in a Web Worker. Default true; false (or where `Worker` does not exist) runs it on
     * this thread in time slices.
     */
    useWorker?: boolean;
}

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
    private readonly _renderMesh: RenderMeshSync;

    /**
     * @param mesh - a closed, indexed triangle mesh (not disposed); a skinned or morphed one is simulated from the shape
     *   it shows, and its skeleton and morph targets are detached with one `Logger.Warn` (see `meshDeformers.ts`)
     * @param options - see {@link SoftBodyImpostorOptions}
     * @param plugin - the {@link XpbdPlugin} to join; default: the one of the mesh's scene (`XpbdPlugin.FromScene`)
     * @throws Error for a disposed mesh, a mesh without indices or not closed, or an invalid option (RangeError)
     */
    public constructor(mesh: Mesh, options: SoftBodyImpostorOptions = {}, plugin?: XpbdPlugin) {
        const plan = planSoftBody(mesh, options, plugin);
        const { o, stiffness, mass, placement } = plan;
        const meshing = prebuiltMeshing ?? finishSteps(softBodyMeshingSteps(plan.input));
        prebuiltMeshing = null;
        const { tets, binding, surface, surfaceBinding } = meshing;
        // A density weighs the mesh's own volume (the tets fall a little short of it at low resolutions).
        const bodyMass = mass.density === undefined ? mass.mass : mass.density * tets.stats.meshVolume;
        let body: SoftBody;
        if (binding !== null) {
            body = new SoftBody(
                {
                    positions: transformPoints(tets.positions, placement),
                    tets: tets.tets,
                    triangles: tets.surfaceTriangles,
                    stretch: tetEdges(tets.tets, tets.positions.length / 3),
                    mass: bodyMass,
                },
                plan.bodyOptions,
            );
        } else {
            const t = surface!;
            body = new SoftBody(
                {
                    positions: transformPoints(t.positions, placement),
                    triangles: t.triangles,
                    stretch: t.stretch,
                    shear: t.shear,
                    bend: t.bend,
                    mass: bodyMass,
                },
                plan.bodyOptions,
            );
            // Shape matching holds the shape: bending would only cost time.
            body.bend.enabled = false;
        }
        if (mass.density !== undefined) {
            // The total mass is what the density gave.
            o.mass = body.totalMass;
        }
        const corners = binding !== null ? dominantCorners(binding) : dominantSurfaceParticles(surfaceBinding!);
        const renderMesh = new RenderMeshSync(mesh, plan.data);
        super("softBody", mesh, body, corners, plan.xpbd, o, stiffness, renderMesh);
        this._renderMesh = renderMesh;
        this.resolution = o.resolution;
        this.tetrahedra = o.tetrahedra;
        this.binding = binding;
        this.surfaceBinding = surfaceBinding;
        this.meshVolume = tets.stats.meshVolume;
    }

    /**
     * Builds a soft body like the constructor, bit for bit the same, without blocking the page: the meshing (the
     * tetrahedralisation and the render binding, 200–500 ms for a 10k-triangle mesh at a high resolution) runs in a
     * Web Worker where there is one, otherwise (Node, or a worker that cannot start) on this thread in slices of
     * about 8 ms between which the page renders (a few steps cannot be cut: building search structures over the
     * mesh and the tets, up to a few hundred ms for 25,000 tets). The options are checked and the mesh's vertices read at the call;
     * the body is placed where the mesh is when the meshing completes.
     * @example
     * ```ts
     * const jelly = await SoftBodyImpostor.CreateAsync(sphere, { mass: 2, resolution: 24 }, xpbd, {
     *     onProgress: (p) => (bar.value = p),
     * });
     * ```
     * @param mesh - as for the constructor
     * @param options - as for the constructor
     * @param plugin - as for the constructor
     * @param asyncOptions - progress callback and worker choice; see {@link SoftBodyImpostorAsyncOptions}
     * @returns a promise of the impostor; it rejects with the constructor's error for bad input, and with an error
     *   naming the mesh when the mesh is disposed before the body is built
     */
    public static async CreateAsync(
        mesh: Mesh,
        options: SoftBodyImpostorOptions = {},
        plugin?: XpbdPlugin,
        asyncOptions: SoftBodyImpostorAsyncOptions = {},
    ): Promise<SoftBodyImpostor> {
        const plan = planSoftBody(mesh, options, plugin);
        const controller = new AbortController();
        const observer = mesh.onDisposeObservable.addOnce(() =>
            controller.abort(new Error(`SoftBodyImpostor.CreateAsync: mesh "${mesh.name}" was disposed before its soft body was built`)),
        );
        let meshing: SoftBodyMeshing;
        try {
            meshing = await buildSoftBodyMeshingAsync(plan.input, {
                onProgress: asyncOptions.onProgress,
                signal: controller.signal,
                useWorker: asyncOptions.useWorker,
            });
        } finally {
            mesh.onDisposeObservable.remove(observer);
        }
        prebuiltMeshing = meshing;
        try {
            return new SoftBodyImpostor(mesh, options, plugin);
        } finally {
            prebuiltMeshing = null;
        }
    }

    /** Returns "SoftBodyImpostor". */
    public getClassName(): string {
        return "SoftBodyImpostor";
    }

    /**
     * The render mesh's writer and its binding (to the tets, or to the surface triangles without tets), which the
     * WebGPU backend draws from GPU buffers. @internal
     */
    public override _gpuDrawableMesh(): GpuDrawable {
        return { sync: this._renderMesh, vertices: this.binding ?? this.surfaceBinding! };
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

/**
 * Meshing built by {@link SoftBodyImpostor.CreateAsync}, handed to the constructor it calls right away (a
 * constructor cannot await, and the public constructor's signature stays as it is); null otherwise.
 */
let prebuiltMeshing: SoftBodyMeshing | null = null;

/** What a soft body's options and mesh give before any meshing: everything the constructor checks and reads. */
interface SoftBodyPlan {
    xpbd: XpbdPlugin;
    o: ReturnType<typeof withDefaults>;
    stiffness: { stretch: number; shear: number; bend: number; volume: number };
    bodyOptions: ReturnType<typeof coreOptions> & { defaultsVersion: number };
    mass: ReturnType<typeof massSource>;
    data: MeshData;
    placement: Matrix;
    input: SoftBodyMeshingInput;
}

/** Checks the arguments and reads the mesh (throwing the constructor's errors); see {@link SoftBodyPlan}. */
function planSoftBody(mesh: Mesh, options: SoftBodyImpostorOptions, plugin: XpbdPlugin | undefined): SoftBodyPlan {
    const xpbd = XpbdPlugin._ForMesh(mesh, plugin, "SoftBodyImpostor");
    const defaultsVersion = resolveDefaultsVersion(options.defaultsVersion ?? xpbd.defaultsVersion, "SoftBodyImpostor: defaultsVersion");
    const o = withDefaults(options, defaultsVersion);
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
    const positions = transformPoints(data.worldPositions, placement.clone().invert());
    return {
        xpbd,
        o,
        stiffness,
        bodyOptions,
        mass,
        data,
        placement,
        input: { positions, indices: data.indices, resolution: o.resolution, tetrahedra: o.tetrahedra },
    };
}

/** `options` over the defaults of `defaultsVersion` (the impostors' shared ones, then the soft body's). */
function withDefaults(options: SoftBodyImpostorOptions, defaultsVersion: number) {
    const defaults = getDefaults(defaultsVersion);
    return { ...defaults.impostor, ...defaults.softBody, ...options };
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
