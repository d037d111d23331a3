import type { ConstraintSet } from "./constraintSet.js";
import { dihedralAngle, raiseResidual, writeHinge } from "./bendConstraints.js";
import { markIndependentRuns } from "./independentRuns.js";
import type { KernelMemory } from "./kernelMemory.js";
import type { StepStats } from "./stepStats.js";
import type { SubstepContext } from "./substepContext.js";

/** Largest rest dihedral angle (radians) a hinge may have for the isometric model, which assumes a flat rest shape. */
export const ISOMETRIC_BEND_MAX_REST_ANGLE = 1e-3;

/**
 * Isometric quadratic bending (Bergou et al. 2006) for cloth that is flat at rest. For the hinge `c–d` shared by
 * triangles `(a, c, d)` and `(b, d, c)`, `s = Kₐxₐ + K_b x_b + K_c x_c + K_d x_d` with cotangent weights fixed at rest:
 * `s` vanishes for every affine (in particular every flat) placement of the four particles, and a fold of angle θ
 * about a hinge of rest length |e| gives `s ≈ |e| θ n`, along the element's normal `n`. The constraint is the normal
 * part `C = s·n/|n|` with compliance `α |e|²`, so a small fold costs the same energy `θ² / 2α` as in the dihedral
 * model ({@link BendConstraints}) with compliance α. Taking only the normal part matters for stretchy cloth: an
 * uneven stretch within the plane gives `s` an in-plane part, which is not bending and must not be resisted.
 *
 * Per element that is four weighted sums, one cross product and one square root, against the dihedral model's two
 * cross products, an `atan2` and its gradient algebra. It needs a flat rest shape
 * (every rest angle within {@link ISOMETRIC_BEND_MAX_REST_ANGLE}); the body chooses the model (see
 * `SoftBodyOptions.bendModel`).
 */
export class IsometricBendConstraints implements ConstraintSet {
    /** Four particle indices per element: wings `a`, `b`, hinge `c`, `d` (as {@link BendConstraints}). */
    public readonly indices: Int32Array;
    /** Rest dihedral angles (radians): all within {@link ISOMETRIC_BEND_MAX_REST_ANGLE} of 0. For the residuals. */
    public readonly restAngles: Float64Array;
    /** Cotangent weights `Kₐ, K_b, K_c, K_d` per element. */
    public readonly weights: Float64Array;
    /** Squared rest hinge length per element (m²): the compliance scale. */
    public readonly hingeLengths2: Float64Array;
    /** Lagrange multipliers of the current substep. */
    public readonly lambdas: Float64Array;
    /**
     * Per element e, 1 when elements e to e + 3 exist and share no particle, else 0: which groups of four the SIMD
     * kernel may project together (see `solverKernelsSimd.wat`). Worked out whenever the list changes (the
     * constructor, {@link rebuild}), so the kernel need not compare indices on every sweep.
     */
    private readonly _independent: Int32Array;
    /** XPBD compliance α of the equivalent dihedral model (rad/(N·m)); 0 is rigid. */
    public compliance: number;
    /** Whether the solver projects these constraints. */
    public enabled = true;
    /** See {@link ConstraintSet.symmetric}. */
    public readonly symmetric = true;
    /** Where {@link rebuild} measures an element's rest angle, and its cotangent weights are worked out. */
    private readonly _hinge = new Float64Array(10);
    /** The body's kernel memory holding the lists, or null (see {@link project}). */
    private readonly _memory: KernelMemory | null;

    /** Number of elements: the first `count` are live (fewer than the arrays hold only in a tearing cloth). */
    public count = 0;

