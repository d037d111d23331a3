/**
 * The scene-level plugin: owns the core {@link XpbdWorld}, the Havok collider bridge and the impostors, and hooks
 * them into the scene's lifecycle.
 */
import type { Nullable } from "@babylonjs/core/types";
import type { Scene } from "@babylonjs/core/scene";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import { Logger } from "@babylonjs/core/Misc/logger";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { Ray } from "@babylonjs/core/Culling/ray";
import { XpbdWorld, type Collider, type XpbdSnapshot } from "../core/index.js";
import { HavokColliderSync } from "./havokColliderSync.js";
import { havokStepSeconds } from "./havokStepTime.js";
import { pickParticle, type XpbdParticlePick } from "./particlePicking.js";
import { restorePluginState, savePluginState } from "./pluginState.js";
import type { SoftImpostor } from "./softImpostor.js";
import { StepEventDispatcher, type XpbdCapacityEvent } from "./stepEvents.js";
import { zeroTimings, type XpbdPluginTimings } from "./pluginTimings.js";
import { backendDevice, engineDevice, worldOptions, type XpbdPluginOptions } from "./xpbdPluginOptions.js";
import { GpuBackend, type LateImpulseSink, type XpbdBackend } from "./gpuBackend.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine";
import { checkLodOptions, type XpbdLodOptions } from "./levelOfDetail.js";
import { XpbdPluginProperties } from "./xpbdPluginProperties.js";

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
export class XpbdPlugin extends XpbdPluginProperties {
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
    public readonly timings: XpbdPluginTimings = zeroTimings();
    /**
     * Whether each phase of the plugin's work is timed into {@link timings} (default false, or the `profile`
     * option). A timed frame reads `performance.now()` nine times (seven per Havok step, two per render-mesh write),
     * and V8 returns each reading as a new 16-byte heap number, so leave it off where garbage matters.
     */
    public profile: boolean;

    private readonly _impostors: SoftImpostor[] = [];
    private _lod: Nullable<Readonly<XpbdLodOptions>> = null;
    private _lastStepSeconds = 1 / 60;
    private readonly _colliders: HavokColliderSync;
    /** The GPU bodies' impulses to the Havok bridge (see `GpuBackend.addColliderImpulses`), made once. */
    private readonly _applyLateImpulse: LateImpulseSink = (collider, linear, angular, seconds, forecast) =>
        this._colliders.applyLateImpulse(collider, linear, angular, seconds, forecast);
    private readonly _beforePhysicsObserver: Nullable<Observer<Scene>>;
    private readonly _afterPhysicsObserver: Nullable<Observer<Scene>>;
    /** When the last profiled step ended (the Havok step starts right after), or −1. */
    private _havokStart = -1;
    private readonly _beforeRenderObserver: Nullable<Observer<Scene>>;
    private readonly _sceneDisposeObserver: Nullable<Observer<Scene>>;
    private _disposed = false;
    private readonly _events = new StepEventDispatcher(this.onCapacityExceededObservable);
    private readonly _gpu: Nullable<GpuBackend>;

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
        super(new XpbdWorld(worldOptions(options, engine.gravity)));
        this.lod = options.lod ?? null;
        this.physicsEngine = engine;
        this.havokPlugin = engine.getPhysicsPlugin() as HavokPlugin;
        this.profile = options.profile ?? false;
        const device = backendDevice(options, scene.getEngine());
        // Meshes are drawn from GPU buffers only on the device that draws them.
        const drawing = engineDevice(scene.getEngine()) === device ? (scene.getEngine() as WebGPUEngine) : null;
        this._gpu = device ? new GpuBackend(device, this.world, drawing) : null;
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

    /**
     * The backend the impostors run on: `"webgpu"` when the `backend` option chose WebGPU (each impostor's own
     * `backend` says whether it runs there or fell back to the CPU), else `"cpu"`.
     */
    public get backend(): XpbdBackend {
        return this._gpu ? "webgpu" : "cpu";
    }

