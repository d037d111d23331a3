/**
 * Picking and dragging particles: `rayHitsBody` finds the first triangle along a ray (exact distances on a flat
 * cloth, from either side, the nearest of two), and `ParticleGrab` drags a particle on a soft pin and gives it back
 * the pin it had.
 */
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { DEFAULT_GRAB_STIFFNESS, ParticleGrab } from "../../src/core/particleGrab";
import { rayHitsBody } from "../../src/core/rayPick";
import { pinComplianceFromWeight } from "../../src/core/stiffness";
import { clothBody } from "../support/coreScenes";

const DT = 1 / 60;

/** Index of the particle nearest to (x, y, z). */
function nearestParticle(body: SoftBody, x: number, y: number, z: number): number {
    let best = -1;
    let bestD = Infinity;
    for (let p = 0; p < body.particleCount; p++) {
        const d = Math.hypot(body.positions[3 * p] - x, body.positions[3 * p + 1] - y, body.positions[3 * p + 2] - z);
        if (d < bestD) {
            [best, bestD] = [p, d];
        }
    }
    return best;
}

describe("rayHitsBody", () => {
    // A flat 1 m cloth in the plane z = 0, centred on the origin: 8 × 8 quads of 12.5 cm.
    const { body } = clothBody(8);
    const out = new Float64Array(2);

    test("meets a flat cloth where the ray crosses its plane, from the front and from behind", () => {
        for (const [oz, dz] of [
            [3, -1],
            [-2, 1],
        ]) {
            // Aimed at (0.3, −0.2, 0) from a point off the axis; the distance is the length to that point.
            const origin = [0.3 + 0.4, -0.2 + 0.1, oz];
            const direction = [-0.4, -0.1, dz * Math.abs(oz)];
            expect(rayHitsBody(body, origin, direction, 100, out)).toBe(true);
            expect(out[0]).toBeCloseTo(Math.hypot(0.4, 0.1, oz), 12);
            // The triangle hit contains the point.
            const t = out[1];
            const xs = [0, 1, 2].map((k) => body.positions[3 * body.triangles[3 * t + k]]);
            const ys = [0, 1, 2].map((k) => body.positions[3 * body.triangles[3 * t + k] + 1]);
            expect(Math.min(...xs)).toBeLessThanOrEqual(0.3);
            expect(Math.max(...xs)).toBeGreaterThanOrEqual(0.3);
            expect(Math.min(...ys)).toBeLessThanOrEqual(-0.2);
            expect(Math.max(...ys)).toBeGreaterThanOrEqual(-0.2);
        }
    });

    test("misses beside the cloth, along its plane, behind the origin and beyond the ray's length", () => {
        expect(rayHitsBody(body, [0.8, 0, 1], [0, 0, -1], 100, out)).toBe(false);
        expect(rayHitsBody(body, [-2, 0.1, 0], [1, 0, 0], 100, out)).toBe(false);
        expect(rayHitsBody(body, [0, 0, 1], [0, 0, 1], 100, out)).toBe(false);
        expect(rayHitsBody(body, [0, 0, 1], [0, 0, -1], 0.99, out)).toBe(false);
        expect(rayHitsBody(body, [0, 0, 1], [0, 0, -1], 1.01, out)).toBe(true);
    });

    test("of two cloths along the ray, the nearer one is hit", () => {
        const far = clothBody(8, { origin: [0, 0, -0.5] }).body;
        expect(rayHitsBody(far, [0.1, 0.1, 2], [0, 0, -1], 100, out)).toBe(true);
        expect(out[0]).toBeCloseTo(2.5, 12);
        // What a plugin does with several bodies: the second search is bounded by the first hit.
        expect(rayHitsBody(body, [0.1, 0.1, 2], [0, 0, -1], out[0], out)).toBe(true);
        expect(out[0]).toBeCloseTo(2, 12);
    });
});

