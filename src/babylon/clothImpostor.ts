/**
 * A cloth: any indexed triangle mesh simulated as a sheet of particles (welded render vertices) with stretch,
 * shear and bend constraints.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Logger } from "@babylonjs/core/Misc/logger";
import { getDefaults, resolveDefaultsVersion, SoftBody, type ClothDefaults } from "../core/index.js";
import { applyWeldBinding, buildClothTopology, type ClothTopologyReport } from "../meshing/index.js";
import { readMeshData } from "./meshData.js";
import { RenderMeshSync } from "./renderMeshSync.js";
import { coreOptions, massSource, SoftImpostor, type SoftImpostorOptions, type SoftImpostorOptionValues } from "./softImpostor.js";
import { XpbdPlugin } from "./xpbdPlugin.js";

/** Options of a {@link ClothImpostor}; see {@link SoftImpostorOptions} for the shared ones. */
export interface ClothImpostorOptions extends SoftImpostorOptions {
    /** Resistance to shearing in [0, 1] (`complianceFromStiffness(s, "distance")`). Default 0.9. */
    shearStiffness?: number;
    /** Resistance to bending in [0, 1] (`complianceFromStiffness(s, "bend")`: 0 → 10 rad/(N·m), 1 → rigid). Default 0.5. */
    bendStiffness?: number;
    /** Render vertex indices pinned with weight 1 where they are (change later with `setPinWeight` / `pinTo`). Default none. */
    pins?: ArrayLike<number>;
}

/** Defaults of the cloth-only options in the newest defaults version (every version: `getDefaults(version).cloth`). */
export const CLOTH_IMPOSTOR_DEFAULTS: Readonly<ClothDefaults> = getDefaults().cloth;

/**
 * Simulates `mesh` as cloth. The mesh is read in world space once (its transform is honoured); its vertex buffers
 * become updatable and are rewritten before each render.
 * @example
 * ```ts
 * const cloth = new ClothImpostor(flag, { mass: 0.3, bendStiffness: 0.2, pins: [0, 16] }, xpbd);
 * ```
 */
export class ClothImpostor extends SoftImpostor {
    /**
     * What building the cloth found in the mesh: non-manifold edges, dropped degenerate or duplicate triangles,
     * isolated vertices, flipped windings. Anything there is also reported once with `Logger.Warn`.
     */
    public readonly topologyReport: ClothTopologyReport;

    /**
     * @param mesh - an indexed triangle mesh (not disposed)
     * @param options - see {@link ClothImpostorOptions}
     * @param plugin - the {@link XpbdPlugin} to join; default: the one of the mesh's scene (`XpbdPlugin.FromScene`)
     * @throws Error for a disposed mesh, a mesh without indices, or an invalid option (RangeError)
     */
    public constructor(mesh: Mesh, options: ClothImpostorOptions = {}, plugin?: XpbdPlugin) {
        const xpbd = XpbdPlugin._ForMesh(mesh, plugin, "ClothImpostor");
        const defaultsVersion = resolveDefaultsVersion(options.defaultsVersion ?? xpbd.defaultsVersion, "ClothImpostor: defaultsVersion");
        const defaults = getDefaults(defaultsVersion);
        const o = { ...defaults.impostor, ...defaults.cloth, ...options };
        const stiffness = { stretch: o.stretchStiffness, shear: o.shearStiffness, bend: o.bendStiffness, volume: 1 };
        const bodyOptions = { ...coreOptions("ClothImpostor", o, stiffness), defaultsVersion };
        const mass = massSource("ClothImpostor", options, o.mass);
        const data = readMeshData(mesh, "ClothImpostor");
        const topology = buildClothTopology(data.worldPositions, data.indices);
        const body = new SoftBody(
            {
                positions: topology.positions,
                triangles: topology.triangles,
                stretch: topology.stretch,
                shear: topology.shear,
                bend: topology.bend,
                ...mass,
            },
            bodyOptions,
        );
        if (o.pins) {
            for (let k = 0; k < o.pins.length; k++) {
                const v = o.pins[k];
                if (!Number.isInteger(v) || v < 0 || v >= data.vertexCount) {
                    throw new RangeError(`ClothImpostor: pin vertex ${v} is out of range [0, ${data.vertexCount})`);
                }
                body.setPinWeight(topology.renderToParticle[v], 1);
            }
        }
        if (mass.density !== undefined) {
            // The total mass is what the density gave.
            o.mass = body.totalMass;
        }
        super("cloth", mesh, body, topology.renderToParticle, xpbd, o, stiffness, new RenderMeshSync(mesh, data));
        this.topologyReport = topology.report;
        warnAboutTopology(mesh.name, topology.report);
    }

    /** Returns "ClothImpostor". */
    public getClassName(): string {
        return "ClothImpostor";
    }

    protected _writeRenderPositions(out: Float64Array): void {
        applyWeldBinding(this.vertexToParticle, this.body.positions, out);
    }

    protected _kindOptions(): Partial<SoftImpostorOptionValues> {
        return { shearStiffness: this.shearStiffness, bendStiffness: this.bendStiffness };
    }
}

/** One warning listing what in the mesh the cloth could not use as given (nothing when the mesh is clean). */
function warnAboutTopology(name: string, report: ClothTopologyReport): void {
    const findings = [
        [report.nonManifoldEdges.length / 2, "non-manifold edges (more than two triangles; they get no shear or bend)"],
        [report.degenerateTriangles.length, "degenerate triangles (dropped)"],
        [report.duplicateTriangles.length, "duplicate triangles (dropped)"],
        [report.isolatedParticles.length, "vertices in no triangle (left unconstrained)"],
        [report.inconsistentEdgeCount, "edges where the winding flips"],
    ] as const;
    const found = findings.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
    if (found.length > 0) {
        Logger.Warn(`ClothImpostor: mesh "${name}" has ${found.join(", ")}; see topologyReport`);
    }
}
