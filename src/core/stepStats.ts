/**
 * Figures of one step, for one body or summed over the world. Filled after the substeps (never formatted or
 * allocated inside the solver loop); read them any time between steps.
 */
export class StepStats {
    /** Wall time of the whole step (ms); world stats only, 0 when the world's `timing` is off. */
    public stepMs = 0;
    /** Wall time of the step divided by its substeps (ms); world stats only. */
    public substepMs = 0;
    /** Substeps and iterations per substep used. */
    public substeps = 0;
    /** Solver iterations per substep. */
    public iterations = 0;
    /**
     * Substeps the body was solved in (0 asleep, fewer than {@link substeps} for a body with fewer substeps of its
     * own: `SoftBody.substeps`); summed over the bodies in the world's stats. The solver's work for the bodies
     * follows it, so it shows what a level of detail saves.
     */
    public solvedSubsteps = 0;
    /** Simulated bodies (awake or asleep). */
    public bodies = 0;
    /** Bodies asleep at the end of the step. */
    public sleepingBodies = 0;
    /** Particles. */
    public particles = 0;
    /** Stretch constraints. */
    public stretchConstraints = 0;
    /** Shear constraints. */
    public shearConstraints = 0;
    /** Bend elements. */
    public bendConstraints = 0;
    /** Volume (tet) constraints. */
    public volumeConstraints = 0;
    /** Long-range attachments. */
    public tethers = 0;
    /** Pins of positive weight. */
    public pins = 0;
    /** Contact candidates found by the broad phase this step. */
    public contactCandidates = 0;
    /** Contacts touching in the last substep. */
    public contacts = 0;
    /** Largest positional correction a contact made in the step (m). */
    public maxContactCorrection = 0;
    /** Largest and mean |length / rest − 1| over stretch constraints. */
    public maxStretchResidual = 0;
    /** Mean |length / rest − 1| over stretch constraints. */
    public meanStretchResidual = 0;
    /** Largest length / rest over stretch constraints. */
    public maxEdgeRatio = 0;
    /** Mean length / rest over stretch constraints. */
    public meanEdgeRatio = 0;
    /** Stretch constraints longer than the body's over-stretch ratio. */
    public overStretchedEdges = 0;
    /**
     * Largest |θ − θ₀| over bend elements (radians); NaN unless the world measures residuals
     * (`XpbdWorld.residuals`).
     */
    public maxBendResidual = 0;
    /** Mean |θ − θ₀| (radians); NaN unless the world measures residuals. */
    public meanBendResidual = 0;
    /** Largest |V / V₀ − 1| over tets. */
    public maxVolumeResidual = 0;
    /** Mean |V / V₀ − 1| over tets. */
    public meanVolumeResidual = 0;
    /** Total volume of the tets over their total rest volume. */
    public volumeRatio = 0;
    /** Kinetic energy ½ Σ m v² (J). */
    public kineticEnergy = 0;
    /** Soft contact candidates (particle–triangle pairs between bodies or within one) in the last substep; world only. */
    public softContactCandidates = 0;
    /** Soft contact candidates that touched in the last substep; world only. */
    public softContacts = 0;

    /** Zeroes every figure. */
    public reset(): void {
        this.stepMs = 0;
        this.substepMs = 0;
        this.substeps = 0;
        this.iterations = 0;
        this.solvedSubsteps = 0;
        this.bodies = 0;
        this.sleepingBodies = 0;
        this.particles = 0;
        this.stretchConstraints = 0;
        this.shearConstraints = 0;
        this.bendConstraints = 0;
        this.volumeConstraints = 0;
        this.tethers = 0;
        this.pins = 0;
        this.contactCandidates = 0;
        this.contacts = 0;
        this.maxContactCorrection = 0;
        this.maxStretchResidual = 0;
        this.meanStretchResidual = 0;
        this.maxEdgeRatio = 0;
        this.meanEdgeRatio = 0;
        this.overStretchedEdges = 0;
        this.maxBendResidual = 0;
        this.meanBendResidual = 0;
        this.maxVolumeResidual = 0;
        this.meanVolumeResidual = 0;
        this.volumeRatio = 0;
        this.kineticEnergy = 0;
        this.softContactCandidates = 0;
        this.softContacts = 0;
    }

    /** Adds a body's figures to these (world totals: counts add, maxima take the max, means weight by count). */
    public accumulate(body: StepStats): void {
        this.meanStretchResidual = mean(
            this.meanStretchResidual,
            this.stretchConstraints,
            body.meanStretchResidual,
            body.stretchConstraints,
        );
        this.meanEdgeRatio = mean(this.meanEdgeRatio, this.stretchConstraints, body.meanEdgeRatio, body.stretchConstraints);
        this.meanBendResidual = mean(this.meanBendResidual, this.bendConstraints, body.meanBendResidual, body.bendConstraints);
        this.meanVolumeResidual = mean(this.meanVolumeResidual, this.volumeConstraints, body.meanVolumeResidual, body.volumeConstraints);
        this.volumeRatio = mean(this.volumeRatio, this.volumeConstraints, body.volumeRatio, body.volumeConstraints);
        this.bodies += 1;
        this.solvedSubsteps += body.solvedSubsteps;
        this.sleepingBodies += body.sleepingBodies;
        this.particles += body.particles;
        this.stretchConstraints += body.stretchConstraints;
        this.shearConstraints += body.shearConstraints;
        this.bendConstraints += body.bendConstraints;
        this.volumeConstraints += body.volumeConstraints;
        this.tethers += body.tethers;
        this.pins += body.pins;
        this.contactCandidates += body.contactCandidates;
        this.contacts += body.contacts;
        this.maxContactCorrection = Math.max(this.maxContactCorrection, body.maxContactCorrection);
        this.maxStretchResidual = Math.max(this.maxStretchResidual, body.maxStretchResidual);
        this.maxEdgeRatio = Math.max(this.maxEdgeRatio, body.maxEdgeRatio);
        this.overStretchedEdges += body.overStretchedEdges;
        this.maxBendResidual = Math.max(this.maxBendResidual, body.maxBendResidual);
        this.maxVolumeResidual = Math.max(this.maxVolumeResidual, body.maxVolumeResidual);
        this.kineticEnergy += body.kineticEnergy;
    }
}

/** Mean of two groups of `na` and `nb` items with means `a` and `b`. */
function mean(a: number, na: number, b: number, nb: number): number {
    return na + nb > 0 ? (a * na + b * nb) / (na + nb) : 0;
}
