/**
 * Held contacts: a light cloth whose taut tethers hold a particle carries a heavy dynamic collider on it through the
 * pins (see `ParticleContacts.solveHeld`), the pins' force is measured by momentum balance, and the anchors that
 * make a particle "held" surround it.
 */
import { Collider, ColliderMotion } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { TETHER_ANCHORS } from "../../src/core/tetherConstraints";
import type { SoftBody } from "../../src/core/softBody";
import { HAMMOCK_MASS, boxOnHammock, clearanceUnder, clothBody } from "../support/coreScenes";

const G = 9.81;

/** {@link boxOnHammock}'s scene with the cloth in the world. */
function hammock(mass: number, tethers = true): { world: XpbdWorld; body: SoftBody; box: Collider } {
    const scene = boxOnHammock(mass, { tethers });
    scene.world.addBody(scene.body);
    return scene;
}

/** {@link clearanceUnder} of the cloth under the box. */
function lowestUnder(body: SoftBody, box: Collider): number {
    return clearanceUnder(body.positions, 3, body.particleCount, box);
}

describe("held contacts", () => {
    test.each([1, 500])("a %p kg box rests on a 0.5 kg hammock, and its pins carry both weights (± 1%)", (mass) => {
        const { world, body, box } = hammock(mass);
        let pinForce = 0;
        let maxRatio = 0;
        for (let s = 0; s < 240; s++) {
            world.step(1 / 60);
            maxRatio = Math.max(maxRatio, world.stats.maxEdgeRatio);
            if (s >= 180) {
                pinForce += body.pinForce[1] / 60;
            }
        }
        const speed = Math.hypot(box.linearVelocity[0], box.linearVelocity[1], box.linearVelocity[2]);
        const spin = Math.hypot(box.angularVelocity[0], box.angularVelocity[1], box.angularVelocity[2]);
        const weight = (mass + HAMMOCK_MASS) * G;
        console.log(
            `${mass} kg: speed ${speed.toExponential(2)} m/s, spin ${spin.toExponential(2)} rad/s, pins ${pinForce.toFixed(2)} N ` +
                `for ${weight.toFixed(2)} N, clearance ${(1000 * lowestUnder(body, box)).toFixed(2)} mm, max edge ratio ×${maxRatio.toFixed(4)}`,
        );
        expect(speed).toBeLessThan(1e-3);
        expect(spin).toBeLessThan(1e-3);
        expect(Math.abs(pinForce / weight - 1)).toBeLessThan(0.01);
        // It rests on the particles' thickness shell (1 cm), above the cloth.
        expect(lowestUnder(body, box)).toBeGreaterThan(0.005);
        expect(lowestUnder(body, box)).toBeLessThan(0.0105);
        expect(maxRatio).toBeLessThan(1.05);
    });

    test("a box dropped onto the hammock gives bit-identical results run after run", () => {
        const run = (): Float64Array => {
            const { world, body, box } = hammock(50);
            box.setVelocity(0.3, -2, 0.1, 0.5, 0, -0.2);
            for (let s = 0; s < 90; s++) {
                world.step(1 / 60);
            }
            return Float64Array.from([...body.positions, ...box.position, ...box.rotation, ...box.impulse, ...body.pinForce]);
        };
        const first = run();
        const second = run();
        expect(first.every(Number.isFinite)).toBe(true);
        expect(Array.from(second)).toEqual(Array.from(first));
    });

    test("without tethers nothing holds the particles, and a 500 kg box falls through", () => {
        const { world, box } = hammock(500, false);
        for (let s = 0; s < 120; s++) {
            world.step(1 / 60);
        }
        expect(box.position[1]).toBeLessThan(0.5);
    });

    test("a hanging cloth's pins carry its weight, a falling cloth's pins carry nothing", () => {
        const hanging = clothBody(16, { mass: 0.4, allowSleep: false });
        hanging.body.setPinWeight(16 * 17, 1);
        hanging.body.setPinWeight(16 * 17 + 16, 1);
        const world = new XpbdWorld({ airDensity: 0 });
        world.addBody(hanging.body);
        const falling = clothBody(4, { mass: 0.2, origin: [5, 0, 0] });
        world.addBody(falling.body);
        let average = 0;
        for (let s = 0; s < 600; s++) {
            world.step(1 / 60);
            if (s >= 540) {
                average += hanging.body.pinForce[1] / 60;
            }
        }
        // The pinned particles' own mass is the pins' business too; the force counts the free particles.
        const free = hanging.body.masses.reduce((sum, m, p) => sum + (hanging.body.inverseMasses[p] > 0 ? m : 0), 0);
        expect(Math.abs(average / (free * G) - 1)).toBeLessThan(0.005);
        expect(Math.hypot(...falling.body.pinForce)).toBeLessThan(1e-9);
    });

    test("a particle whose taut tethers surround it is held against a push away from them, and free towards them", () => {
        const { body } = hammock(1);
        const centre = 12 * 25 + 12;
        const tethers = body.tethers;
        const anchors = new Set<number>();
        for (let rank = 0; rank < TETHER_ANCHORS; rank++) {
            const slot = tethers.slotOf[centre * TETHER_ANCHORS + rank];
            if (slot >= 0) {
                anchors.add(tethers.anchors[slot]);
            }
        }
        // The centre of a cloth pinned by four corners is tethered to all four.
        expect([...anchors].sort((a, b) => a - b)).toEqual([0, 24, 600, 624]);
        const x = body.positions;
        const scratch = new Float64Array(13);
        const held = (direction: Float64Array): number => {
            scratch[12] = 1e-4;
            tethers.heldFraction(x, centre, direction, scratch);
            return scratch[12];
        };
        const down = new Float64Array([0, -1, 0]);
        const up = new Float64Array([0, 1, 0]);
        // Flat: every tether is horizontal, so nothing holds the particle up or down.
        expect(held(down)).toBeCloseTo(0, 6);
        // Sagged 5 cm, beyond its tethers' limit: held against going further down, free to go back up.
        x[3 * centre + 1] -= 0.05;
        expect(held(down)).toBeCloseTo(1, 6);
        expect(held(up)).toBe(0);
        // With 1% slack the same sag leaves every tether short of its limit: free.
        tethers.slack = 1.01;
        expect(held(down)).toBe(0);
    });

    test("a cloth hung by two corners gets no spread anchors", () => {
        const { body } = clothBody(16, { mass: 0.4 });
        body.setPinWeight(16 * 17, 1);
        body.setPinWeight(16 * 17 + 16, 1);
        const world = new XpbdWorld();
        world.addBody(body);
        expect(body.tethers.count).toBe(2 * (body.particleCount - 2));
    });

    test("a collider's load moves with it along the load axis only", () => {
        const box = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.1 }], {
            motion: ColliderMotion.Dynamic,
            mass: 2,
            inertia: [1, 1, 1],
        });
        box.loadMass = 6;
        box._applyImpulse(new Float64Array([1, 4, 0]), new Float64Array(box._com), null);
        // Across the axis the bare 2 kg; along it 2 + 6 kg.
        expect(box.linearVelocity[0]).toBeCloseTo(0.5, 12);
        expect(box.linearVelocity[1]).toBeCloseTo(0.5, 12);
        const w = new Float64Array(1);
        box._inverseMassAt(new Float64Array(box._com), new Float64Array([0, 1, 0]), w);
        expect(w[0]).toBeCloseTo(1 / 8, 12);
    });
});
