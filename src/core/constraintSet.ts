import type { SubstepContext } from "./substepContext.js";

/**
 * What the substep loop needs of one kind of constraint of one body. The loop visits the body's sets in order and
 * calls {@link ConstraintSet.project} once per sweep, so a new kind of constraint is one class in one file, added to
 * the body's list.
 */
export interface ConstraintSet {
    /** Whether the solver projects this set. */
    enabled: boolean;
    /** XPBD compliance α, in the set's own units (metres per newton for distances); 0 is rigid. */
    compliance: number;
    /** Lagrange multipliers of the current substep, one per constraint (zeroed at the start of each substep). */
    readonly lambdas: Float64Array;
    /**
     * Whether each sweep visits this set twice, front to back and then back to front (after the other sets). A
     * one-way Gauss–Seidel sweep leaves its error biased in one direction; for bending next to inextensible edges
     * and tethers that bias feeds energy into the cloth (a 16×16 cloth hung by two corners kept 0.2 J of motion
     * with damping 1/s instead of coming to rest). The second, reversed visit cancels the bias. Sets without the
     * problem are visited once.
     */
    readonly symmetric: boolean;
    /** Number of constraints. */
    readonly count: number;
    /**
     * One Gauss–Seidel sweep over the set, back to front when `context.reverse` is set, with `α̃ = compliance / h²`.
     * Allocation-free: it reads and writes the arrays it is given and its own.
     */
    project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void;
}
