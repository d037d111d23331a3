/**
 * The base of {@link SoftImpostor} that holds its core {@link SoftBody} and exposes the options as properties:
 * each setter validates (naming the option and the impostor class) and forwards to the body, stiffness sliders
 * through `complianceFromStiffness`.
 */
import { booleanValue, complianceFromStiffness, finiteNonNegative, positiveFinite, unitInterval, type SoftBody } from "../core/index.js";
import type { ImpostorStiffness, ResolvedSoftImpostorOptions, SoftImpostorKind, SoftImpostorOptionValues } from "./softImpostorOptions.js";

/** The option properties of an impostor, forwarded to its core body; see {@link SoftImpostor}. */
export abstract class SoftImpostorProperties {
    private _mass: number;
    /** Whether static friction was set on its own (else it follows {@link friction}). */
    private _staticFrictionGiven: boolean;
    private readonly _stiffness: ImpostorStiffness;
    private _shapeMatching: number | undefined;

    /**
     * @param kind - cloth or soft body
     * @param body - the core body
     * @param options - validated shared options
     * @param stiffness - validated stiffness values
     * @internal
     */
    protected constructor(
        /** `"cloth"`, `"softBody"` or `"rope"`. */
        public readonly kind: SoftImpostorKind,
        /** The simulated body (positions in world space). */
        public readonly body: SoftBody,
        options: ResolvedSoftImpostorOptions,
        stiffness: ImpostorStiffness,
    ) {
        this._mass = options.mass;
        this._staticFrictionGiven = options.staticFriction !== undefined;
        this._stiffness = { ...stiffness };
        this._shapeMatching = options.shapeMatching;
    }

    /**
     * Shape matching stiffness in [0, 1] (see {@link SoftImpostorOptions.shapeMatching}); undefined for an impostor
     * built without it, which cannot be given it later.
     */
    public get shapeMatching(): number | undefined {
        return this._shapeMatching;
    }
    public set shapeMatching(value: number | undefined) {
        const shape = this.body.shapeMatching;
        if (shape === null) {
            throw new Error(`${this._caller}: shapeMatching can only be changed on an impostor built with it`);
        }
        unitInterval(value as number, `${this._caller}: shapeMatching`);
        shape.compliance = complianceFromStiffness(value as number, "shape");
        this._shapeMatching = value;
        this.body.wake();
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

    /** Whether the impostor collides with itself (see {@link SoftImpostorOptions.selfCollision}). */
    public get selfCollision(): boolean {
        return this.body.selfCollision;
    }
    public set selfCollision(value: boolean) {
        this.body.selfCollision = booleanValue(value, `${this._caller}: selfCollision`);
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
            selfCollision: this.body.selfCollision,
            allowSleep: this.body.allowSleep,
            sleepVelocity: this.body.sleepVelocity,
            sleepTime: this.body.sleepTime,
            membership: this.body.membership >>> 0,
            collideWith: this.body.collideWith >>> 0,
            dragCoefficient: this.body.dragCoefficient,
            liftCoefficient: this.body.liftCoefficient,
            windScale: this.body.windScale,
            defaultsVersion: this.body.defaultsVersion,
            ...(this._shapeMatching !== undefined ? { shapeMatching: this._shapeMatching } : {}),
            ...this._kindOptions(),
        };
    }

    /** The kind-specific entries of {@link getOptions}. */
    protected abstract _kindOptions(): Partial<SoftImpostorOptionValues>;

    private _setStiffness(kind: keyof ImpostorStiffness, value: number, mapping: "distance" | "bend" | "volume"): number {
        unitInterval(value, `${this._caller}: ${kind}Stiffness`);
        this._stiffness[kind] = value;
        this.body.wake();
        return complianceFromStiffness(value, mapping);
    }

    /** The class name, as Babylon objects report it ("ClothImpostor", "SoftBodyImpostor" or "RopeImpostor"). */
    public abstract getClassName(): string;

    /** The impostor class, for error messages. */
    protected get _caller(): string {
        return this.getClassName();
    }
}
