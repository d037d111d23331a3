/**
 * The part shared by {@link ClothImpostor}, {@link SoftBodyImpostor} and {@link RopeImpostor}: the render mesh and its core
 * {@link SoftBody}, pins in render-vertex indices, body-level queries and pushes, observables and disposal. The
 * option properties are in `softImpostorProperties.ts`, the option types and their mapping in `softImpostorOptions.ts`.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Logger } from "@babylonjs/core/Misc/logger";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Node } from "@babylonjs/core/node";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import { ParticleGrab, SoftBodyEventType, unitInterval, type SoftBody } from "../core/index.js";
import { applyLodLevel, checkLodOptions, chooseLodLevel, XpbdLodLevel, type XpbdLodOptions } from "./levelOfDetail.js";
import { PinDriver, type PinTarget } from "./pinTargets.js";
import type { XpbdPlugin } from "./xpbdPlugin.js";
import type { XpbdBackend } from "./gpuBackend.js";
import type { GpuDrawable } from "./gpuDrawnMesh.js";
import type { ImpostorStiffness, ResolvedSoftImpostorOptions, SoftImpostorKind } from "./softImpostorOptions.js";
import { SoftImpostorProperties } from "./softImpostorProperties.js";

/** Payload of an impostor's event observables; one object per impostor, reused (copy what you keep). */
export interface SoftImpostorEvent {
    /** The impostor the event is about. */
    impostor: SoftImpostor;
    /** For over-stretch: the most stretched stretch constraint; otherwise −1. */
    element: number;
    /** For over-stretch: its length / rest length; otherwise 0. */
    value: number;
}

/**
 * What writes an impostor's simulated shape into its render mesh: `RenderMeshSync` for triangle meshes,
 * `RopeRenderSync` for ropes. @internal
 */
export interface RenderWriter {
    /** World positions per render vertex, filled by the impostor before {@link RenderWriter.update}. */
    worldPositions: Float64Array;
    /** Whether the mesh's world matrix changed since the last update. */
    readonly meshMoved: boolean;
    /** Whether the next update reads {@link RenderWriter.worldPositions} (not while the GPU draws the mesh, mostly). */
    readonly needsWorldPositions: boolean;
    /** Writes {@link RenderWriter.worldPositions} into the mesh. */
    update(): void;
}

/**
 * Base class of the impostors. The simulation runs in world space on {@link body}; the render mesh is rewritten
 * before each render after a step (see `renderMeshSync.ts` for the frame convention). Vertex indices in this API
 * are the render mesh's; {@link vertexToParticle} maps them to particles.
 */
export abstract class SoftImpostor extends SoftImpostorProperties {
    /** Fired after a step in which the body fell asleep. */
    public readonly onSleepObservable = new Observable<SoftImpostorEvent>();
    /** Fired after a step in which the body woke up. */
    public readonly onWakeObservable = new Observable<SoftImpostorEvent>();
    /**
     * Fired after a step that ended with an edge longer than 1.5 × its rest length (`element`, `value`: ratio). On the
     * WebGPU backend after the step in which the figures read that found it arrived (one read every 3 steps).
     */
    public readonly onOverStretchObservable = new Observable<SoftImpostorEvent>();
    /**
     * Fired after a step that produced a non-finite or runaway state; the body was restored, at rest, to its last valid
     * positions. On the WebGPU backend when a figures read finds it (up to 3 steps and a frame or two later), restored to
     * the positions of the last read that found none (see docs/webgpu.md).
     */
    public readonly onInvalidStateObservable = new Observable<SoftImpostorEvent>();
    /** Fired once when the impostor is disposed. */
    public readonly onDisposeObservable = new Observable<SoftImpostor>();

    /** See {@link vertexToParticle}; a tearing cloth replaces it. */
    protected _vertexToParticle: Int32Array;
    private _disposed = false;
    private _renderDirty = false;
    private readonly _event: SoftImpostorEvent;
    private readonly _meshDisposeObserver: Nullable<Observer<Node>>;
    private readonly _drivers: PinDriver[] = [];
    private readonly _grab = new ParticleGrab();
    private readonly _impulseRadius: number;
    private readonly _tmp = new Float64Array(3);
    private _lod: Nullable<Readonly<XpbdLodOptions>>;
    private _lodLevel = XpbdLodLevel.Full;
    /** Whether the body was held asleep through the last step and stays so: the solver left its shape as it was. */
    private _heldThrough = false;

