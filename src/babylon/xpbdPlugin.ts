/**
 * The scene-level plugin: owns the core {@link XpbdWorld}, the Havok collider bridge and the impostors, and hooks
 * them into the scene's lifecycle.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import { Logger } from "@babylonjs/core/Misc/logger";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { Ray } from "@babylonjs/core/Culling/ray";
import {
    finiteNonNegative,
    finiteVector3,
    positiveInteger,
    resolveDefaultsVersion,
    SoftBodyEventType,
    TEAR_CAPACITY_ELEMENT,
    XpbdWorld,
    type Collider,
    type StepStats,
    type XpbdSnapshot,
} from "../core/index.js";
import { HavokColliderSync } from "./havokColliderSync.js";
import { havokStepSeconds } from "./havokStepTime.js";
import { pickParticle, type XpbdParticlePick } from "./particlePicking.js";
import { restorePluginState, savePluginState } from "./pluginState.js";
import type { SoftImpostor } from "./softImpostor.js";

/** Options of an {@link XpbdPlugin}; every field has a default. */
export interface XpbdPluginOptions {
    /** Fixed substeps per Havok step (the quality tier). Default 5 (see `XpbdWorldOptions.substeps`). */
    substeps?: number;
    /** Solver iterations per substep, two passes over the constraints each. Default 1. */
    iterations?: number;
    /** Broad-phase grid cell edge in metres (about the size of a typical collider). Default 0.5. */
    cellSize?: number;
    /**
     * Wind velocity (m/s, world) blowing on every impostor's surface triangles: quadratic drag and lift per
     * triangle against the air's velocity relative to it (see the core's `applyAerodynamics`). Default zero (still
     * air: moving cloth is still slowed by the air). Copied; change it later with {@link XpbdPlugin.wind}.
     */
    wind?: Vector3;
    /** Air density ρ in kg/m³ (≥ 0; 0 turns aerodynamics off, still-air drag included). Default 1.2 (air at 20 °C, sea level). */
    airDensity?: number;
    /** Whether to time each phase of the plugin's work into {@link XpbdPlugin.timings}. Default false. */
    profile?: boolean;
    /** Events one step can hold (sleep, wake, over-stretch, invalid state, capacity); more are dropped and reported. Default 256. */
    eventCapacity?: number;
    /**
     * Broad-phase grid entries (collider shape × grid cell it overlaps). Shapes that do not fit are tested against
     * every particle: still correct, slower; reported. Default 65,536.
     */
    gridCapacity?: number;
    /**
     * Defaults version of the plugin's world and, unless they give their own, of its impostors (see
     * docs/versioning.md): a scene built with version n behaves the same in every later release. Default the newest
     * (`LATEST_DEFAULTS_VERSION`).
     */
    defaultsVersion?: number;
}

/** Which fixed capacity of the solver a step ran out of; see {@link XpbdCapacityEvent}. */
export type XpbdCapacityKind = "contacts" | "grid" | "events" | "tearParticles";

/**
 * Payload of {@link XpbdPlugin.onCapacityExceededObservable}: a fixed capacity of the solver was exceeded in the last
 * step, which went on in a degraded way. One object per plugin, reused (copy what you keep).
 */
export interface XpbdCapacityEvent {
    /**
     * `"contacts"`: a body found more contact candidates than it holds (4 per particle): some contacts were dropped;
     * reported once per body. `"grid"`: the broad-phase grid ran out of entries ({@link XpbdPluginOptions.gridCapacity}):
     * the shapes left over are tested against every particle; reported once per plugin. `"events"`: more events than
     * {@link XpbdPluginOptions.eventCapacity} in one step: the rest were dropped; reported for every such step.
     * `"tearParticles"`: a tearing cloth used up its `maxTearParticles` and stops tearing; reported once per cloth.
     */
    kind: XpbdCapacityKind;
    /** The impostor whose body ran out (`"contacts"`, `"tearParticles"`); null for the others. */
    impostor: Nullable<SoftImpostor>;
    /** The capacity exceeded: the body's contact candidates, the grid's entries, the events per step, or the cloth's tear particles. */
    capacity: number;
    /** For `"events"`, how many events that step dropped; otherwise 0. */
    dropped: number;
}

