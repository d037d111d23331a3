import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** Stores the momentum of the body's free particles (inverse mass above 0) in `body._startMomentum`. */
export function recordStartMomentum(body: SoftBody): void {
    const v = body.velocities;
    const w = body.inverseMasses;
    const m = body.masses;
    let px = 0;
    let py = 0;
    let pz = 0;
    for (let p = 0; p < body.particleCount; p++) {
        if (w[p] === 0) {
            continue;
        }
        px += m[p] * v[3 * p];
        py += m[p] * v[3 * p + 1];
        pz += m[p] * v[3 * p + 2];
    }
    const out = body._startMomentum;
    out[0] = px;
    out[1] = py;
    out[2] = pz;
}

/**
 * Fills `body.pinForce` by momentum balance over the step that just ended: the change of the free particles'
 * momentum, less gravity, the external and aerodynamic forces and the contact impulses, is what the pins put in.
 * Every other constraint is internal to the body and moves no momentum in or out, so the balance is exact; it needs
 * no bookkeeping inside the solver's loops.
 */
export function measurePinForce(body: SoftBody, gravity: Float64Array, context: SubstepContext): void {
    // The step length comes in the context: a number argument would be boxed on every call the JIT does not inline.
    const dt = context.dt;
    const start = body._startMomentum;
    const contact = body.contacts.impulse;
    if (body.sleeping && body._slowTime > 0) {
        // No contacts run on a sleeping body, but what rests on it (the ground under it, a jelly in a hammock) does
        // not go away: its pins go on carrying the mean load of the time it came to rest in.
        const share = dt / body._slowTime;
        contact[0] = share * body._slowImpulse[0];
        contact[1] = share * body._slowImpulse[1];
        contact[2] = share * body._slowImpulse[2];
    }
    const v = body.velocities;
    const w = body.inverseMasses;
    const m = body.masses;
    const f = body.externalForces;
    const aero = body.aerodynamicForces;
    let mass = 0;
    let px = 0;
    let py = 0;
    let pz = 0;
    let fx = 0;
    let fy = 0;
    let fz = 0;
    for (let p = 0; p < body.particleCount; p++) {
        if (w[p] === 0) {
            continue;
        }
        const i = 3 * p;
        mass += m[p];
        px += m[p] * v[i];
        py += m[p] * v[i + 1];
        pz += m[p] * v[i + 2];
        fx += f[i] + aero[i];
        fy += f[i + 1] + aero[i + 1];
        fz += f[i + 2] + aero[i + 2];
    }
    const force = body.pinForce;
    force[0] = (px - start[0] - contact[0]) / dt - mass * gravity[0] - fx;
    force[1] = (py - start[1] - contact[1]) / dt - mass * gravity[1] - fy;
    force[2] = (pz - start[2] - contact[2]) / dt - mass * gravity[2] - fz;
}
