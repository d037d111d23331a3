import { positiveFinite } from "./argumentChecks.js";
import type { SoftBodyDescriptor } from "./softBodyDescriptor.js";
import { tetVolume } from "./volumeConstraints.js";

/**
 * Per-particle masses for a descriptor: explicit ones when given, else the total mass lumped by tet volume (each
 * tet gives a quarter of its share to each corner), else by triangle area (a third per corner), else evenly.
 * Particles that receive nothing (isolated ones) get the mean mass, so every particle is simulated. The total mass
 * is `mass`, else `density` times the rest volume (tets) or area (triangles), else 1 kg.
 */
export function lumpParticleMasses(
    descriptor: SoftBodyDescriptor,
    positions: Float64Array,
    tets: Int32Array,
    triangles: Int32Array,
): Float64Array {
    const n = positions.length / 3;
    const masses = new Float64Array(n);
    if (descriptor.particleMasses) {
        if (descriptor.particleMasses.length !== n) {
            throw new Error(`particleMasses has ${descriptor.particleMasses.length} entries for ${n} particles`);
        }
        for (let i = 0; i < n; i++) {
            const m = descriptor.particleMasses[i];
            if (!(m > 0) || !Number.isFinite(m)) {
                throw new Error(`particle ${i} has mass ${m}; masses must be positive and finite`);
            }
            masses[i] = m;
        }
        return masses;
    }
    if (descriptor.mass !== undefined && descriptor.density !== undefined) {
        throw new Error(`give mass or density, not both (got mass ${descriptor.mass} and density ${descriptor.density})`);
    }
    if (descriptor.density !== undefined) {
        positiveFinite(descriptor.density, "density");
        if (tets.length === 0 && triangles.length === 0) {
            throw new Error("density needs tets (kg/m³) or triangles (kg/m²) to measure the body by");
        }
    }
    let total = descriptor.mass ?? 1;
    if (!(total > 0) || !Number.isFinite(total)) {
        throw new Error(`mass must be positive and finite, got ${total}`);
    }
    if (tets.length > 0) {
        for (let t = 0; t < tets.length; t += 4) {
            const share = tetVolume(positions, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]) / 4;
            for (let k = 0; k < 4; k++) {
                masses[tets[t + k]] += share;
            }
        }
    } else if (triangles.length > 0) {
        for (let t = 0; t < triangles.length; t += 3) {
            const a = triangles[t] * 3;
            const b = triangles[t + 1] * 3;
            const c = triangles[t + 2] * 3;
            const ux = positions[b] - positions[a];
            const uy = positions[b + 1] - positions[a + 1];
            const uz = positions[b + 2] - positions[a + 2];
            const vx = positions[c] - positions[a];
            const vy = positions[c + 1] - positions[a + 1];
            const vz = positions[c + 2] - positions[a + 2];
            const share = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 6;
            masses[triangles[t]] += share;
            masses[triangles[t + 1]] += share;
            masses[triangles[t + 2]] += share;
        }
    } else {
        masses.fill(1);
    }
    let sum = 0;
    let weighted = 0;
    for (let i = 0; i < n; i++) {
        sum += masses[i];
        weighted += masses[i] > 0 ? 1 : 0;
    }
    if (descriptor.density !== undefined) {
        // `sum` is the rest volume (or area): every tet (triangle) handed out exactly its measure.
        total = descriptor.density * sum;
        if (!(total > 0) || !Number.isFinite(total)) {
            throw new Error(`density ${descriptor.density} gives a total mass of ${total} (the body has no volume or area)`);
        }
    }
    const mean = weighted > 0 ? sum / weighted : 1;
    let adjusted = 0;
    for (let i = 0; i < n; i++) {
        if (!(masses[i] > 0)) {
            masses[i] = mean;
        }
        adjusted += masses[i];
    }
    for (let i = 0; i < n; i++) {
        masses[i] *= total / adjusted;
    }
    return masses;
}