/**
 * Milliseconds spent in each phase of the plugin's work, written by {@link XpbdPlugin} while
 * {@link XpbdPlugin.profile} is on (all 0 until then; values stay as they were when it is turned off). The step
 * phases hold the last Havok step's figures (with `physicsEngine.setSubTimeStep` a frame may run several steps, or
 * none), {@link renderSyncMs} the last render-mesh write. One object per plugin, updated in place.
 *
 * The plugin's own cost, beside the solver's, is the sum of `pinTargetsMs`, `colliderSyncMs`, `impulsesMs`,
 * `eventsMs` and `renderSyncMs`.
 */
export interface XpbdPluginTimings {
    /** Pin drivers: every `pinTo` target's world matrix read into its particles' end-of-step pin targets. */
    pinTargetsMs: number;
    /**
     * Collider sync: Havok bodies added and removed, and each body's motion type, pose, velocities, mass
     * properties, material and collision filter read into its core collider.
     */
    colliderSyncMs: number;
    /** The core solver's step (`world.step`, which also reports its own time as `stats.stepMs`). */
    coreStepMs: number;
    /** Impulse hand-back: `applyImpulse` / `applyAngularImpulse` on every dynamic Havok body the soft bodies touched. */
    impulsesMs: number;
    /** Events: the impostors' observables (sleep, wake, over-stretch, invalid state) and {@link XpbdPlugin.onAfterStepObservable}, observers included. */
    eventsMs: number;
    /**
     * Havok's step: from the end of the plugin's `onBeforePhysicsObservable` observer to the start of
     * `onAfterPhysicsObservable` (Babylon's pre-step, Havok's world step, and Babylon's transform sync of every
     * body), plus any `onBeforePhysicsObservable` observer added after the plugin. Not the plugin's cost.
     */
    havokStepMs: number;
    /**
     * Render-mesh sync: every impostor's positions, normals and bounding info written into its mesh (the last frame
     * in which a step ran, or a mesh moved, before it).
     */
    renderSyncMs: number;
    /** Havok steps timed since the plugin was created. */
    steps: number;
    /** Render-mesh syncs timed since the plugin was created. */
    renderSyncs: number;
}

const plugins = new WeakMap<Scene, XpbdPlugin>();

/**
 * Cloth and soft bodies for a scene with physics v2 and Havok.
 *
 * Lifecycle: on every `scene.onBeforePhysicsObservable` (once per Havok step, also several times a frame with
 * `physicsEngine.setSubTimeStep`), the plugin reads the length `dt` of the Havok step about to run (see
 * `havokStepTime.ts`), moves animated pin targets, mirrors the Havok bodies into colliders, advances the core world
 * by exactly `dt` in {@link substeps} substeps (so soft time equals Havok time), hands the contact impulses to the
 * dynamic Havok bodies (Havok integrates them in the step that follows), then fires the impostors' events and
 * {@link onAfterStepObservable}. Render meshes are rewritten once per frame in `scene.onBeforeRenderObservable`
 * (or on demand with `impostor.updateRenderMesh()`). Gravity is the physics engine's, read every step.
 * `scene.dispose()` disposes the plugin; disposing a mesh disposes its impostor. Disabling physics
 * (`scene.disablePhysicsEngine()`) disposes the plugin and its impostors at its next frame, with one `Logger.Warn`;
 * after `scene.enablePhysics` again, create a new plugin.
 */
