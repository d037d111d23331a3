/**
 * A cloth: any indexed triangle mesh simulated as a sheet of particles (welded render vertices) with stretch,
 * shear and bend constraints.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Logger } from "@babylonjs/core/Misc/logger";
import { Observable } from "@babylonjs/core/Misc/observable";
import {
    getDefaults,
    openEdgeCount,
    positiveInteger,
    ratioAboveOne,
    strainLimitValue,
    resolveDefaultsVersion,
    SoftBody,
    TEAR_RECORD_SIZE,
    type ClothDefaults,
    type ClothTearing,
} from "../core/index.js";
import { applyWeldBinding, buildClothTopology, TearBinding, type ClothTopologyReport, type TearBindingChange } from "../meshing/index.js";
import type { GpuDrawable } from "./gpuDrawnMesh.js";
import { readMeshData } from "./meshData.js";
import { RenderMeshSync } from "./renderMeshSync.js";
import { SoftImpostor } from "./softImpostor.js";
import { coreOptions, massSource, type SoftImpostorOptions, type SoftImpostorOptionValues } from "./softImpostorOptions.js";
import { XpbdPlugin } from "./xpbdPlugin.js";

/** Options of a {@link ClothImpostor}; see {@link SoftImpostorOptions} for the shared ones. */
export interface ClothImpostorOptions extends SoftImpostorOptions {
    /** Resistance to shearing in [0, 1] (`complianceFromStiffness(s, "distance")`). Default 0.9. */
    shearStiffness?: number;
    /** Resistance to bending in [0, 1] (`complianceFromStiffness(s, "bend")`: 0 → 10 rad/(N·m), 1 → rigid). Default 0.5. */
    bendStiffness?: number;
    /**
     * Strain limiting: the largest edge length / rest length a stretch edge keeps after each substep, a ceiling for
     * loads the solver cannot carry within a substep (a cape on a pin moving at 10 m/s: ×1.29 without it at the
     * default quality, ×1.09 with it). The end farther from the pins moves; contacts keep the final say. Only while
     * `stretchStiffness` is 1: a stretchy fabric stretches as its stiffness says. 0 turns it off; otherwise finite
     * and greater than 1. Ignored by a cloth that tears. Change it later with {@link ClothImpostor.strainLimit}.
     * Default 1.08 (0 in defaults versions 1 and 2). On the WebGPU backend a cloth that comes past its limit runs on
     * the CPU.
     */
    strainLimit?: number;
    /** Render vertex indices pinned with weight 1 where they are (change later with `setPinWeight` / `pinTo`). Default none. */
    pins?: ArrayLike<number>;
    /**
     * Tearing: an edge longer than `tearRatio` × its rest length at the end of a step tears (greater than 1; 1.5
     * tears at half again its length). The particles along the tear split in two, the render mesh opens with them, and
     * {@link ClothImpostor.onTearObservable} fires. Default undefined: the cloth never tears. Whether it may tear is
     * fixed when the impostor is built (it sizes the buffers); the ratio can change later
     * ({@link ClothImpostor.tearRatio}). On the WebGPU backend it tears a read-back's lag later (see docs/webgpu.md).
     */
    tearRatio?: number;
    /**
     * Particles tearing may add, fixed when the impostor is built (each tear splits a particle in two). When they run
     * out the cloth stops tearing, and the plugin reports it once (`onCapacityExceededObservable`, kind
     * `"tearParticles"`). Default: the cloth's particle count. Only with {@link tearRatio}.
     */
    maxTearParticles?: number;
    /**
     * Gas inside a closed cloth, for balloons, air cushions and inflatables: the pressure in pascals (Pa) the gas has
     * while the cloth encloses its rest volume V₀, i.e. the mesh as given. That fixes the amount of gas, an ideal gas
     * at constant temperature with no air outside: squeezed or stretched to volume V it pushes the cloth outwards on
     * every triangle with `p = pressure V₀ / V` (p·V = pressure·V₀ stays constant). 0 is no gas: the cloth collapses
     * as one without the option; a few kPa is a soft air cushion; tens of kPa a firm one or a balloon (with a soft
     * `stretchStiffness` it swells until its membrane holds the pressure). Finite and ≥ 0. The mesh must be closed once its seams are welded (no open edges),
     * else the constructor throws. Default undefined: no gas. Whether the cloth holds gas is fixed when it is built;
     * the pressure can change later ({@link ClothImpostor.pressure}). Not with {@link tearRatio}.
     */
    pressure?: number;
}

/**
 * Payload of {@link ClothImpostor.onTearObservable}: what tore in the last step. One object per impostor, reused, its
 * arrays too (copy what you keep).
 */
