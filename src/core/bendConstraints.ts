import type { ConstraintSet } from "./constraintSet.js";
import type { StepStats } from "./stepStats.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Dihedral-angle bending: for the hinge `c–d` shared by triangles `(a, c, d)` and `(b, d, c)`, `C = θ − θ₀` where θ
 * is the signed angle between the two triangle normals about the hinge, measured with `atan2` so it is defined and
 * smooth through flat (θ = 0) and well-behaved up to a full fold (θ = ±π). The gradients are the closed-form ones
 * of the dihedral angle (they depend only on the hinge length and the two triangle normals and heights), which stay
 * bounded as long as neither triangle degenerates; degenerate configurations are skipped for that sweep.
 */
export class BendConstraints implements ConstraintSet {
    /** Four particle indices per element: wings `a`, `b`, hinge `c`, `d`. */
    public readonly indices: Int32Array;
    /** Rest dihedral angles (radians). */
    public readonly restAngles: Float64Array;
    /** Lagrange multipliers of the current substep. */
    public readonly lambdas: Float64Array;
    /** XPBD compliance α (rad/(N·m)); 0 is rigid. */
    public compliance: number;
    /** Whether the solver projects these constraints. */
    public enabled = true;
    /** Where {@link writeHinge} puts one element's normals, hinge and angle for the projection and the measuring. */
    private readonly _hinge = new Float64Array(10);
    /** See {@link ConstraintSet.symmetric}. */
    public readonly symmetric = true;

    /** Number of elements: the first `count` are live (fewer than the arrays hold only in a tearing cloth). */
    public count = 0;

    /**
     * @param indices - four indices per element
     * @param positions - rest positions
     * @param compliance - initial compliance
     * @param capacity - elements the arrays hold (default: exactly the given ones); more only for {@link rebuild}
     */
    public constructor(indices: Int32Array, positions: Float64Array, compliance: number, capacity = indices.length >> 2) {
        const count = indices.length >> 2;
        this.count = count;
        this.indices = capacity === count ? indices : new Int32Array(4 * capacity);
        this.indices.set(indices);
        this.restAngles = new Float64Array(capacity);
        this.lambdas = new Float64Array(capacity);
        this.compliance = compliance;
        for (let e = 0; e < count; e++) {
            const angle = dihedralAngle(positions, indices[4 * e], indices[4 * e + 1], indices[4 * e + 2], indices[4 * e + 3]);
            if (Number.isNaN(angle)) {
                throw new Error(
                    `bend element ${e} (particles ${indices[4 * e]}, ${indices[4 * e + 1]}, ${indices[4 * e + 2]}, ` +
                        `${indices[4 * e + 3]}) has a degenerate triangle`,
                );
            }
            this.restAngles[e] = angle;
        }
    }

    /**
     * Replaces the elements with `count` elements of `source` (four indices each), taken in the order `order` gives,
     * and measures their rest angles in `positions`. Allocation-free; `count` must fit the capacity and no element may
     * be degenerate (see `clothTearing.ts`, which checks that before).
     */
    public rebuild(source: Int32Array, order: Int32Array, count: number, positions: Float64Array): void {
        const indices = this.indices;
        for (let k = 0; k < count; k++) {
            for (let i = 0; i < 4; i++) {
                indices[4 * k + i] = source[4 * order[k] + i];
            }
            writeHinge(positions, indices[4 * k], indices[4 * k + 1], indices[4 * k + 2], indices[4 * k + 3], this._hinge);
            this.restAngles[k] = this._hinge[9];
        }
        this.count = count;
    }

    /** @returns "BendConstraints" */
    public getClassName(): string {
        return "BendConstraints";
    }