export class XpbdPlugin {
    /** The core world (bodies, colliders, stats, events). */
    public readonly world: XpbdWorld;
    /** Fired after each step, after the impostors' events. */
    public readonly onAfterStepObservable = new Observable<XpbdPlugin>();
    /** Fired when an impostor joins the plugin. */
    public readonly onImpostorAddedObservable = new Observable<SoftImpostor>();
    /** Fired when an impostor leaves the plugin (disposed). */
    public readonly onImpostorRemovedObservable = new Observable<SoftImpostor>();
    /**
     * Fired after a step that exceeded one of the solver's fixed capacities (after the impostors' events, before
     * {@link onAfterStepObservable}); the first time for each kind also logs one `Logger.Warn`. See {@link XpbdCapacityEvent}.
     */
    public readonly onCapacityExceededObservable = new Observable<XpbdCapacityEvent>();
    /**
     * Fired right before the core world steps, with the step's length in seconds: pin targets and colliders are
     * synced, nothing of the step has run. For tools that watch the world's inputs (`XpbdRecorder`); observers must
     * not change the simulation.
     */
    public readonly onBeforeWorldStepObservable = new Observable<number>();
    /** Fired right after the core world stepped, with the step's length (s), before impulses go to Havok and events fire. */
    public readonly onAfterWorldStepObservable = new Observable<number>();
    /** The scene's physics v2 engine. */
    public readonly physicsEngine: PhysicsEngine;
    /** The scene's Havok plugin. */
    public readonly havokPlugin: HavokPlugin;
    /**
     * Per-phase milliseconds, filled while {@link profile} is on; see {@link XpbdPluginTimings}. The same object for
     * the plugin's lifetime, updated in place.
     */
    public readonly timings: XpbdPluginTimings = {
        pinTargetsMs: 0,
        colliderSyncMs: 0,
        coreStepMs: 0,
        impulsesMs: 0,
        eventsMs: 0,
        havokStepMs: 0,
        renderSyncMs: 0,
        steps: 0,
        renderSyncs: 0,
    };
    /**
     * Whether each phase of the plugin's work is timed into {@link timings} (default false, or the `profile`
     * option). A timed frame reads `performance.now()` nine times (seven per Havok step, two per render-mesh write),
     * and V8 returns each reading as a new 16-byte heap number, so leave it off where garbage matters.
     */
    public profile: boolean;

    private readonly _impostors: SoftImpostor[] = [];
    private _lastStepSeconds = 1 / 60;
    private readonly _colliders: HavokColliderSync;
    private readonly _beforePhysicsObserver: Nullable<Observer<Scene>>;
    private readonly _afterPhysicsObserver: Nullable<Observer<Scene>>;
    /** When the last profiled step ended (the Havok step starts right after), or −1. */
    private _havokStart = -1;
    private readonly _beforeRenderObserver: Nullable<Observer<Scene>>;
    private readonly _sceneDisposeObserver: Nullable<Observer<Scene>>;
    private _disposed = false;
    private readonly _capacityEvent: XpbdCapacityEvent = { kind: "events", impostor: null, capacity: 0, dropped: 0 };
    /** Kinds of capacity already warned about. */
    private readonly _capacityWarned = new Set<XpbdCapacityKind>();