export interface ClothTearEvent {
    /** The cloth that tore. */
    impostor: ClothImpostor;
    /** Edges that tore in the step. */
    edgeCount: number;
    /**
     * The torn edges as render vertex pairs (the first `2·edgeCount` entries): for each end, the first render vertex
     * that followed its particle before the tear.
     */
    edges: Int32Array;
    /** The torn edges as particle pairs of the core body (the first `2·edgeCount` entries). */
    particleEdges: Int32Array;
    /** Particles split in the step (the body has this many more). */
    particlesSplit: number;
    /** Render vertices added in the step (the mesh has this many more). */
    verticesAdded: number;
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
     * Fired after a step in which the cloth tore (see {@link ClothImpostorOptions.tearRatio}), once its render mesh
     * has opened along the tear: the torn edges, the particles split and the render vertices added.
     */
    public readonly onTearObservable = new Observable<ClothTearEvent>();

    private readonly _renderMesh: RenderMeshSync;
    /** The render side of tearing; null for a cloth that never tears. */
    private readonly _tearBinding: TearBinding | null = null;
    private readonly _tearEvent: ClothTearEvent | null = null;
    /** Per particle, the first render vertex following it (scratch of {@link _followTear}). */
    private readonly _firstVertex: Int32Array | null = null;

    /**
     * @param mesh - an indexed triangle mesh (not disposed); a skinned or morphed one is simulated from the shape it
     *   shows, and its skeleton and morph targets are detached with one `Logger.Warn` (see `meshDeformers.ts`)
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
        const bodyOptions = {
            ...coreOptions("ClothImpostor", o, stiffness),
            strainLimit: strainLimitValue(o.strainLimit, "ClothImpostor: strainLimit"),
            defaultsVersion,
        };
        const mass = massSource("ClothImpostor", options, o.mass);
        if (o.tearRatio !== undefined) {
            ratioAboveOne(o.tearRatio, "ClothImpostor: tearRatio");
            bodyOptions.tearRatio = o.tearRatio;
            if (o.maxTearParticles !== undefined) {
                bodyOptions.maxTearParticles = positiveInteger(o.maxTearParticles, "ClothImpostor: maxTearParticles");
            }
        }
        const data = readMeshData(mesh, "ClothImpostor");
        const topology = buildClothTopology(data.worldPositions, data.indices);
        if (o.pressure !== undefined) {
            gasPressure(o.pressure, "ClothImpostor: pressure");
            const open = openEdgeCount(topology.triangles);
            if (open > 0) {
                throw new Error(
                    `ClothImpostor: pressure needs a closed mesh, and this one has ${open} open edges once its seams are welded ` +
                        `(edges of a single triangle); close it, or leave pressure undefined`,
                );
            }
            bodyOptions.pressure = o.pressure;
        }
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
        const renderMesh = new RenderMeshSync(mesh, data);
        super("cloth", mesh, body, topology.renderToParticle, xpbd, o, stiffness, renderMesh);
        this._renderMesh = renderMesh;
        this.topologyReport = topology.report;
        if (body.tearing) {
            this._tearBinding = new TearBinding(data.indices, topology);
            const records = body.tearing.tears.length / TEAR_RECORD_SIZE;
            this._tearEvent = {
                impostor: this,
                edgeCount: 0,
                edges: new Int32Array(2 * records),
                particleEdges: new Int32Array(2 * records),
                particlesSplit: 0,
                verticesAdded: 0,
            };
            this._firstVertex = new Int32Array(body.particleCapacity);
        }
        warnAboutTopology(mesh.name, topology.report);
    }

    /**
     * The edge length / rest length at which the cloth tears, or undefined for a cloth built without
     * {@link ClothImpostorOptions.tearRatio}. Can be changed (greater than 1; `Infinity` stops tearing) only on a cloth
     * built with one: that sized its buffers.
     * @throws Error when set on a cloth built without a tear ratio; RangeError for a ratio not above 1
     */
    public get tearRatio(): number | undefined {
        return this.body.tearing?.tearRatio;
    }
    public set tearRatio(value: number | undefined) {
        const tearing = this.body.tearing;
        if (!tearing) {
            throw new Error("ClothImpostor: tearRatio can only be changed on a cloth built with one (it sizes the buffers tearing needs)");
        }
        tearing.tearRatio = ratioAboveOne(value as number, "ClothImpostor: tearRatio");
        this.body.wake();
    }

    /**
     * The strain limit (edge length / rest length; 0 off): see {@link ClothImpostorOptions.strainLimit}. Takes effect
     * at the next step.
     * @throws RangeError for a value that is neither 0 nor a finite ratio greater than 1
     */
    public get strainLimit(): number {
        return this.body.strainLimit;
    }
    public set strainLimit(value: number) {
        this.body.strainLimit = strainLimitValue(value, "ClothImpostor: strainLimit");
    }

    /**
     * Per render vertex, the vertex of the mesh as built that it descends from: itself, or for a vertex added by a
     * tear, the one it was split from. Null for a cloth that never tears (every vertex is its own).
     */
    public get vertexOrigins(): Int32Array | null {
        return this._tearBinding?.vertexOrigin ?? null;
    }

