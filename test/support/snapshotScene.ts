/**
 * A core scene that uses every piece of state a step carries over: pinned and soft-pinned cloth with moving targets,
 * a jelly on a dynamic box, a small cloth that falls asleep on the ground and is woken by a gust, a kinematic
 * capsule sweeping through, external forces, wind, restitution and a user impulse. `drive(step)` feeds the same
 * inputs for the same step index, whatever state the world is in.
 */
import { Collider, ColliderMotion } from "../../src/core/collider";
import type { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody, tetBlock } from "./coreScenes";

export interface SnapshotScene {
    world: XpbdWorld;
    cloth: SoftBody;
    jelly: SoftBody;
    napkin: SoftBody;
    /** Inputs before step `step` (0-based): pin targets, wind gusts, an impulse. */
    drive(step: number): void;
}

export function snapshotScene(clothSegments = 12): SnapshotScene {
    const world = new XpbdWorld({ timing: false, wind: [0.5, 0, 0.2] });
    const { body: cloth, columns } = clothBody(clothSegments, { plane: "xz", origin: [0, 2, 0], size: 1, mass: 0.3 });
    cloth.setPinWeight(0, 1);
    cloth.setPinWeight(columns - 1, 1);
    cloth.setPinWeight(columns * Math.floor(columns / 2), 0.5);
    const jelly = tetBlock([0.3, 0.3, 0.3], [1.5, 1, 0], { mass: 2, resolution: 3, restitution: 0.3 });
    jelly.externalForces[1] = 0.5;
    const { body: napkin } = clothBody(4, { plane: "xz", origin: [-1.5, 0.2, 0], size: 0.4, mass: 0.05 });
    world.addBody(cloth);
    world.addBody(jelly);
    world.addBody(napkin);
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    world.addCollider(new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.3 }], { friction: 0.4 }));
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.4, 0.1, 0.4] }], {
        motion: ColliderMotion.Dynamic,
        mass: 3,
    });
    box.setPose(1.5, 0.4, 0, 0, 0, 0, 1);
    box.acceleration.set([0, -2, 0]);
    world.addCollider(box);
    const capsule = new Collider([{ kind: "capsule", pointA: [0, -0.3, 0], pointB: [0, 0.3, 0], radius: 0.1 }], {
        motion: ColliderMotion.Kinematic,
    });
    capsule.setPose(-0.6, 1.4, 0.4, 0, 0, 0, 1);
    capsule.setVelocity(0.3, 0, 0, 0, 1, 0);
    world.addCollider(capsule);
    const pinned = [0, columns - 1];
    return {
        world,
        cloth,
        jelly,
        napkin,
        drive(step) {
            const t = step / 60;
            for (const [k, p] of pinned.entries()) {
                const x = cloth.restPositions[3 * p];
                cloth.setPinTarget(p, x + 0.1 * Math.sin(2 * t + k), 2 + 0.05 * Math.cos(3 * t), cloth.restPositions[3 * p + 2]);
            }
            if (step % 90 === 45) {
                // Gusts with an upward part, so that a woken cloth on the ground moves (wind along it would not).
                world.wind.set(step % 180 === 45 ? [2, 0.6, 0] : [0.5, 0, 0.2]);
            }
            if (step === 37) {
                jelly.applyImpulse(0.5, 0.2, 0, 1.5, 1, 0, 0.2);
            }
        },
    };
}

/** Every number the world carries from step to step, as Float64 bits, for bit-for-bit comparison. */
export function fullState(world: XpbdWorld): BigUint64Array {
    const parts: number[] = [world.time, world.airDensity, ...world.wind, ...world._air, ...world.gravity];
    for (const body of world.bodies) {
        parts.push(body.sleeping ? 1 : 0, body._slowTime, ...body._slowImpulse, body._wakeRequested ? 1 : 0, body.pins.dirty ? 1 : 0);
        for (const array of [
            body.positions,
            body.previousPositions,
            body.velocities,
            body._validPositions,
            body.externalForces,
            body.inverseMasses,
            body.pins.weights,
            body.pins.targetsStart,
            body.pins.targetsEnd,
            body.aerodynamicForces,
            body.pinForce,
        ]) {
            parts.push(...array);
        }
    }
    for (const collider of world.colliders) {
        for (const array of [collider.position, collider.rotation, collider.linearVelocity, collider.angularVelocity, collider.impulse]) {
            parts.push(...array);
        }
    }
    const out = new Float64Array(parts);
    return new BigUint64Array(out.buffer);
}