    /**
     * @param scene - a scene with physics v2 enabled on a HavokPlugin (`scene.enablePhysics(gravity, havok)`)
     * @param options - see {@link XpbdPluginOptions}
     * @throws Error when physics is not enabled, is not physics v2 with Havok, or the scene already has a plugin
     */
    public constructor(
        public readonly scene: Scene,
        options: XpbdPluginOptions = {},
    ) {
        const getEngine = (scene as { getPhysicsEngine?: () => unknown }).getPhysicsEngine;
        const engine = typeof getEngine === "function" ? (scene.getPhysicsEngine() as Nullable<PhysicsEngine>) : null;
        if (!engine || !scene.onBeforePhysicsObservable) {
            throw new Error(
                "XpbdPlugin: physics is not enabled on this scene; call scene.enablePhysics(gravity, new HavokPlugin(...)) first " +
                    '(with deep imports, also import "@babylonjs/core/Physics/joinedPhysicsEngineComponent" and "@babylonjs/core/Physics/v2/physicsEngineComponent")',
            );
        }
        if (engine.getPluginVersion() !== 2 || engine.getPhysicsPluginName() !== "HavokPlugin") {
            throw new Error(
                `XpbdPlugin: needs physics v2 with the HavokPlugin, found "${engine.getPhysicsPluginName()}" (version ${engine.getPluginVersion()})`,
            );
        }
        // A plugin left from a physics engine disposed since gives way (physics re-enabled before its next frame).
        plugins.get(scene)?._disposeIfEngineGone();
        if (plugins.has(scene)) {
            throw new Error("XpbdPlugin: this scene already has an XpbdPlugin; dispose it first");
        }
        this.physicsEngine = engine;
        this.havokPlugin = engine.getPhysicsPlugin() as HavokPlugin;
        const g = engine.gravity;
        const wind = options.wind ?? Vector3.ZeroReadOnly;
        this.world = new XpbdWorld({
            defaultsVersion: resolveDefaultsVersion(options.defaultsVersion, "XpbdPlugin: defaultsVersion"),
            gravity: [g.x, g.y, g.z],
            // The defaults live in the core (`XpbdWorldOptions`): undefined takes them.
            substeps: options.substeps,
            iterations: options.iterations,
            cellSize: options.cellSize,
            wind: [wind.x, wind.y, wind.z],
            airDensity: options.airDensity,
            eventCapacity:
                options.eventCapacity === undefined ? undefined : positiveInteger(options.eventCapacity, "XpbdPlugin: eventCapacity"),
            gridCapacity:
                options.gridCapacity === undefined ? undefined : positiveInteger(options.gridCapacity, "XpbdPlugin: gridCapacity"),
        });
        this.profile = options.profile ?? false;
        this._colliders = new HavokColliderSync(this.havokPlugin, engine, this.world);
        this._beforePhysicsObserver = scene.onBeforePhysicsObservable.add(() => this._step());
        // First, so that other after-physics observers are not counted as Havok's time.
        this._afterPhysicsObserver = scene.onAfterPhysicsObservable.add(() => this._afterPhysics(), undefined, true);
        this._beforeRenderObserver = scene.onBeforeRenderObservable.add(() => this._render());
        this._sceneDisposeObserver = scene.onDisposeObservable.add(() => this.dispose());
        plugins.set(scene, this);
    }

    /**
     * The plugin hooked into `scene`, or null when it has none (or it was disposed). For tools that only get the
     * scene, such as the Inspector panes (`babylon-xpbd/inspector`).
     */
    public static FromScene(scene: Scene): Nullable<XpbdPlugin> {
        const plugin = plugins.get(scene);
        return plugin && !plugin._disposeIfEngineGone() ? plugin : null;
    }

    /**
     * The plugin an impostor of `mesh` joins: `plugin` when given, else the one hooked into the mesh's scene (as
     * `PhysicsAggregate` finds its scene's physics engine). Throws when there is none or it is disposed. @internal
     */
    public static _ForMesh(mesh: AbstractMesh, plugin: XpbdPlugin | undefined, caller: string): XpbdPlugin {
        const found = plugin ?? XpbdPlugin.FromScene(mesh.getScene());
        if (!found) {
            throw new Error(`${caller}: the scene of mesh "${mesh.name}" has no XpbdPlugin; create one first (new XpbdPlugin(scene))`);
        }
        found._checkUsable(caller);
        return found;
    }

    /** The impostors, in simulation order. */
    public get impostors(): readonly SoftImpostor[] {
        return this._impostors;
    }

    /** The defaults version of the plugin's world, and of the impostors that give none (see {@link XpbdPluginOptions.defaultsVersion}). */
    public get defaultsVersion(): number {
        return this.world.defaultsVersion;
    }

    /** Figures of the last step, summed over the bodies (substep time, residuals, contacts, sleeping bodies…). */
    public get stats(): StepStats {
        return this.world.stats;
    }

    /** Substeps per Havok step (positive integer). */
    public get substeps(): number {
        return this.world.substeps;
    }
    public set substeps(value: number) {
        this.world.substeps = positiveInteger(value, "substeps");
    }

