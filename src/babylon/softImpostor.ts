/**
 * The part shared by {@link ClothImpostor} and {@link SoftBodyImpostor}: the render mesh and its core
 * {@link SoftBody}, option properties (stiffness sliders in [0, 1] mapped with `complianceFromStiffness`), pins in
 * render-vertex indices, body-level queries and pushes, observables and disposal.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Logger } from "@babylonjs/core/Misc/logger";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Node } from "@babylonjs/core/node";
import {
    booleanValue,
    complianceFromStiffness,
    finiteNonNegative,
    mask32,
    ParticleGrab,
    positiveFinite,
    getDefaults,
    SoftBodyEventType,
    unitInterval,
    type SoftBody,
    type SoftBodyOptions,
} from "../core/index.js";
import type { RenderMeshSync } from "./renderMeshSync.js";
import { PinDriver, type PinTarget } from "./pinTargets.js";
import type { XpbdPlugin } from "./xpbdPlugin.js";

/** Which kind of impostor: a triangle-mesh cloth or a tetrahedral soft body. */
export type SoftImpostorKind = "cloth" | "softBody";

/** Options shared by both impostors; every field has a default. Stiffnesses are sliders in [0, 1]. */
export interface SoftImpostorOptions {
    /** Total mass in kg, spread over the particles by area (cloth) or volume (soft body). Default 1, or what `density` gives. */
    mass?: number;
    /**
     * Density, used when `mass` is not given: kg/m² of rest area for a cloth (its fabric weight; 0.45 for denim), kg/m³
     * of the closed mesh's volume for a soft body (1,050 for a jelly). Default none (then `mass` is 1 kg). The presets
     * ({@link ClothPresets}, {@link SoftBodyPresets}) give one, so that `{ ...ClothPresets.denim, mass: 0.4 }` overrides it.
     */
    density?: number;
    /**
     * Resistance to stretching, in [0, 1]: 1 is inextensible (compliance 0); each 1/6 below is one decade more
     * compliance, down to 1e-2 m/N at 0 (`complianceFromStiffness(s, "distance")`). Default 1.
     */
    stretchStiffness?: number;
    /** Rate (1/s) at which deformation (motion relative to the body's rigid motion) is damped. Default 1. */
    damping?: number;
    /**
     * Coulomb friction coefficient against colliders while sliding (kinetic), combined with the Havok material's
     * friction by geometric mean. Default 0.5.
     */
    friction?: number;
    /**
     * Static friction coefficient: a resting contact holds until the sliding force exceeds this share of the normal
     * force. Combined like {@link friction}. Default: the value of `friction` (as in Babylon's `PhysicsMaterial`).
     */
    staticFriction?: number;
    /** Collision thickness in metres: particles stay this far from collider surfaces. Default 0.01. */
    thickness?: number;
    /** Whether the body may fall asleep when it stops moving. Default true. */
    allowSleep?: boolean;
    /** Speed (m/s) under which every particle must stay for the body to sleep. Default 0.02. */
    sleepVelocity?: number;
    /** Seconds the body must stay slow before it sleeps. Default 0.5. */
    sleepTime?: number;
    /** Collision groups the body belongs to, matched against Havok shapes' `filterCollideMask`. Default 0xffffffff. */
    membership?: number;
    /** Collision groups the body collides with, matched against Havok shapes' `filterMembershipMask`. Default 0xffffffff. */
    collideWith?: number;
    /**
     * Aerodynamic drag coefficient C_D (≥ 0) of each surface triangle against the plugin's wind (and still air).
     * Default 1.2 for cloth (a flat plate broadside to the flow); 0.6 for soft bodies, see {@link SOFT_BODY_IMPOSTOR_DEFAULTS}.
     */
    dragCoefficient?: number;
    /** Aerodynamic lift coefficient C_L (≥ 0) of each surface triangle. Default 1 for cloth; 0.5 for soft bodies. */
    liftCoefficient?: number;
    /** How much of the plugin's wind this body feels (≥ 0; 0 turns its aerodynamics off, still-air drag included). Default 1. */
    windScale?: number;
    /**
     * Defaults version that fills in the options not given, here and in the core body (see docs/versioning.md): an
     * impostor built with version n behaves the same in every later release. Default the plugin's
     * (`XpbdPluginOptions.defaultsVersion`, itself the newest by default).
     */
    defaultsVersion?: number;
}

