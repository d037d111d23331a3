/**
 * What a host may change between two steps, as flat vectors of numbers: what a replay records (only the numbers that
 * changed) and plays back. Beside these vectors a host changes per-particle arrays (positions, velocities, pin
 * weights and targets, masses, external forces), which `replayData.ts` lists.
 *
 * A new option of a body or a collider that a host can change after construction must be added here, or a replay
 * of a scene that changes it will not reproduce it (the replay tests then fail).
 */
import { ColliderMotion, type Collider } from "./collider.js";
import { XpbdDataError } from "./snapshotError.js";
import type { SoftBody } from "./softBody.js";
import type { XpbdWorld } from "./xpbdWorld.js";

/** How a scalar is checked when it is read from a replay. */
type ScalarKind = "nonNegative" | "positive" | "flag" | "mask" | "overOne" | "limit" | "finite" | "count";

/** A body's scalars: its options as the solver reads them. */
const BODY_SCALARS: readonly [string, ScalarKind, (b: SoftBody) => number, (b: SoftBody, v: number) => void][] = [
    ["stretchCompliance", "nonNegative", (b) => b.stretch.compliance, (b, v) => (b.stretch.compliance = v)],
    ["shearCompliance", "nonNegative", (b) => b.shear.compliance, (b, v) => (b.shear.compliance = v)],
    ["bendCompliance", "nonNegative", (b) => b.bend.compliance, (b, v) => (b.bend.compliance = v)],
    ["volumeCompliance", "nonNegative", (b) => b.volume.compliance, (b, v) => (b.volume.compliance = v)],
    ["stretchEnabled", "flag", (b) => +b.stretch.enabled, (b, v) => (b.stretch.enabled = v === 1)],
    ["shearEnabled", "flag", (b) => +b.shear.enabled, (b, v) => (b.shear.enabled = v === 1)],
    ["bendEnabled", "flag", (b) => +b.bend.enabled, (b, v) => (b.bend.enabled = v === 1)],
    ["volumeEnabled", "flag", (b) => +b.volume.enabled, (b, v) => (b.volume.enabled = v === 1)],
    ["tethers", "flag", (b) => +b.tethers.enabled, (b, v) => (b.tethers.enabled = v === 1)],
    ["tetherSlack", "positive", (b) => b.tethers.slack, (b, v) => (b.tethers.slack = v)],
    ["damping", "nonNegative", (b) => b.damping, (b, v) => (b.damping = v)],
    ["staticFriction", "nonNegative", (b) => b.staticFriction, (b, v) => (b.staticFriction = v)],
    ["kineticFriction", "nonNegative", (b) => b.kineticFriction, (b, v) => (b.kineticFriction = v)],
    ["restitution", "nonNegative", (b) => b.restitution, (b, v) => (b.restitution = v)],
    ["thickness", "nonNegative", (b) => b.thickness, (b, v) => (b.thickness = v)],
    ["selfCollision", "flag", (b) => +b.selfCollision, (b, v) => (b.selfCollision = v === 1)],
    ["allowSleep", "flag", (b) => +b.allowSleep, (b, v) => (b.allowSleep = v === 1)],
    ["sleepVelocity", "nonNegative", (b) => b.sleepVelocity, (b, v) => (b.sleepVelocity = v)],
    ["sleepTime", "nonNegative", (b) => b.sleepTime, (b, v) => (b.sleepTime = v)],
    ["membership", "mask", (b) => b.membership >>> 0, (b, v) => (b.membership = v)],
    ["collideWith", "mask", (b) => b.collideWith >>> 0, (b, v) => (b.collideWith = v)],
    ["overStretchRatio", "overOne", (b) => b.overStretchRatio, (b, v) => (b.overStretchRatio = v)],
    ["strainLimit", "limit", (b) => b.strainLimit, (b, v) => (b.strainLimit = v)],
    ["dragCoefficient", "nonNegative", (b) => b.dragCoefficient, (b, v) => (b.dragCoefficient = v)],
    ["liftCoefficient", "nonNegative", (b) => b.liftCoefficient, (b, v) => (b.liftCoefficient = v)],
    ["windScale", "nonNegative", (b) => b.windScale, (b, v) => (b.windScale = v)],
    // A body built without shape matching reads 0 and ignores what is written (it can never gain it).
    [
        "shapeMatchingCompliance",
        "nonNegative",
        (b) => b.shapeMatching?.compliance ?? 0,
        (b, v) => b.shapeMatching !== null && (b.shapeMatching.compliance = v),
    ],
    [
        "shapeMatchingEnabled",
        "flag",
        (b) => +(b.shapeMatching?.enabled ?? false),
        (b, v) => b.shapeMatching !== null && (b.shapeMatching.enabled = v === 1),
    ],
    // Likewise the gas: a body built without it reads 0 and ignores what is written.
    ["pressure", "finite", (b) => b.gas?.pressure ?? 0, (b, v) => b.gas !== null && (b.gas.pressure = v)],
    ["gasEnabled", "flag", (b) => +(b.gas?.enabled ?? false), (b, v) => b.gas !== null && (b.gas.enabled = v === 1)],
    ["sleeping", "flag", (b) => +b.sleeping, (b, v) => (b.sleeping = v === 1)],
    ["wakeRequested", "flag", (b) => +b._wakeRequested, (b, v) => (b._wakeRequested = v === 1)],
    ["pinsDirty", "flag", (b) => +b.pins.dirty, (b, v) => (b.pins.dirty = v === 1)],
    // The level of detail a host chose for the body.
    ["substeps", "count", (b) => b.substeps, (b, v) => (b.substeps = v)],
    ["holdAsleep", "flag", (b) => +b.holdAsleep, (b, v) => (b.holdAsleep = v === 1)],
];

