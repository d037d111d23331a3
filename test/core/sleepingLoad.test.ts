/**
 * A sleeping body's pins go on carrying what rests on it: no contacts run while it sleeps, so its pin force (the
 * momentum balance of `pinForce.ts`) would otherwise drop to its own weight the moment it falls asleep.
 */
import { Collider } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { parseSnapshot, serializeSnapshot } from "../../src/core/snapshotFormat";
import { captureWorldState, restoreWorldState } from "../../src/core/worldSnapshot";
import { tetBlock } from "../support/coreScenes";

const DT = 1 / 60;

/** A 2 kg, 0.3 m jelly dropped 5 cm onto the ground, stepped until it has slept for a second. */
function jellyAsleepOnGround(): { world: XpbdWorld; jelly: ReturnType<typeof tetBlock>; awakeLift: number } {
    const world = new XpbdWorld({ timing: false });
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    const jelly = tetBlock([0.3, 0.3, 0.3], [0, 0.2, 0], { mass: 2, resolution: 4 });
    world.addBody(jelly);
    let awakeLift = NaN;
    let asleepFor = 0;
    for (let s = 0; s < 1200 && asleepFor < 60; s++) {
        world.step(DT);
        if (!jelly.sleeping) {
            awakeLift = jelly.pinForce[1];
        }
        asleepFor = jelly.sleeping ? asleepFor + 1 : 0;
    }
    expect(asleepFor).toBe(60);
    return { world, jelly, awakeLift };
}

describe("the load on a sleeping body", () => {
    test("a jelly asleep on the ground has no pins to carry anything: its pin force stays near 0, not its weight", () => {
        const { jelly, awakeLift } = jellyAsleepOnGround();
        const weight = jelly.totalMass * 9.81;
        // Awake at rest, the ground's contacts balance gravity to the step's momentum change (a few % at most).
        expect(Math.abs(awakeLift)).toBeLessThan(0.05 * weight);
        // Asleep: the mean of the contacts over the time it came to rest in, so within the same few %.
        expect(Math.abs(jelly.pinForce[1])).toBeLessThan(0.05 * weight);
        expect(Math.hypot(jelly.pinForce[0], jelly.pinForce[2])).toBeLessThan(0.01 * weight);
    });

    test("the load survives a snapshot's bytes: a fresh world reports the same pin force, bit for bit", () => {
        const { world, jelly } = jellyAsleepOnGround();
        const bytes = serializeSnapshot(captureWorldState(world));
        world.step(DT);
        const expected = Array.from(jelly.pinForce);
        const fresh = jellyAsleepOnGround();
        fresh.world.step(DT);
        restoreWorldState(fresh.world, parseSnapshot(bytes));
        fresh.world.step(DT);
        expect(fresh.jelly.sleeping).toBe(true);
        expect(Array.from(fresh.jelly.pinForce)).toEqual(expected);
    });

    test("woken where it lies, it falls asleep again carrying the same load, not the last sleep's on top of it", () => {
        const { world, jelly } = jellyAsleepOnGround();
        const weight = jelly.totalMass * 9.81;
        jelly.wake();
        let slept = 0;
        for (let s = 0; s < 600 && slept < 10; s++) {
            world.step(DT);
            slept = jelly.sleeping ? slept + 1 : 0;
        }
        expect(slept).toBe(10);
        expect(Math.abs(jelly.pinForce[1])).toBeLessThan(0.05 * weight);
    });
});
