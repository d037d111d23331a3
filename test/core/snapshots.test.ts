/**
 * World snapshots: a restored world steps on bit-identically, in the same world or a fresh one built the same way,
 * through the binary form too: every Float64 the world carries, and the same events at the same steps.
 */
import { parseSnapshot, serializeSnapshot } from "../../src/core/snapshotFormat";
import { captureWorldState, restoreWorldState, type XpbdSnapshot } from "../../src/core/worldSnapshot";
import { fullState, snapshotScene, type SnapshotScene } from "../support/snapshotScene";

/** Steps `scene` from step `from` to `to` (exclusive) with its inputs; returns its events as "step:type@body". */
function run(scene: SnapshotScene, from: number, to: number): string[] {
    const log: string[] = [];
    for (let s = from; s < to; s++) {
        scene.drive(s);
        scene.world.step(1 / 60);
        const events = scene.world.events;
        for (let e = 0; e < events.count; e++) {
            log.push(`${s}:${events.types[e]}@${events.bodies[e]}`);
        }
    }
    return log;
}

function firstDifference(a: BigUint64Array, b: BigUint64Array): number {
    return a.length !== b.length ? -2 : a.findIndex((v, i) => v !== b[i]);
}

// Saved at step 120 the small cloth on the ground sleeps (a gust wakes it at 135); at step 150 it is awake and has
// been slow for 15 steps (it falls asleep at 165). Both continuations see sleep, wake-ups and contacts with a static
// plane and sphere, a dynamic box and a kinematic capsule.
describe.each([120, 150])("a world saved at step %i", (N) => {
    const original = snapshotScene();
    run(original, 0, N);
    const saved = captureWorldState(original.world);
    const bytes = serializeSnapshot(saved);
    const expectedEvents = run(original, N, 2 * N);
    const expected = fullState(original.world);
    const sleepEvents = expectedEvents.filter((e) => e.includes(":0@")).length;
    const wakeEvents = expectedEvents.filter((e) => e.includes(":1@")).length;
    console.log(
        `saved at step ${N}: ${original.world.bodies.length} bodies (${saved.bodies.reduce((n, b) => n + b.particleCount, 0)} particles), ` +
            `${original.world.colliders.length} colliders, ${bytes.byteLength} bytes; asleep at the save: ${saved.bodies.filter((b) => b.sleeping).length}; ` +
            `the next ${N} steps: ${sleepEvents} sleeps, ${wakeEvents} wake-ups, ${expectedEvents.length} events in all`,
    );

    test("the continuation exercises sleep and wake-up", () => {
        expect(sleepEvents).toBeGreaterThan(0);
        expect(wakeEvents).toBeGreaterThan(0);
        expect(saved.bodies.some((b) => b.sleeping || b.slowTime > 0)).toBe(true);
    });

    test("restored into the same world, the next steps are bit-identical (every Float64, every event)", () => {
        restoreWorldState(original.world, saved);
        expect(run(original, N, 2 * N)).toEqual(expectedEvents);
        expect(firstDifference(fullState(original.world), expected)).toBe(-1);
    });

    test("restored from bytes into a fresh world built the same way, the next steps are bit-identical", () => {
        const fresh = snapshotScene();
        restoreWorldState(fresh.world, parseSnapshot(bytes));
        expect(run(fresh, N, 2 * N)).toEqual(expectedEvents);
        expect(firstDifference(fullState(fresh.world), expected)).toBe(-1);
    });

    test("the binary round trip gives back the same snapshot, bit for bit", () => {
        const bits = (s: XpbdSnapshot) => new BigUint64Array(serializeSnapshot(s));
        expect(firstDifference(bits(parseSnapshot(bytes)), bits(saved))).toBe(-1);
    });
});