    /** Marks the render mesh out of date and, after a step that tore, opens it along the tear and fires {@link onTearObservable}. @internal */
    public override _afterStep(): void {
        super._afterStep();
        const tearing = this.body.tearing;
        if (tearing !== null && tearing.tearCount > 0 && !this.isDisposed) {
            this._followTear(tearing);
        }
    }

    /** Marks the render mesh out of date and, for a cloth that tears, brings it to the restored topology (no event). @internal */
    public override _afterRestore(): void {
        super._afterRestore();
        if (this._tearBinding && !this.isDisposed) {
            this._followTriangles();
        }
    }

    /** Removes the body from the simulation and every observer this impostor added; the mesh keeps its last shape. */
    public override dispose(): void {
        super.dispose();
        this.onTearObservable.clear();
    }

    /**
     * Pressure (Pa) of the gas at the rest volume (see {@link ClothImpostorOptions.pressure}); undefined for a
     * cloth built without gas, which cannot be given it later. Setting it pumps gas in or lets it out.
     * @throws Error when set on a cloth built without gas; RangeError for a pressure that is not finite and ≥ 0
     */
    public get pressure(): number | undefined {
        return this.body.gas?.pressure;
    }
    public set pressure(value: number | undefined) {
        const gas = this.body.gas;
        if (gas === null) {
            throw new Error("ClothImpostor: pressure can only be changed on a cloth built with it (give the option pressure)");
        }
        gas.pressure = gasPressure(value as number, "ClothImpostor: pressure");
        this.body.wake();
    }

    /** The render mesh's writer: its vertices are particles, which the WebGPU backend can draw from GPU buffers. @internal */
    public override _gpuDrawableMesh(): GpuDrawable {
        return { sync: this._renderMesh, vertices: { vertexToParticle: this.vertexToParticle } };
    }

    /** Returns "ClothImpostor". */
    public getClassName(): string {
        return "ClothImpostor";
    }

    protected _writeRenderPositions(out: Float64Array): void {
        applyWeldBinding(this.vertexToParticle, this.body.positions, out);
    }

    protected _kindOptions(): Partial<SoftImpostorOptionValues> {
        const tearing = this.body.tearing;
        const kind: Partial<SoftImpostorOptionValues> = {
            shearStiffness: this.shearStiffness,
            bendStiffness: this.bendStiffness,
            strainLimit: this.strainLimit,
        };
        if (tearing) {
            kind.tearRatio = tearing.tearRatio;
            kind.maxTearParticles = this.body.particleCapacity - (this.body.particleCount - tearing.tornParticles);
        }
        if (this.body.gas !== null) {
            kind.pressure = this.body.gas.pressure;
        }
        return kind;
    }

    /** The event of the step's tears, the render mesh opened along them (vertices split, indices, normals). */
    private _followTear(tearing: ClothTearing): void {
        const event = this._tearEvent!;
        const first = this._firstVertex!.fill(-1);
        const map = this._vertexToParticle;
        for (let v = map.length - 1; v >= 0; v--) {
            first[map[v]] = v;
        }
        // Records of one torn edge (a split, and the fans it cut off) are consecutive.
        let edges = 0;
        for (let k = 0; k < tearing.tearCount; k++) {
            const a = tearing.tears[TEAR_RECORD_SIZE * k];
            const b = tearing.tears[TEAR_RECORD_SIZE * k + 1];
            if (edges > 0 && event.particleEdges[2 * edges - 2] === a && event.particleEdges[2 * edges - 1] === b) {
                continue;
            }
            event.particleEdges[2 * edges] = a;
            event.particleEdges[2 * edges + 1] = b;
            event.edges[2 * edges] = first[a];
            event.edges[2 * edges + 1] = first[b];
            edges++;
        }
        const change = this._followTriangles();
        event.edgeCount = edges;
        event.particlesSplit = tearing.tearCount;
        event.verticesAdded = change.added;
        this.onTearObservable.notifyObservers(event);
    }

    /**
     * Opens the render mesh where the body's triangles now use other particles (after a tear, or a restored snapshot
     * of a cloth torn elsewhere). A snapshot from before a tear leaves the render vertices the tear added in place,
     * each following the particle its triangles use again, so the mesh closes where it had opened.
     */
    private _followTriangles(): TearBindingChange {
        const binding = this._tearBinding!;
        const change = binding.follow(this.body.triangles);
        this._vertexToParticle = binding.renderToParticle;
        this._renderMesh.followTear(binding.indices, binding.renderToParticle, binding.vertexOrigin, change.sources);
        return change;
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

/** Checks a gas pressure (Pa): finite and ≥ 0 (0: no gas). */
function gasPressure(value: number, name: string): number {
    if (!(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
        throw new RangeError(`${name} must be a finite gas pressure in pascals, 0 or more, got ${String(value)}`);
    }
    return value;
}