    /** Solver iterations per substep (positive integer). */
    public get iterations(): number {
        return this.world.iterations;
    }
    public set iterations(value: number) {
        this.world.iterations = positiveInteger(value, "iterations");
    }

    /**
     * Wind velocity (m/s, world) on every impostor (scaled per impostor by its `windScale`). The getter returns a
     * new Vector3 holding the world's current wind (editing it changes nothing: assign it back); the setter copies the value
     * into the core world, taking effect at the next step. Gusts: assign a new value every frame.
     * Per frame, {@link getWindToRef} reads it without allocating.
     * @throws RangeError when a component is not finite
     */
    public get wind(): Vector3 {
        return this.getWindToRef(new Vector3());
    }
    public set wind(value: Vector3) {
        this.world.wind.set(finiteVector3([value.x, value.y, value.z], "wind"));
    }

    /** Writes the wind velocity (m/s, world) into `result` and returns it. */
    public getWindToRef(result: Vector3): Vector3 {
        const w = this.world.wind;
        return result.set(w[0], w[1], w[2]);
    }

    /** Air density ρ (kg/m³, ≥ 0; 0 turns aerodynamics off). Default 1.2. */
    public get airDensity(): number {
        return this.world.airDensity;
    }
    public set airDensity(value: number) {
        this.world.airDensity = finiteNonNegative(value, "airDensity");
    }

    /** Whether {@link dispose} was called. */
    public get isDisposed(): boolean {
        return this._disposed;
    }

    /** The impostor simulating `mesh`, or null. */
    public getImpostorForMesh(mesh: AbstractMesh): Nullable<SoftImpostor> {
        for (const impostor of this._impostors) {
            if (impostor.mesh === mesh) {
                return impostor;
            }
        }
        return null;
    }

    /** The collider mirroring a Havok body (null before the first step after the body was added, or if ignored). */
    public getColliderForBody(body: PhysicsBody): Nullable<Collider> {
        return this._colliders.getCollider(body);
    }

    /**
     * The simulation's state now, as plain data: every impostor's positions, velocities, pins and sleep, the wind,
     * the quality tier and the time (see docs/snapshots.md for the full list), with the options of the plugin and
     * its impostors as JSON in `options`. Restore it with {@link restoreState}, or turn it into bytes with
     * `serializeSnapshot`. Havok's rigid bodies are not in it: they are Havok's (their colliders are read from Havok
     * at every step).
     */
    public saveState(): XpbdSnapshot {
        return savePluginState(this);
    }

    /**
     * Puts the simulation back in the state of `snapshot` (from {@link saveState} or `parseSnapshot`): stepping on is
     * then bit-identical to stepping on from when it was saved, given the same inputs (pin targets, Havok bodies,
     * wind, options). The snapshot is checked whole before anything is written, and refused with an `XpbdDataError`
     * (nothing changed) when it does not fit: another defaults version, another number of impostors, or an impostor
     * with another particle count or mesh. Options are not restored (they are in `snapshot.options`). Render meshes
     * are redrawn before the next render.
     * @throws XpbdDataError when the snapshot is invalid or belongs to another scene
     */
    public restoreState(snapshot: XpbdSnapshot): void {
        this._checkUsable("XpbdPlugin.restoreState");
        restorePluginState(this, snapshot);
    }

    /**
     * The particle under `ray` (for instance `scene.createPickingRay` at the pointer), for dragging it with
     * `impostor.grab(pick.particle, target)`: the first impostor surface along the ray and the grabbable corner of
     * the triangle hit nearest to where it hit (see {@link XpbdParticlePick}); null when there is none within
     * `ray.length`. Visits every triangle of every impostor: call it on pointer events.
     */
    public pickParticle(ray: Ray): Nullable<XpbdParticlePick> {
        return pickParticle(this._impostors, ray);
    }

    /** Length (s) of the last step, Havok's; 1/60 before the first. */
    public get lastStepSeconds(): number {
        return this._lastStepSeconds;
    }