/** Number of a body's scalars. */
export const BODY_SCALAR_COUNT = BODY_SCALARS.length;

/** Reads a body's scalars into `out` (length {@link BODY_SCALAR_COUNT}). */
export function readBodyScalars(body: SoftBody, out: Float64Array): void {
    for (let k = 0; k < BODY_SCALARS.length; k++) {
        out[k] = BODY_SCALARS[k][2](body);
    }
}

/** Writes scalar `k` of a body (values checked by {@link checkBodyScalar} first). */
export function writeBodyScalar(body: SoftBody, k: number, value: number): void {
    BODY_SCALARS[k][3](body, value);
}

/** Throws an `"invalid"` {@link XpbdDataError} unless `value` may be body scalar `k`. */
export function checkBodyScalar(k: number, value: number, where: string): void {
    checkScalar(BODY_SCALARS[k][0], BODY_SCALARS[k][1], value, where);
}

/** The world's inputs: gravity (3), wind (3), air density, substeps, iterations. */
export const WORLD_INPUT_COUNT = 9;

/** Reads the world's inputs into `out`. */
export function readWorldInputs(world: XpbdWorld, out: Float64Array): void {
    out.set(world.gravity, 0);
    out.set(world.wind, 3);
    out[6] = world.airDensity;
    out[7] = world.substeps;
    out[8] = world.iterations;
}

/** Writes world input `k`. */
export function writeWorldInput(world: XpbdWorld, k: number, value: number): void {
    if (k < 3) {
        world.gravity[k] = value;
    } else if (k < 6) {
        world.wind[k - 3] = value;
    } else if (k === 6) {
        world.airDensity = value;
    } else if (k === 7) {
        world.substeps = value;
    } else {
        world.iterations = value;
    }
}

/** Throws an `"invalid"` {@link XpbdDataError} unless `value` may be world input `k`. */
export function checkWorldInput(k: number, value: number, where: string): void {
    const names = ["gravity x", "gravity y", "gravity z", "wind x", "wind y", "wind z", "airDensity", "substeps", "iterations"];
    checkScalar(names[k], k < 6 ? "finite" : k === 6 ? "nonNegative" : "positive", value, where);
    if (k >= 7 && !Number.isInteger(value)) {
        throw new XpbdDataError("invalid", `${where}: ${names[k]} is ${value}; it must be a positive integer`);
    }
}