    /**
     * Resolves when the WebGPU backend's kernels are compiled for its device (or failed to compile: then every
     * impostor runs on the CPU, with one error logged); impostors move to the GPU at the next step. Resolves at once
     * on the CPU backend. Until then impostors run on the CPU, so waiting is optional.
     */
    public async whenBackendReadyAsync(): Promise<void> {
        await this._gpu?.compiled;
    }

    /**
     * With the WebGPU backend: resolves once every impostor on the GPU has its state after the steps submitted so far
     * in its body's CPU arrays (positions, velocities), its render mesh redrawn at the next render. The plugin reads
     * bodies back on its own, a frame or two behind; wait for this before reading positions on the CPU for
     * something that must be current (`saveState`, a measurement). Resolves at once on the CPU backend.
     */
    public async readGpuStateAsync(): Promise<void> {
        await this._gpu?.readAll();
    }

    /**
     * GPU milliseconds of a recent step of the impostors on the WebGPU backend, measured with timestamp queries
     * where the device has the `timestamp-query` feature (read back asynchronously, a step or a few behind); NaN on
     * the CPU backend, without the feature, or while no impostor runs on the GPU.
     */
    public get gpuStepMs(): number {
        return this._gpu ? this._gpu.gpuStepMs : NaN;
    }

    /**
     * With the WebGPU backend, how many steps late the GPU bodies' impulses on dynamic Havok bodies arrive beyond the
     * documented one-step delay: the steps whose impulses were still being read back when the last step started (0
     * where each step's arrive before the next; a browser typically reads back a frame or a few behind). The GPU
     * predicts the impulses in flight meanwhile (see docs/webgpu.md). NaN on the CPU backend.
     */
    public get gpuReadBackLag(): number {
        return this._gpu ? this._gpu.readBackLag : NaN;
    }

    /** Whether the WebGPU backend runs `impostor` now. @internal */
    public _runsOnGpu(impostor: SoftImpostor): boolean {
        return this._gpu !== null && this._gpu.runs(impostor);
    }

    /**
     * Level-of-detail options (a frozen copy) of the impostors that give none of their own, or null (the default):
     * none, every impostor gets every substep. See {@link XpbdLodOptions}; takes effect at the next step, measured
     * from the scene's `activeCamera` (none: full detail).
     * @throws TypeError or RangeError for invalid options (see `XpbdLodOptions`)
     */
    public get lod(): Nullable<Readonly<XpbdLodOptions>> {
        return this._lod;
    }
    public set lod(value: Nullable<XpbdLodOptions>) {
        this._lod = value === null ? null : checkLodOptions(value, "XpbdPlugin: lod");
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
        this._gpu?.dispose();
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
        this._checkUsable(impostor.getClassName());
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
        // A body on the GPU is out of the world: back into it first, from its last read-back state.
        this._gpu?.remove(impostor);
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
        const camera = this.scene.activeCamera;
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._updateLod(camera, this._lod, this.world.substeps);
            impostors[i]._beforeStep();
        }
        if (profile) {
            const t = performance.now();
            timings.pinTargetsMs = t - t0;
            t0 = t;
        }
        // Before the sync: the GPU bodies' impulses of the last step, with the displacement Havok went without.
        this._gpu?.addColliderImpulses(this._applyLateImpulse);
        this._colliders.beforeStep(dt);
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._afterCollidersSynced();
        }
        if (profile) {
            const t = performance.now();
            timings.colliderSyncMs = t - t0;
            t0 = t;
        }
        this.onBeforeWorldStepObservable.notifyObservers(dt);
        this._gpu?.step(impostors, dt);
        this.world.step(dt);
        this._gpu?.addEvents(this.world.events);
        this._gpu?.accumulateStats(this.world.stats);
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
        this._events.dispatch(this.world.events, impostors);
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
