import { indexBelow, unitInterval } from "./argumentChecks.js";
import { pinComplianceFromWeight } from "./stiffness.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Weighted pins, one slot per particle. Weight 1: the particle is kinematic and sits exactly on its target; weight in
 * (0, 1): a zero-length XPBD attachment to the target whose compliance shrinks as the weight grows
 * ({@link pinComplianceFromWeight}); weight 0: free.
 *
 * Targets move every step: the host sets where each target is at the end of the step, and the solver interpolates
 * linearly from where it was at the start, substep by substep.
 */
export class PinConstraints {
    /** Pin weight per particle, in [0, 1]. */
    public readonly weights: Float64Array;
    /** Target positions at the start of the current step (xyz per particle). */
    public readonly targetsStart: Float64Array;
    /** Target positions at the end of the current step (xyz per particle). */
    public readonly targetsEnd: Float64Array;
    /** Particles with weight 1, in increasing order; the first {@link kinematicCount} entries are valid. */
    public readonly kinematic: Int32Array;
    /** Number of weight-1 pins. */
    public kinematicCount = 0;
    /** Particles with a weight strictly between 0 and 1, in increasing order; the first {@link softCount} entries are valid. */
    public readonly soft: Int32Array;
    /** Number of soft pins. */
    public softCount = 0;
    /** Compliance per soft-pin slot, from its weight. */
    public readonly softCompliance: Float64Array;
    /** Lagrange multipliers per soft-pin slot. */
    public readonly lambdas: Float64Array;
    /** Set when a weight changed: the lists (and the body's tethers and inverse masses) are rebuilt before the next step. */
    public dirty = false;

    /** @param positions - initial particle positions, which become the initial targets */
    public constructor(positions: Float64Array) {
        const n = positions.length / 3;
        this.weights = new Float64Array(n);
        this.targetsStart = new Float64Array(positions);
        this.targetsEnd = new Float64Array(positions);
        this.kinematic = new Int32Array(n);
        this.soft = new Int32Array(n);
        this.softCompliance = new Float64Array(n);
        this.lambdas = new Float64Array(n);
    }

    /** Sets the pin weight of a particle (0 frees it). Throws a RangeError outside [0, 1]. */
    public setWeight(particle: number, weight: number): void {
        unitInterval(weight, `pin weight of particle ${particle}`);
        indexBelow(particle, this.weights.length, "particle index");
        if (this.weights[particle] !== weight) {
            this.weights[particle] = weight;
            this.dirty = true;
        }
    }

    /** Sets where a particle's pin target is at the end of the next step (world space). */
    public setTarget(particle: number, x: number, y: number, z: number): void {
        const i = particle * 3;
        this.targetsEnd[i] = x;
        this.targetsEnd[i + 1] = y;
        this.targetsEnd[i + 2] = z;
    }

    /** Places a target at both ends of the step (no motion this step): used when a pin is created on the spot. */
    public placeTarget(particle: number, x: number, y: number, z: number): void {
        this.setTarget(particle, x, y, z);
        const i = particle * 3;
        this.targetsStart[i] = x;
        this.targetsStart[i + 1] = y;
        this.targetsStart[i + 2] = z;
    }

    /** Rebuilds the kinematic and soft lists from the weights. Not on the hot path: only after a weight changed. */
    public rebuild(): void {
        let k = 0;
        let s = 0;
        const weights = this.weights;
        for (let i = 0; i < weights.length; i++) {
            const w = weights[i];
            if (w >= 1) {
                this.kinematic[k++] = i;
            } else if (w > 0) {
                this.softCompliance[s] = pinComplianceFromWeight(w);
                this.soft[s++] = i;
            }
        }
        this.kinematicCount = k;
        this.softCount = s;
        this.dirty = false;
    }

    /** Whether any target moves during the current step (a sleeping body with moving pins wakes up). */
    public targetsMove(): boolean {
        const start = this.targetsStart;
        const end = this.targetsEnd;
        for (let k = 0; k < this.kinematicCount + this.softCount; k++) {
            const i = (k < this.kinematicCount ? this.kinematic[k] : this.soft[k - this.kinematicCount]) * 3;
            if (start[i] !== end[i] || start[i + 1] !== end[i + 1] || start[i + 2] !== end[i + 2]) {
                return true;
            }
        }
        return false;
    }

    /** Moves the weight-1 particles onto their targets at the context's fraction `t` of the step. */
    public placeKinematic(x: Float64Array, context: SubstepContext): void {
        if (this.kinematicCount === 0) {
            return;
        }
        const t = context.t;
        const start = this.targetsStart;
        const end = this.targetsEnd;
        for (let k = 0; k < this.kinematicCount; k++) {
            const i = this.kinematic[k] * 3;
            x[i] = start[i] + (end[i] - start[i]) * t;
            x[i + 1] = start[i + 1] + (end[i + 1] - start[i + 1]) * t;
            x[i + 2] = start[i + 2] + (end[i + 2] - start[i + 2]) * t;
        }
    }

    /** One sweep over the soft pins towards their targets at the context's fraction `t` of the step. */
    public projectSoft(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        if (this.softCount === 0) {
            return;
        }
        const t = context.t;
        const invH2 = context.invH2;
        const start = this.targetsStart;
        const end = this.targetsEnd;
        for (let s = 0; s < this.softCount; s++) {
            const p = this.soft[s];
            const w = invMass[p];
            if (w === 0) {
                continue;
            }
            const i = p * 3;
            const dx = x[i] - (start[i] + (end[i] - start[i]) * t);
            const dy = x[i + 1] - (start[i + 1] + (end[i + 1] - start[i + 1]) * t);
            const dz = x[i + 2] - (start[i + 2] + (end[i + 2] - start[i + 2]) * t);
            const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (distance < 1e-12) {
                continue;
            }
            const alphaTilde = this.softCompliance[s] * invH2;
            const dLambda = (-distance - alphaTilde * this.lambdas[s]) / (w + alphaTilde);
            this.lambdas[s] += dLambda;
            const k = (w * dLambda) / distance;
            x[i] += k * dx;
            x[i + 1] += k * dy;
            x[i + 2] += k * dz;
        }
    }

    /**
     * Makes every pinned particle's target start the current step where the particle is (in `x`), so a body waking
     * after its targets moved follows them from where it slept, over the step, instead of jumping at its first substep.
     */
    public startAt(x: Float64Array): void {
        const start = this.targetsStart;
        for (let p = 0; p < this.weights.length; p++) {
            if (this.weights[p] > 0) {
                const i = p * 3;
                start[i] = x[i];
                start[i + 1] = x[i + 1];
                start[i + 2] = x[i + 2];
            }
        }
    }

    /** At the end of a step the end targets become the next step's start targets. */
    public endStep(): void {
        this.targetsStart.set(this.targetsEnd);
    }
}
