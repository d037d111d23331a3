import { ColliderMotion, type Collider } from "../core/index.js";

/** What {@link SupportForecast} knows of one dynamic collider. */
interface ForecastEntry {
    /** The mean support per step of the steps whose impulses arrived before the last forecast (N·s, world). */
    readonly mean: Float64Array;
    /** The impulses of the steps that arrived since (summed over the bodies, N·s), and how many steps they are. */
    readonly arrived: Float64Array;
    steps: number;
    /** Start time (s) of the newest step whose impulses arrived. */
    time: number;
    /** Start time (s) of the newest step whose forecast was taken back. */
    takenBack: number;
}

/**
 * The host's forecast of what the GPU bodies give each dynamic body in a step, for a rigid-body engine that steps
 * before their impulses come back (`GpuBackend`). The CPU world's support of a crate reaches Havok in the step it
 * holds the crate, as a change of the crate's gravity (`HavokColliderSync.applyImpulses`), so Havok's contacts see
 * the crate held: a box resting on it presses on a supported crate. A GPU step's impulses arrive a frame or more
 * later; given then with the motion Havok's steps missed (`HavokColliderSync.applyLateImpulse`), the crate is where
 * it would have been, but during each Havok step it fell freely, and so did whatever rested on it: the contact
 * between them carried nothing, the stack's weight reached the soft body in bursts, and a rope bridge's ropes
 * stretched by 10% as three crates landed on its planks.
 *
 * So before each GPU step every dynamic collider gets, as its `forecastImpulse`, the mean support (the part along
 * gravity) of the steps whose impulses arrived since the last step, summed over the GPU bodies: Havok gives it during
 * the step, as the CPU world's support. The GPU takes it as given (its prediction of the impulses in flight adds only the rest), each
 * step's figures carry it back (`StepImpulses.forecast`), and the host then gives only what is left, once per step and
 * collider (the bodies of a group each report the step). Where the support holds steady, what is left is small; where
 * it changes (a crate lands), one read's change is given late, with the motion it missed.
 *
 * The forecast is the collider's, over every GPU body; bodies that may touch one dynamic body step in one group
 * (`GpuBackend`), whose figures of it are the group's. A body stepping on its own takes the forecast as given too, for
 * its copy of a dynamic body it does not reach (that copy's prediction is then off by it, touching nothing).
 *
 * Allocates per collider once, on its first figures (held weakly: a collider that leaves is forgotten).
 */
export class SupportForecast {
    private readonly _entries = new WeakMap<Collider, ForecastEntry>();
    /** Colliders given a forecast for the current step. */
    private readonly _given: Collider[] = [];
    private _givenThisStep = false;

    /** At the start of a host step: no collider has a forecast until {@link give}. */
    public beginStep(): void {
        const given = this._given;
        for (let k = 0; k < given.length; k++) {
            given[k].forecastImpulse.fill(0);
        }
        given.length = 0;
        this._givenThisStep = false;
    }

    /**
     * Before a GPU step (the first call of a host step does the work): each dynamic collider of `colliders` with
     * figures gets the support of its newest step as `forecastImpulse`, along `gravity` (m/s²). A host step without GPU
     * steps (every body asleep) gives none: no step would take it back.
     */
    public give(colliders: readonly Collider[], gravity: ArrayLike<number>): void {
        if (this._givenThisStep) {
            return;
        }
        this._givenThisStep = true;
        const gx = gravity[0];
        const gy = gravity[1];
        const gz = gravity[2];
        const g2 = gx * gx + gy * gy + gz * gz;
        if (g2 === 0) {
            return;
        }
        for (let k = 0; k < colliders.length; k++) {
            const collider = colliders[k];
            const entry = this._entries.get(collider);
            if (entry === undefined || collider.motion !== ColliderMotion.Dynamic) {
                continue;
            }
            if (entry.steps > 0) {
                for (let axis = 0; axis < 3; axis++) {
                    entry.mean[axis] = entry.arrived[axis] / entry.steps;
                }
                entry.arrived.fill(0);
                entry.steps = 0;
            }
            const j = entry.mean;
            const along = (j[0] * gx + j[1] * gy + j[2] * gz) / g2;
            const forecast = collider.forecastImpulse;
            forecast[0] = along * gx;
            forecast[1] = along * gy;
            forecast[2] = along * gz;
            this._given.push(collider);
        }
    }

    /**
     * One collider's figures of a GPU step started at `time` (s): its `linear` impulse (N·s) counts towards the
     * collider's newest support, and `out` gets the part of the step's `forecast` (N·s) that the host gave and must now
     * take back: the whole of it for the first figures of the step to arrive, zero for the others.
     */
    public arrive(collider: Collider, time: number, linear: ArrayLike<number>, forecast: ArrayLike<number>, out: Float64Array): void {
        let entry = this._entries.get(collider);
        if (entry === undefined) {
            entry = { mean: new Float64Array(3), arrived: new Float64Array(3), steps: 0, time: -Infinity, takenBack: -Infinity };
            this._entries.set(collider, entry);
        }
        if (time > entry.time) {
            entry.time = time;
            entry.steps++;
        }
        for (let axis = 0; axis < 3; axis++) {
            entry.arrived[axis] += linear[axis];
        }
        if (time > entry.takenBack) {
            entry.takenBack = time;
            out[0] = forecast[0];
            out[1] = forecast[1];
            out[2] = forecast[2];
        } else {
            out.fill(0);
        }
    }
}
