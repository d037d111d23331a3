import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Removes the fraction `1 − e^(−damping·dt)` of each free particle's velocity relative to the body's rigid motion
 * `v_cm + ω × r`. For a free body that motion is the best rigid fit of its particles, which leaves their linear and
 * angular momentum unchanged: a thrown body keeps flying and spinning, only its wobble dies out. A body hanging
 * from weight-1 pins is attached to them, so its rigid motion is the pins' (fitted the same way over the pinned
 * particles; pins on a line give no rotation about it): a flag is damped relative to its pole, and a curtain's
 * swing dies out.
 */
export function dampDeformation(body: SoftBody, context: SubstepContext): void {
    const k = 1 - Math.exp(-body.damping * context.dt);
    const x = body.positions;
    const v = body.velocities;
    const m = body.masses;
    const w = body.inverseMasses;
    const n = body.particleCount;
    // Reference set: the pinned particles when there are any, else the free ones (m is used as a weight either way).
    const pinned = body.pins.kinematicCount > 0;
    let mass = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let vx = 0;
    let vy = 0;
    let vz = 0;
    for (let p = 0; p < n; p++) {
        if ((w[p] === 0) !== pinned) {
            continue;
        }
        const mp = m[p];
        mass += mp;
        cx += x[3 * p] * mp;
        cy += x[3 * p + 1] * mp;
        cz += x[3 * p + 2] * mp;
        vx += v[3 * p] * mp;
        vy += v[3 * p + 1] * mp;
        vz += v[3 * p + 2] * mp;
    }
    if (mass === 0) {
        return;
    }
    cx /= mass;
    cy /= mass;
    cz /= mass;
    vx /= mass;
    vy /= mass;
    vz /= mass;
    // Angular momentum L and inertia tensor I about the centre of mass.
    let lx = 0;
    let ly = 0;
    let lz = 0;
    let ixx = 0;
    let iyy = 0;
    let izz = 0;
    let ixy = 0;
    let ixz = 0;
    let iyz = 0;
    for (let p = 0; p < n; p++) {
        if ((w[p] === 0) !== pinned) {
            continue;
        }
        const mp = m[p];
        const rx = x[3 * p] - cx;
        const ry = x[3 * p + 1] - cy;
        const rz = x[3 * p + 2] - cz;
        const ux = v[3 * p] - vx;
        const uy = v[3 * p + 1] - vy;
        const uz = v[3 * p + 2] - vz;
        lx += mp * (ry * uz - rz * uy);
        ly += mp * (rz * ux - rx * uz);
        lz += mp * (rx * uy - ry * ux);
        ixx += mp * (ry * ry + rz * rz);
        iyy += mp * (rx * rx + rz * rz);
        izz += mp * (rx * rx + ry * ry);
        ixy -= mp * rx * ry;
        ixz -= mp * rx * rz;
        iyz -= mp * ry * rz;
    }
    // ω = I⁻¹ L by cofactors; a degenerate inertia (particles on a line, or a single pin) gives no rotation.
    const c00 = iyy * izz - iyz * iyz;
    const c01 = ixz * iyz - ixy * izz;
    const c02 = ixy * iyz - ixz * iyy;
    const det = ixx * c00 + ixy * c01 + ixz * c02;
    let ox = 0;
    let oy = 0;
    let oz = 0;
    const scale = ixx + iyy + izz;
    if (Math.abs(det) > 1e-12 * scale * scale * scale) {
        const c11 = ixx * izz - ixz * ixz;
        const c12 = ixy * ixz - ixx * iyz;
        const c22 = ixx * iyy - ixy * ixy;
        ox = (c00 * lx + c01 * ly + c02 * lz) / det;
        oy = (c01 * lx + c11 * ly + c12 * lz) / det;
        oz = (c02 * lx + c12 * ly + c22 * lz) / det;
    }
    for (let p = 0; p < n; p++) {
        if (w[p] === 0) {
            continue;
        }
        const rx = x[3 * p] - cx;
        const ry = x[3 * p + 1] - cy;
        const rz = x[3 * p + 2] - cz;
        const i = 3 * p;
        v[i] -= k * (v[i] - (vx + oy * rz - oz * ry));
        v[i + 1] -= k * (v[i + 1] - (vy + oz * rx - ox * rz));
        v[i + 2] -= k * (v[i + 2] - (vz + ox * ry - oy * rx));
    }
}
