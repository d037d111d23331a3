import type { Collider } from "../../../src/core/collider";

/**
 * The host of the dynamic box, as the plugin's Havok bridge is for the CPU world: before each step the box's
 * acceleration is gravity; after it, its velocities take gravity over the step and the contacts' impulses
 * (`J/M`, `I⁻¹L`), and its pose moves with the new velocities over the step `dt` (semi-implicit Euler, as Havok).
 */
export function hostBox(box: Collider, linear: ArrayLike<number>, angular: ArrayLike<number>, dt: number): void {
    const i = box._invInertia;
    for (let a = 0; a < 3; a++) {
        box.linearVelocity[a] += box.acceleration[a] * dt + linear[a] / box.mass;
        box.angularVelocity[a] += i[3 * a] * angular[0] + i[3 * a + 1] * angular[1] + i[3 * a + 2] * angular[2];
    }
    const w = box.angularVelocity;
    const q = box.rotation;
    const h = [0.5 * dt * w[0], 0.5 * dt * w[1], 0.5 * dt * w[2]];
    const turned = [
        q[0] + h[0] * q[3] + h[1] * q[2] - h[2] * q[1],
        q[1] + h[1] * q[3] + h[2] * q[0] - h[0] * q[2],
        q[2] + h[2] * q[3] + h[0] * q[1] - h[1] * q[0],
        q[3] - h[0] * q[0] - h[1] * q[1] - h[2] * q[2],
    ];
    const n = Math.hypot(...turned);
    const v = box.linearVelocity;
    box.setPose(
        box.position[0] + v[0] * dt,
        box.position[1] + v[1] * dt,
        box.position[2] + v[2] * dt,
        turned[0] / n,
        turned[1] / n,
        turned[2] / n,
        turned[3] / n,
    );
}