    /**
     * @param kind - cloth, soft body or rope
     * @param mesh - the render mesh
     * @param body - the core body (not yet in a world)
     * @param vertexToParticle - render vertex → particle (see {@link SoftImpostor.vertexToParticle})
     * @param plugin - the plugin to join
     * @param options - validated shared options
     * @param stiffness - validated stiffness values
     * @param _renderSync - the render write-back
     * @internal
     */
    protected constructor(
        kind: SoftImpostorKind,
        /** The render mesh. */
        public readonly mesh: Mesh,
        body: SoftBody,
        vertexToParticle: Int32Array,
        /** The plugin this impostor belongs to. */
        public readonly plugin: XpbdPlugin,
        options: ResolvedSoftImpostorOptions,
        stiffness: ImpostorStiffness,
        private readonly _renderSync: RenderWriter,
    ) {
        super(kind, body, options, stiffness);
        this._vertexToParticle = vertexToParticle;
        this._event = { impostor: this, element: -1, value: 0 };
        const rest = body.restPositions;
        let min = Infinity,
            max = -Infinity,
            diagonal2 = 0;
        for (let axis = 0; axis < 3; axis++) {
            min = Infinity;
            max = -Infinity;
            for (let i = axis; i < 3 * body.particleCount; i += 3) {
                min = Math.min(min, rest[i]);
                max = Math.max(max, rest[i]);
            }
            diagonal2 += (max - min) ** 2;
        }
        this._impulseRadius = 0.25 * Math.sqrt(diagonal2);
        this._lod = options.lod === undefined ? null : checkLodOptions(options.lod, `${this._caller}: lod`);
        plugin._addImpostor(this);
        this._meshDisposeObserver = mesh.onDisposeObservable.add(() => this.dispose());
    }

    /**
     * Render vertex → particle: the weld map for cloth; for soft bodies the tet corner with the largest barycentric
     * weight. Its length is the render mesh's vertex count, which grows when a cloth tears (a new array then).
     */
    public get vertexToParticle(): Int32Array {
        return this._vertexToParticle;
    }

    /** Whether {@link dispose} was called. */
    public get isDisposed(): boolean {
        return this._disposed;
    }

    /**
     * Sets the pin weight of a render vertex's particle: 0 free, (0, 1) soft, 1 fixed where it is (until moved by
     * {@link pinTo}). A particle pinned with {@link pinTo} keeps following its target; {@link unpin} frees it.
     */
    public setPinWeight(vertexIndex: number, weight: number): void {
        this.body.setPinWeight(this._particle(vertexIndex), weight);
    }

    /** The pin weight of a render vertex's particle. */
    public getPinWeight(vertexIndex: number): number {
        return this.body.pins.weights[this._particle(vertexIndex)];
    }

    /** Pin weight per render vertex (a new array). */
    public getPinWeights(): Float32Array {
        const out = new Float32Array(this.vertexToParticle.length);
        const weights = this.body.pins.weights;
        for (let v = 0; v < out.length; v++) {
            out[v] = weights[this.vertexToParticle[v]];
        }
        return out;
    }

    /**
     * Sets every pin weight from one value per render vertex. Render vertices sharing a particle (seams) give it
     * the largest of their weights.
     */
    public setPinWeights(weights: ArrayLike<number>): void {
        if (weights.length !== this.vertexToParticle.length) {
            throw new RangeError(`setPinWeights: expected ${this.vertexToParticle.length} weights (one per vertex), got ${weights.length}`);
        }
        const perParticle = new Float64Array(this.body.particleCount);
        for (let v = 0; v < weights.length; v++) {
            const w = weights[v];
            unitInterval(w, `setPinWeights: weight of vertex ${v}`);
            const p = this.vertexToParticle[v];
            perParticle[p] = Math.max(perParticle[p], w);
        }
        for (let p = 0; p < perParticle.length; p++) {
            if (this.body.pins.weights[p] !== perParticle[p]) {
                this.body.setPinWeight(p, perParticle[p]);
            }
        }
    }

