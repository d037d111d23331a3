/** Particles attached to points of colliders (`ColliderAttachments`), in the core alone. */
import { Collider } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { chain, cube } from "../support/coreScenes";

const DT = 1 / 60;
const G = 9.81;

describe("ColliderAttachments", () => {
    test("a particle attached to a static collider stays on its anchor, and the collider records the chain's weight", () => {
        const world = new XpbdWorld({ airDensity: 0 });
        const rope = chain(5, [0, 1, 0], [1, 0, 0], 0.1, 0.5);
        world.addBody(rope);
        const post = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.05 }]);
        post.setPose(0, 1, 0, 0, 0, 0, 1);
        world.addCollider(post);
        // The anchor is on the sphere's surface, where the particle would otherwise be pushed out from.
        rope.attachments.attach(0, post, 0, 0.05, 0);
        let impulse = 0;
        for (let s = 0; s < 240; s++) {
            world.step(DT);
            impulse = post.impulse[1];
        }
        const x = rope.positions;
        expect(Math.hypot(x[0], x[1] - 1.05, x[2])).toBeLessThan(1e-9);
        // The rest hangs below it, and the post carries the whole chain: m·g·dt downwards (± 2%).
        expect(x[3 * 4 + 1]).toBeLessThan(1.05 - 0.35);
        expect(impulse / (-0.5 * G * DT)).toBeCloseTo(1, 1);
        expect(Math.abs(impulse / (-0.5 * G * DT) - 1)).toBeLessThan(0.02);
        // The attachment is not a pin: the pin force stays zero.
        expect(Math.abs(rope.pinForce[1])).toBeLessThan(1e-9);
    });

    test("a free chain towing a dynamic body conserves linear momentum (two-way, no gravity)", () => {
        const world = new XpbdWorld({ gravity: [0, 0, 0], airDensity: 0 });
        const ropeMass = 0.3;
        const rope = chain(6, [0, 0, 0], [1, 0, 0], 0.1, ropeMass, { damping: 0 });
        world.addBody(rope);
        const box = cube(1, [-0.05 - 0.02, 0.01, 0]);
        world.addCollider(box);
        // The first particle holds the cube's face; off its centre of mass, so the cube turns as well.
        rope.attachments.attach(0, box, 0.05, -0.01, 0.03);
        rope.setLinearVelocity(2, 0.5, 0);
        const momentum = (): number[] => {
            const v = [0, 0, 0];
            rope.getLinearVelocity(v);
            return [0, 1, 2].map((a) => ropeMass * v[a] + box.mass * box.linearVelocity[a]);
        };
        const before = momentum();
        for (let s = 0; s < 120; s++) {
            world.step(DT);
        }
        const after = momentum();
        // The cube really was towed, and turned, and the total is what it was.
        expect(box.linearVelocity[0]).toBeGreaterThan(0.3);
        expect(Math.hypot(box.angularVelocity[0], box.angularVelocity[1], box.angularVelocity[2])).toBeGreaterThan(0.01);
        for (let a = 0; a < 3; a++) {
            expect(Math.abs(after[a] - before[a])).toBeLessThan(1e-9 * Math.hypot(before[0], before[1]));
        }
        // The particle stayed on the anchor (within 1 mm after a jerk at 0.6 m/s relative speed).
        const anchor = new Float64Array(3);
        rope.attachments.anchorPosition(0, anchor);
        expect(Math.hypot(rope.positions[0] - anchor[0], rope.positions[1] - anchor[1], rope.positions[2] - anchor[2])).toBeLessThan(1e-3);
    });

    test("a light chain pinned at its top holds a 1 kg body that gravity pulls: its pin carries both weights (± 2%)", () => {
        const world = new XpbdWorld({ airDensity: 0, substeps: 10 });
        const ropeMass = 0.05;
        const rope = chain(11, [0, 2, 0], [0, -1, 0], 0.1, ropeMass);
        world.addBody(rope);
        rope.setPinWeight(0, 1);
        const box = cube(1, [0, 1 - 0.05, 0]);
        box.acceleration[1] = -G;
        world.addCollider(box);
        rope.attachments.attach(10, box, 0, 0.05, 0);
        let force = 0;
        let impulse = 0;
        // The core keeps the box where the step left it: it plays the host's part.
        for (let s = 0; s < 180; s++) {
            world.step(DT);
            force = rope.pinForce[1];
            impulse = box.impulse[1];
        }
        // The box hangs where it was tied (the rope stretched less than 1 mm), held by m·g·dt each step.
        expect(Math.abs(box.position[1] - 0.95)).toBeLessThan(1e-3);
        expect(Math.abs(impulse / (G * DT) - 1)).toBeLessThan(0.02);
        expect(Math.abs(force / ((1 + ropeMass) * G) - 1)).toBeLessThan(0.02);
    });

    test("the same inputs give bit-identical ropes and bodies", () => {
        const run = (): number[] => {
            const world = new XpbdWorld({ airDensity: 0 });
            const rope = chain(11, [0, 2, 0], [0, -1, 0], 0.1, 0.05);
            world.addBody(rope);
            rope.setPinWeight(0, 1);
            const box = cube(1, [0, 0.95, 0]);
            box.acceleration[1] = -G;
            box.setVelocity(0.8, 0, 0.2, 0, 1, 0);
            world.addCollider(box);
            rope.attachments.attach(10, box, 0.02, 0.05, 0);
            for (let s = 0; s < 120; s++) {
                world.step(DT);
            }
            return [...rope.positions, ...box.position, ...box.rotation, ...box.linearVelocity, ...box.angularVelocity];
        };
        const first = run();
        expect(first.every(Number.isFinite)).toBe(true);
        expect(run()).toEqual(first);
    });

    test("an attached particle does not collide with its collider, and other particles still do", () => {
        const world = new XpbdWorld({ gravity: [0, 0, 0], airDensity: 0 });
        const rope = chain(3, [0, 0, 0], [1, 0, 0], 0.04, 0.1, { thickness: 0.02 });
        world.addBody(rope);
        const post = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.05, 0.05, 0.05] }]);
        world.addCollider(post);
        // Particle 0 sits in the box's centre; particle 1 inside it too, free: it is pushed out.
        rope.attachments.attach(0, post, 0, 0, 0);
        world.step(DT);
        expect(Math.hypot(rope.positions[0], rope.positions[1], rope.positions[2])).toBeLessThan(1e-12);
        expect(rope.positions[3]).toBeGreaterThan(0.05);
        // Particle 1 is the only contact: the attachment is not fought by a contact pushing particle 0 out.
        expect(world.contactCount(rope)).toBe(1);
        expect(rope.contactResidual[0]).toBe(0);
    });

    test("detach, detachCollider and removing the collider from the world free the particles; bad input throws", () => {
        const world = new XpbdWorld({ gravity: [0, 0, 0] });
        const rope = chain(4, [0, 0, 0], [1, 0, 0], 0.1, 0.1);
        world.addBody(rope);
        const a = cube(1, [0, 0, 0]);
        const b = cube(1, [0.3, 0, 0]);
        world.addCollider(a);
        world.addCollider(b);
        const attachments = rope.attachments;
        attachments.attach(3, b, 0, 0, 0);
        attachments.attach(0, a, 0, 0, 0);
        attachments.attach(1, a, 0.1, 0, 0);
        expect(Array.from(attachments.particles.subarray(0, attachments.count))).toEqual([0, 1, 3]);
        // The colliders count their particles (a host learning loads leaves tied colliders alone).
        expect([a.attachedParticles, b.attachedParticles]).toEqual([2, 1]);
        attachments.attach(1, b, 0, 0, 0);
        expect([a.attachedParticles, b.attachedParticles]).toEqual([1, 2]);
        attachments.attach(1, a, 0.1, 0, 0);
        attachments.detach(1);
        attachments.detach(2);
        expect(Array.from(attachments.particles.subarray(0, attachments.count))).toEqual([0, 3]);
        expect(attachments.detachCollider(a)).toBe(1);
        world.removeCollider(b);
        expect(attachments.count).toBe(0);
        expect(attachments.colliders.every((c) => c === null)).toBe(true);
        expect([a.attachedParticles, b.attachedParticles]).toEqual([0, 0]);
        expect(() => attachments.attach(4, a, 0, 0, 0)).toThrow(RangeError);
        expect(() => attachments.attach(-1, a, 0, 0, 0)).toThrow(/out of range/);
        expect(() => attachments.attach(0, a, NaN, 0, 0)).toThrow(/must be finite/);
        expect(() => attachments.detach(1.5)).toThrow(RangeError);
        expect(() => attachments.anchorPosition(0, new Float64Array(3))).toThrow(/not attached/);
    });
});
