import { getDefaults } from "./defaults.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** Squared air speed (m²/s²) relative to a triangle under which it feels no force (see the triangle loop). */
const MIN_RELATIVE_SPEED2 = 1e-8;

/** Default air density (kg/m³) in the newest defaults version: dry air at about 20 °C and sea level. */
export const DEFAULT_AIR_DENSITY = getDefaults().world.airDensity;

/** Default drag coefficient in the newest defaults version: a flat plate broadside to the flow has C_D ≈ 1.2. */
export const DEFAULT_DRAG_COEFFICIENT = getDefaults().body.dragCoefficient;

/** Default lift coefficient in the newest defaults version (see `defaultsTable.ts` for why it is 1). */
export const DEFAULT_LIFT_COEFFICIENT = getDefaults().body.liftCoefficient;

/**
 * Aerodynamic force on each surface triangle of `body`, gathered per particle into `body.aerodynamicForces` (N) once
 * per step; every substep of the step then adds it like any external force.
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
 * Each triangle's force, from the positions and velocities the step starts with, is split equally over its three
 * particles. Held over a step of length `dt`, an explicit force could change a light particle's velocity relative
 * to the air by more than that velocity itself (`½ ρ C_D |u| dt / σ > 1` for areal density `σ`: a 0.1 kg/m² flag in
 * a 20 m/s wind at 60 Hz) and so overshoot and grow. Each particle's force is therefore capped at what brings its
 * velocity to the air's within the step; below that cap (the usual case) the force is exactly the formula's.
 *
 * Designed for thin sheets, which the air meets on both sides. On a closed surface every face is pushed, the
 * leeward ones too, so the drag is about twice a solid's; halve the coefficients for those.
 *
 * Writes zeros when `airDensity·(C_D + C_L)` is 0 or the body's `windScale` is 0. Allocation-free; triangles are
 * visited in order, so the result is deterministic.
 *
 * @param body - the body (its `triangles`, `positions`, `velocities`, `inverseMasses` and coefficients are read)
 * @param air - wind velocity (m/s, world) in `air[0..2]` and the air density ρ (kg/m³) in `air[3]`
 * @param context - the step (its length dt is read)
 */
export function computeAerodynamicForces(body: SoftBody, air: Float64Array, context: SubstepContext): void {
    const force = body.aerodynamicForces;
    force.fill(0);
    const airDensity = air[3];
    const dt = context.dt;
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
    const windX = air[0] * scale;
    const windY = air[1] * scale;
    const windZ = air[2] * scale;
    // ½ ρ A with A = |cross| / 2, and a third of it per particle.
    const k = airDensity / 12;
    for (let t = 0; t < tri.length; t += 3) {
        const a = 3 * tri[t];
        const b = 3 * tri[t + 1];
        const c = 3 * tri[t + 2];
        const ux = windX - (v[a] + v[b] + v[c]) / 3;
        const uy = windY - (v[a + 1] + v[b + 1] + v[c + 1]) / 3;
        const uz = windZ - (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
        const speed2 = ux * ux + uy * uy + uz * uz;
        // Under 0.1 mm/s relative to the air the force (∝ |u|²) is below 1e-8 N/m²: a cloth at rest costs nothing.
        if (speed2 < MIN_RELATIVE_SPEED2) {
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
        const fx = s * (alongU * ux + alongN * nx);
        const fy = s * (alongU * uy + alongN * ny);
        const fz = s * (alongU * uz + alongN * nz);
        force[a] += fx;
        force[a + 1] += fy;
        force[a + 2] += fz;
        force[b] += fx;
        force[b + 1] += fy;
        force[b + 2] += fz;
        force[c] += fx;
        force[c + 1] += fy;
        force[c + 2] += fz;
    }
    for (let p = 0; p < body.particleCount; p++) {
        const i = 3 * p;
        // The cap: |Δv| = |F| w dt may not exceed the particle's speed relative to the air.
        const dvx = force[i] * w[p] * dt;
        const dvy = force[i + 1] * w[p] * dt;
        const dvz = force[i + 2] * w[p] * dt;
        const dv2 = dvx * dvx + dvy * dvy + dvz * dvz;
        const relative2 = (windX - v[i]) ** 2 + (windY - v[i + 1]) ** 2 + (windZ - v[i + 2]) ** 2;
        if (dv2 > relative2) {
            const cap = Math.sqrt(relative2 / dv2);
            force[i] *= cap;
            force[i + 1] *= cap;
            force[i + 2] *= cap;
        }
    }
}