    /**
     * Pins the particles of the given render vertices to `target` with `weight` (default 1): each keeps its
     * current position relative to the target's world transform, and follows it as the target moves (node
     * animation, parenting, skeletal animation). A particle pinned again by a later call follows the later target.
     * When the target is disposed later, its particles stay pinned where it last put them (one `Logger.Warn`);
     * disposing only the target's Havok body changes nothing, the node still drives the pin.
     * @throws Error when `target` is null, undefined or disposed; RangeError for a vertex index out of range
     */
    public pinTo(vertexIndices: ArrayLike<number>, target: PinTarget, weight = 1): void {
        if (!target) {
            throw new Error(
                `${this._caller}.pinTo: target is ${target === null ? "null" : "undefined"} (a TransformNode or Bone is required)`,
            );
        }
        if (target.isDisposed()) {
            throw new Error(`${this._caller}.pinTo: target "${target.name}" is disposed`);
        }
        const particles = new Set<number>();
        for (let k = 0; k < vertexIndices.length; k++) {
            particles.add(this._particle(vertexIndices[k]));
        }
        for (const p of particles) {
            this.body.setPinWeight(p, weight);
        }
        this._releaseDrivers(particles);
        this._drivers.push(new PinDriver(target, Int32Array.from(particles), this.body));
    }

    /** Frees the particles of the given render vertices: pin weight 0, and no {@link pinTo} target drives them any more. */
    public unpin(vertexIndices: ArrayLike<number>): void {
        const particles = new Set<number>();
        for (let k = 0; k < vertexIndices.length; k++) {
            particles.add(this._particle(vertexIndices[k]));
        }
        this._releaseDrivers(particles);
        for (const p of particles) {
            this.body.setPinWeight(p, 0);
        }
    }

    /** Stops every pin driver from driving `particles`, and drops the drivers left with none. */
    private _releaseDrivers(particles: Set<number>): void {
        for (let d = this._drivers.length - 1; d >= 0; d--) {
            this._drivers[d].release(particles);
            if (this._drivers[d].particles.length === 0) {
                this._drivers.splice(d, 1);
            }
        }
    }

    /** Mass-weighted centre of the particles (world), as a new vector. */
    public getCenterOfMass(): Vector3 {
        return this.getCenterOfMassToRef(new Vector3());
    }

    /** Writes the mass-weighted centre of the particles (world) into `result` and returns it. */
    public getCenterOfMassToRef(result: Vector3): Vector3 {
        this.body.getCenterOfMass(this._tmp);
        return result.set(this._tmp[0], this._tmp[1], this._tmp[2]);
    }

    /** Mass-weighted mean velocity (momentum / mass, world, m/s), as a new vector. */
    public getLinearVelocity(): Vector3 {
        return this.getLinearVelocityToRef(new Vector3());
    }

    /** Writes the mass-weighted mean velocity (world, m/s) into `result` and returns it. */
    public getLinearVelocityToRef(result: Vector3): Vector3 {
        this.body.getLinearVelocity(this._tmp);
        return result.set(this._tmp[0], this._tmp[1], this._tmp[2]);
    }

    /**
     * The force (N, world) the pins exerted on the body over the last step, as a new vector: what a hammock's posts
     * hold. With a 20 kg crate resting on a 0.5 kg cloth it is 20.5 kg × 9.81 m/s² upwards. See `SoftBody.pinForce`.
     */
    public getPinForce(): Vector3 {
        return this.getPinForceToRef(new Vector3());
    }

    /** Writes the force the pins exerted on the body over the last step (N, world) into `result` and returns it. */
    public getPinForceToRef(result: Vector3): Vector3 {
        const f = this.body.pinForce;
        return result.set(f[0], f[1], f[2]);
    }

    /** Gives every free particle the velocity `velocity` (m/s, world) and wakes the body. */
    public setLinearVelocity(velocity: Vector3): void {
        this.body.setLinearVelocity(velocity.x, velocity.y, velocity.z);
    }

    /**
     * Applies `impulse` (N·s, world) at world `point`, spread over the particles within `radius` (default a quarter
     * of the rest bounding-box diagonal) with weights falling linearly with distance, so the body's momentum
     * changes by exactly `impulse` (less what fixed pins would have taken).
     */
    public applyImpulse(impulse: Vector3, point: Vector3, radius = this._impulseRadius): void {
        this.body.applyImpulse(impulse.x, impulse.y, impulse.z, point.x, point.y, point.z, radius);
    }

