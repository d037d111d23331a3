import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { RopeImpostor, RopeImpostorOptions } from "../../src/babylon/ropeImpostor.js";

/**
 * The rope bridge's layout, shared by the `#rope-bridge` demo and the tests that build its deck in Node: span between
 * the posts (m), height of the ropes' ends (m), how far their middle hangs below the ends (m), the ropes' distance
 * apart (m), radius (m) and mass (kg each); planks: count, size (m: along, thick, across) and mass (kg).
 */
export const SPAN = 4;
export const HEIGHT = 2;
export const SAG = 0.3;
export const GAUGE = 1;
export const ROPE_RADIUS = 0.02;
export const ROPE_MASS = 1;
export const PLANKS = 9;
export const PLANK: readonly [number, number, number] = [0.36, 0.05, 1.2];
// A pine plank of that size weighs about 10 kg.
export const PLANK_MASS = 10;
/** Crates dropped on the deck: side (m), mass (kg) and how many the demo drops at the start. */
export const CRATE = 0.3;
export const CRATE_MASS = 4;
export const CRATES = 3;

/** The ropes' rest shape: a parabola sagging {@link SAG} in the middle, at height y(x). */
export function ropeHeight(x: number): number {
    return HEIGHT - SAG * (1 - (2 * x) / SPAN) * (1 + (2 * x) / SPAN);
}

/** A bridge rope's rest path at `z`, and its options: 5 cm segments and both ends pinned at the posts. */
export function bridgeRope(z: number): { path: Vector3[]; options: RopeImpostorOptions } {
    const path: Vector3[] = [];
    for (let k = 0; k <= 40; k++) {
        const x = -SPAN / 2 + (SPAN * k) / 40;
        path.push(new Vector3(x, ropeHeight(x), z));
    }
    return { path, options: { radius: ROPE_RADIUS, mass: ROPE_MASS, segments: 84, bendStiffness: 0.1, pins: [0, 84] } };
}

/**
 * Plank `k` of `count` spread evenly along the span: its centre (it lies under the ropes, its top face touching them)
 * and its tilt about z (rad), along the ropes' slope.
 */
export function plankPose(k: number, count: number): { x: number; y: number; tilt: number } {
    const x = -SPAN / 2 + (SPAN * (k + 0.5)) / count;
    return { x, y: ropeHeight(x) - ROPE_RADIUS - PLANK[1] / 2, tilt: Math.atan((8 * SAG * x) / (SPAN * SPAN)) };
}

/**
 * The particles of `rope` a plank centred at x = `x` is tied by: the two nearest its edges (so it neither spins about
 * the rope nor slides along it).
 */
export function plankTies(rope: RopeImpostor, x: number): number[] {
    const positions = rope.body.positions;
    const nearest = (target: number): number => {
        let best = 0;
        for (let p = 1; p < rope.particleCount; p++) {
            if (Math.abs(positions[3 * p] - target) < Math.abs(positions[3 * best] - target)) best = p;
        }
        return best;
    };
    return [nearest(x - PLANK[0] / 2 + 0.04), nearest(x + PLANK[0] / 2 - 0.04)];
}

/**
 * Where crate `k` is dropped from: its centre (m), 1–1.4 m above the ropes' ends, spread along the deck and across it,
 * and its turn about y (rad).
 */
export function cratePose(k: number): { x: number; y: number; z: number; turn: number } {
    return { x: -1.2 + ((0.9 * k) % 2.4), y: HEIGHT + 1 + 0.2 * (k % 3), z: 0.15 * ((k % 3) - 1), turn: 0.4 * k };
}
