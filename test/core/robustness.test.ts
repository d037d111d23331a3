import { SoftBody } from "../../src/core/softBody";
import { SoftBodyEventType } from "../../src/core/eventQueue";
import { MAX_COORDINATE, XpbdWorld } from "../../src/core/xpbdWorld";
import { Collider } from "../../src/core/collider";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { clothBody } from "../support/coreScenes";

/** A unit tetrahedron, positively oriented. */
const tet = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];

describe("invalid input is rejected with an error naming the element", () => {
    test.each([
        ["an empty mesh", { positions: [] }, /at least one particle/],
        ["a NaN position", { positions: [0, 0, 0, 1, NaN, 0] }, /particle 1 has a non-finite coordinate/],
        ["an infinite position", { positions: [0, 0, Infinity] }, /particle 0 has a non-finite coordinate/],
        ["an index out of range", { positions: tet, stretch: [0, 1, 2, 7] }, /stretch constraint 1 has index 7 out of range/],
        ["a zero-length edge", { positions: [0, 0, 0, 1, 0, 0, 1, 0, 0], stretch: [0, 1, 1, 2] }, /stretch constraint 1 .* zero length/],
        ["a zero-volume tet", { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0], tets: [0, 1, 2, 3] }, /tet 0 .* zero or negative volume/],
        ["an inverted tet", { positions: tet, tets: [0, 2, 1, 3] }, /tet 0 .* zero or negative volume/],
        ["a negative particle mass", { positions: tet, particleMasses: [1, 1, -1, 1] }, /particle 2 has mass -1/],
        ["a negative total mass", { positions: tet, mass: -2 }, /mass must be positive/],
        ["a repeated index", { positions: tet, tets: [0, 1, 1, 3] }, /tet 0 uses particle 1 twice/],
        [
            "a degenerate bend element",
            { positions: [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0], bend: [0, 1, 2, 3] },
            /bend element 0 .* degenerate/,
        ],
    ])("%s", (_name, descriptor, message) => {
        expect(() => new SoftBody(descriptor)).toThrow(message);
    });

    test("out-of-range options", () => {
        expect(() => new SoftBody({ positions: tet }, { damping: -1 })).toThrow(/damping must be a finite number ≥ 0/);
        expect(() => new SoftBody({ positions: tet }, { thickness: NaN })).toThrow(/thickness/);
        expect(() => new XpbdWorld({ substeps: 0 })).toThrow(/substeps must be a positive integer/);
        expect(() => new XpbdWorld().step(-1)).toThrow(/time step must be positive/);
        const body = new SoftBody({ positions: tet });
        expect(() => body.setPinWeight(0, 2)).toThrow(/pin weight of particle 0 must be in \[0, 1\], got 2/);
        expect(() => body.setPinWeight(9, 1)).toThrow(/particle index 9 is out of range/);
    });
});

describe("a non-finite value during the simulation is contained", () => {
    test("the body is restored to its last valid state and an InvalidState event reports it", () => {
        const world = new XpbdWorld();
        const { body } = clothBody(6, { allowSleep: false });
        world.addBody(body);
        for (let s = 0; s < 10; s++) {
            world.step(1 / 60);
        }
        const valid = new Float64Array(body.positions);
        body.velocities[7] = NaN;
        world.step(1 / 60);
        expect(body.positions.every(Number.isFinite)).toBe(true);
        expect(body.velocities.every(Number.isFinite)).toBe(true);
        // Restored at rest to where it was, then one step of falling from rest: ½ g dt² = 1.4 mm (a little more
        // with substeps: ½ g dt² (1 + 1/n)).
        const drop = 0.5 * 9.81 * (1 / 60) ** 2 * (1 + 1 / world.substeps);
        for (let k = 0; k < valid.length; k++) {
            expect(Math.abs(body.positions[k] - valid[k] + (k % 3 === 1 ? drop : 0))).toBeLessThan(1e-9);
        }
        expect(world.events.count).toBe(1);
        expect(world.events.types[0]).toBe(SoftBodyEventType.InvalidState);
        expect(world.events.bodies[0]).toBe(body.id);
        // And it goes on simulating.
        world.step(1 / 60);
        expect(body.positions.every(Number.isFinite)).toBe(true);
        expect(body.positions[1]).toBeLessThan(valid[1]);
    });

    test("a NaN external force does not spread into the solver either", () => {
        const world = new XpbdWorld();
        const { body } = clothBody(4, { allowSleep: false });
        world.addBody(body);
        body.externalForces[3] = NaN;
        world.step(1 / 60);
        expect(body.positions.every(Number.isFinite)).toBe(true);
        expect(world.events.types[0]).toBe(SoftBodyEventType.InvalidState);
    });

    test("a runaway position, finite but beyond MAX_COORDINATE, is contained before it can overflow a render buffer", () => {
        const world = new XpbdWorld();
        const { body } = clothBody(4, { allowSleep: false });
        world.addBody(body);
        world.step(1 / 60);
        const valid = new Float64Array(body.positions);
        // Just past the bound, and a speed that gets far past it within a step.
        body.positions[4] = -1.0001 * MAX_COORDINATE;
        world.step(1 / 60);
        expect(Array.from(world.events.types.subarray(0, world.events.count))).toContain(SoftBodyEventType.InvalidState);
        // Back where it was, then one step of falling from rest (under 2 mm).
        expect(Math.max(...body.positions.map((p, k) => Math.abs(p - valid[k])))).toBeLessThan(2e-3);
        body.velocities[5] = 1e4 * MAX_COORDINATE;
        world.step(1 / 60);
        expect(Array.from(world.events.types.subarray(0, world.events.count))).toContain(SoftBodyEventType.InvalidState);
        expect(Math.max(...body.positions.map(Math.abs))).toBeLessThan(2);
        // A cloth far away, but within the bound, is valid.
        for (let k = 0; k < body.positions.length; k += 3) {
            body.positions[k] += 0.9 * MAX_COORDINATE;
        }
        world.step(1 / 60);
        expect(Array.from(world.events.types.subarray(0, world.events.count))).not.toContain(SoftBodyEventType.InvalidState);
    });
});

