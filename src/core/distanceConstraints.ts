import type { ConstraintSet } from "./constraintSet.js";
import { markIndependentRuns } from "./independentRuns.js";
import type { KernelMemory } from "./kernelMemory.js";
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
    /** Number of constraints: the first `count` pairs are live (fewer than the arrays hold only in a tearing cloth). */
    public count = 0;
    /** The body's kernel memory holding the lists, or null (see {@link project}). */
    private readonly _memory: KernelMemory | null;
    /**
     * Per constraint c, 1 when constraints c to c + 3 exist and share no particle, else 0: which groups of four the
     * SIMD kernel may project together (see `solverKernelsSimd.wat`). Worked out whenever the list changes (the
     * constructor, {@link rebuild}), so the kernel need not compare indices on every sweep.
     */
    private readonly _independent: Int32Array;

    /**
     * @param indices - particle index pairs
     * @param positions - rest positions, from which the rest lengths are measured
     * @param compliance - initial compliance
     * @param name - the kind's name, used in error messages
     * @param capacity - constraints the arrays hold (default: exactly the given ones); more only for {@link rebuild}
     * @param memory - the body's kernel memory, to hold the lists there (default none: plain arrays)
     */
    public constructor(
        indices: Int32Array,
        positions: Float64Array,
        compliance: number,
        name: string,
        capacity = indices.length >> 1,
        memory: KernelMemory | null = null,
    ) {
        const count = indices.length >> 1;
        this.count = count;
        this._memory = memory;
        this.indices = memory !== null ? memory.i32(2 * capacity) : capacity === count ? indices : new Int32Array(2 * capacity);
        this.indices.set(indices);
        this.restLengths = memory !== null ? memory.f64(capacity) : new Float64Array(capacity);
        this.lambdas = memory !== null ? memory.f64(capacity) : new Float64Array(capacity);
        this._independent = memory !== null ? memory.i32(capacity) : new Int32Array(0);
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
        this._markIndependent();
    }

    /**
     * Replaces the constraints with `count` pairs of `source`, taken in the order `order` gives, and measures their rest
     * lengths in `positions`. Allocation-free; `count` must fit the capacity and no pair may have zero rest length
     * (both hold when a tearing cloth rebuilds its edges: see `clothTearing.ts`).
     */
    public rebuild(source: Int32Array, order: Int32Array, count: number, positions: Float64Array): void {
        const indices = this.indices;
        for (let k = 0; k < count; k++) {
            const a = source[2 * order[k]];
            const b = source[2 * order[k] + 1];
            indices[2 * k] = a;
            indices[2 * k + 1] = b;
            const dx = positions[3 * b] - positions[3 * a];
            const dy = positions[3 * b + 1] - positions[3 * a + 1];
            const dz = positions[3 * b + 2] - positions[3 * a + 2];
            this.restLengths[k] = Math.sqrt(dx * dx + dy * dy + dz * dz);
        }
        this.count = count;
        this._markIndependent();
    }

    /** Fills {@link _independent} for the live constraints (nothing without kernel memory, where no SIMD kernel runs). */
    private _markIndependent(): void {
        if (this._independent.length > 0) {
            markIndependentRuns(this.indices, 2, 4, this.count, this._independent);
        }
    }

    /** @returns "DistanceConstraints" */
    public getClassName(): string {
        return "DistanceConstraints";
    }

    /**
     * One Gauss–Seidel sweep, front to back (the set is not symmetric), with `α̃ = compliance / h²`. When the lists
     * and `x` and `invMass` all live in the body's kernel memory, the WebAssembly kernel runs the same loop
     * (bit-identical, see `solverKernels.wat`).
     */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        if (this.count === 0) {
            return;
        }
        // Read after the early return: an unused number read in code the JIT has not optimised yet is boxed.
        const alphaTilde = this.compliance * context.invH2;
        const indices = this.indices;
        const rest = this.restLengths;
        const lambdas = this.lambdas;
        const count = this.count;
        const memory = this._memory;
        if (memory !== null && x.buffer === memory.buffer && invMass.buffer === memory.buffer) {
            memory.scalar[0] = alphaTilde;
            memory.kernels.distance(
                indices.byteOffset,
                rest.byteOffset,
                lambdas.byteOffset,
                count,
                x.byteOffset,
                invMass.byteOffset,
                this._independent.byteOffset,
            );
            return;
        }
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
