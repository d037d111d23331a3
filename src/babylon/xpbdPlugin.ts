/**
 * The scene-level plugin: owns the core {@link XpbdWorld}, the Havok collider bridge and the impostors, and hooks
 * them into the scene's lifecycle.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import { DEFAULT_AIR_DENSITY, XpbdWorld, type Collider, type StepStats } from "../core/index.js";
import { HavokColliderSync } from "./havokColliderSync.js";
import { havokStepSeconds } from "./havokStepTime.js";
import type { SoftImpostor } from "./softImpostor.js";

/** Options of an {@link XpbdPlugin}; every field has a default. */
export interface XpbdPluginOptions {
    /** Fixed substeps per Havok step (the quality tier). Default 10. */
    substeps?: number;
    /** Solver iterations per substep, each a forward and a backward sweep over the constraints. Default 1. */
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
 * `scene.dispose()` disposes the plugin; disposing a mesh disposes its impostor.
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
    /** The scene's physics v2 engine. */
    public readonly physicsEngine: PhysicsEngine;
    /** The scene's Havok plugin. */
    public readonly havokPlugin: HavokPlugin;

    private readonly _impostors: SoftImpostor[] = [];
    private readonly _colliders: HavokColliderSync;
    private readonly _beforePhysicsObserver: Nullable<Observer<Scene>>;
    private readonly _beforeRenderObserver: Nullable<Observer<Scene>>;
    private readonly _sceneDisposeObserver: Nullable<Observer<Scene>>;
    private _disposed = false;

    /**
     * @param scene a scene with physics v2 enabled on a HavokPlugin (`scene.enablePhysics(gravity, havok)`)
     * @param options see {@link XpbdPluginOptions}
     * @throws Error when physics is not enabled, is not physics v2 with Havok, or the scene already has a plugin
     */
    public constructor(public readonly scene: Scene, options: XpbdPluginOptions = {}) {
        const getEngine = (scene as { getPhysicsEngine?: () => unknown }).getPhysicsEngine;
        const engine = typeof getEngine === "function" ? (scene.getPhysicsEngine() as Nullable<PhysicsEngine>) : null;
        if (!engine || !scene.onBeforePhysicsObservable) {
            throw new Error(
                "XpbdPlugin: physics is not enabled on this scene; call scene.enablePhysics(gravity, new HavokPlugin(...)) first " +
                    '(with deep imports, also import "@babylonjs/core/Physics/joinedPhysicsEngineComponent" and "@babylonjs/core/Physics/v2/physicsEngineComponent")',
            );
        }
        if (engine.getPluginVersion() !== 2 || engine.getPhysicsPluginName() !== "HavokPlugin") {
            throw new Error(`XpbdPlugin: needs physics v2 with the HavokPlugin, found "${engine.getPhysicsPluginName()}" (version ${engine.getPluginVersion()})`);
        }
        if (plugins.has(scene)) {
            throw new Error("XpbdPlugin: this scene already has an XpbdPlugin; dispose it first");
        }
        this.physicsEngine = engine;
        this.havokPlugin = engine.getPhysicsPlugin() as HavokPlugin;
        const g = engine.gravity;
        const wind = options.wind ?? Vector3.ZeroReadOnly;
        this.world = new XpbdWorld({
            gravity: [g.x, g.y, g.z],
            substeps: options.substeps ?? 10,
            iterations: options.iterations ?? 1,
            cellSize: options.cellSize ?? 0.5,
            wind: [wind.x, wind.y, wind.z],
            airDensity: options.airDensity ?? DEFAULT_AIR_DENSITY,
        });
        this._colliders = new HavokColliderSync(this.havokPlugin, engine, this.world);
        this._beforePhysicsObserver = scene.onBeforePhysicsObservable.add(() => this._step());
        this._beforeRenderObserver = scene.onBeforeRenderObservable.add(() => this._render());
        this._sceneDisposeObserver = scene.onDisposeObservable.add(() => this.dispose());
        plugins.set(scene, this);
    }

    /**
     * The plugin hooked into `scene`, or null when it has none (or it was disposed). For tools that only get the
     * scene, such as the Inspector panes (`babylon-xpbd/inspector`).
     */
    public static FromScene(scene: Scene): Nullable<XpbdPlugin> {
        return plugins.get(scene) ?? null;
    }

    /** The impostors, in simulation order. */
    public get impostors(): readonly SoftImpostor[] {
        return this._impostors;
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
     * @throws RangeError when a component is not finite
     */
    public get wind(): Vector3 {
        const w = this.world.wind;
        return new Vector3(w[0], w[1], w[2]);
    }
    public set wind(value: Vector3) {
        if (!Number.isFinite(value.x) || !Number.isFinite(value.y) || !Number.isFinite(value.z)) {
            throw new RangeError(`wind must be finite, got ${value.x}, ${value.y}, ${value.z}`);
        }
        this.world.wind[0] = value.x;
        this.world.wind[1] = value.y;
        this.world.wind[2] = value.z;
    }

    /** Air density ρ (kg/m³, ≥ 0; 0 turns aerodynamics off). Default 1.2. */
    public get airDensity(): number {
        return this.world.airDensity;
    }
    public set airDensity(value: number) {
        if (!(value >= 0) || !Number.isFinite(value)) {
            throw new RangeError(`airDensity must be a finite number ≥ 0, got ${value}`);
        }
        this.world.airDensity = value;
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
        this.scene.onBeforeRenderObservable.remove(this._beforeRenderObserver);
        this.scene.onDisposeObservable.remove(this._sceneDisposeObserver);
        this._colliders.dispose();
        this.onAfterStepObservable.clear();
        this.onImpostorAddedObservable.clear();
        this.onImpostorRemovedObservable.clear();
        plugins.delete(this.scene);
    }

    /** Throws when impostors cannot join (plugin disposed). @internal */
    public _checkUsable(caller: string): void {
        if (this._disposed) {
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
        this.onImpostorRemovedObservable.notifyObservers(impostor);
    }

    private _step(): void {
        const dt = havokStepSeconds(this.scene, this.physicsEngine, this.havokPlugin);
        const g = this.physicsEngine.gravity;
        this.world.gravity[0] = g.x;
        this.world.gravity[1] = g.y;
        this.world.gravity[2] = g.z;
        const impostors = this._impostors;
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._beforeStep();
        }
        this._colliders.beforeStep(dt);
        this.world.step(dt);
        this._colliders.applyImpulses();
        const events = this.world.events;
        for (let e = 0; e < events.count; e++) {
            const id = events.bodies[e];
            for (let i = 0; i < impostors.length; i++) {
                if (impostors[i].body.id === id) {
                    impostors[i]._notifyEvent(events.types[e], events.elements[e], events.values[e]);
                    break;
                }
            }
        }
        for (let i = 0; i < impostors.length; i++) {
            impostors[i]._afterStep();
        }
        this.onAfterStepObservable.notifyObservers(this);
    }

    private _render(): void {
        for (let i = 0; i < this._impostors.length; i++) {
            this._impostors[i]._beforeRender();
        }
    }
}

function positiveInteger(value: number, name: string): number {
    if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    return value;
}
