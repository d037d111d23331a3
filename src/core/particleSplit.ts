import type { SoftBody } from "./softBody.js";

/**
 * Adds a particle split off free particle `p`: same place, velocity and pin state, with the share `fraction[0]`
 * (in an array, so that the number is never boxed) of its mass and of the forces on it, so that the two masses
 * add up to the old one exactly. Returns the new particle, or −1 when a share would be zero. The caller keeps
 * within {@link SoftBody.particleCapacity} and moves triangles over (see `clothSplitter.ts`). Allocation-free.
 */
export function splitParticle(body: SoftBody, p: number, fraction: Float64Array): number {
    const m = body.masses[p];
    // The smaller share s first, then the larger l = m − s (within [m/2, m]), then s = m − l again: by Sterbenz's
    // lemma that subtraction is exact, so s + l = m with no rounding.
    const newIsSmaller = fraction[0] <= 0.5;
    const rounded = m * (newIsSmaller ? fraction[0] : 1 - fraction[0]);
    const larger = m - rounded;
    const smaller = m - larger;
    if (!(smaller > 0)) {
        return -1;
    }
    const q = body.particleCount++;
    const newMass = newIsSmaller ? smaller : larger;
    const keptMass = newIsSmaller ? larger : smaller;
    const share = newMass / m;
    body.masses[p] = keptMass;
    body.masses[q] = newMass;
    body.inverseMasses[p] = 1 / keptMass;
    body.inverseMasses[q] = 1 / newMass;
    for (let k = 0; k < 3; k++) {
        const i = 3 * p + k;
        const j = 3 * q + k;
        body.positions[j] = body.positions[i];
        body.previousPositions[j] = body.previousPositions[i];
        body.velocities[j] = body.velocities[i];
        body.restPositions[j] = body.restPositions[i];
        body._validPositions[j] = body._validPositions[i];
        body.pins.targetsStart[j] = body.pins.targetsStart[i];
        body.pins.targetsEnd[j] = body.pins.targetsEnd[i];
        body.externalForces[j] = body.externalForces[i] * share;
        body.externalForces[i] -= body.externalForces[j];
        body.aerodynamicForces[j] = body.aerodynamicForces[i] * share;
        body.aerodynamicForces[i] -= body.aerodynamicForces[j];
    }
    body.pins.weights[q] = 0;
    body.stretchResidual[q] = body.stretchResidual[p];
    body.bendResidual[q] = body.bendResidual[p];
    body.volumeResidual[q] = body.volumeResidual[p];
    body.contactResidual[q] = body.contactResidual[p];
    return q;
}