    /**
     * @param indices - four indices per element
     * @param positions - rest positions (flat around every hinge)
     * @param compliance - initial compliance
     * @param capacity - elements the arrays hold (default: exactly the given ones); more only for {@link rebuild}
     * @param memory - the body's kernel memory, to hold the lists there (default none: plain arrays)
     * @throws Error naming the element when a triangle is degenerate or a hinge is not flat at rest
     */
    public constructor(
        indices: Int32Array,
        positions: Float64Array,
        compliance: number,
        capacity = indices.length >> 2,
        memory: KernelMemory | null = null,
    ) {
        const count = indices.length >> 2;
        this.count = count;
        this._memory = memory;
        this.indices = memory !== null ? memory.i32(4 * capacity) : capacity === count ? indices : new Int32Array(4 * capacity);
        this.indices.set(indices);
        this.restAngles = new Float64Array(capacity);
        this.weights = memory !== null ? memory.f64(4 * capacity) : new Float64Array(4 * capacity);
        this.hingeLengths2 = memory !== null ? memory.f64(capacity) : new Float64Array(capacity);
        this.lambdas = memory !== null ? memory.f64(capacity) : new Float64Array(capacity);
        this._independent = memory !== null ? memory.i32(capacity) : new Int32Array(0);
        this.compliance = compliance;
        for (let e = 0; e < count; e++) {
            const ia = indices[4 * e];
            const ib = indices[4 * e + 1];
            const ic = indices[4 * e + 2];
            const id = indices[4 * e + 3];
            const angle = dihedralAngle(positions, ia, ib, ic, id);
            if (Number.isNaN(angle)) {
                throw new Error(`bend element ${e} (particles ${ia}, ${ib}, ${ic}, ${id}) has a degenerate triangle`);
            }
            if (Math.abs(angle) > ISOMETRIC_BEND_MAX_REST_ANGLE) {
                throw new Error(
                    `bend element ${e} (particles ${ia}, ${ib}, ${ic}, ${id}) is folded ${angle.toFixed(4)} rad at rest: ` +
                        `isometric bending needs a flat rest shape (use the dihedral model)`,
                );
            }
            this.restAngles[e] = angle;
            this._measureRest(e, positions);
        }
        this._markIndependent();
    }

    /**
     * Replaces the elements with `count` elements of `source` (four indices each), taken in the order `order` gives,
     * and measures their rest shape in `positions`. Allocation-free; `count` must fit the capacity and every element
     * must be flat and non-degenerate at rest (see `clothTearing.ts`, which checks that before).
     */
    public rebuild(source: Int32Array, order: Int32Array, count: number, positions: Float64Array): void {
        const indices = this.indices;
        for (let k = 0; k < count; k++) {
            for (let i = 0; i < 4; i++) {
                indices[4 * k + i] = source[4 * order[k] + i];
            }
            writeHinge(positions, indices[4 * k], indices[4 * k + 1], indices[4 * k + 2], indices[4 * k + 3], this._hinge);
            this.restAngles[k] = this._hinge[9];
            this._measureRest(k, positions);
        }
        this.count = count;
        this._markIndependent();
    }

    /** Fills {@link _independent} for the live elements (nothing without kernel memory, where no SIMD kernel runs). */
    private _markIndependent(): void {
        if (this._independent.length > 0) {
            markIndependentRuns(this.indices, 4, 4, this.count, this._independent);
        }
    }

    /** The cotangent weights and squared hinge length of element `e` at rest. */
    private _measureRest(e: number, positions: Float64Array): void {
        const ia = this.indices[4 * e];
        const ib = this.indices[4 * e + 1];
        const ic = this.indices[4 * e + 2];
        const id = this.indices[4 * e + 3];
        // Interior angles at the hinge ends: (c, d) in triangle (a, c, d), and in triangle (b, d, c). Through an
        // array, not return values: a number returned by a call the JIT does not inline is boxed, and a tearing
        // cloth rebuilds its elements at run time.
        const cot = this._hinge;
        writeCotangent(positions, ic, id, ia, cot, 0);
        writeCotangent(positions, id, ic, ia, cot, 1);
        writeCotangent(positions, ic, id, ib, cot, 2);
        writeCotangent(positions, id, ic, ib, cot, 3);
        const cotC1 = cot[0];
        const cotD1 = cot[1];
        const cotC2 = cot[2];
        const cotD2 = cot[3];
        this.weights[4 * e] = -(cotC1 + cotD1);
        this.weights[4 * e + 1] = -(cotC2 + cotD2);
        this.weights[4 * e + 2] = cotD1 + cotD2;
        this.weights[4 * e + 3] = cotC1 + cotC2;
        const c = 3 * ic;
        const d = 3 * id;
        this.hingeLengths2[e] =
            (positions[d] - positions[c]) ** 2 + (positions[d + 1] - positions[c + 1]) ** 2 + (positions[d + 2] - positions[c + 2]) ** 2;
    }

    /** @returns "IsometricBendConstraints" */
    public getClassName(): string {
        return "IsometricBendConstraints";
    }

