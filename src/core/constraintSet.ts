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
     * Whether the solver alternates this set's direction: front to back in the first pass of each iteration, back to
     * front in the second. A one-way Gauss–Seidel sweep leaves its error biased in one direction; for bending next
     * to inextensible edges and tethers that bias feeds energy into the cloth (a 16×16 cloth hung by two corners
     * still had 1.4e-2 J of motion after 10 s with damping 1/s, against 1e-5 J when alternating; alternating per
     * substep instead of per pass blew it up). Sets without the problem always go front to back, which converges faster for inextensible edges.
     */
    readonly symmetric: boolean;
    /** Number of constraints. */
    readonly count: number;
    /**
     * One Gauss–Seidel sweep over the set with `α̃ = compliance / h²`: front to back, or back to front when `reverse`
     * is set (only ever for {@link ConstraintSet.symmetric} sets). Allocation-free: it reads and
     * writes the arrays it is given and its own.
     */
    project(x: Float64Array, invMass: Float64Array, context: SubstepContext, reverse: boolean): void;
    /** The set's kind by name ("DistanceConstraints", …), for messages; unlike `constructor.name` it survives minification. */
    getClassName(): string;
}
