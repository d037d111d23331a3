import type { ConstraintSet } from "./constraintSet.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Tetrahedral volume constraints `C = V − V₀` with `V = ((b − a) × (c − a)) · (d − a) / 6`: what keeps a soft body
 * from collapsing into a pancake while its edges keep their lengths.
 */
export class VolumeConstraints implements ConstraintSet {
    /** Four particle indices per tetrahedron. */
    public readonly indices: Int32Array;
    /** Rest volumes (m³), all positive. */
    public readonly restVolumes: Float64Array;
    /** Lagrange multipliers of the current substep. */
    public readonly lambdas: Float64Array;
    /** XPBD compliance α; 0 keeps every tet's volume exactly. */
    public compliance: number;
    /** Whether the solver projects these constraints. */
    public enabled = true;
    /** See {@link ConstraintSet.symmetric}. */
    public readonly symmetric = false;

    /**
     * @param indices - four indices per tet, positively oriented
     * @param positions - rest positions
     * @param compliance - initial compliance
     */
    public constructor(indices: Int32Array, positions: Float64Array, compliance: number) {
        const count = indices.length >> 2;
        this.indices = indices;
        this.restVolumes = new Float64Array(count);
        this.lambdas = new Float64Array(count);
        this.compliance = compliance;
        for (let t = 0; t < count; t++) {
            const volume = tetVolume(positions, indices[4 * t], indices[4 * t + 1], indices[4 * t + 2], indices[4 * t + 3]);
            if (!(volume > 1e-15)) {
                throw new Error(
                    `tet ${t} (particles ${indices[4 * t]}, ${indices[4 * t + 1]}, ${indices[4 * t + 2]}, ` +
                        `${indices[4 * t + 3]}) has ${volume <= 0 ? "zero or negative" : "no"} volume (${volume})`,
                );
            }
            this.restVolumes[t] = volume;
        }
    }

    /** Number of tetrahedra. */
    public get count(): number {
        return this.restVolumes.length;
    }

    /** @returns "VolumeConstraints" */
    public getClassName(): string {
        return "VolumeConstraints";
    }

    /** One Gauss–Seidel sweep, front to back (the set is not symmetric), with `α̃ = compliance / h²`. */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        if (this.lambdas.length === 0) {
            return;
        }
        // Read after the early return: an unused number read in code the JIT has not optimised yet is boxed.
        const alphaTilde = this.compliance * context.invH2;
        const indices = this.indices;
        const restVolumes = this.restVolumes;
        const lambdas = this.lambdas;
        const count = restVolumes.length;
        for (let t = 0; t < count; t++) {
            const ia = indices[4 * t];
            const ib = indices[4 * t + 1];
            const ic = indices[4 * t + 2];
            const id = indices[4 * t + 3];
            const wa = invMass[ia];
            const wb = invMass[ib];
            const wc = invMass[ic];
            const wd = invMass[id];
            if (wa + wb + wc + wd === 0) {
                continue;
            }
            const a = ia * 3;
            const b = ib * 3;
            const c = ic * 3;
            const d = id * 3;
            const abx = x[b] - x[a];
            const aby = x[b + 1] - x[a + 1];
            const abz = x[b + 2] - x[a + 2];
            const acx = x[c] - x[a];
            const acy = x[c + 1] - x[a + 1];
            const acz = x[c + 2] - x[a + 2];
            const adx = x[d] - x[a];
            const ady = x[d + 1] - x[a + 1];
            const adz = x[d + 2] - x[a + 2];
            // ∇_b V = (ac × ad)/6, ∇_c V = (ad × ab)/6, ∇_d V = (ab × ac)/6, ∇_a V = −(sum of the others).
            const gbx = (acy * adz - acz * ady) / 6;
            const gby = (acz * adx - acx * adz) / 6;
            const gbz = (acx * ady - acy * adx) / 6;
            const gcx = (ady * abz - adz * aby) / 6;
            const gcy = (adz * abx - adx * abz) / 6;
            const gcz = (adx * aby - ady * abx) / 6;
            const gdx = (aby * acz - abz * acy) / 6;
            const gdy = (abz * acx - abx * acz) / 6;
            const gdz = (abx * acy - aby * acx) / 6;
            const gax = -(gbx + gcx + gdx);
            const gay = -(gby + gcy + gdy);
            const gaz = -(gbz + gcz + gdz);
            const volume = abx * gbx + aby * gby + abz * gbz;
            const denominator =
                wa * (gax * gax + gay * gay + gaz * gaz) +
                wb * (gbx * gbx + gby * gby + gbz * gbz) +
                wc * (gcx * gcx + gcy * gcy + gcz * gcz) +
                wd * (gdx * gdx + gdy * gdy + gdz * gdz) +
                alphaTilde;
            if (denominator < 1e-30) {
                continue;
            }
            const dLambda = (restVolumes[t] - volume - alphaTilde * lambdas[t]) / denominator;
            lambdas[t] += dLambda;
            x[a] += wa * dLambda * gax;
            x[a + 1] += wa * dLambda * gay;
            x[a + 2] += wa * dLambda * gaz;
            x[b] += wb * dLambda * gbx;
            x[b + 1] += wb * dLambda * gby;
            x[b + 2] += wb * dLambda * gbz;
            x[c] += wc * dLambda * gcx;
            x[c + 1] += wc * dLambda * gcy;
            x[c + 2] += wc * dLambda * gcz;
            x[d] += wd * dLambda * gdx;
            x[d + 1] += wd * dLambda * gdy;
            x[d + 2] += wd * dLambda * gdz;
        }
    }
}

/** Signed volume of the tetrahedron `a, b, c, d` (positive when positively oriented). */
export function tetVolume(x: ArrayLike<number>, ia: number, ib: number, ic: number, id: number): number {
    const a = ia * 3;
    const b = ib * 3;
    const c = ic * 3;
    const d = id * 3;
    const abx = x[b] - x[a];
    const aby = x[b + 1] - x[a + 1];
    const abz = x[b + 2] - x[a + 2];
    const acx = x[c] - x[a];
    const acy = x[c + 1] - x[a + 1];
    const acz = x[c + 2] - x[a + 2];
    const adx = x[d] - x[a];
    const ady = x[d + 1] - x[a + 1];
    const adz = x[d + 2] - x[a + 2];
    return (abx * (acy * adz - acz * ady) + aby * (acz * adx - acx * adz) + abz * (acx * ady - acy * adx)) / 6;
}
