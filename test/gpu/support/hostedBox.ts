import type { Collider } from "../../../src/core/collider";
import type { XpbdWorld } from "../../../src/core/xpbdWorld";

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

/**
 * One step of a CPU world that moves `box` within the step, hosted as above: the host owns the box, so it starts from
 * its pose and velocities before the step and applies the step's impulses (`box.impulse`, `box.angularImpulse`).
 */
export function hostedWorldStep(world: XpbdWorld, box: Collider, dt: number): void {
    const start = Float64Array.of(...box.position, ...box.rotation, ...box.linearVelocity, ...box.angularVelocity);
    world.step(dt);
    box.setPose(start[0], start[1], start[2], start[3], start[4], start[5], start[6]);
    box.setVelocity(start[7], start[8], start[9], start[10], start[11], start[12]);
    hostBox(box, box.impulse, box.angularImpulse, dt);
}
