import { complianceFromStiffness } from "../../src/core/stiffness";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { tetBlock } from "../support/coreScenes";

describe("damping acts on deformation only", () => {
    test("a thrown, spinning jelly's centre-of-mass velocity changes only by gravity (± 0.5% over 1 s)", () => {
        // In vacuum: air drag is a real external force (aerodynamics.ts) and would rightly slow it down.
        const world = new XpbdWorld({ airDensity: 0 });
        const body = tetBlock([0.4, 0.4, 0.4], [0, 2, 0], { mass: 2, damping: 5, allowSleep: false });
        world.addBody(body);
        // Throw it (5 m/s along x, 3 m/s up) and make it wobble with a poke off-centre.
        body.setLinearVelocity(5, 3, 0);
        body.applyImpulse(0, 0, 1.5, 0.2, 2.2, 0, 0.2);
        const v0 = [0, 0, 0];
        body.getLinearVelocity(v0);
        for (let s = 0; s < 60; s++) {
            world.step(1 / 60);
        }
        const v1 = [0, 0, 0];
        body.getLinearVelocity(v1);
        const expected = [v0[0], v0[1] - 9.81, v0[2]];
        const speed = Math.hypot(...expected);
        for (let axis = 0; axis < 3; axis++) {
            expect(Math.abs(v1[axis] - expected[axis])).toBeLessThan(0.005 * speed);
        }
    });

    test("a poked jelly oscillates and the oscillation decays", () => {
        const world = new XpbdWorld({ gravity: [0, 0, 0], airDensity: 0 });
        const body = tetBlock([0.4, 0.4, 0.4], [0, 0, 0], {
            mass: 2,
            damping: 1,
            allowSleep: false,
            stretchCompliance: complianceFromStiffness(0.2, "distance"),
            volumeCompliance: complianceFromStiffness(0.2, "volume"),
        });
        world.addBody(body);
        // A poke that only deforms: equal and opposite impulses pulling two faces apart.
        body.applyImpulse(1, 0, 0, 0.2, 0, 0, 0.15);
        body.applyImpulse(-1, 0, 0, -0.2, 0, 0, 0.15);
        const width = (): number => {
            let low = Infinity;
            let high = -Infinity;
            for (let i = 0; i < body.positions.length; i += 3) {
                low = Math.min(low, body.positions[i]);
                high = Math.max(high, body.positions[i]);
            }
            return high - low;
        };
        const rest = width();
        const deviation: number[] = [];
        for (let s = 0; s < 180; s++) {
            world.step(1 / 60);
            deviation.push(width() - rest);
        }
        // It oscillates: the width swings through its rest value several times ...
        let crossings = 0;
        for (let s = 1; s < deviation.length; s++) {
            crossings += Math.sign(deviation[s]) !== Math.sign(deviation[s - 1]) ? 1 : 0;
        }
        expect(crossings).toBeGreaterThanOrEqual(4);
        // ... and the swing decays: in the last half second it is under a quarter of the first swing.
        const first = Math.max(...deviation.slice(0, 30).map(Math.abs));
        const last = Math.max(...deviation.slice(150).map(Math.abs));
        expect(last).toBeLessThan(0.25 * first);
        // Equal and opposite pokes: the body as a whole does not drift.
        const v = [0, 0, 0];
        body.getLinearVelocity(v);
        expect(Math.hypot(...v)).toBeLessThan(1e-9);
    });
});