/**
 * A collider's inputs, everything the solver reads of it: motion, mass, moments of inertia (3), their rotation (4),
 * centre of mass (3), friction, restitution, membership, collide-with, position (3), rotation (4), the world rotation
 * matrix (9), world centre of mass (3) and inverse inertia (9) as the host last derived them, linear and angular
 * velocity (3 + 3), acceleration (3), load mass and load axis (3). The derived ones are recorded as they are, not
 * recomputed: a host may update a collider's fields in any order (the Havok bridge scales the inertia after placing
 * the body), and the solver reads what is there.
 */
export const COLLIDER_INPUT_COUNT = 60;

/** Reads a collider's inputs into `out` (length {@link COLLIDER_INPUT_COUNT}). */
export function readColliderInputs(c: Collider, out: Float64Array): void {
    out[0] = c.motion;
    out[1] = c.mass;
    out.set(c.inertia, 2);
    out.set(c.inertiaRotation, 5);
    out.set(c.centerOfMass, 9);
    out[12] = c.friction;
    out[13] = c.restitution;
    out[14] = c.membership >>> 0;
    out[15] = c.collideWith >>> 0;
    out.set(c.position, 16);
    out.set(c.rotation, 19);
    out.set(c._matrix, 23);
    out.set(c._com, 32);
    out.set(c._invInertia, 35);
    out.set(c.linearVelocity, 44);
    out.set(c.angularVelocity, 47);
    out.set(c.acceleration, 50);
    out[53] = c.loadMass;
    out.set(c.loadAxis, 54);
    // 57–59: reserved (zero), so that a later field does not shift the rest.
}

/** Writes collider input `k`. */
export function writeColliderInput(c: Collider, k: number, value: number): void {
    if (k === 0) c.motion = value as ColliderMotion;
    else if (k === 1) c.mass = value;
    else if (k < 5) c.inertia[k - 2] = value;
    else if (k < 9) c.inertiaRotation[k - 5] = value;
    else if (k < 12) c.centerOfMass[k - 9] = value;
    else if (k === 12) c.friction = value;
    else if (k === 13) c.restitution = value;
    else if (k === 14) c.membership = value;
    else if (k === 15) c.collideWith = value;
    else if (k < 19) c.position[k - 16] = value;
    else if (k < 23) c.rotation[k - 19] = value;
    else if (k < 32) c._matrix[k - 23] = value;
    else if (k < 35) c._com[k - 32] = value;
    else if (k < 44) c._invInertia[k - 35] = value;
    else if (k < 47) c.linearVelocity[k - 44] = value;
    else if (k < 50) c.angularVelocity[k - 47] = value;
    else if (k < 53) c.acceleration[k - 50] = value;
    else if (k === 53) c.loadMass = value;
    else if (k < 57) c.loadAxis[k - 54] = value;
}

/** Throws an `"invalid"` {@link XpbdDataError} unless `value` may be collider input `k`. */
export function checkColliderInput(k: number, value: number, where: string): void {
    if (k === 0) {
        if (value !== ColliderMotion.Static && value !== ColliderMotion.Kinematic && value !== ColliderMotion.Dynamic) {
            throw new XpbdDataError("invalid", `${where}: collider motion is ${value}; it must be 0, 1 or 2`);
        }
        return;
    }
    const kind: ScalarKind =
        k === 1 ? "positive" : k === 14 || k === 15 ? "mask" : k === 12 || k === 13 || k === 53 ? "nonNegative" : "finite";
    checkScalar(`collider input ${k}`, kind, value, where);
}

function checkScalar(name: string, kind: ScalarKind, value: number, where: string): void {
    const ok =
        kind === "flag"
            ? value === 0 || value === 1
            : kind === "mask"
              ? Number.isInteger(value) && value >= 0 && value <= 0xffffffff
              : kind === "count"
                ? Number.isInteger(value) && value >= 0
                : Number.isFinite(value) &&
                  (kind === "finite" ||
                      (kind === "nonNegative"
                          ? value >= 0
                          : kind === "positive"
                            ? value > 0
                            : kind === "limit"
                              ? value === 0 || value > 1
                              : value > 1));
    if (!ok) {
        throw new XpbdDataError(
            "invalid",
            `${where}: ${name} is ${value}, which a ${kind === "flag" ? "flag (0 or 1)" : kind === "count" ? "count (an integer ≥ 0)" : `${kind} value`} cannot be`,
        );
    }
}
