import type { ConstraintSet } from "./constraintSet.js";
import type { SubstepContext } from "./substepContext.js";
import { enclosedVolume } from "./enclosedVolume.js";
import { TriangleEdges } from "./triangleEdges.js";

/**
 * The gas inside a closed cloth (the `pressure` option of a soft body): an ideal gas at constant temperature with no
 * air outside (as Jolt's soft-body pressure), so `pressure` (Pa) is the gas's pressure at the rest volume V₀, which
 * fixes the amount of gas, and at volume V it pushes the surface outwards with `p = pressure V₀ / V` (p V constant) on
 * every triangle (area-weighted normal, a third to each corner), the force `p ∂V/∂xᵢ`. A pressure of 0 is no gas:
 * the body collapses as one without the option.
 *
 * Solved as one XPBD volume constraint per body rather than as an explicit force: a gas is a stiff spring (at 100 kPa
 * a 1 m³ balloon has dp/dV ≈ 10⁵ Pa/m³), and an explicit force that stiff blows up at the default 5 substeps, while
 * the implicit XPBD form is unconditionally stable. Every projection linearises the gas law at the volume it finds,
 * `V_s`: the pressure `g(V) = P V₀ / V` becomes `g(V_s) − k (V − V_s)` with `k = P V₀ / V_s²`
 * (= −dp/dV), i.e. the constraint `C = V − V_t` with `V_t = V_s + g(V_s) / k` and compliance `α = 1 / k`. With the
 * substep's multiplier λ carried along, that update is a Newton step on `λ / h² = g(V)`, so the pressure the solver
 * applies (the multiplier over h², {@link GasPressure.appliedPressure}) converges to the gas law's itself. (Linearising
 * once per substep instead, at whatever volume the first projection found after the membrane's pull, left the applied
 * pressure up to 15% under the law at rest, since the tangent of the convex `P V₀ / V` lies below it.)
 *
 * Limits of the few Gauss–Seidel projections a substep has: the gas corrects the volume in one global move, the
 * edges one at a time, so a stiff membrane does not cap the gas (an inextensible 0.1 kg balloon at 200 kPa swells to
 * ×2.97), and where contacts push the surface back after each projection the multiplier, zeroed every substep,
 * builds up only part of the pressure (a light cushion under a heavy crate sits below the law's volume by about
 * `p S h² / 2`, S = Σ wᵢ |∇ᵢV|²). Warm starting with the last substep's pressure, applied as a force, did not close
 * that gap (the next Newton step undid the push on the light particles), and with the law's own pressure it blew up.
 *
 * Hot path: no allocation (the gradient buffer is the set's own); deterministic (one fixed loop order).
 */
export class GasPressure implements ConstraintSet {
    /** Whether the solver applies the gas. */
    public enabled = true;
    /**
     * Pressure (Pa) the gas has at the rest volume, ≥ 0; fixes the amount of gas (0: none). Changing it pumps gas in
     * or lets it out.
     */
    public pressure: number;
    /** The gas's compliance at the last projection, 1 / k = V_s² / (p V₀) (m³/Pa); set by the projection. */
    public compliance = 0;
    /** The multiplier of the current substep (one constraint). */
    public readonly lambdas = new Float64Array(1);
    /** See {@link ConstraintSet.symmetric}: one constraint, so the direction does not matter. */
    public readonly symmetric = false;
    /** One constraint: the enclosed volume. */
    public readonly count = 1;
    /** Rest volume V₀ (m³), enclosed by the triangles at the rest positions. */
    public readonly restVolume: number;
    /** Volume (m³) at the last projection. */
    public volume: number;
    /** +1 when the triangles wind counter-clockwise seen from outside, −1 when inwards (from the rest volume's sign). */
    public readonly orientation: number;
    private readonly _triangles: Int32Array;
    /** ∂V/∂x per particle (m²), rebuilt every projection. */
    private readonly _gradient: Float64Array;
    private _invH2 = 0;

    /**
     * @param triangles - the closed surface, three particle indices per triangle
     * @param restPositions - rest positions, xyz per particle
     * @param particleCount - particles (the gradient buffer's size)
     * @param pressure - the gas's pressure at the rest volume (Pa, ≥ 0)
     * @throws Error when the surface has open edges (a gas needs a closed surface)
     */
    public constructor(triangles: Int32Array, restPositions: Float64Array, particleCount: number, pressure: number) {
        const open = openEdgeCount(triangles);
        if (open > 0 || triangles.length === 0) {
            throw new Error(
                `pressure needs a closed surface: this body's triangles have ${open} open edges (edges of a single triangle)` +
                    (triangles.length === 0 ? " and no triangles at all" : ""),
            );
        }
        this._triangles = triangles;
        this._gradient = new Float64Array(3 * particleCount);
        this.pressure = pressure;
        const v0 = enclosedVolume(triangles, restPositions);
        this.orientation = v0 < 0 ? -1 : 1;
        this.restVolume = Math.abs(v0);
        this.volume = this.restVolume;
    }