describe("ParticleGrab", () => {
    /** A 1 m, 1 kg cloth hung by its top corners, settled for 2 s. */
    function hanging(): { world: XpbdWorld; body: SoftBody; corner: number } {
        const { body, columns } = clothBody(12, { allowSleep: false });
        body.setPinWeight(0, 1);
        body.setPinWeight(columns - 1, 1);
        const world = new XpbdWorld();
        world.addBody(body);
        for (let s = 0; s < 120; s++) world.step(DT);
        // The bottom-left corner: the free particle farthest down on the left.
        return { world, body, corner: nearestParticle(body, -0.5, -2, 0) };
    }

    test("drags a particle on a soft pin: held by the grab alone, the cloth hangs α·m·g below the target", () => {
        // A free 1 kg cloth held by nothing but the grab on the middle of its top edge, so that it hangs straight
        // down without swinging: the pin carries the whole weight, and at rest the particle sits compliance × m·g
        // below its target (1.1 mm/N × 9.81 N = 10.9 mm).
        const { body, columns } = clothBody(12, { allowSleep: false });
        const world = new XpbdWorld();
        world.addBody(body);
        const top = (columns - 1) / 2;
        const target = [body.positions[3 * top], body.positions[3 * top + 1] + 0.01, body.positions[3 * top + 2]];
        const grab = new ParticleGrab();
        grab.grab(body, top, target[0], target[1], target[2]);
        expect(grab.particle).toBe(top);
        expect(body.pins.weights[top]).toBe(DEFAULT_GRAB_STIFFNESS);
        for (let s = 0; s < 600; s++) world.step(DT);
        // Averaged over the next second (what is left of the cloth's settling).
        const mean = [0, 0, 0];
        for (let s = 0; s < 60; s++) {
            world.step(DT);
            for (let k = 0; k < 3; k++) mean[k] += body.positions[3 * top + k] / 60;
        }
        const expected = pinComplianceFromWeight(DEFAULT_GRAB_STIFFNESS) * body.totalMass * 9.81;
        const drop = target[1] - mean[1];
        console.log(`grabbed particle rests ${(drop * 1000).toFixed(3)} mm below its target (α·m·g = ${(expected * 1000).toFixed(3)} mm)`);
        // ± 2%: rounding of the substeps' pin projection and the last of the settling.
        expect(Math.abs(drop - expected)).toBeLessThan(0.02 * expected);
        expect(Math.hypot(mean[0] - target[0], mean[2] - target[2])).toBeLessThan(0.02 * expected);
    });

    test("with stiffness 1 the particle is at the target at the end of each step", () => {
        const { world, body, corner } = hanging();
        const grab = new ParticleGrab();
        grab.grab(body, corner, 0, 0.1, 0.3, 1);
        for (let s = 1; s <= 30; s++) {
            grab.move(body, 0.01 * s, 0.1, 0.3);
            world.step(DT);
            // Exact to rounding (the pin's target is interpolated over the substeps).
            const at = body.positions.subarray(3 * corner, 3 * corner + 3);
            expect(Math.hypot(at[0] - 0.01 * s, at[1] - 0.1, at[2] - 0.3)).toBeLessThan(1e-12);
        }
    });

    test("released, the particle falls free again; a soft-pinned one gets its pin back", () => {
        const { world, body, corner } = hanging();
        const grab = new ParticleGrab();
        grab.grab(body, corner, 0, 0.4, 0.2);
        for (let s = 0; s < 60; s++) world.step(DT);
        grab.release(body);
        expect(grab.particle).toBe(-1);
        expect(body.pins.weights[corner]).toBe(0);
        const heights = [body.positions[3 * corner + 1]];
        for (let s = 0; s < 10; s++) {
            world.step(DT);
            heights.push(body.positions[3 * corner + 1]);
        }
        // It falls: lower every step (nothing below it; the cloth swings down under it).
        for (let s = 1; s < heights.length; s++) expect(heights[s]).toBeLessThan(heights[s - 1]);

        // A particle painted with a soft pin returns to its own target, with its own weight.
        const painted = nearestParticle(body, 0.5, -0.5, 0);
        body.setPinWeight(painted, 0.5);
        const own = Array.from(body.pins.targetsEnd.subarray(3 * painted, 3 * painted + 3));
        grab.grab(body, painted, 1, 1, 1);
        world.step(DT);
        grab.release(body);
        expect(body.pins.weights[painted]).toBe(0.5);
        expect(Array.from(body.pins.targetsEnd.subarray(3 * painted, 3 * painted + 3))).toEqual(own);
    });

    test("a second grab releases the first; bad arguments are refused with the value named", () => {
        const { body, corner } = hanging();
        const grab = new ParticleGrab();
        grab.grab(body, corner, 0, 0, 0);
        grab.grab(body, corner + 1, 0, 0, 0);
        expect(body.pins.weights[corner]).toBe(0);
        expect(body.pins.weights[corner + 1]).toBe(DEFAULT_GRAB_STIFFNESS);
        expect(() => grab.grab(body, 0, 0, 0, 0)).toThrow("grab: particle 0 is pinned with weight 1; unpin it to drag it");
        expect(() => grab.grab(body, body.particleCount, 0, 0, 0)).toThrow(
            `grab: particle ${body.particleCount} is out of range [0, ${body.particleCount})`,
        );
        expect(() => grab.grab(body, corner, 0, 0, 0, 0)).toThrow("grab: stiffness must be in (0, 1], got 0");
        expect(() => grab.grab(body, corner, NaN, 0, 0)).toThrow("grab: target.x must be a finite number, got NaN");
        expect(() => grab.move(body, 0, Infinity, 0)).toThrow("moveGrab: target.y must be a finite number, got Infinity");
    });
});