    /** Returns "XpbdPlugin". */
    public getClassName(): string {
        return "XpbdPlugin";
    }

    /** Disposes every impostor, removes every observer the plugin added and the colliders. Idempotent. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        for (const impostor of this._impostors.slice()) {
            impostor.dispose();
        }
        this._disposed = true;
        this.scene.onBeforePhysicsObservable?.remove(this._beforePhysicsObserver);
        this.scene.onAfterPhysicsObservable?.remove(this._afterPhysicsObserver);
        this.scene.onBeforeRenderObservable.remove(this._beforeRenderObserver);
        this.scene.onDisposeObservable.remove(this._sceneDisposeObserver);
        this._colliders.dispose();
        this.onAfterStepObservable.clear();
        this.onImpostorAddedObservable.clear();
        this.onImpostorRemovedObservable.clear();
        this.onCapacityExceededObservable.clear();
        this.onBeforeWorldStepObservable.clear();
        this.onAfterWorldStepObservable.clear();
        plugins.delete(this.scene);
    }

    /** Throws when impostors cannot join (plugin disposed, also because its physics engine was). @internal */
    public _checkUsable(caller: string): void {
        if (this._disposeIfEngineGone() || this._disposed) {
            throw new Error(`${caller}: the XpbdPlugin is disposed`);
        }
    }

    /** Registers an impostor and its body. @internal */
    public _addImpostor(impostor: SoftImpostor): void {
        this._checkUsable(impostor.kind === "cloth" ? "ClothImpostor" : "SoftBodyImpostor");
        if (this.getImpostorForMesh(impostor.mesh)) {
            throw new Error(`mesh "${impostor.mesh.name}" already has an impostor`);
        }
        this.world.addBody(impostor.body);
        this._impostors.push(impostor);
        this._colliders.softNodes.add(impostor.mesh);
        this.onImpostorAddedObservable.notifyObservers(impostor);
    }

    /** Unregisters an impostor (from its dispose). @internal */
    public _removeImpostor(impostor: SoftImpostor): void {
        const index = this._impostors.indexOf(impostor);
        if (index < 0) {
            return;
        }
        this._impostors.splice(index, 1);
        this.world.removeBody(impostor.body);
        this._colliders.softNodes.delete(impostor.mesh);
        this.onImpostorRemovedObservable.notifyObservers(impostor);
    }

    /**
     * Disposes the plugin, with one warning, when the scene's physics engine is no longer the one it was built on
     * (`scene.disablePhysicsEngine()`, perhaps followed by `enablePhysics` with a new HavokPlugin): its Havok world
     * is released, and its bodies with it. Returns whether it did.
     */
    private _disposeIfEngineGone(): boolean {
        if (this._disposed || this.scene.getPhysicsEngine() === this.physicsEngine) {
            return false;
        }
        Logger.Warn(
            `XpbdPlugin: the scene's physics engine was disposed (scene.disablePhysicsEngine()); the plugin disposed itself ` +
                `and its ${this._impostors.length} impostors. Create a new XpbdPlugin once physics is enabled again`,
        );
        this.dispose();
        return true;
    }