    /**
     * Starts dragging `particle` towards `target` (world, m), as with the pointer: the particle becomes a soft pin
     * of weight `stiffness` (in (0, 1]; 1 moves it exactly with the target) until {@link release}, which gives it back
     * the pin weight and target it had. One particle at a time: a second grab releases the first. Find the particle
     * under the pointer with `XpbdPlugin.pickParticle`.
     * @param particle - a particle index (not a render vertex: see {@link vertexToParticle})
     * @param stiffness - default `DEFAULT_GRAB_STIFFNESS` (0.9: about 1 mm of lag per newton of pull)
     * @throws RangeError for a particle out of range, a stiffness outside (0, 1] or a target that is not finite;
     *   Error for a particle that is fixed (pin weight 1) or follows a {@link pinTo} target
     */
    public grab(particle: number, target: Vector3, stiffness?: number): void {
        if (this.isPinDriven(particle)) {
            throw new Error(`${this._caller}.grab: particle ${particle} follows a pinTo target; unpin it to drag it`);
        }
        this._grab.grab(this.body, particle, target.x, target.y, target.z, stiffness);
    }

    /** Moves the target of the grabbed particle (world, m), waking the body; does nothing when none is grabbed. */
    public moveGrab(target: Vector3): void {
        this._grab.move(this.body, target.x, target.y, target.z);
    }

    /** Lets the grabbed particle go (with the velocity it has); does nothing when none is grabbed. */
    public release(): void {
        this._grab.release(this.body);
    }

    /** The particle held by {@link grab}, or −1. */
    public get grabbedParticle(): number {
        return this._grab.particle;
    }

    /** Whether a {@link pinTo} target moves `particle` (a particle index). */
    public isPinDriven(particle: number): boolean {
        return this._drivers.some((driver) => driver.particles.includes(particle));
    }

    /**
     * Writes the simulated shape into the render mesh now (done automatically before each render after a step, or
     * after the mesh moved). Does nothing once the impostor is disposed: the mesh keeps its last shape.
     */
    public updateRenderMesh(): void {
        if (this._disposed) {
            return;
        }
        if (this._renderSync.needsWorldPositions) {
            this._writeRenderPositions(this._renderSync.worldPositions);
        }
        this._renderSync.update();
        this._renderDirty = false;
    }

    /**
     * This impostor's own level-of-detail options (a frozen copy), or null to follow the plugin's
     * (`XpbdPlugin.lod`); see {@link XpbdLodOptions}. Takes effect at the next step.
     * @throws TypeError or RangeError for invalid options (see `XpbdLodOptions`)
     */
    public get lod(): Nullable<Readonly<XpbdLodOptions>> {
        return this._lod;
    }
    public set lod(value: Nullable<XpbdLodOptions>) {
        this._lod = value === null ? null : checkLodOptions(value, `${this._caller}: lod`);
    }

    /**
     * The level of detail the impostor was stepped at last (see {@link XpbdLodLevel}): always `Full` without level-of-detail
     * options. Its solver work shows in `body.stats.solvedSubsteps`.
     */
    public get lodLevel(): XpbdLodLevel {
        return this._lodLevel;
    }

    /** Removes the body from the simulation and every observer this impostor added; the mesh keeps its last shape. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this.mesh.onDisposeObservable.remove(this._meshDisposeObserver);
        this.release();
        this.plugin._removeImpostor(this);
        this._drivers.length = 0;
        this.onDisposeObservable.notifyObservers(this);
        for (const observable of [
            this.onSleepObservable,
            this.onWakeObservable,
            this.onOverStretchObservable,
            this.onInvalidStateObservable,
        ]) {
            observable.clear();
        }
        this.onDisposeObservable.clear();
    }

    /**
     * Chooses the level of detail for the coming step from `camera` (the scene's active one) and sets the body up for
     * it; called by the plugin before each step, before {@link _beforeStep}. @internal
     */
    public _updateLod(camera: Nullable<Camera>, pluginLod: Nullable<Readonly<XpbdLodOptions>>, pluginSubsteps: number): void {
        const lod = this._lod ?? pluginLod;
        if (lod === null && this._lodLevel === XpbdLodLevel.Full) {
            // Off, as it was: the body's own settings stay untouched.
            return;
        }
        const level = chooseLodLevel(lod, camera, this.mesh);
        applyLodLevel(this.body, level, this._lodLevel, lod, pluginSubsteps);
        this._heldThrough = level === XpbdLodLevel.Asleep && this._lodLevel === XpbdLodLevel.Asleep;
        this._lodLevel = level;
    }

