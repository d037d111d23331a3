/**
 * The scalars of the current substep, handed to every projection by reference. Passing numbers to a function that
 * the JIT does not inline boxes each of them on the heap; passing this object does not, which keeps the step
 * allocation-free. A new context holds one whole 1/60 s substep, so code that runs before the first step (a test
 * projecting one set, say) sees consistent values.
 */
export class SubstepContext {
    /** Step length dt (s). */
    public dt = 0;
    /** Substep length h (s). */
    public h = 0;
    /** 1 / h. */
    public invH = 0;
    /** 1 / h², the factor from compliance α to α̃. */
    public invH2 = 0;
    /** Fraction of the step reached at the end of this substep, in (0, 1]. */
    public t = 1;

    public constructor() {
        this.setStep(1 / 60, 1);
    }

    /** Sets the step length and the substep count (and so h and its inverses). */
    public setStep(dt: number, substeps: number): void {
        const h = dt / substeps;
        this.dt = dt;
        this.h = h;
        this.invH = 1 / h;
        this.invH2 = 1 / (h * h);
    }

    /**
     * Makes this one substep of a body solved in fewer, longer substeps than the world's (see
     * `SoftBody.substeps`): `span` of `world`'s substeps long, ending where `world`'s current one ends.
     */
    public setSpan(world: SubstepContext, span: number): void {
        const h = world.h * span;
        this.dt = world.dt;
        this.h = h;
        this.invH = 1 / h;
        this.invH2 = 1 / (h * h);
        this.t = world.t;
    }
}