    private _step(): void {
        if (this._disposeIfEngineGone()) {
            return;
        }
        const profile = this.profile;
        const timings = this.timings;
        let t0 = profile ? performance.now() : 0;
        const dt = havokStepSeconds(this.scene, this.physicsEngine, this.havokPlugin);
        if (!(dt > 0)) {
            // `havok.setTimeStep(0)`: Havok stands still, and so does the soft world (soft time stays Havok time).
            return;
        }
        this._lastStepSeconds = dt;
        const g = this.physicsEngine.gravity;
        this.world.gravity[0] = g.x;
        this.world.gravity[1] = g.y;
        this.world.gravity[2] = g.z;
        const impostors = this._impostors;
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._beforeStep();
        }
        if (profile) {
            const t = performance.now();
            timings.pinTargetsMs = t - t0;
            t0 = t;
        }
        this._colliders.beforeStep(dt);
        if (profile) {
            const t = performance.now();
            timings.colliderSyncMs = t - t0;
            t0 = t;
        }
        this.onBeforeWorldStepObservable.notifyObservers(dt);
        this.world.step(dt);
        this.onAfterWorldStepObservable.notifyObservers(dt);
        if (profile) {
            const t = performance.now();
            timings.coreStepMs = t - t0;
            t0 = t;
        }
        this._colliders.applyImpulses(dt);
        if (profile) {
            const t = performance.now();
            timings.impulsesMs = t - t0;
            t0 = t;
        }
        const events = this.world.events;
        for (let e = 0; e < events.count; e++) {
            const id = events.bodies[e];
            if (events.types[e] === SoftBodyEventType.CapacityExceeded) {
                const element = events.elements[e];
                const kind = element === 0 ? "contacts" : element === TEAR_CAPACITY_ELEMENT ? "tearParticles" : "grid";
                this._capacityExceeded(kind, id, events.values[e], 0);
                continue;
            }
            for (let i = 0; i < impostors.length; i++) {
                if (impostors[i].body.id === id) {
                    impostors[i]._notifyEvent(events.types[e], events.elements[e], events.values[e]);
                    break;
                }
            }
        }
        if (events.dropped > 0) {
            this._capacityExceeded("events", -1, events.types.length, events.dropped);
        }
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._afterStep();
        }
        this.onAfterStepObservable.notifyObservers(this);
        if (profile) {
            const t = performance.now();
            timings.eventsMs = t - t0;
            timings.steps++;
            this._havokStart = t;
        }
    }

    /** Warns the first time for each kind, and tells the observers. Runs after the step, never inside it. */
    private _capacityExceeded(kind: XpbdCapacityKind, bodyId: number, capacity: number, dropped: number): void {
        let impostor: Nullable<SoftImpostor> = null;
        for (let i = 0; i < this._impostors.length; i++) {
            if (this._impostors[i].body.id === bodyId) {
                impostor = this._impostors[i];
                break;
            }
        }
        if (!this._capacityWarned.has(kind)) {
            this._capacityWarned.add(kind);
            Logger.Warn(
                kind === "contacts"
                    ? `XpbdPlugin: mesh "${impostor?.mesh.name}" found more contacts in one step than its capacity of ${capacity} ` +
                          "(4 per particle); the farthest were dropped"
                    : kind === "grid"
                      ? `XpbdPlugin: the broad-phase grid ran past its capacity of ${capacity} entries (gridCapacity); the shapes ` +
                        "left over are tested against every particle, which is slower (raise gridCapacity or cellSize)"
                      : kind === "tearParticles"
                        ? `XpbdPlugin: cloth "${impostor?.mesh.name}" used up its ${capacity} tear particles (maxTearParticles) and ` +
                          "stops tearing (raise maxTearParticles)"
                        : `XpbdPlugin: ${dropped} events of one step did not fit the event queue's capacity of ${capacity} ` +
                          "(eventCapacity) and were dropped (raise eventCapacity)",
            );
        }
        const event = this._capacityEvent;
        event.kind = kind;
        event.impostor = impostor;
        event.capacity = capacity;
        event.dropped = dropped;
        this.onCapacityExceededObservable.notifyObservers(event);
    }

    private _afterPhysics(): void {
        this._colliders.afterHavokStep();
        if (this._havokStart >= 0) {
            this.timings.havokStepMs = performance.now() - this._havokStart;
            this._havokStart = -1;
        }
    }

    private _render(): void {
        // Physics disabled fires no more steps: the first frame after it finds out.
        if (this._disposeIfEngineGone()) {
            return;
        }
        const profile = this.profile;
        const t0 = profile ? performance.now() : 0;
        let written = false;
        for (let i = 0; i < this._impostors.length; i++) {
            written = this._impostors[i]._beforeRender() || written;
        }
        if (profile && written) {
            this.timings.renderSyncMs = performance.now() - t0;
            this.timings.renderSyncs++;
        }
    }
}