    /** Moves pin targets from their drivers; called by the plugin before each step. @internal */
    public _beforeStep(): void {
        for (let d = this._drivers.length - 1; d >= 0; d--) {
            const driver = this._drivers[d];
            if (driver.isTargetDisposed) {
                // The pin weights stay, and the pin targets are where the target last put them: the cloth hangs on
                // instead of dropping at once, which the user can still choose with `unpin`.
                this._drivers.splice(d, 1);
                Logger.Warn(
                    `${this._caller}: pinTo target "${driver.target.name}" of mesh "${this.mesh.name}" was disposed; ` +
                        `its ${driver.particles.length} pinned particles stay where it last put them (unpin them to free them)`,
                );
                continue;
            }
            driver.update(this.body);
        }
    }

    /**
     * Called by the plugin before each step once the colliders mirror Havok's bodies (after {@link _beforeStep}): a
     * rope ties its particles to the colliders of the bodies it is attached to here. @internal
     */
    public _afterCollidersSynced(): void {
        // Only impostors tied to bodies have anything to do.
    }

    /**
     * Where this impostor's body is simulated now: `"webgpu"` while the plugin's WebGPU backend runs it, else
     * `"cpu"` (see `XpbdPluginOptions.backend`: a body starts on the CPU until the device's kernels are compiled,
     * and runs there while it uses a feature the GPU lacks).
     */
    public get backend(): XpbdBackend {
        return this.plugin._runsOnGpu(this) ? "webgpu" : "cpu";
    }

    /**
     * The render mesh the WebGPU backend may draw from GPU buffers (`GpuDrawnMesh`: a cloth's, a soft body's), or
     * null where the CPU writes the mesh from read-backs (ropes). @internal
     */
    public _gpuDrawableMesh(): GpuDrawable | null {
        return null;
    }

    /** The feature of this impostor the WebGPU backend lacks, named for its warning, or null. @internal */
    public _gpuUnsupportedFeature(): string | null {
        return null;
    }

    /**
     * Marks the render mesh out of date (unless the body slept through the step for its level of detail: an impostor
     * out of sight costs no render-mesh writes either); called by the plugin after each step. @internal
     */
    public _afterStep(): void {
        this._renderDirty = this._renderDirty || !this._heldThrough;
    }

    /** Marks the render mesh out of date after the plugin restored a snapshot into the body. @internal */
    public _afterRestore(): void {
        this._renderDirty = true;
    }

    /** Rewrites the render mesh if a step ran, or its node moved, since the last write; returns whether it did. @internal */
    public _beforeRender(): boolean {
        if (this._renderDirty || this._renderSync.meshMoved) {
            this.updateRenderMesh();
            return true;
        }
        return false;
    }

    /** Forwards a core event to the matching observable. @internal */
    public _notifyEvent(type: SoftBodyEventType, element: number, value: number): void {
        const event = this._event;
        event.element = element;
        event.value = value;
        switch (type) {
            case SoftBodyEventType.Sleep:
                this.onSleepObservable.notifyObservers(event);
                break;
            case SoftBodyEventType.Wake:
                this.onWakeObservable.notifyObservers(event);
                break;
            case SoftBodyEventType.OverStretch:
                this.onOverStretchObservable.notifyObservers(event);
                break;
            case SoftBodyEventType.InvalidState:
                this.onInvalidStateObservable.notifyObservers(event);
                break;
        }
    }

    /** Fills world positions per render vertex from the particles. */
    protected abstract _writeRenderPositions(out: Float64Array): void;

    /** The particle of a render vertex; throws a RangeError naming it when it is out of range. */
    protected _particle(vertexIndex: number): number {
        if (!Number.isInteger(vertexIndex) || vertexIndex < 0 || vertexIndex >= this.vertexToParticle.length) {
            throw new RangeError(`vertex index ${vertexIndex} is out of range [0, ${this.vertexToParticle.length})`);
        }
        return this.vertexToParticle[vertexIndex];
    }
}