    /** One Gauss–Seidel sweep, back to front when `reverse` is set, with `α̃ = compliance / h²`. */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext, reverse: boolean): void {
        if (this.count === 0) {
            return;
        }
        // Read after the early return: an unused number read in code the JIT has not optimised yet is boxed.
        const alphaTilde = this.compliance * context.invH2;
        const indices = this.indices;
        const restAngles = this.restAngles;
        const lambdas = this.lambdas;
        const count = this.count;
        // One loop for both directions, without a branch per constraint.
        // One loop for both directions, without a branch per element.
        const first = reverse ? count - 1 : 0;
        const step = reverse ? -1 : 1;
        for (let k = 0; k < count; k++) {
            const e = first + step * k;
            const ia = indices[4 * e];
            const ib = indices[4 * e + 1];
            const ic = indices[4 * e + 2];
            const id = indices[4 * e + 3];
            const wa = invMass[ia];
            const wb = invMass[ib];
            const wc = invMass[ic];
            const wd = invMass[id];
            if (wa + wb + wc + wd === 0) {
                continue;
            }
            const hinge = this._hinge;
            writeHinge(x, ia, ib, ic, id, hinge);
            const angle = hinge[9];
            if (Number.isNaN(angle)) {
                continue;
            }
            let error = angle - restAngles[e];
            if (error > Math.PI) {
                error -= 2 * Math.PI;
            } else if (error < -Math.PI) {
                error += 2 * Math.PI;
            }
            const n1x = hinge[0];
            const n1y = hinge[1];
            const n1z = hinge[2];
            const n2x = hinge[3];
            const n2y = hinge[4];
            const n2z = hinge[5];
            const ex = hinge[6];
            const ey = hinge[7];
            const ez = hinge[8];
            const eLen2 = ex * ex + ey * ey + ez * ez;
            const eLen = Math.sqrt(eLen2);
            const n1Len2 = n1x * n1x + n1y * n1y + n1z * n1z;
            const n2Len2 = n2x * n2x + n2y * n2y + n2z * n2z;
            const a = ia * 3;
            const b = ib * 3;
            const c = ic * 3;
            const d = id * 3;
            // ∂θ/∂a = −|e| n₁/|n₁|², ∂θ/∂b = −|e| n₂/|n₂|²; the hinge gradients split the rest by the wings'
            // projections onto the hinge, so that the four gradients sum to zero (translation invariance).
            const k1 = eLen / n1Len2;
            const k2 = eLen / n2Len2;
            const gax = -k1 * n1x;
            const gay = -k1 * n1y;
            const gaz = -k1 * n1z;
            const gbx = -k2 * n2x;
            const gby = -k2 * n2y;
            const gbz = -k2 * n2z;
            // Fractions of the wing vertices' projections along the hinge, measured from c.
            const s1 = ((x[a] - x[c]) * ex + (x[a + 1] - x[c + 1]) * ey + (x[a + 2] - x[c + 2]) * ez) / eLen2;
            const s2 = ((x[b] - x[c]) * ex + (x[b + 1] - x[c + 1]) * ey + (x[b + 2] - x[c + 2]) * ez) / eLen2;
            const gdx = -(s1 * gax + s2 * gbx);
            const gdy = -(s1 * gay + s2 * gby);
            const gdz = -(s1 * gaz + s2 * gbz);
            const gcx = -(gax + gbx + gdx);
            const gcy = -(gay + gby + gdy);
            const gcz = -(gaz + gbz + gdz);
            const denominator =
                wa * (gax * gax + gay * gay + gaz * gaz) +
                wb * (gbx * gbx + gby * gby + gbz * gbz) +
                wc * (gcx * gcx + gcy * gcy + gcz * gcz) +
                wd * (gdx * gdx + gdy * gdy + gdz * gdz) +
                alphaTilde;
            if (denominator < 1e-30) {
                continue;
            }
            const dLambda = (-error - alphaTilde * lambdas[e]) / denominator;
            lambdas[e] += dLambda;
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
    /**
     * Writes each element's |θ − θ₀| (radians) into `residual` as the largest over the elements of each particle,
     * and the largest and mean over the elements into `stats`.
     */
    public measure(x: Float64Array, residual: Float32Array, stats: StepStats): void {
        residual.fill(0);
        const indices = this.indices;
        let bendMax = 0;
        let bendSum = 0;
        for (let e = 0; e < this.count; e++) {
            writeHinge(x, indices[4 * e], indices[4 * e + 1], indices[4 * e + 2], indices[4 * e + 3], this._hinge);
            const angle = this._hinge[9];
            let error = Number.isNaN(angle) ? 0 : Math.abs(angle - this.restAngles[e]);
            if (error > Math.PI) {
                error = 2 * Math.PI - error;
            }
            bendSum += error;
            if (error > bendMax) {
                bendMax = error;
            }
            raiseResidual(residual, indices, e, error);
        }
        stats.maxBendResidual = bendMax;
        stats.meanBendResidual = this.count > 0 ? bendSum / this.count : 0;
    }
}

/** Raises the residual of the four particles of element `e` to at least `error`. */
export function raiseResidual(residual: Float32Array, indices: Int32Array, e: number, error: number): void {
    for (let k = 0; k < 4; k++) {
        const p = indices[4 * e + k];
        if (error > residual[p]) {
            residual[p] = error;
        }
    }
}

/**
 * The signed dihedral angle (radians, in (−π, π]) of the bend element `a, b, c, d` (see {@link BendConstraints}),
 * or NaN when a triangle is degenerate.
 */
export function dihedralAngle(x: ArrayLike<number>, ia: number, ib: number, ic: number, id: number): number {
    const hinge = new Float64Array(10);
    writeHinge(x, ia, ib, ic, id, hinge);
    return hinge[9];
}

/**
 * Writes the two unnormalised triangle normals n₁ (0–2), n₂ (3–5), the hinge vector e (6–8) and the dihedral angle
 * (9, NaN when degenerate) of an element into `out`. Results go through `out`, not a return value, so that the
 * solver's hot loop never boxes a number.
 */
export function writeHinge(x: ArrayLike<number>, ia: number, ib: number, ic: number, id: number, out: Float64Array): void {
    const a = ia * 3;
    const b = ib * 3;
    const c = ic * 3;
    const d = id * 3;
    const ex = x[d] - x[c];
    const ey = x[d + 1] - x[c + 1];
    const ez = x[d + 2] - x[c + 2];
    const acx = x[c] - x[a];
    const acy = x[c + 1] - x[a + 1];
    const acz = x[c + 2] - x[a + 2];
    const adx = x[d] - x[a];
    const ady = x[d + 1] - x[a + 1];
    const adz = x[d + 2] - x[a + 2];
    const n1x = acy * adz - acz * ady;
    const n1y = acz * adx - acx * adz;
    const n1z = acx * ady - acy * adx;
    const bdx = x[d] - x[b];
    const bdy = x[d + 1] - x[b + 1];
    const bdz = x[d + 2] - x[b + 2];
    const bcx = x[c] - x[b];
    const bcy = x[c + 1] - x[b + 1];
    const bcz = x[c + 2] - x[b + 2];
    const n2x = bdy * bcz - bdz * bcy;
    const n2y = bdz * bcx - bdx * bcz;
    const n2z = bdx * bcy - bdy * bcx;
    out[0] = n1x;
    out[1] = n1y;
    out[2] = n1z;
    out[3] = n2x;
    out[4] = n2y;
    out[5] = n2z;
    out[6] = ex;
    out[7] = ey;
    out[8] = ez;
    const eLen2 = ex * ex + ey * ey + ez * ez;
    const n1Len2 = n1x * n1x + n1y * n1y + n1z * n1z;
    const n2Len2 = n2x * n2x + n2y * n2y + n2z * n2z;
    // Relative thresholds: a triangle whose area is ~1e-12 of its hinge length squared has no defined normal.
    if (eLen2 < 1e-20 || n1Len2 < 1e-24 * eLen2 * eLen2 || n2Len2 < 1e-24 * eLen2 * eLen2) {
        out[9] = NaN;
        return;
    }
    const crossX = n1y * n2z - n1z * n2y;
    const crossY = n1z * n2x - n1x * n2z;
    const crossZ = n1x * n2y - n1y * n2x;
    out[9] = Math.atan2((crossX * ex + crossY * ey + crossZ * ez) / Math.sqrt(eLen2), n1x * n2x + n1y * n2y + n1z * n2z);
}