/** Every option value of an impostor, as returned by {@link SoftImpostor.getOptions}. */
export interface SoftImpostorOptionValues extends Required<Omit<SoftImpostorOptions, "density">> {
    /** Shear stiffness in [0, 1] (cloth). */
    shearStiffness?: number;
    /** Bend stiffness in [0, 1] (cloth). */
    bendStiffness?: number;
    /** Volume stiffness in [0, 1] (soft body). */
    volumeStiffness?: number;
    /** Tet lattice resolution (soft body). */
    resolution?: number;
    /** Edge length / rest length at which the cloth tears (cloth built with one). */
    tearRatio?: number;
    /** Particles tearing may add (cloth built with a tear ratio). */
    maxTearParticles?: number;
}

/** Payload of an impostor's event observables; one object per impostor, reused (copy what you keep). */
export interface SoftImpostorEvent {
    /** The impostor the event is about. */
    impostor: SoftImpostor;
    /** For over-stretch: the most stretched stretch constraint; otherwise −1. */
    element: number;
    /** For over-stretch: its length / rest length; otherwise 0. */
    value: number;
}

/** {@link SoftImpostorOptions} with the defaults filled in (`staticFriction` follows `friction` when absent). */
export type ResolvedSoftImpostorOptions = Required<Omit<SoftImpostorOptions, "staticFriction" | "density" | "defaultsVersion">> &
    Pick<SoftImpostorOptions, "staticFriction" | "density" | "defaultsVersion">;

/**
 * Defaults of {@link SoftImpostorOptions} in the newest defaults version. Like every default they live in the core's
 * table (`getDefaults(version).impostor`), by defaults version.
 */
export const SOFT_IMPOSTOR_DEFAULTS: Readonly<ResolvedSoftImpostorOptions> = getDefaults().impostor;

/**
 * Where an impostor's mass comes from, for its core descriptor: `mass` when given (it overrides a preset's density),
 * else `density` when given, else the default mass. Throws naming the option when the density is not positive.
 */
export function massSource(caller: string, options: SoftImpostorOptions, defaultMass: number): { mass?: number; density?: number } {
    if (options.mass === undefined && options.density !== undefined) {
        return { density: positiveFinite(options.density, `${caller}: density`) };
    }
    return { mass: options.mass ?? defaultMass };
}

/** Stiffness values of the four constraint kinds (those a kind does not use are kept but act on nothing). */
export interface ImpostorStiffness {
    stretch: number;
    shear: number;
    bend: number;
    volume: number;
}

/**
 * Validates the shared options and turns them into core {@link SoftBodyOptions}. Throws a RangeError naming the
 * option and the impostor class.
 */
export function coreOptions(caller: string, o: ResolvedSoftImpostorOptions, stiffness: ImpostorStiffness): SoftBodyOptions {
    positiveFinite(o.mass, `${caller}: mass`);
    for (const [name, value] of Object.entries(stiffness)) {
        unitInterval(value, `${caller}: ${name}Stiffness`);
    }
    for (const name of [
        "damping",
        "friction",
        "thickness",
        "sleepVelocity",
        "sleepTime",
        "dragCoefficient",
        "liftCoefficient",
        "windScale",
    ] as const) {
        finiteNonNegative(o[name], `${caller}: ${name}`);
    }
    if (o.staticFriction !== undefined) {
        finiteNonNegative(o.staticFriction, `${caller}: staticFriction`);
    }
    booleanValue(o.allowSleep, `${caller}: allowSleep`);
    mask32(o.membership, `${caller}: membership`);
    mask32(o.collideWith, `${caller}: collideWith`);
    return {
        stretchCompliance: complianceFromStiffness(stiffness.stretch, "distance"),
        shearCompliance: complianceFromStiffness(stiffness.shear, "distance"),
        bendCompliance: complianceFromStiffness(stiffness.bend, "bend"),
        volumeCompliance: complianceFromStiffness(stiffness.volume, "volume"),
        damping: o.damping,
        staticFriction: o.staticFriction ?? o.friction,
        kineticFriction: o.friction,
        thickness: o.thickness,
        allowSleep: o.allowSleep,
        sleepVelocity: o.sleepVelocity,
        sleepTime: o.sleepTime,
        membership: o.membership >>> 0,
        collideWith: o.collideWith >>> 0,
        dragCoefficient: o.dragCoefficient,
        liftCoefficient: o.liftCoefficient,
        windScale: o.windScale,
    };
}

/**
 * Base class of the impostors. The simulation runs in world space on {@link body}; the render mesh is rewritten
 * before each render after a step (see `renderMeshSync.ts` for the frame convention). Vertex indices in this API
 * are the render mesh's; {@link vertexToParticle} maps them to particles.
 */
