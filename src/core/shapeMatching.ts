import type { ConstraintSet } from "./constraintSet.js";
import { RotationFit } from "./rotationFit.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Shape matching (Müller et al. 2005), in XPBD form: the body's rest shape, rotated and moved to fit the particles
 * best (least squares, mass-weighted), gives each particle a goal `gᵢ = R qᵢ + c`, and the particle is pulled towards
 * it. The cheap way to give a jelly or a soft toy its shape and volume back: no tetrahedra, one pass over the
 * particles.
 *
 * Each particle's pull is a constraint `Cᵢ = xᵢ − gᵢ` with compliance `α / mᵢ` (α in s²): a particle of mass m feels
 * the force `m (gᵢ − xᵢ) / α`, so every part of the body returns at the same rate, ω = 1/√α, and since XPBD keeps
 * the multipliers of the substep, that stiffness does not depend on the substep count. With equal pulls per unit of
 * mass, the corrections sum to zero momentum; the best-fit rotation makes their angular momentum about `c` vanish
 * too, so shape matching only ever removes deformation, never the body's motion. Weight-1 pins (inverse mass 0) are
 * not moved.
 */
export class ShapeMatching implements ConstraintSet {
    /** Whether the solver projects the shape matching. */
    public enabled = true;
    /** Compliance α (s²): 0 is rigid (every particle on its goal), larger is softer. */
    public compliance: number;
    /** Lagrange multipliers of the current substep, xyz per particle. */
    public readonly lambdas: Float64Array;
    /** See {@link ConstraintSet.symmetric}: the goals are fitted first, so the particles' order does not matter. */
    public readonly symmetric = false;
    /** Number of particles matched. */
    public readonly count: number;
    /** Rest offsets `qᵢ` from the rest centre of mass (m), xyz per particle: fixed at construction. */
    public readonly restOffsets: Float64Array;
    /** Particle masses (kg) the fit weighs by: the body's, fixed. */
    public readonly masses: Float64Array;
    private readonly _fit = new RotationFit();
    /** The correlation of the rest and current offsets, then the best-fit rotation (row-major 3×3). */
    private readonly _correlation = new Float64Array(9);
    private readonly _rotation = new Float64Array(9);

    /**
     * @param restPositions - rest positions, xyz per particle (the first `count` particles are matched)
     * @param masses - particle masses (kg), fixed
     * @param count - particles
     * @param compliance - initial compliance (s²)
     */
    public constructor(restPositions: Float64Array, masses: Float64Array, count: number, compliance: number) {
        this.count = count;
        this.compliance = compliance;
        this.masses = masses;
        this.lambdas = new Float64Array(3 * count);
        this.restOffsets = new Float64Array(3 * count);
        let total = 0;
        const c = [0, 0, 0];
        for (let p = 0; p < count; p++) {
            total += masses[p];
            for (let a = 0; a < 3; a++) {
                c[a] += masses[p] * restPositions[3 * p + a];
            }
        }
        for (let k = 0; k < 3 * count; k++) {
            this.restOffsets[k] = restPositions[k] - c[k % 3] / total;
        }
    }

    /** @returns "ShapeMatching" */
    public getClassName(): string {
        return "ShapeMatching";
    }

    /** One projection: fit the rest shape to `x`, then pull every particle towards its goal. */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        const count = this.count;
        const m = this.masses;
        const q = this.restOffsets;
        let total = 0;
        let cx = 0;
        let cy = 0;
        let cz = 0;
        for (let p = 0; p < count; p++) {
            const i = 3 * p;
            total += m[p];
            cx += m[p] * x[i];
            cy += m[p] * x[i + 1];
            cz += m[p] * x[i + 2];
        }
        cx /= total;
        cy /= total;
        cz /= total;
        const s = this._correlation;
        s.fill(0);
        for (let p = 0; p < count; p++) {
            const i = 3 * p;
            const px = m[p] * (x[i] - cx);
            const py = m[p] * (x[i + 1] - cy);
            const pz = m[p] * (x[i + 2] - cz);
            s[0] += q[i] * px;
            s[1] += q[i] * py;
            s[2] += q[i] * pz;
            s[3] += q[i + 1] * px;
            s[4] += q[i + 1] * py;
            s[5] += q[i + 1] * pz;
            s[6] += q[i + 2] * px;
            s[7] += q[i + 2] * py;
            s[8] += q[i + 2] * pz;
        }
        const r = this._rotation;
        this._fit.fitToRef(s, r);
        const alphaTilde = this.compliance * context.invH2;
        const lambdas = this.lambdas;
        for (let p = 0; p < count; p++) {
            const w = invMass[p];
            if (w === 0) {
                continue;
            }
            const i = 3 * p;
            const qx = q[i];
            const qy = q[i + 1];
            const qz = q[i + 2];
            const at = alphaTilde * w;
            // Δλ = (−C − α̃ᵢ λ) / (wᵢ + α̃ᵢ) with α̃ᵢ = α̃ wᵢ; the particle moves by wᵢ Δλ.
            const k = 1 / (w + at);
            const dx = (-(x[i] - (r[0] * qx + r[1] * qy + r[2] * qz + cx)) - at * lambdas[i]) * k;
            const dy = (-(x[i + 1] - (r[3] * qx + r[4] * qy + r[5] * qz + cy)) - at * lambdas[i + 1]) * k;
            const dz = (-(x[i + 2] - (r[6] * qx + r[7] * qy + r[8] * qz + cz)) - at * lambdas[i + 2]) * k;
            lambdas[i] += dx;
            lambdas[i + 1] += dy;
            lambdas[i + 2] += dz;
            x[i] += w * dx;
            x[i + 1] += w * dy;
            x[i + 2] += w * dz;
        }
    }
}
