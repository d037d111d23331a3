/**
 * Replays of a core world: recorded with every kind of input the host gives (moving pins, gusts, an impulse, external
 * forces, a kinematic and a dynamic collider, sleep), played back from bytes to bit-identical states; a changed
 * default is caught at the step it first matters; a replay of another defaults version is refused.
 */
import * as core from "../../src/core/index";
import { futureRelease } from "../support/futureDefaults";
import { snapshotScene, type SnapshotScene } from "../support/snapshotScene";

const { XpbdReplayer, parseReplay, serializeReplay, XpbdDataError } = core;
const STEPS = 240;

/** Records `steps` steps of the snapshot scene (after 20 unrecorded ones), with an option changed halfway. */
function record(scene: SnapshotScene, steps = STEPS, c: typeof core = core): core.XpbdReplay {
    for (let s = 0; s < 20; s++) {
        scene.drive(s);
        scene.world.step(1 / 60);
    }
    const recorder = new c.XpbdWorldRecorder(scene.world);
    recorder.start();
    for (let s = 20; s < 20 + steps; s++) {
        scene.drive(s);
        if (s === 100) {
            scene.cloth.damping = 3;
            scene.cloth.strainLimit = 1.001;
            scene.napkin.setPinWeight(0, 1);
        }
        recorder.beforeStep(1 / 60);
        scene.world.step(1 / 60);
        recorder.afterStep();
    }
    return recorder.stop();
}

describe("replays of a core world", () => {
    const scene = snapshotScene();
    const replay = record(scene);
    const bytes = serializeReplay(replay);
    const patches = replay.steps.reduce((n, s) => n + s.patches.length, 0);
    console.log(`replay of ${STEPS} steps: ${bytes.byteLength} bytes, ${patches} changes recorded`);

    test("played back from bytes, every step's state and the final positions are bit-identical", () => {
        const report = new XpbdReplayer(parseReplay(bytes)).run();
        expect(report).toMatchObject({ steps: STEPS, divergedAtStep: null, finalPositionsMatch: true, maxFinalDifference: 0 });
        expect(report.summary).toBe(`replayed ${STEPS} steps: identical to the recording, bit for bit`);
    });

    test("a host change that the recording leaves out makes the replay diverge at that step", () => {
        // Drop the impulse's velocity change at step 37 (the 18th recorded step): the replayer reports step 18.
        const edited: core.XpbdReplay = { ...replay, steps: replay.steps.map((s) => ({ ...s })) };
        const step = edited.steps[17];
        step.patches = step.patches.filter((p) => !(p.target === core.ReplayTarget.Velocities && p.index === 1));
        expect(step.patches.length).toBeLessThan(replay.steps[17].patches.length);
        const report = new XpbdReplayer(edited).run();
        expect(report.divergedAtStep).toBe(18);
        expect(report.finalPositionsMatch).toBe(false);
        console.log(report.summary);
    });

    test("a default changed in place (a release breaking the protocol) is caught at the first step it matters", () => {
        // The newest version's restitution silently becomes 0.5. The recorded cloth and napkin never set theirs (the jelly set its
        // own), so they bounce from their first fast contact on; the replayer reports that step.
        const broken = futureRelease((v1) => (v1.body.restitution = 0.5), ["../../src/core/index"], true);
        const brokenCore = broken.load<typeof core>("../../src/core/index");
        expect(broken.version).toBe(core.LATEST_DEFAULTS_VERSION);
        const report = new brokenCore.XpbdReplayer(replay).run();
        // Found independently: play both, compare the positions after every step.
        const check = new brokenCore.XpbdReplayer(replay);
        const reference = new XpbdReplayer(replay);
        let first: number | null = null;
        while (!check.done) {
            check.step();
            reference.step();
            const same = check.world.bodies.every((b, i) =>
                b.positions.every((x, k) => Object.is(x, reference.world.bodies[i].positions[k])),
            );
            if (first === null && !same) {
                first = check.stepIndex;
            }
        }
        expect(first).not.toBeNull();
        expect(first).toBeGreaterThan(1);
        expect(report.divergedAtStep).toBe(first);
        console.log(`restitution 0 → 0.5 in the newest version's defaults: ${report.summary}`);
    });

    test("a replay recorded under one defaults version is refused under another", () => {
        // Recorded under the newest version, replayed under version 1.
        const latest = core.LATEST_DEFAULTS_VERSION;
        expect(latest).toBeGreaterThan(1);
        expect(() => new XpbdReplayer(replay, { defaultsVersion: 1 })).toThrow(
            `the replay was recorded with defaults version ${latest} and cannot be replayed under version 1: its scene would get other defaults and diverge`,
        );
        // Recorded by a newer build (one more defaults version): this build does not know the version and says so.
        const future = futureRelease((next) => (next.world.substeps = 8), ["../../src/core/index", "./snapshotScene"]);
        const futureCore = future.load<typeof core>("../../src/core/index");
        const newer = record(future.load<{ snapshotScene: typeof snapshotScene }>("./snapshotScene").snapshotScene(), 10, futureCore);
        const futureBytes = futureCore.serializeReplay(newer);
        expect(newer.defaultsVersion).toBe(latest + 1);
        let error: unknown;
        try {
            parseReplay(futureBytes);
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(XpbdDataError);
        expect((error as core.XpbdDataError).message).toBe(
            `replay was recorded with defaults version ${latest + 1}, which this build of babylon-xpbd does not know (1 to ${latest}): play it with the release that recorded it, or a newer one`,
        );
    });
});
