/**
 * What the collider sync keeps per Havok body, and the bookkeeping on it that needs no Babylon call: whether the
 * body's mass properties changed, and how heavy a load it carries.
 */
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { PhysicsMassProperties } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import type { Collider } from "../core/collider.js";

/** One Havok body and its collider. */
export interface ColliderEntry {
    body: PhysicsBody;
    /** The shape the collider was built from (a new shape rebuilds the collider). */
    shape: PhysicsShape;
    collider: Collider;
    /** Sync pass in which the body was last seen. */
    seen: number;
    /** World centre of mass at the start of the step (where Havok applies impulses). */
    com: Float64Array;
    /** Whether the body was dynamic in the last step, so that {@link supportImpulse} and {@link startSpeed} hold. */
    lastStepValid: boolean;
    /** Impulse (N·s) the soft bodies gave the body against gravity in the last step (along −ĝ). */
    supportImpulse: number;
    /** The body's velocity along gravity (m/s) at the start of the last step. */
    startSpeed: number;
    /**
     * How much heavier than itself the body behaves along gravity when it is held up (1 alone; about 3 under two more
     * boxes of its mass): the collider carries `(massScale − 1)·mass` as its load. See {@link learnSupportedMass}.
     */
    massScale: number;
    /** The body's own gravity factor, while {@link gravityFactorChanged}. */
    gravityFactor: number;
    /** Whether the gravity factor carries a support for the current Havok step (see `applyImpulses`). */
    gravityFactorChanged: boolean;
    /** Mass in kg, as Havok reported it when last read. */
    mass: number;
    /** Principal moments in kg·m², read with {@link mass}. */
    inertia: Float64Array;
    /** Rotation from the principal axes to the body frame, read with {@link mass}. */
    inertiaOrientation: Float64Array;
    /** Centre of mass in the body frame, read with {@link mass}. */
    centerOfMass: Float64Array;
    /** The `setMassProperties` argument Babylon kept for the body when the mass properties were last read (undefined before). */
    massInput: PhysicsMassProperties | undefined;
    /** Its values then: mass, centre of mass, inertia, inertia orientation (NaN where unset). */
    massInputValues: Float64Array;
}

/** The Babylon-side data of a (non-instanced) Havok body: what `setMassProperties` last received. */
export interface BodyMassInput {
    userMassProps: PhysicsMassProperties;
}

/**
 * A body the cloth holds up may carry others (a stack of crates): the cloth must then stop and hold them all,
 * but the core sees only the body that touches it. Havok shows how heavy the load is: over the last step the
 * body's speed along gravity changed by `gained` while the soft bodies pushed it up with `supportImpulse` and
 * gravity alone would have added `free`; a load of mass `M_s` moving with the body gives
 * `supportImpulse = M_s·(free − gained)`. Each measurement is blended in, within [1, {@link MAX_MASS_SCALE}] times the body's
 * mass; a body on a floor (which Havok holds up itself) measures a lighter load and stays at 1.
 */
export function learnSupportedMass(entry: ColliderEntry, gained: number, free: number): void {
    const slowed = free - gained;
    if (entry.supportImpulse < MIN_SUPPORT * entry.mass * free || slowed < MIN_SUPPORT * free) {
        return;
    }
    const measured = Math.min(Math.max(entry.supportImpulse / (entry.mass * slowed), 1), MAX_MASS_SCALE);
    entry.massScale += (measured - entry.massScale) * MASS_SCALE_LEARNING_RATE;
}

/** Fraction of a new supported-mass measurement blended into {@link ColliderEntry.massScale}. */
const MASS_SCALE_LEARNING_RATE = 0.3;
/** Largest supported mass, in multiples of the body's own. */
const MAX_MASS_SCALE = 100;
/** Measurements with a support or a slowing under this fraction of one step of gravity are too weak to use. */
const MIN_SUPPORT = 0.2;

/** Numbers in {@link ColliderEntry.massInputValues}. */
export const MASS_INPUT_VALUES = 11;

/**
 * Whether the body's mass properties may have changed since they were last read (always true the first time):
 * Babylon's `setMassProperties` keeps its argument on the body, so a new argument, or new values in the same one,
 * means new mass properties. Records the argument and its values when it returns true.
 */
export function massInputChanged(entry: ColliderEntry, input: PhysicsMassProperties): boolean {
    const values = entry.massInputValues;
    let changed = entry.massInput === undefined || entry.massInput !== input;
    changed = record(values, 0, input.mass) || changed;
    const c = input.centerOfMass;
    changed = record(values, 1, c?.x) || changed;
    changed = record(values, 2, c?.y) || changed;
    changed = record(values, 3, c?.z) || changed;
    const i = input.inertia;
    changed = record(values, 4, i?.x) || changed;
    changed = record(values, 5, i?.y) || changed;
    changed = record(values, 6, i?.z) || changed;
    const q = input.inertiaOrientation;
    changed = record(values, 7, q?.x) || changed;
    changed = record(values, 8, q?.y) || changed;
    changed = record(values, 9, q?.z) || changed;
    changed = record(values, 10, q?.w) || changed;
    entry.massInput = input;
    return changed;
}

/** Stores `value` (NaN for undefined) at `values[index]`; returns whether it differs from what was there. */
function record(values: Float64Array, index: number, value: number | undefined): boolean {
    const v = value === undefined ? NaN : value;
    if (Object.is(values[index], v)) {
        return false;
    }
    values[index] = v;
    return true;
}
