import { createClothGrid } from "../../src/meshing/clothGrid";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

const DT = 1 / 60;

/**
 * The fast-pin cape: 0.6 × 1 m, 0.3 kg, 12 × 20 quads, its top row pinned to a node on a circle of radius 1.6 m whose
 * angular speed ramps from 0 to 6 rad/s in 1 s and then holds (9.6 m/s, 5.9 g), in still air, 5 s at the world's
 * default quality. Returns the largest max edge ratio over the run. The air's drag on the cape is the load: at 10 m/s
 * about 60 N on a 3 N cape.
 */
function whirlingCapePeak(options: SoftBodyOptions): number {
    const radius = 1.6;
    const grid = createClothGrid({ width: 0.6, height: 1, segmentsX: 12, segmentsY: 20 });
    const t = grid.topology;
    // Built in place at angle 0: the top edge along the circle's tangent (z), hanging from y = 2.
    const placed = new Float64Array(t.positions.length);
    for (let p = 0; p < placed.length / 3; p++) {
        placed[3 * p] = radius;
        placed[3 * p + 1] = t.positions[3 * p + 1] + 1.5;
        placed[3 * p + 2] = t.positions[3 * p];
    }
    const body = new SoftBody(
        { positions: placed, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.3 },
        options,
    );
    for (let i = 0; i < grid.columns; i++) {
        body.setPinWeight(i, 1);
    }
    const world = new XpbdWorld();
    world.addBody(body);
    let angle = 0;
    let peak = 0;
    for (let step = 0; step < 300; step++) {
        angle += 6 * Math.min(1, (step * DT) / 1) * DT;
        const [cx, cz, tx, tz] = [radius * Math.cos(angle), radius * Math.sin(angle), -Math.sin(angle), Math.cos(angle)];
        for (let i = 0; i < grid.columns; i++) {
            const along = t.positions[3 * i];
            body.setPinTarget(i, cx + tx * along, 2, cz + tz * along);
        }
        world.step(DT);
        peak = Math.max(peak, body.stats.maxEdgeRatio);
    }
    return peak;
}

describe("strain limiting", () => {
    test("a cape on a pin whirling at 10 m/s stays within ×1.10 at the default quality with a limit of ×1.08", () => {
        const unlimited = whirlingCapePeak({});
        const limited = whirlingCapePeak({ strainLimit: 1.08 });
        console.log(`fast-pin cape: peak edge ratio ×${unlimited.toFixed(4)} without a strain limit, ×${limited.toFixed(4)} with 1.08`);
        // The load is real: without the limit the solver leaves the edges by the pins stretched far past ×1.10.
        expect(unlimited).toBeGreaterThan(1.2);
        // Same-level edges (along a row) share their correction, so the limit is not exact: 1.08 holds ≤ ×1.10.
        expect(limited).toBeLessThanOrEqual(1.1);
    });

    test("a stretchy cape (stretch compliance > 0) stretches as its compliance says: the limit leaves it alone", () => {
        const stretchy = { stretchCompliance: 1e-4 };
        const peak = whirlingCapePeak({ ...stretchy, strainLimit: 1.08 });
        expect(peak).toBeGreaterThan(1.1);
        expect(peak).toBe(whirlingCapePeak(stretchy));
    });

    test("a cloth that never comes near the limit is bit-identical with and without it", () => {
        const run = (strainLimit: number): Float64Array => {
            const { body, columns } = clothBody(16, { strainLimit, allowSleep: false });
            body.setPinWeight(0, 1);
            body.setPinWeight(columns - 1, 1);
            const world = new XpbdWorld();
            world.addBody(body);
            for (let step = 0; step < 120; step++) {
                world.step(DT);
            }
            // It swung down from horizontal: the largest stretch of its first swing is still far under ×1.04.
            expect(body.stats.maxEdgeRatio).toBeLessThan(1.04);
            return body.positions.slice();
        };
        expect(run(1.08)).toEqual(run(0));
    });

    test("without pins the limit moves both ends of an edge by their inverse masses: momentum is kept", () => {
        const { body } = clothBody(32, { strainLimit: 1.05, allowSleep: false, damping: 0, windScale: 0 });
        // Stretched to ×1.3 in x about its centre and flying apart: every edge along x is over the limit.
        const x = body.positions;
        const v = body.velocities;
        for (let p = 0; p < body.particleCount; p++) {
            x[3 * p] *= 1.3;
            v[3 * p] = 2 * x[3 * p];
            v[3 * p + 1] = 1;
        }
        const momentum = (): number[] => {
            const sum = [0, 0, 0];
            for (let p = 0; p < body.particleCount; p++) {
                for (let k = 0; k < 3; k++) {
                    sum[k] += body.masses[p] * v[3 * p + k];
                }
            }
            return sum;
        };
        const before = momentum();
        const world = new XpbdWorld({ gravity: [0, 0, 0] });
        world.addBody(body);
        world.step(DT); // measures ×1.3 (the first step's stats start at 0, so the limiter waits a step)
        world.step(DT);
        const after = momentum();
        // One sweep a substep, both ends moving, takes most of the stretch out (×1.185 after these two steps without
        // the limit, measured), though not all of it in one step as a pinned cloth's does.
        expect(body.stats.maxEdgeRatio).toBeLessThan(1.12);
        for (let k = 0; k < 3; k++) {
            expect(Math.abs(after[k] - before[k])).toBeLessThan(1e-12);
        }
    });

    test("a limit must be 0 (off) or a finite ratio above 1", () => {
        for (const bad of [1, 0.5, -1, Infinity, NaN]) {
            expect(() => clothBody(2, { strainLimit: bad })).toThrow(/strainLimit must be 0 \(off\) or a finite edge ratio greater than 1/);
        }
        expect(clothBody(2, { strainLimit: 0 }).body.strainLimit).toBe(0);
        expect(clothBody(2).body.strainLimit).toBe(0);
    });
});
