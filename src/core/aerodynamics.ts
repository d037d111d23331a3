import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** Default air density (kg/m³): dry air at about 20 °C and sea level. */
export const DEFAULT_AIR_DENSITY = 1.2;

/** Default drag coefficient: a flat plate broadside to the flow has C_D ≈ 1.2. */
export const DEFAULT_DRAG_COEFFICIENT = 1.2;

/**
 * Default lift coefficient. A rigid flat plate would need C_L ≈ 2 in this model to match its measured post-stall
 * lift; cloth is porous and bends away from the flow, and too much lift makes it flutter, so half of that.
 */
export const DEFAULT_LIFT_COEFFICIENT = 1;

/**
 * Aerodynamic force on each surface triangle of `body`, applied as a velocity change of its free particles over
 * the substep `h` (call it before the substep predicts positions, so the change is integrated in that substep).
 *
 * Per triangle with area `A`, unit normal `n` (either winding: the force is even in `n`), velocity `v_tri` (mean of
 * its three particles) and air velocity relative to it `u = windScale·wind − v_tri`, with `u_n = u·n`:
 *
 * ```
 * F = ½ ρ A [ C_D |u_n| u  +  C_L (u_n / |u|) (|u|² n − u_n u) ]
 * ```
 *
 * - Drag, `½ ρ C_D (A |cos θ|) |u| u`: quadratic drag on the triangle's frontal area `A |cos θ|`, along the relative
 *   flow. Its normal component is `½ ρ A C_D |u_n| u_n`. A triangle facing the wind gets the full `½ ρ A C_D |u|²`;
 *   one edge-on (`u_n = 0`) gets nothing.
 * - Lift: magnitude `½ ρ A C_L |u|² |cos θ| sin θ`, perpendicular to `u` in the plane of `u` and `n`, on the side
 *   the flow pushes the face towards; zero face-on and edge-on, largest at 45°. It is perpendicular to `u`, so
 *   `F·u = ½ ρ A C_D |u_n| |u|² ≥ 0` is the drag's alone: the force never speeds a triangle away from the air.
 *
 * Each triangle's force, from the velocities the substep starts with, is split equally over its three particles:
 * `Δv = F·w/3·h` for each free one (`w` its inverse mass; pinned particles take no change). The force is explicit:
 * a particle's relative speed must change by less than itself per substep, `½ ρ C_D |u| h / σ < 1` for a cloth of
 * areal density `σ` (kg/m²); with ρ = 1.2, C_D = 1.2, `h` = 1/600 s and |u| = 20 m/s, σ above 0.024 kg/m².
 *
 * Designed for thin sheets, which the air meets on both sides. On a closed surface every face is pushed, the
 * leeward ones too, so the drag is about twice a solid's; halve the coefficients for those.
 *
 * Does nothing when `airDensity·(C_D + C_L)` is 0 or the body's `windScale` is 0. Allocation-free; triangles are
 * visited in order, so the result is deterministic.
 *
 * @param body the body (its `triangles`, `positions`, `velocities`, `inverseMasses` and coefficients are read)
 * @param air wind velocity (m/s, world) in `air[0..2]` and the air density ρ (kg/m³) in `air[3]`
 * @param context the substep (its length h is read)
 */
export function applyAerodynamics(body: SoftBody, air: Float64Array, context: SubstepContext): void {
    const airDensity = air[3];
    const h = context.h;
    const drag = body.dragCoefficient;
    const lift = body.liftCoefficient;
    const scale = body.windScale;
    if (airDensity * (drag + lift) === 0 || scale === 0) {
        return;
    }
    const x = body.positions;
    const v = body.velocities;
    const w = body.inverseMasses;
    const tri = body.triangles;
    // Impulses are gathered first and applied after, so every triangle sees the velocities the substep began with.
    const impulse = body._aeroImpulse;
    impulse.fill(0);
    const windX = air[0] * scale;
    const windY = air[1] * scale;
    const windZ = air[2] * scale;
    // ½ ρ A with A = |cross| / 2, and a third of it per particle, over h.
    const k = (airDensity / 4) * (h / 3);
    for (let t = 0; t < tri.length; t += 3) {
        const a = 3 * tri[t];
        const b = 3 * tri[t + 1];
        const c = 3 * tri[t + 2];
        const ux = windX - (v[a] + v[b] + v[c]) / 3;
        const uy = windY - (v[a + 1] + v[b + 1] + v[c + 1]) / 3;
        const uz = windZ - (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
        const speed2 = ux * ux + uy * uy + uz * uz;
        if (speed2 === 0) {
            continue;
        }
        const e1x = x[b] - x[a];
        const e1y = x[b + 1] - x[a + 1];
        const e1z = x[b + 2] - x[a + 2];
        const e2x = x[c] - x[a];
        const e2y = x[c + 1] - x[a + 1];
        const e2z = x[c + 2] - x[a + 2];
        const cx = e1y * e2z - e1z * e2y;
        const cy = e1z * e2x - e1x * e2z;
        const cz = e1x * e2y - e1y * e2x;
        const doubleArea = Math.sqrt(cx * cx + cy * cy + cz * cz);
        if (doubleArea === 0) {
            continue;
        }
        const nx = cx / doubleArea;
        const ny = cy / doubleArea;
        const nz = cz / doubleArea;
        const un = ux * nx + uy * ny + uz * nz;
        const speed = Math.sqrt(speed2);
        // F / (½ ρ A) = (C_D |u_n| − C_L u_n² / |u|) u + C_L u_n |u| n.
        const alongU = drag * Math.abs(un) - (lift * un * un) / speed;
        const alongN = lift * un * speed;
        const s = k * doubleArea;
        const jx = s * (alongU * ux + alongN * nx);
        const jy = s * (alongU * uy + alongN * ny);
        const jz = s * (alongU * uz + alongN * nz);
        impulse[a] += jx;
        impulse[a + 1] += jy;
        impulse[a + 2] += jz;
        impulse[b] += jx;
        impulse[b + 1] += jy;
        impulse[b + 2] += jz;
        impulse[c] += jx;
        impulse[c + 1] += jy;
        impulse[c + 2] += jz;
    }
    for (let p = 0; p < body.particleCount; p++) {
        const wp = w[p];
        if (wp === 0) {
            continue;
        }
        const i = 3 * p;
        v[i] += impulse[i] * wp;
        v[i + 1] += impulse[i + 1] * wp;
        v[i + 2] += impulse[i + 2] * wp;
    }
}
