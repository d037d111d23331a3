/**
 * The options both impostors share: their types, defaults (from the core's table), and the validation and mapping
 * that turn them into core {@link SoftBodyOptions} (stiffness sliders in [0, 1] mapped with `complianceFromStiffness`).
 */
import {
    booleanValue,
    complianceFromStiffness,
    finiteNonNegative,
    getDefaults,
    mask32,
    positiveFinite,
    unitInterval,
    type SoftBodyOptions,
} from "../core/index.js";
import type { XpbdLodOptions } from "./levelOfDetail.js";

/** Which kind of impostor: a triangle-mesh cloth, a tetrahedral soft body or a rope. */
export type SoftImpostorKind = "cloth" | "softBody" | "rope";

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
    /**
     * Collision thickness in metres: particles stay this far from collider surfaces; two impostors keep the mean of
     * their thicknesses apart. Default 0.01.
     */
    thickness?: number;
    /**
     * Whether the impostor collides with itself: a cloth folding on a table, a curtain bunching, a cape round a leg do
     * not pass through themselves (a soft body: its surface). Keep `thickness` under the spacing of the particles.
     * Default false: it costs a spatial hash and a query per triangle every substep (see docs/plugin.md).
     */
    selfCollision?: boolean;
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
     * Shape matching in [0, 1]: every particle is pulled towards the body's rest shape, best fitted to where the
     * particles are (`complianceFromStiffness(s, "shape")`: 0 is 1 s², barely a pull; 0.5 a jelly that springs back
     * at about 30 rad/s; 1 rigid). The cheap way to keep a closed cloth's or a jelly's shape and volume. Default none:
     * no shape matching (and then it cannot be turned on later).
     */
    shapeMatching?: number;
    /**
     * This impostor's level of detail, overriding the plugin's (`XpbdPluginOptions.lod`; see {@link XpbdLodOptions}):
     * fewer substeps beyond `distances[0]` metres from the active camera, asleep beyond `distances[1]` or outside its
     * view. `{ distances: [Infinity, Infinity], frustumCulling: false }` keeps it at full detail whatever the plugin's.
     * Default none: the plugin's. Change it later with {@link SoftImpostor.lod}.
     */
    lod?: XpbdLodOptions;
    /**
     * Defaults version that fills in the options not given, here and in the core body (see docs/versioning.md): an
     * impostor built with version n behaves the same in every later release. Default the plugin's
     * (`XpbdPluginOptions.defaultsVersion`, itself the newest by default).
     */
    defaultsVersion?: number;
}

/** Every option value of an impostor, as returned by {@link SoftImpostor.getOptions}. */
export interface SoftImpostorOptionValues extends Required<Omit<SoftImpostorOptions, "density" | "shapeMatching" | "lod">> {
    /** Shape matching stiffness in [0, 1] (an impostor built with it). */
    shapeMatching?: number;
    /** Shear stiffness in [0, 1] (cloth). */
    shearStiffness?: number;
    /** Bend stiffness in [0, 1] (cloth). */
    bendStiffness?: number;
    /** Strain limit, edge ratio; 0 off (cloth). */
    strainLimit?: number;
    /** Volume stiffness in [0, 1] (soft body). */
    volumeStiffness?: number;
    /** Tet lattice resolution (soft body). */
    resolution?: number;
    /** Whether the soft body is filled with tetrahedra. */
    tetrahedra?: boolean;
    /** Edge length / rest length at which the cloth tears (cloth built with one). */
    tearRatio?: number;
    /** Particles tearing may add (cloth built with a tear ratio). */
    maxTearParticles?: number;
    /** Pressure (Pa) of the gas at the rest volume (cloth built with one; 0: no gas). */
    pressure?: number;
    /** Radius (m) of a rope: its collision thickness. */
    radius?: number;
}

/** {@link SoftImpostorOptions} with the defaults filled in (`staticFriction` follows `friction` when absent). */
export type ResolvedSoftImpostorOptions = Required<
    Omit<SoftImpostorOptions, "staticFriction" | "density" | "defaultsVersion" | "shapeMatching" | "lod">
> &
    Pick<SoftImpostorOptions, "staticFriction" | "density" | "defaultsVersion" | "shapeMatching" | "lod">;

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
    if (o.shapeMatching !== undefined) {
        unitInterval(o.shapeMatching, `${caller}: shapeMatching`);
    }
    booleanValue(o.allowSleep, `${caller}: allowSleep`);
    booleanValue(o.selfCollision, `${caller}: selfCollision`);
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
        selfCollision: o.selfCollision,
        allowSleep: o.allowSleep,
        sleepVelocity: o.sleepVelocity,
        sleepTime: o.sleepTime,
        membership: o.membership >>> 0,
        collideWith: o.collideWith >>> 0,
        dragCoefficient: o.dragCoefficient,
        liftCoefficient: o.liftCoefficient,
        windScale: o.windScale,
        ...(o.shapeMatching !== undefined ? { shapeMatchingCompliance: complianceFromStiffness(o.shapeMatching, "shape") } : {}),
    };
}
