import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

describe("the step clock behind stats.stepMs", () => {
    test("the step reads the given clock at its start and end", () => {
        const readings = [100, 102.5, 200, 201];
        let reads = 0;
        const world = new XpbdWorld({ substeps: 5, clock: () => readings[reads++] });
        world.addBody(clothBody(4).body);
        world.step(1 / 60);
        expect(reads).toBe(2);
        expect(world.stats.stepMs).toBe(2.5);
        expect(world.stats.substepMs).toBe(0.5);
        world.step(1 / 60);
        expect(world.stats.stepMs).toBe(1);
    });

    test("without a clock the step measures nothing and reports 0", () => {
        let reads = 0;
        const world = new XpbdWorld({ clock: () => ++reads });
        world.addBody(clothBody(4).body);
        world.clock = null;
        world.step(1 / 60);
        expect(reads).toBe(0);
        expect(world.stats.stepMs).toBe(0);
        expect(world.stats.substepMs).toBe(0);
    });

    test("the default clock gives a real, non-negative duration", () => {
        const world = new XpbdWorld();
        world.addBody(clothBody(8).body);
        world.step(1 / 60);
        expect(world.stats.stepMs).toBeGreaterThan(0);
        expect(world.stats.stepMs).toBeLessThan(10_000);
    });

    test("a clock that is not a function is rejected", () => {
        expect(() => new XpbdWorld({ clock: 5 as unknown as () => number })).toThrow(/clock must be a function or null, got number/);
    });
});
