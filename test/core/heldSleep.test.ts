import { SoftBodyEventType } from "../../src/core/eventQueue";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

/** Events of `type` in the world's last step. */
function count(world: XpbdWorld, type: SoftBodyEventType): number {
    let n = 0;
    for (let i = 0; i < world.events.count; i++) {
        n += world.events.types[i] === type ? 1 : 0;
    }
    return n;
}

describe("held sleep (SoftBody.holdAsleep, a level of detail)", () => {
    test("holds a swinging cloth asleep in place whatever would wake it; released, its pin catches up over one step", () => {
        const world = new XpbdWorld({ substeps: 4 });
        const { body, columns } = clothBody(6, { allowSleep: false });
        body.setPinWeight(0, 1);
        body.setPinWeight(columns - 1, 1);
        world.addBody(body);
        for (let s = 0; s < 20; s++) {
            world.step(1 / 60);
        }
        body.holdAsleep = true;
        world.step(1 / 60);
        expect(body.sleeping).toBe(true);
        expect(count(world, SoftBodyEventType.Sleep)).toBe(1);
        expect(body.velocities.every((v) => v === 0)).toBe(true);
        const held = new Float64Array(body.positions);
        // A wake request and a pin target moving 0.2 m away wake an ordinary sleeper; not this one.
        const pinned = [body.positions[0], body.positions[1], body.positions[2]];
        for (let s = 1; s <= 10; s++) {
            body.wake();
            body.setPinTarget(0, pinned[0] + 0.02 * s, pinned[1], pinned[2]);
            world.step(1 / 60);
            expect(body.sleeping).toBe(true);
            expect(body.stats.solvedSubsteps).toBe(0);
        }
        expect(body.positions).toEqual(held);
        body.holdAsleep = false;
        body.pins.startAt(body.positions);
        body.wake();
        world.step(1 / 60);
        expect(count(world, SoftBodyEventType.Wake)).toBe(1);
        expect(body.stats.solvedSubsteps).toBe(4);
        // The pinned particle went the 0.2 m to its target over the step, at 0.2 m / (1/60 s), not all at once at the
        // first substep (which would leave it at rest there).
        expect(body.positions[0]).toBeCloseTo(pinned[0] + 0.2, 12);
        expect(body.velocities[0]).toBeCloseTo(0.2 * 60, 6);
    });
});
