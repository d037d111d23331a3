import type { Collider } from "../core/index.js";
import { ACCUMULATOR_WORDS } from "./colliderImpulses.js";

/**
 * vec4s of one dynamic collider's motion record (the state the GPU moves it with inside a step; see
 * `COLLIDER_MOTION_WGSL`). The records follow a one-vec4 header (x: how many) at `Params.motionBase`:
 *
 * - 0: centre of mass (world), 1/M; 1: rotation `[x, y, z, w]`; 2: linear velocity, the load's share
 *   (1/M − 1/(M + load), 0 without a load); 3: angular velocity (world), the first shape slot;
 * - 4: acceleration (the host's gravity), the number of shapes; 5: centre of mass (collider frame), the first word of
 *   the impulse accumulator; 6: 1/I about the principal axes, the linear fixed-point scale; 7: the principal axes'
 *   rotation; 8: the load axis, the angular fixed-point scale;
 * - 9: the accumulator's linear words and contact count already applied (i32 bits); 10: its angular words already
 *   applied (i32 bits), and the contacts of the last projection (f32, at least 1: the mass split, below);
 * - 11–13: the world inverse inertia's rows, and in their `w` the accumulator's turn words already applied (i32 bits:
 *   the collider attachments' angular impulse, see `colliderImpulses.ts`);
 * - 14: the host's forecast of the step's linear impulse (`Collider.forecastImpulse`, N·s), which the prediction of
 *   the impulses in flight counts as given (`pendingImpulses.ts`).
 */
export const MOTION_VEC4S = 15;

/**
 * Where a dynamic collider's motion record starts (vec4 index), from its accumulator's first word: the records are
 * in accumulator order. Shared by the particle pass and the motion kernel.
 */
export const MOTION_RECORD_WGSL = /* wgsl */ `
fn motionRecord(accumulator: u32) -> u32 {
    return P.motionBase + 1u + ((accumulator - P.impulseBase) / ${ACCUMULATOR_WORDS}u) * ${MOTION_VEC4S}u;
}
`;

/** vec4s the motion records of `dynamic` colliders take: the header and one record each. */
export function motionVec4s(dynamic: number): number {
    return 1 + dynamic * MOTION_VEC4S;
}

/**
 * Writes the header and the motion records of the `dynamic` colliders into `out` (from float 0) as they stand at the
 * step's start (pose, velocities, the host's acceleration, load and forecast, mass properties; nothing applied yet, a
 * mass split of 1), with `firstSlot` each one's first shape slot, its accumulator from `accumulatorBase` (the word the
 * accumulators start at) and its fixed-point `scales` (linear and angular per dynamic collider).
 */
export function writeMotionRecords(
    out: Float32Array,
    dynamic: readonly Collider[],
    firstSlot: (collider: Collider) => number,
    accumulatorBase: number,
    scales: Float64Array,
): void {
    out.fill(0, 0, 4 * motionVec4s(dynamic.length));
    out[0] = dynamic.length;
    for (let c = 0; c < dynamic.length; c++) {
        const collider = dynamic[c];
        const o = 4 * (1 + c * MOTION_VEC4S);
        const load = collider.loadMass;
        out.set(collider._com, o);
        out[o + 3] = 1 / collider.mass;
        out.set(collider.rotation, o + 4);
        out.set(collider.linearVelocity, o + 8);
        out[o + 11] = load > 0 ? 1 / collider.mass - 1 / (collider.mass + load) : 0;
        out.set(collider.angularVelocity, o + 12);
        out[o + 15] = firstSlot(collider);
        out.set(collider.acceleration, o + 16);
        out[o + 19] = collider.shapes.length;
        out.set(collider.centerOfMass, o + 20);
        out[o + 23] = accumulatorBase + c * ACCUMULATOR_WORDS;
        for (let axis = 0; axis < 3; axis++) {
            out[o + 24 + axis] = 1 / collider.inertia[axis];
        }
        out[o + 27] = scales[2 * c];
        out.set(collider.inertiaRotation, o + 28);
        out.set(collider.loadAxis, o + 32);
        out[o + 35] = scales[2 * c + 1];
        // 36–39, 40–42: nothing applied yet (integer zeros are float zeros); 43: the mass split.
        out[o + 43] = 1;
        const i = collider._invInertia;
        for (let row = 0; row < 3; row++) {
            out.set(i.subarray(3 * row, 3 * row + 3), o + 44 + 4 * row);
        }
        out.set(collider.forecastImpulse, o + 56);
    }
}