describe("extreme but valid pin weights", () => {
    test("the smallest positive weight (5e-324) acts as free, and a weight just under 1 as nearly kinematic", () => {
        const world = new XpbdWorld();
        const { body } = clothBody(4, { allowSleep: false });
        world.addBody(body);
        body.setPinWeight(0, Number.MIN_VALUE);
        body.setPinWeight(4, 1 - 1e-16);
        const start = body.positions.slice(12, 15);
        for (let s = 0; s < 30; s++) {
            world.step(1 / 60);
        }
        expect(world.events.count).toBe(0);
        expect(body.positions.every(Number.isFinite)).toBe(true);
        // Weight 1 − 1e-16: compliance 1e-18 m/N, so 10 N of cloth weight moves it by 1e-17 m.
        expect(Math.hypot(...body.positions.slice(12, 15).map((x, k) => x - start[k]))).toBeLessThan(1e-9);
    });
});

describe("determinism and order", () => {
    /** A 10×10 cloth hanging from two corners for `steps` 60 Hz steps; `reverse` reverses every constraint list. */
    function run(reverse: boolean, steps: number): Float64Array {
        const grid = createClothGrid({ width: 1, height: 1, segmentsX: 10, segmentsY: 10, plane: "xz", origin: [0, 1, 0] });
        const t = grid.topology;
        const order = (indices: Int32Array, arity: number): Int32Array => {
            if (!reverse) {
                return indices;
            }
            const out = new Int32Array(indices.length);
            const count = indices.length / arity;
            for (let e = 0; e < count; e++) {
                out.set(indices.subarray(e * arity, e * arity + arity), (count - 1 - e) * arity);
            }
            return out;
        };
        const body = new SoftBody(
            {
                positions: t.positions,
                triangles: t.triangles,
                stretch: order(t.stretch, 2),
                shear: order(t.shear, 2),
                bend: order(t.bend, 4),
            },
            { allowSleep: false },
        );
        const world = new XpbdWorld();
        body.setPinWeight(0, 1);
        body.setPinWeight(grid.columns - 1, 1);
        world.addBody(body);
        for (let s = 0; s < steps; s++) {
            world.step(1 / 60);
        }
        return body.positions;
    }

    test("the same inputs give bit-identical results", () => {
        expect(Array.from(run(false, 120))).toEqual(Array.from(run(false, 120)));
    });

    test("two different constraint orders settle within 5 mm of each other", () => {
        const forward = run(false, 900);
        const backward = run(true, 900);
        let worst = 0;
        for (let i = 0; i < forward.length; i += 3) {
            worst = Math.max(
                worst,
                Math.hypot(forward[i] - backward[i], forward[i + 1] - backward[i + 1], forward[i + 2] - backward[i + 2]),
            );
        }
        console.log(`largest particle distance between the two orders after 15 s: ${(worst * 1000).toFixed(3)} mm`);
        // Gauss–Seidel order only changes how the leftover residual is distributed; after settling that residual is
        // a fraction of a percent of the 0.1 m edge length, so the two equilibria differ by millimetres at most.
        expect(worst).toBeLessThan(0.005);
    });
});

describe("capacity reports", () => {
    test("a contacts report that did not fit in a full event queue is made at the next step", () => {
        // One event per step: the grid's overflow report fills the queue in the first step.
        const world = new XpbdWorld({ eventCapacity: 1, gridCapacity: 1 });
        for (let k = 0; k < 3; k++) {
            world.addCollider(new Collider([{ kind: "sphere", center: [0.01 * k, -0.5, 0], radius: 0.5 }]));
        }
        const { body } = clothBody(4, { size: 0.5, plane: "xz", maxContactsPerParticle: 1 });
        world.addBody(body);
        const reports = (): number[][] => {
            const out: number[][] = [];
            for (let e = 0; e < world.events.count; e++) {
                if (world.events.types[e] === SoftBodyEventType.CapacityExceeded) {
                    out.push([world.events.bodies[e], world.events.elements[e]]);
                }
            }
            return out;
        };
        world.step(1 / 60);
        expect(reports()).toEqual([[-1, 1]]);
        expect(world.events.dropped).toBe(1);
        world.step(1 / 60);
        expect(reports()).toEqual([[body.id, 0]]);
        world.step(1 / 60);
        expect(reports()).toEqual([]);
    });
});