    /** @returns "GasPressure" */
    public getClassName(): string {
        return "GasPressure";
    }

    /** Pressure (Pa) of the gas at volume `v` (m³): `pressure V₀ / v`. */
    public pressureAt(v: number): number {
        return (this.pressure * this.restVolume) / v;
    }

    /**
     * Outward pressure (Pa) the solver applied in the last substep: its multiplier over h². At equilibrium it equals
     * `pressureAt(volume)`.
     */
    public get appliedPressure(): number {
        return this.lambdas[0] * this._invH2;
    }

    /**
     * Takes what the last projection found from a solver that ran it elsewhere (the WebGPU solver's figures), so that
     * {@link GasPressure.volume} and {@link GasPressure.appliedPressure} read as after a projection here.
     * @param volume - the volume found (m³)
     * @param lambda - the multiplier after the projection
     * @param invH2 - 1 / h² of its substep (1/s²)
     */
    public _setMeasured(volume: number, lambda: number, invH2: number): void {
        this.volume = volume;
        this.lambdas[0] = lambda;
        this._invH2 = invH2;
    }

    /** One projection of the volume constraint, with the gas law linearised at the volume it finds. */
    public project(x: Float64Array, invMass: Float64Array, context: SubstepContext): void {
        const tri = this._triangles;
        const grad = this._gradient;
        grad.fill(0);
        // Relative to one particle, so a body far from the origin keeps its digits.
        const ox = x[3 * tri[0]];
        const oy = x[3 * tri[0] + 1];
        const oz = x[3 * tri[0] + 2];
        let six = 0;
        for (let t = 0; t < tri.length; t += 3) {
            const a = 3 * tri[t];
            const b = 3 * tri[t + 1];
            const c = 3 * tri[t + 2];
            const ax = x[a] - ox;
            const ay = x[a + 1] - oy;
            const az = x[a + 2] - oz;
            const ux = x[b] - x[a];
            const uy = x[b + 1] - x[a + 1];
            const uz = x[b + 2] - x[a + 2];
            const vx = x[c] - x[a];
            const vy = x[c + 1] - x[a + 1];
            const vz = x[c + 2] - x[a + 2];
            // Twice the area-weighted normal.
            const nx = uy * vz - uz * vy;
            const ny = uz * vx - ux * vz;
            const nz = ux * vy - uy * vx;
            six += ax * nx + ay * ny + az * nz;
            // ∂V/∂x of each corner is a third of the triangle's area-weighted normal (exact for a closed surface).
            const gx = nx / 6;
            const gy = ny / 6;
            const gz = nz / 6;
            grad[a] += gx;
            grad[a + 1] += gy;
            grad[a + 2] += gz;
            grad[b] += gx;
            grad[b + 1] += gy;
            grad[b + 2] += gz;
            grad[c] += gx;
            grad[c + 1] += gy;
            grad[c + 2] += gz;
        }
        const s = this.orientation;
        const v = (s * six) / 6;
        this.volume = v;
        if (!(v > 0)) {
            // Turned inside out: no volume to push on (the other constraints must first undo it).
            return;
        }
        // The gas law linearised at this volume (see the class comment): stiffness k = −dp/dV, compliance 1/k.
        const pv = this.pressure * this.restVolume;
        if (!(pv > 0)) {
            // No gas: nothing pushes (and k = 0 would make the compliance infinite).
            this.lambdas[0] = 0;
            this.compliance = 0;
            return;
        }
        const k = pv / (v * v);
        this.compliance = 1 / k;
        this._invH2 = context.invH2;
        const alphaTilde = this.compliance * context.invH2;
        let denominator = alphaTilde;
        const n = grad.length / 3;
        for (let p = 0; p < n; p++) {
            const w = invMass[p];
            if (w !== 0) {
                const i = 3 * p;
                denominator += w * (grad[i] * grad[i] + grad[i + 1] * grad[i + 1] + grad[i + 2] * grad[i + 2]);
            }
        }
        // C = V − V_t with V_t = V + g(V) / k: a Newton step on λ / h² = g(V), so at rest the applied pressure is the
        // gas law's exactly.
        const dLambda = (pv / v / k - alphaTilde * this.lambdas[0]) / denominator;
        this.lambdas[0] += dLambda;
        const step = s * dLambda;
        for (let p = 0; p < n; p++) {
            const w = invMass[p];
            if (w !== 0) {
                const i = 3 * p;
                x[i] += w * grad[i] * step;
                x[i + 1] += w * grad[i + 1] * step;
                x[i + 2] += w * grad[i + 2] * step;
            }
        }
    }
}

/** Edges of a single triangle in `triangles` (0 for a closed surface). */
export function openEdgeCount(triangles: Int32Array): number {
    const count = triangles.length / 3;
    const edges = new TriangleEdges(count);
    edges.build(triangles, count);
    let open = 0;
    for (let e = 0; e < edges.count; e++) {
        if (edges.triangleCount[e] === 1) {
            open++;
        }
    }
    return open;
}