export abstract class SoftImpostor {
    /** Fired after a step in which the body fell asleep. */
    public readonly onSleepObservable = new Observable<SoftImpostorEvent>();
    /** Fired after a step in which the body woke up. */
    public readonly onWakeObservable = new Observable<SoftImpostorEvent>();
    /** Fired after a step that ended with an edge longer than 1.5 × its rest length (`element`, `value`: ratio). */
    public readonly onOverStretchObservable = new Observable<SoftImpostorEvent>();
    /** Fired after a step that produced a non-finite or runaway state; the body was restored, at rest, to its last valid positions. */
    public readonly onInvalidStateObservable = new Observable<SoftImpostorEvent>();
    /** Fired once when the impostor is disposed. */
    public readonly onDisposeObservable = new Observable<SoftImpostor>();

    /** See {@link vertexToParticle}; a tearing cloth replaces it. */
    protected _vertexToParticle: Int32Array;
    private _disposed = false;
    private _renderDirty = false;
    private _mass: number;
    /** Whether static friction was set on its own (else it follows {@link friction}). */
    private _staticFrictionGiven: boolean;
    private readonly _stiffness: ImpostorStiffness;
    private readonly _event: SoftImpostorEvent;
    private readonly _meshDisposeObserver: Nullable<Observer<Node>>;
    private readonly _drivers: PinDriver[] = [];
    private readonly _grab = new ParticleGrab();
    private readonly _impulseRadius: number;
    private readonly _tmp = new Float64Array(3);

