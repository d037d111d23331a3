import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

describe("the step timer behind stats.stepMs", () => {
    test("by default each step times itself", () => {
        const world = new XpbdWorld({ substeps: 5 });
        world.addBody(clothBody(12).body);
        const start = performance.now();
        world.step(1 / 60);
        const elapsed = performance.now() - start;
        expect(world.timing).toBe(true);
        // A real duration, inside the wall time around the call; the substep figure is its fifth.
        expect(world.stats.stepMs).toBeGreaterThan(0);
        expect(world.stats.stepMs).toBeLessThanOrEqual(elapsed);
        expect(world.stats.substepMs).toBeCloseTo(world.stats.stepMs / 5, 12);
    });

    test("with timing off the step reads no clock and reports 0", () => {
        const world = new XpbdWorld({ timing: false });
        world.addBody(clothBody(12).body);
        world.step(1 / 60);
        expect(world.stats.stepMs).toBe(0);
        expect(world.stats.substepMs).toBe(0);
        world.timing = true;
        world.step(1 / 60);
        expect(world.stats.stepMs).toBeGreaterThan(0);
    });
});
