import { Collider, ColliderMotion } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody, tetBlock } from "../support/coreScenes";

describe("two-way coupling with a dynamic collider", () => {
    test("a 2 kg soft body hitting a 2 kg dynamic sphere conserves total momentum (± 1%)", () => {
        const world = new XpbdWorld({ gravity: [0, 0, 0], airDensity: 0 });
        const jelly = tetBlock([0.4, 0.4, 0.4], [-1, 0, 0], { mass: 2, allowSleep: false });
        world.addBody(jelly);
        const ball = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.25 }], {
            motion: ColliderMotion.Dynamic,
            mass: 2,
            inertia: [0.05, 0.05, 0.05],
        });
        world.addCollider(ball);
        jelly.setLinearVelocity(3, 0, 0);
        const momentum = (): number[] => {
            const v = [0, 0, 0];
            jelly.getLinearVelocity(v);
            return [0, 1, 2].map((a) => 2 * v[a] + 2 * ball.linearVelocity[a]);
        };
        const before = momentum();
        let touched = false;
        for (let s = 0; s < 60; s++) {
            world.step(1 / 60);
            touched ||= world.stats.contacts > 0;
        }
        const after = momentum();
        expect(touched).toBe(true);
        // The ball really took momentum, and the total is what it was.
        expect(ball.linearVelocity[0]).toBeGreaterThan(1);
        for (let a = 0; a < 3; a++) {
            expect(Math.abs(after[a] - before[a])).toBeLessThan(0.01 * Math.abs(before[0]));
        }
    });

    test("a 0.1 kg cloth dropped on a 1000 kg dynamic box changes the box's velocity by < 1e-3 m/s", () => {
        const world = new XpbdWorld();
        const { body } = clothBody(8, { plane: "xz", origin: [0, 0.6, 0], mass: 0.1, allowSleep: false });
        world.addBody(body);
        // The box has no acceleration of its own (the host sets one when it wants gravity), so all it gains is the cloth's.
        const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [1, 0.5, 1] }], {
            motion: ColliderMotion.Dynamic,
            mass: 1000,
            inertia: [(1000 / 12) * 1.25 * 4, (1000 / 12) * 8, (1000 / 12) * 1.25 * 4],
        });
        world.addCollider(box);
        let total = 0;
        for (let s = 0; s < 30; s++) {
            world.step(1 / 60);
            total += box.impulse[1];
        }
        expect(world.stats.contacts).toBeGreaterThan(0);
        const dv = Math.hypot(box.linearVelocity[0], box.linearVelocity[1], box.linearVelocity[2]);
        expect(dv).toBeLessThan(1e-3);
        // And what it did gain is exactly the impulse the cloth put on it.
        expect(Math.abs(box.linearVelocity[1] * 1000 - total)).toBeLessThan(1e-9);
    });

    test("a resting cloth puts m·g·dt (± 2%) on its static support every step", () => {
        const world = new XpbdWorld();
        const mass = 0.5;
        const { body } = clothBody(8, { plane: "xz", origin: [0, 0.011, 0], mass, allowSleep: false });
        world.addBody(body);
        const ground = new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]);
        world.addCollider(ground);
        for (let s = 0; s < 120; s++) {
            world.step(1 / 60);
        }
        const expected = (mass * 9.81) / 60;
        for (let s = 0; s < 10; s++) {
            world.step(1 / 60);
            expect(Math.abs(-ground.impulse[1] - expected) / expected).toBeLessThan(0.02);
        }
    });
});
