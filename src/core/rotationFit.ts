import { matrixFromQuaternion } from "./tupleMath.js";

/**
 * The rotation that best maps one point set onto another (least squares, weighted): for the weighted correlation
 * `S = Σ mᵢ qᵢ pᵢᵀ` of rest offsets `q` and current offsets `p`, the rotation `R` maximising `Σ mᵢ pᵢ · R qᵢ`.
 *
 * Horn's method: that rotation's unit quaternion is the eigenvector of the largest eigenvalue of a symmetric 4×4
 * matrix built from `S`, found here with cyclic Jacobi sweeps. Unlike an iteration warm-started from the last
 * answer, it needs no state (a snapshot restores it for free) and it holds for any angle, 180° included; unlike a
 * polar decomposition it never returns a reflection, even for an inverted shape.
 */
export class RotationFit {
    /** Horn's matrix, row-major 4×4 (diagonalised in place). */
    private readonly _n = new Float64Array(16);
    /** Accumulated Jacobi rotations: its columns are the eigenvectors. */
    private readonly _v = new Float64Array(16);
    private readonly _quaternion = new Float64Array(4);

    /**
     * Writes into `out` (row-major 3×3) the rotation best mapping the rest offsets onto the current ones.
     *
     * @param s - the correlation `S = Σ mᵢ qᵢ pᵢᵀ`, row-major 3×3 (`s[3a + b] = Σ mᵢ qᵢ[a] pᵢ[b]`)
     * @param out - receives `R`
     */
    public fitToRef(s: Float64Array, out: Float64Array): void {
        const n = this._n;
        const sxx = s[0];
        const sxy = s[1];
        const sxz = s[2];
        const syx = s[3];
        const syy = s[4];
        const syz = s[5];
        const szx = s[6];
        const szy = s[7];
        const szz = s[8];
        setSymmetric(n, 0, 0, sxx + syy + szz);
        setSymmetric(n, 0, 1, syz - szy);
        setSymmetric(n, 0, 2, szx - sxz);
        setSymmetric(n, 0, 3, sxy - syx);
        setSymmetric(n, 1, 1, sxx - syy - szz);
        setSymmetric(n, 1, 2, sxy + syx);
        setSymmetric(n, 1, 3, szx + sxz);
        setSymmetric(n, 2, 2, -sxx + syy - szz);
        setSymmetric(n, 2, 3, syz + szy);
        setSymmetric(n, 3, 3, -sxx - syy + szz);
        const v = this._v;
        v.fill(0);
        v[0] = v[5] = v[10] = v[15] = 1;
        for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            let off = 0;
            let scale = 0;
            for (let i = 0; i < 16; i++) {
                if (i % 5 === 0) {
                    scale += n[i] * n[i];
                } else {
                    off += n[i] * n[i];
                }
            }
            if (!(off > EPSILON * EPSILON * (scale + off))) {
                break;
            }
            for (let p = 0; p < 3; p++) {
                for (let q = p + 1; q < 4; q++) {
                    this._rotate(p, q);
                }
            }
        }
        let best = 0;
        for (let k = 1; k < 4; k++) {
            if (n[5 * k] > n[5 * best]) {
                best = k;
            }
        }
        // Horn's quaternion is (w, x, y, z); matrixFromQuaternion takes [x, y, z, w].
        const q = this._quaternion;
        q[0] = v[4 + best];
        q[1] = v[8 + best];
        q[2] = v[12 + best];
        q[3] = v[best];
        matrixFromQuaternion(q, out);
    }

    /** One Jacobi rotation zeroing n[p][q] (`p < q`), applied to n on both sides and accumulated into v. */
    private _rotate(p: number, q: number): void {
        const n = this._n;
        const v = this._v;
        const apq = n[4 * p + q];
        if (apq === 0) {
            return;
        }
        const theta = (n[4 * q + q] - n[4 * p + p]) / (2 * apq);
        // The smaller root of t² + 2θt − 1 = 0, written to stay accurate for large |θ|.
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < 4; k++) {
            const akp = n[4 * k + p];
            const akq = n[4 * k + q];
            n[4 * k + p] = c * akp - sn * akq;
            n[4 * k + q] = sn * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
            const apk = n[4 * p + k];
            const aqk = n[4 * q + k];
            n[4 * p + k] = c * apk - sn * aqk;
            n[4 * q + k] = sn * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
            const vkp = v[4 * k + p];
            const vkq = v[4 * k + q];
            v[4 * k + p] = c * vkp - sn * vkq;
            v[4 * k + q] = sn * vkp + c * vkq;
        }
    }
}

/** Jacobi sweeps at most: each squares the off-diagonal size, so a handful reach double precision. */
const MAX_SWEEPS = 12;
/** Relative off-diagonal size at which the matrix counts as diagonal. */
const EPSILON = 1e-15;

function setSymmetric(n: Float64Array, i: number, j: number, value: number): void {
    n[4 * i + j] = value;
    n[4 * j + i] = value;
}