    /**
     * One Gauss–Seidel sweep, back to front when `reverse` is set, with `α̃ = α |e|² / h²` per element. When the
     * lists and `x` and `invMass` all live in the body's kernel memory, the WebAssembly kernel runs the same loop
     * (bit-identical, see `solverKernels.wat`).
     */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext, reverse: boolean): void {
        if (this.count === 0) {
            return;
        }
        const alphaScale = this.compliance * context.invH2;
        const indices = this.indices;
        const weights = this.weights;
        const hingeLengths2 = this.hingeLengths2;
        const lambdas = this.lambdas;
        const count = this.count;
        const memory = this._memory;
        if (memory !== null && x.buffer === memory.buffer && invMass.buffer === memory.buffer) {
            memory.scalar[0] = alphaScale;
            memory.kernels.isometricBend(
                indices.byteOffset,
                weights.byteOffset,
                hingeLengths2.byteOffset,
                lambdas.byteOffset,
                count,
                x.byteOffset,
                invMass.byteOffset,
                reverse ? 1 : 0,
                this._independent.byteOffset,
            );
            return;
        }
        // One loop for both directions, without a branch per element.
        const first = reverse ? count - 1 : 0;
        const step = reverse ? -1 : 1;
        for (let k = 0; k < count; k++) {
            const e = first + step * k;
            const ia = indices[4 * e];
            const ib = indices[4 * e + 1];
            const ic = indices[4 * e + 2];
            const id = indices[4 * e + 3];
            const a = 3 * ia;
            const b = 3 * ib;
            const c = 3 * ic;
            const d = 3 * id;
            const ka = weights[4 * e];
            const kb = weights[4 * e + 1];
            const kc = weights[4 * e + 2];
            const kd = weights[4 * e + 3];
            // Relative to c (the weights sum to zero): s = Kₐ(xₐ − x_c) + K_b(x_b − x_c) + K_d(x_d − x_c).
            const cx = x[c];
            const cy = x[c + 1];
            const cz = x[c + 2];
            const acx = x[a] - cx;
            const acy = x[a + 1] - cy;
            const acz = x[a + 2] - cz;
            const bcx = x[b] - cx;
            const bcy = x[b + 1] - cy;
            const bcz = x[b + 2] - cz;
            const dcx = x[d] - cx;
            const dcy = x[d + 1] - cy;
            const dcz = x[d + 2] - cz;
            const sx = ka * acx + kb * bcx + kd * dcx;
            const sy = ka * acy + kb * bcy + kd * dcy;
            const sz = ka * acz + kb * bcz + kd * dcz;
            // The element's normal: the hinge crossed with the wing-to-wing vector (both triangles' mean normal).
            const fx = bcx - acx;
            const fy = bcy - acy;
            const fz = bcz - acz;
            const nx = dcy * fz - dcz * fy;
            const ny = dcz * fx - dcx * fz;
            const nz = dcx * fy - dcy * fx;
            const n2 = nx * nx + ny * ny + nz * nz;
            if (n2 < 1e-30) {
                continue;
            }
            // C = s·n̂ with n̂ = n/|n|. Its exact gradient for particle i is gᵢ n̂: n̂ turns as the particles move, and
            // against the in-plane part of s that adds β = s·(d×n)/|n|² and γ = s·(f×n)/|n|² to the weights
            // (d = x_d − x_c, f = x_b − x_a, both in the plane, so every gradient stays along n̂). Without them an
            // unevenly stretched element is projected along a wrong gradient, which pumps energy into soft cloth.
            // One square root and one division for all of |n|, 1/|n| and 1/|n|².
            const sn = sx * nx + sy * ny + sz * nz;
            // No fold and no λ yet: Δλ = (−0 − α̃·0) / … = 0 and nothing moves (up to the sign of a zero), so the
            // rest is skipped. A cloth flat in its plane (a curtain hanging still) has every element so.
            if (sn === 0 && lambdas[e] === 0) {
                continue;
            }
            // An in-plane part under 0.1% of the hinge's length changes the weights by about 0.1% (|β| ≲ |s|/|f|):
            // skipped, which keeps nearly isometric cloth, the common case, as cheap as before. The test is
            // |s|² − (s·n̂)² > 10⁻⁶|d|² multiplied through by |n|², so that it needs no square root: which elements
            // need the correction changes from substep to substep, and a mispredicted branch that waits for the
            // square root and division costs their latency on top (5% of a draping 32×32 cloth's step).
            const inPlane = (sx * sx + sy * sy + sz * sz) * n2 - sn * sn > 1e-6 * (dcx * dcx + dcy * dcy + dcz * dcz) * n2;
            const invLength = 1 / Math.sqrt(n2);
            const bendError = sn * invLength;
            let ga = ka;
            let gb = kb;
            let gc = kc;
            let gd = kd;
            if (inPlane) {
                const invN2 = invLength * invLength;
                const beta = (sx * (dcy * nz - dcz * ny) + sy * (dcz * nx - dcx * nz) + sz * (dcx * ny - dcy * nx)) * invN2;
                const gamma = (sx * (fy * nz - fz * ny) + sy * (fz * nx - fx * nz) + sz * (fx * ny - fy * nx)) * invN2;
                ga -= beta;
                gb += beta;
                gc += gamma;
                gd -= gamma;
            }
            const wa = invMass[ia];
            const wb = invMass[ib];
            const wc = invMass[ic];
            const wd = invMass[id];
            const alphaTilde = alphaScale * hingeLengths2[e];
            const denominator = wa * ga * ga + wb * gb * gb + wc * gc * gc + wd * gd * gd + alphaTilde;
            if (denominator === 0) {
                continue;
            }
            // Each particle moves along n̂ by wᵢ gᵢ Δλ, with Δλ = (−C − α̃λ) / (Σ wᵢgᵢ² + α̃).
            const dLambda = (-bendError - alphaTilde * lambdas[e]) / denominator;
            lambdas[e] += dLambda;
            const t = dLambda * invLength;
            const fa = wa * ga * t;
            const fb = wb * gb * t;
            const fc = wc * gc * t;
            const fd = wd * gd * t;
            x[a] += fa * nx;
            x[a + 1] += fa * ny;
            x[a + 2] += fa * nz;
            x[b] += fb * nx;
            x[b + 1] += fb * ny;
            x[b + 2] += fb * nz;
            x[c] += fc * nx;
            x[c + 1] += fc * ny;
            x[c + 2] += fc * nz;
            x[d] += fd * nx;
            x[d + 1] += fd * ny;
            x[d + 2] += fd * nz;
        }
    }
    /**
     * Writes each element's bend estimate `|C| / |e|` (radians: the fold angle for small folds, as the constraint
     * measures it) into `residual` as the largest over the elements of each particle, and the largest and mean over
     * the elements into `stats`. No trigonometry: this costs about what one projection sweep does.
     */
    public measure(x: Float64Array, residual: Float32Array, stats: StepStats): void {
        residual.fill(0);
        const indices = this.indices;
        const weights = this.weights;
        let bendMax = 0;
        let bendSum = 0;
        for (let e = 0; e < this.count; e++) {
            const a = 3 * indices[4 * e];
            const b = 3 * indices[4 * e + 1];
            const c = 3 * indices[4 * e + 2];
            const d = 3 * indices[4 * e + 3];
            let error = 0;
            const acx = x[a] - x[c];
            const acy = x[a + 1] - x[c + 1];
            const acz = x[a + 2] - x[c + 2];
            const bcx = x[b] - x[c];
            const bcy = x[b + 1] - x[c + 1];
            const bcz = x[b + 2] - x[c + 2];
            const dcx = x[d] - x[c];
            const dcy = x[d + 1] - x[c + 1];
            const dcz = x[d + 2] - x[c + 2];
            const fx = bcx - acx;
            const fy = bcy - acy;
            const fz = bcz - acz;
            const nx = dcy * fz - dcz * fy;
            const ny = dcz * fx - dcx * fz;
            const nz = dcx * fy - dcy * fx;
            const n2 = nx * nx + ny * ny + nz * nz;
            if (n2 >= 1e-30) {
                const ka = weights[4 * e];
                const kb = weights[4 * e + 1];
                const kd = weights[4 * e + 3];
                const sn =
                    (ka * acx + kb * bcx + kd * dcx) * nx + (ka * acy + kb * bcy + kd * dcy) * ny + (ka * acz + kb * bcz + kd * dcz) * nz;
                error = Math.abs(sn) / Math.sqrt(n2 * this.hingeLengths2[e]);
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

/** Writes the cotangent of the angle at particle `p` of the triangle `p, q, r` into `out[at]`. */
function writeCotangent(x: Float64Array, p: number, q: number, r: number, out: Float64Array, at: number): void {
    const ux = x[3 * q] - x[3 * p];
    const uy = x[3 * q + 1] - x[3 * p + 1];
    const uz = x[3 * q + 2] - x[3 * p + 2];
    const vx = x[3 * r] - x[3 * p];
    const vy = x[3 * r + 1] - x[3 * p + 1];
    const vz = x[3 * r + 2] - x[3 * p + 2];
    const cx = uy * vz - uz * vy;
    const cy = uz * vx - ux * vz;
    const cz = ux * vy - uy * vx;
    out[at] = (ux * vx + uy * vy + uz * vz) / Math.sqrt(cx * cx + cy * cy + cz * cz);
}
