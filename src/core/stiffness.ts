import { unitInterval } from "./argumentChecks.js";

/**
 * Stiffness sliders live in [0, 1]; the solver wants an XPBD compliance α (inverse stiffness, ≥ 0).
 *
 * Mapping: `α(s) = α₀ · (10^(−6s) − 10^(−6)) / (1 − 10^(−6))`, so `s = 1` is exactly rigid (α = 0), `s = 0` is
 * `α₀`, and each 1/6 of the slider is one decade of compliance — the range over which a cloth or a jelly goes from
 * rubbery to stiff. `α₀` depends on the constraint kind because each kind measures its error in different units.
 */
export const COMPLIANCE_AT_ZERO_STIFFNESS = {
    /** Distance constraints (stretch, shear): metres per newton. */
    distance: 1,
    /** Dihedral bend constraints: radians per newton-metre. */
    bend: 10,
    /** Tetrahedral volume constraints: cubic metres per pascal-ish unit of the volume error. */
    volume: 1e-4,
    /** Shape matching: s² (a deformed body springs back at ω = 1/√α; 1 s² is barely any pull). */
    shape: 1,
    /** Soft pins: metres per newton at weight → 0 (see {@link pinComplianceFromWeight}). */
    pin: 1e-2,
} as const;

const DECADES = 6;
const FLOOR = Math.pow(10, -DECADES);

/**
 * Converts a stiffness in [0, 1] to an XPBD compliance for the given kind (see the module comment for the mapping).
 * Throws a RangeError for values outside [0, 1], a TypeError for a value that is not a number.
 */
export function complianceFromStiffness(stiffness: number, kind: keyof typeof COMPLIANCE_AT_ZERO_STIFFNESS): number {
    unitInterval(stiffness, `${kind} stiffness`);
    return (COMPLIANCE_AT_ZERO_STIFFNESS[kind] * (Math.pow(10, -DECADES * stiffness) - FLOOR)) / (1 - FLOOR);
}

/**
 * Compliance of a soft pin of weight `w` in (0, 1): `α = α₀ · (1 − w) / w`, so the pull towards the target grows
 * without bound as `w → 1` (weight 1 pins are kinematic and never reach this function) and vanishes at `w → 0`.
 */
export function pinComplianceFromWeight(weight: number): number {
    // Capped so that the solver's α/h² stays finite for the tiniest weights (a weight of 5e-324 would give Infinity):
    // at 1e30 m/N the pin pulls with 1e-30 N per metre, which is free in all but name.
    return Math.min((COMPLIANCE_AT_ZERO_STIFFNESS.pin * (1 - weight)) / weight, 1e30);
}
