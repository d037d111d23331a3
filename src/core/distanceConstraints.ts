import type { ConstraintSet } from "./constraintSet.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Distance constraints `C = |xⱼ − xᵢ| − L` (stretch and shear), projected in XPBD form.
 * One instance holds one kind for one body; the kind can be switched off and its compliance changed at any time.
 */
export class DistanceConstraints implements ConstraintSet {
    /** Particle index pairs. */
    public readonly indices: Int32Array;
    /** Rest lengths (metres). */
    public readonly restLengths: Float64Array;
    /** Lagrange multipliers of the current substep. */
    public readonly lambdas: Float64Array;
    /** XPBD compliance α (m/N); 0 is rigid. */
    public compliance: number;
    /** Whether the solver projects these constraints. */
    public enabled = true;
    /** See {@link ConstraintSet.symmetric}. */
    public readonly symmetric = false;

    /**
     * @param indices - particle index pairs
     * @param positions - rest positions, from which the rest lengths are measured
     * @param compliance - initial compliance
     * @param name - the kind's name, used in error messages
     */
    public constructor(indices: Int32Array, positions: Float64Array, compliance: number, name: string) {
        const count = indices.length >> 1;
        this.indices = indices;
        this.restLengths = new Float64Array(count);
        this.lambdas = new Float64Array(count);
        this.compliance = compliance;
        for (let c = 0; c < count; c++) {
            const i = indices[2 * c] * 3;
            const j = indices[2 * c + 1] * 3;
            const dx = positions[j] - positions[i];
            const dy = positions[j + 1] - positions[i + 1];
            const dz = positions[j + 2] - positions[i + 2];
            const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (!(length > 1e-9)) {
                throw new Error(`${name} constraint ${c} (particles ${indices[2 * c]}, ${indices[2 * c + 1]}) has zero length`);
            }
            this.restLengths[c] = length;
        }
    }

    /** Number of constraints. */
    public get count(): number {
        return this.restLengths.length;
    }

    /** One Gauss–Seidel sweep, front to back (the set is not symmetric), with `α̃ = compliance / h²`. */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        if (this.lambdas.length === 0) {
            return;
        }
        // Read after the early return: an unused number read in code the JIT has not optimised yet is boxed.
        const alphaTilde = this.compliance * context.invH2;
        const indices = this.indices;
        const rest = this.restLengths;
        const lambdas = this.lambdas;
        const count = rest.length;
        for (let c = 0; c < count; c++) {
            const a = indices[2 * c];
            const b = indices[2 * c + 1];
            const wa = invMass[a];
            const wb = invMass[b];
            const wSum = wa + wb;
            if (wSum === 0) {
                continue;
            }
            const i = a * 3;
            const j = b * 3;
            const dx = x[j] - x[i];
            const dy = x[j + 1] - x[i + 1];
            const dz = x[j + 2] - x[i + 2];
            const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (length < 1e-12) {
                continue;
            }
            // s = Δλ / |d|, with one division: Δλ = (L − |d| − α̃λ) / (wₐ + w_b + α̃).
            const s = (rest[c] - length - alphaTilde * lambdas[c]) / ((wSum + alphaTilde) * length);
            lambdas[c] += s * length;
            x[i] -= wa * s * dx;
            x[i + 1] -= wa * s * dy;
            x[i + 2] -= wa * s * dz;
            x[j] += wb * s * dx;
            x[j + 1] += wb * s * dy;
            x[j + 2] += wb * s * dz;
        }
    }
}