    /**
     * @param kind - cloth or soft body
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
        /** `"cloth"` or `"softBody"`. */
        public readonly kind: SoftImpostorKind,
        /** The render mesh. */
        public readonly mesh: Mesh,
        /** The simulated body (positions in world space). */
        public readonly body: SoftBody,
        vertexToParticle: Int32Array,
        /** The plugin this impostor belongs to. */
        public readonly plugin: XpbdPlugin,
        options: ResolvedSoftImpostorOptions,
        stiffness: ImpostorStiffness,
        private readonly _renderSync: RenderMeshSync,
    ) {
        this._vertexToParticle = vertexToParticle;
        this._mass = options.mass;
        this._staticFrictionGiven = options.staticFriction !== undefined;
        this._stiffness = { ...stiffness };
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

    /** Total mass (kg). Setting it rescales every particle's mass. */
    public get mass(): number {
        return this._mass;
    }
    public set mass(value: number) {
        positiveFinite(value, `${this._caller}: mass`);
        const k = value / this._mass;
        const masses = this.body.masses;
        for (let i = 0; i < masses.length; i++) {
            masses[i] *= k;
        }
        // Inverse masses (and tethers) are rebuilt from the masses before the next step.
        this.body.pins.dirty = true;
        this.body.wake();
        this._mass = value;
    }

    /** Stretch stiffness in [0, 1] (see {@link SoftImpostorOptions.stretchStiffness}). */
    public get stretchStiffness(): number {
        return this._stiffness.stretch;
    }
    public set stretchStiffness(value: number) {
        this.body.stretch.compliance = this._setStiffness("stretch", value, "distance");
    }

    /** Shear stiffness in [0, 1] (cloth: the diagonals across each pair of triangles). */
    public get shearStiffness(): number {
        return this._stiffness.shear;
    }
    public set shearStiffness(value: number) {
        this.body.shear.compliance = this._setStiffness("shear", value, "distance");
    }

    /** Bend stiffness in [0, 1] (cloth: dihedral angles; 0 maps to 10 rad/(N·m)). */
    public get bendStiffness(): number {
        return this._stiffness.bend;
    }
    public set bendStiffness(value: number) {
        this.body.bend.compliance = this._setStiffness("bend", value, "bend");
    }

    /** Volume stiffness in [0, 1] (soft body: every tet keeps its volume at 1). */
    public get volumeStiffness(): number {
        return this._stiffness.volume;
    }
    public set volumeStiffness(value: number) {
        this.body.volume.compliance = this._setStiffness("volume", value, "volume");
    }

    /** Deformation damping rate (1/s). */
    public get damping(): number {
        return this.body.damping;
    }
    public set damping(value: number) {
        finiteNonNegative(value, `${this._caller}: damping`);
        this.body.damping = value;
    }

    /** Kinetic friction coefficient; the static one follows it unless {@link staticFriction} was given. */
    public get friction(): number {
        return this.body.kineticFriction;
    }
    public set friction(value: number) {
        finiteNonNegative(value, `${this._caller}: friction`);
        this.body.kineticFriction = value;
        if (!this._staticFrictionGiven) {
            this.body.staticFriction = value;
        }
    }

    /** Static friction coefficient (see {@link SoftImpostorOptions.staticFriction}). */
    public get staticFriction(): number {
        return this.body.staticFriction;
    }
    public set staticFriction(value: number) {
        finiteNonNegative(value, `${this._caller}: staticFriction`);
        this.body.staticFriction = value;
        this._staticFrictionGiven = true;
    }

    /** Collision thickness (m). */
    public get thickness(): number {
        return this.body.thickness;
    }
    public set thickness(value: number) {
        finiteNonNegative(value, `${this._caller}: thickness`);
        this.body.thickness = value;
        this.body.wake();
    }

    /** Sleep speed threshold (m/s). */
    public get sleepVelocity(): number {
        return this.body.sleepVelocity;
    }
    public set sleepVelocity(value: number) {
        finiteNonNegative(value, `${this._caller}: sleepVelocity`);
        this.body.sleepVelocity = value;
    }

    /** Seconds slow before sleeping. */
    public get sleepTime(): number {
        return this.body.sleepTime;
    }
    public set sleepTime(value: number) {
        finiteNonNegative(value, `${this._caller}: sleepTime`);
        this.body.sleepTime = value;
    }

    /** Whether the body may sleep. */
    public get allowSleep(): boolean {
        return this.body.allowSleep;
    }
    public set allowSleep(value: boolean) {
        this.body.allowSleep = booleanValue(value, `${this._caller}: allowSleep`);
        this.body.wake();
    }

    /** Aerodynamic drag coefficient C_D (≥ 0; see {@link SoftImpostorOptions.dragCoefficient}). */
    public get dragCoefficient(): number {
        return this.body.dragCoefficient;
    }
    public set dragCoefficient(value: number) {
        finiteNonNegative(value, `${this._caller}: dragCoefficient`);
        this.body.dragCoefficient = value;
        this.body.wake();
    }

    /** Aerodynamic lift coefficient C_L (≥ 0; see {@link SoftImpostorOptions.liftCoefficient}). */
    public get liftCoefficient(): number {
        return this.body.liftCoefficient;
    }
    public set liftCoefficient(value: number) {
        finiteNonNegative(value, `${this._caller}: liftCoefficient`);
        this.body.liftCoefficient = value;
        this.body.wake();
    }

    /** Scale of the plugin's wind on this body (≥ 0; 0 turns its aerodynamics off). */
    public get windScale(): number {
        return this.body.windScale;
    }
    public set windScale(value: number) {
        finiteNonNegative(value, `${this._caller}: windScale`);
        this.body.windScale = value;
        this.body.wake();
    }

    /** Whether the body is asleep. */
    public get sleeping(): boolean {
        return this.body.sleeping;
    }

    /** The defaults version the impostor was built with (see {@link SoftImpostorOptions.defaultsVersion}). */
    public get defaultsVersion(): number {
        return this.body.defaultsVersion;
    }

    /** The current option values as a plain object (what a constructor call with them would build). */
    public getOptions(): SoftImpostorOptionValues {
        return {
            mass: this._mass,
            stretchStiffness: this._stiffness.stretch,
            damping: this.body.damping,
            friction: this.body.kineticFriction,
            staticFriction: this.body.staticFriction,
            thickness: this.body.thickness,
            allowSleep: this.body.allowSleep,
            sleepVelocity: this.body.sleepVelocity,
            sleepTime: this.body.sleepTime,
            membership: this.body.membership >>> 0,
            collideWith: this.body.collideWith >>> 0,
            dragCoefficient: this.body.dragCoefficient,
            liftCoefficient: this.body.liftCoefficient,
            windScale: this.body.windScale,
            defaultsVersion: this.body.defaultsVersion,
            ...this._kindOptions(),
        };
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

    /** The class name, as Babylon objects report it ("ClothImpostor" or "SoftBodyImpostor"). */
    public abstract getClassName(): string;

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
        this._writeRenderPositions(this._renderSync.worldPositions);
        this._renderSync.update();
        this._renderDirty = false;
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

    /** Marks the render mesh out of date; called by the plugin after each step. @internal */
    public _afterStep(): void {
        this._renderDirty = true;
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

    /** The kind-specific entries of {@link getOptions}. */
    protected abstract _kindOptions(): Partial<SoftImpostorOptionValues>;

    private _setStiffness(kind: keyof ImpostorStiffness, value: number, mapping: "distance" | "bend" | "volume"): number {
        unitInterval(value, `${this._caller}: ${kind}Stiffness`);
        this._stiffness[kind] = value;
        this.body.wake();
        return complianceFromStiffness(value, mapping);
    }

    private get _caller(): string {
        return this.kind === "cloth" ? "ClothImpostor" : "SoftBodyImpostor";
    }

    private _particle(vertexIndex: number): number {
        if (!Number.isInteger(vertexIndex) || vertexIndex < 0 || vertexIndex >= this.vertexToParticle.length) {
            throw new RangeError(`vertex index ${vertexIndex} is out of range [0, ${this.vertexToParticle.length})`);
        }
        return this.vertexToParticle[vertexIndex];
    }
}
