import { createClothGrid } from "../../src/meshing/clothGrid";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";

/** How the handles hold the cloth: its left and right columns, or its two top corners. */
export type Grip = "columns" | "corners";

/** A cloth pulled apart by two kinematic handles (the tearing tests' scene, on the CPU and on the GPU). */
export interface PullCase {
    /** Quads along x (the cloth is 1 m wide and 0.5 m high, with square quads). */
    segments: number;
    grip: Grip;
    /** Speed (m/s) at which each handle moves away from the other along x. */
    speed: number;
    substeps: number;
    mass: number;
}

/** The cloth of a {@link PullCase}: the body, the particles each handle holds, and where the particles started. */
export interface PulledCloth {
    body: SoftBody;
    left: number[];
    right: number[];
    start: Float64Array;
}

/** A 1 m × 0.5 m cloth in the xy plane, centred on the origin, held by two kinematic handles (not stepped yet). */
export function pulledCloth(c: PullCase, options: SoftBodyOptions): PulledCloth {
    const rows = c.segments / 2;
    const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: c.segments, segmentsY: rows });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: c.mass },
        { allowSleep: false, ...options },
    );
    const columns = grid.columns;
    const left: number[] = [];
    const right: number[] = [];
    for (let j = 0; j <= (c.grip === "columns" ? rows : 0); j++) {
        left.push(j * columns);
        right.push(j * columns + columns - 1);
    }
    for (const p of [...left, ...right]) {
        body.setPinWeight(p, 1);
    }
    return { body, left, right, start: Float64Array.from(body.positions) };
}

/** Moves the handles to where they are at the end of step `step` (1 the first) of `dt` seconds. */
export function moveHandles(cloth: PulledCloth, c: PullCase, step: number, dt: number): void {
    const { body, left, right, start } = cloth;
    const d = c.speed * step * dt;
    for (const p of left) body.setPinTarget(p, start[3 * p] - d, start[3 * p + 1], start[3 * p + 2]);
    for (const p of right) body.setPinTarget(p, start[3 * p] + d, start[3 * p + 1], start[3 * p + 2]);
}

/** Connected pieces of the cloth: a label per particle (particles joined by a triangle share one). */
export function pieces(body: SoftBody): Int32Array {
    const parent = Int32Array.from({ length: body.particleCount }, (_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
    const t = body.triangles;
    for (let k = 0; k < t.length; k += 3) {
        parent[root(t[k])] = root(t[k + 1]);
        parent[root(t[k + 1])] = root(t[k + 2]);
    }
    return parent.map((_, i) => root(i));
}

/** The exact sum of positive doubles, as an integer count of 2⁻¹⁰⁷⁴ (the smallest double), so no rounding hides a change. */
export function exactSum(values: Float64Array, count: number): bigint {
    const view = new DataView(new ArrayBuffer(8));
    let sum = 0n;
    for (let i = 0; i < count; i++) {
        view.setFloat64(0, values[i]);
        const bits = view.getBigUint64(0);
        const exponent = Number((bits >> 52n) & 0x7ffn);
        const fraction = bits & ((1n << 52n) - 1n);
        sum += exponent === 0 ? fraction : (fraction | (1n << 52n)) << BigInt(exponent - 1);
    }
    return sum;
}
