/**
 * Every default of the package, one entry per defaults version. A scene built with `defaultsVersion: n` takes its
 * defaults from entry n, whatever the newest version is, so a release that changes a default cannot change an old
 * scene, snapshot or replay: it adds a version.
 *
 * Rules (see docs/versioning.md): an entry is never edited once released. A changed default is a new entry at the
 * end (spread the previous one and change the field). A new option gets its default in every entry: the value that
 * does what the code did before the option existed.
 */
import type { SoftBodyOptions } from "./softBodyOptions.js";
import { complianceFromStiffness } from "./stiffness.js";

/** Defaults of `XpbdWorldOptions`. */
export interface WorldDefaults {
    /** Gravity (m/s²). */
    readonly gravity: readonly [number, number, number];
    /** Substeps per step (the quality tier). */
    readonly substeps: number;
    /** Solver iterations per substep. */
    readonly iterations: number;
    /** Broad-phase grid cell edge (m). */
    readonly cellSize: number;
    /** Events one step can hold. */
    readonly eventCapacity: number;
    /** Broad-phase grid entries. */
    readonly gridCapacity: number;
    /** Wind velocity (m/s). */
    readonly wind: readonly [number, number, number];
    /** Air density (kg/m³). */
    readonly airDensity: number;
    /** Whether each step times itself. */
    readonly timing: boolean;
    /** Whether each step measures the residual heatmaps. */
    readonly residuals: boolean;
    /** Whether the bodies collide with each other. */
    readonly softContacts: boolean;
    /** Soft contact candidates one substep can hold. */
    readonly softContactCapacity: number;
}

/** Defaults of `ColliderOptions` (the motion is static, and the inertia that of a unit sphere of the mass). */
export interface ColliderDefaults {
    /** Mass (kg) of a dynamic collider. */
    readonly mass: number;
    /** Surface friction coefficient. */
    readonly friction: number;
    /** Surface restitution. */
    readonly restitution: number;
    /** Collision groups the collider belongs to. */
    readonly membership: number;
    /** Collision groups it collides with. */
    readonly collideWith: number;
}

/** Defaults of the options both impostors share (the Babylon layer's `SoftImpostorOptions`). */
export interface ImpostorDefaults {
    /** Total mass (kg). */
    readonly mass: number;
    /** Stretch stiffness in [0, 1]. */
    readonly stretchStiffness: number;
    /** Deformation damping rate (1/s). */
    readonly damping: number;
    /** Kinetic friction (static friction follows it). */
    readonly friction: number;
    /** Collision thickness (m). */
    readonly thickness: number;
    /** Whether the body collides with itself. */
    readonly selfCollision: boolean;
    /** Whether the body may sleep. */
    readonly allowSleep: boolean;
    /** Sleep speed threshold (m/s). */
    readonly sleepVelocity: number;
    /** Seconds slow before sleeping. */
    readonly sleepTime: number;
    /** Collision groups the body belongs to. */
    readonly membership: number;
    /** Collision groups the body collides with. */
    readonly collideWith: number;
    /** Aerodynamic drag coefficient. */
    readonly dragCoefficient: number;
    /** Aerodynamic lift coefficient. */
    readonly liftCoefficient: number;
    /** Scale of the wind on the body. */
    readonly windScale: number;
}

/** Defaults of the cloth-only options (`ClothImpostorOptions`). */
export interface ClothDefaults {
    /** Shear stiffness in [0, 1]. */
    readonly shearStiffness: number;
    /** Bend stiffness in [0, 1]. */
    readonly bendStiffness: number;
    /** Strain limit (edge ratio; 0 off). */
    readonly strainLimit: number;
}

/** Defaults of the soft-body-only options (`SoftBodyImpostorOptions`), and its own aerodynamic coefficients. */
export interface SoftBodyImpostorDefaults {
    /** Volume stiffness in [0, 1]. */
    readonly volumeStiffness: number;
    /** Tet lattice resolution. */
    readonly resolution: number;
    /** Whether the body is filled with tetrahedra (else only the lattice's surface, held by shape matching). */
    readonly tetrahedra: boolean;
    /** Aerodynamic drag coefficient of a closed surface. */
    readonly dragCoefficient: number;
    /** Aerodynamic lift coefficient of a closed surface. */
    readonly liftCoefficient: number;
}

/** Defaults of the rope-only options (`RopeImpostorOptions`). */
export interface RopeDefaults {
    /** Total mass (kg). */
    readonly mass: number;
    /** Radius (m): the tube drawn and the collision thickness. */
    readonly radius: number;
    /** Length (m) of a segment when the segment count is not given. */
    readonly segmentLength: number;
    /** Bend stiffness in [0, 1] (a distance constraint across each joint). */
    readonly bendStiffness: number;
    /** How the rope is drawn. */
    readonly render: "tube" | "lines";
}

/** Every default of one defaults version. */
export interface XpbdDefaults {
    /** `XpbdWorld` (and so `XpbdPlugin`). */
    readonly world: WorldDefaults;
    /** Core soft bodies (`SoftBodyOptions`). */
    readonly body: Readonly<
        Required<Omit<SoftBodyOptions, "defaultsVersion" | "tearRatio" | "maxTearParticles" | "shapeMatchingCompliance" | "pressure">>
    >;
    /** Core colliders. */
    readonly collider: ColliderDefaults;
    /** Both impostors. */
    readonly impostor: ImpostorDefaults;
    /** Cloth impostors. */
    readonly cloth: ClothDefaults;
    /** Soft-body impostors. */
    readonly softBody: SoftBodyImpostorDefaults;
    /** Rope impostors. */
    readonly rope: RopeDefaults;
}

function freeze<T extends object>(value: T): T {
    for (const field of Object.values(value)) {
        if (typeof field === "object" && field !== null) {
            freeze(field);
        }
    }
    return Object.freeze(value);
}

const BODY_1: XpbdDefaults["body"] = {
    stretchCompliance: 0,
    shearCompliance: complianceFromStiffness(0.9, "distance"),
    bendCompliance: complianceFromStiffness(0.5, "bend"),
    bendModel: "auto",
    volumeCompliance: 0,
    damping: 1,
    // The friction of Babylon's and Havok's default material.
    staticFriction: 0.5,
    kineticFriction: 0.5,
    restitution: 0,
    thickness: 0.01,
    tethers: true,
    selfCollision: false,
    // Bit-identical to the JavaScript loops, so a scene of any version may take them.
    wasmKernels: true,
    allowSleep: true,
    sleepVelocity: 0.02,
    sleepTime: 0.5,
    maxContactsPerParticle: 4,
    membership: 0xffffffff,
    collideWith: 0xffffffff,
    overStretchRatio: 1.5,
    // Strain limiting is newer than version 1: off, as the code was before.
    strainLimit: 0,
    // A flat plate broadside to the flow has C_D ≈ 1.2.
    dragCoefficient: 1.2,
    // A rigid flat plate would need C_L ≈ 2 in this model to match its measured post-stall lift; cloth is porous and
    // bends away from the flow, and too much lift makes it flutter, so half of that.
    liftCoefficient: 1,
    windScale: 1,
};

/** Version 1: the defaults of babylon-xpbd 0.1. */
const VERSION_1: XpbdDefaults = {
    world: {
        gravity: [0, -9.81, 0],
        substeps: 5,
        iterations: 1,
        cellSize: 0.5,
        eventCapacity: 256,
        gridCapacity: 65536,
        wind: [0, 0, 0],
        // Dry air at about 20 °C and sea level.
        airDensity: 1.2,
        timing: true,
        residuals: false,
        // Version 1 is 0.1, whose bodies passed through each other.
        softContacts: false,
        softContactCapacity: 65536,
    },
    body: BODY_1,
    collider: { mass: 1, friction: 0.5, restitution: 0, membership: 1, collideWith: 0xffffffff },
    impostor: {
        mass: 1,
        // Stiffness 1 is the body's compliance 0.
        stretchStiffness: 1,
        damping: BODY_1.damping,
        friction: BODY_1.kineticFriction,
        thickness: BODY_1.thickness,
        selfCollision: BODY_1.selfCollision,
        allowSleep: BODY_1.allowSleep,
        sleepVelocity: BODY_1.sleepVelocity,
        sleepTime: BODY_1.sleepTime,
        membership: BODY_1.membership,
        collideWith: BODY_1.collideWith,
        dragCoefficient: BODY_1.dragCoefficient,
        liftCoefficient: BODY_1.liftCoefficient,
        windScale: BODY_1.windScale,
    },
    // The body's shear and bend compliances are these stiffnesses.
    cloth: { shearStiffness: 0.9, bendStiffness: 0.5, strainLimit: BODY_1.strainLimit },
    softBody: {
        volumeStiffness: 1,
        tetrahedra: true,
        resolution: 6,
        // The aerodynamic model is made for thin sheets, met by the air on both sides; on a closed surface the
        // leeward faces are pushed too, so a soft body with the sheet's coefficients would feel about twice a solid's
        // drag: half of them.
        dragCoefficient: BODY_1.dragCoefficient / 2,
        liftCoefficient: BODY_1.liftCoefficient / 2,
    },
    // Ropes are new, so every version has these (the rule for a new option). 0.2 kg is 2 m of a 2 cm thick rope at
    // 0.1 kg/m; segments of 5 cm give it 41 particles.
    rope: { mass: 0.2, radius: 0.01, segmentLength: 0.05, bendStiffness: 0.2, render: "tube" },
};

/** Version 2: bodies collide with each other (`XpbdWorldOptions.softContacts`). */
const VERSION_2: XpbdDefaults = { ...VERSION_1, world: { ...VERSION_1.world, softContacts: true } };

/**
 * Version 3: cloth impostors limit strain to ×1.08 (`ClothImpostorOptions.strainLimit`): a cape on a pin moving at
 * 10 m/s stretched ×1.29 at 5 substeps without it, ×1.09 with it.
 */
const VERSION_3: XpbdDefaults = { ...VERSION_2, cloth: { ...VERSION_2.cloth, strainLimit: 1.08 } };

/** Every defaults version, oldest first: entry `n − 1` is version `n`. Frozen. */
export const DEFAULTS_TABLE: readonly XpbdDefaults[] = freeze([VERSION_1, VERSION_2, VERSION_3]);
