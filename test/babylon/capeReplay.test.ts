/**
 * The playground's cape scene (`playground/demos/capeScene.ts`: a walking character whose animated Havok capsules the
 * cape collides with, the cape pinned to two bones) recorded for 300 steps with `XpbdRecorder`, then replayed in a
 * plain Node process that loads only the core (no Babylon, no Havok): every step's state and the final positions are
 * bit-identical. With a default changed behind the recording's back, the replayer names the step it first matters.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { createHavokScene } from "../support/havokScene";
import { compileSources } from "../support/compileSources";
import { futureRelease } from "../support/futureDefaults";
import { createCapeScene } from "../../playground/demos/capeScene";
import { loadCharacter } from "../../playground/demos/character";
import { XpbdRecorder } from "../../src/babylon/xpbdRecorder";
import { parseReplay, serializeReplay, XpbdReplayer, type XpbdReplay } from "../../src/core/index";
import type * as core from "../../src/core/index";

const STEPS = 300;

/** The cape demo's scene as the playground builds it (stage: ground box, constant animation steps), recorded for `STEPS` steps. */
async function recordCape(): Promise<{ replay: XpbdReplay; positions: Float64Array; particles: number }> {
    const h = await createHavokScene();
    try {
        h.scene.useConstantAnimationDeltaTime = true;
        const ground = CreateGround("ground", { width: 20, height: 20 }, h.scene);
        new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.8 }, h.scene);
        const file = path.join(__dirname, "../../playground/demos/character.glb");
        const cape = createCapeScene(h.scene, await loadCharacter(h.scene, new Uint8Array(readFileSync(file))));
        const recorder = new XpbdRecorder(cape.xpbd);
        recorder.start();
        for (let s = 0; s < STEPS; s++) {
            // Inputs of every kind besides the animation: a gust, a user's push, an option changed from a slider.
            if (s === 60) cape.xpbd.wind = new Vector3(3, 0, 2);
            if (s === 150) cape.cloth.applyImpulse(new Vector3(0, 0.05, 0.2), cape.cloth.getCenterOfMass());
            if (s === 200) cape.cloth.bendStiffness = 0.4;
            h.step();
        }
        const replay = recorder.stop();
        cape.dispose();
        return { replay, positions: cape.cloth.body.positions.slice(), particles: cape.cloth.body.particleCount };
    } finally {
        h.dispose();
    }
}

/** Runs scripts/replay.mjs on `bytes` in a child Node process with the core compiled afresh (no Babylon in reach). */
function replayInNode(bytes: ArrayBuffer): {
    divergedAtStep: number | null;
    finalPositionsMatch: boolean;
    steps: number;
    summary: string;
    ms: number;
} {
    const folder = mkdtempSync(path.join(tmpdir(), "xpbd-replay-"));
    const compiled = compileSources();
    try {
        const file = path.join(folder, "cape.xpbdreplay");
        writeFileSync(file, new Uint8Array(bytes));
        const script = path.join(__dirname, "../../scripts/replay.mjs");
        const output = execFileSync(process.execPath, [script, file, "--json", path.join(compiled, "core")], {
            encoding: "utf8",
            timeout: 120_000,
        });
        return JSON.parse(output);
    } finally {
        rmSync(folder, { recursive: true, force: true });
        rmSync(compiled, { recursive: true, force: true });
    }
}

describe("the cape scene, recorded in the Babylon layer, replayed in Node", () => {
    let recorded: Awaited<ReturnType<typeof recordCape>>;
    let bytes: ArrayBuffer;
    beforeAll(async () => {
        recorded = await recordCape();
        bytes = serializeReplay(recorded.replay);
    }, 60_000);

    test("300 steps replay to bit-identical positions in a Node process without Babylon", () => {
        const replay = recorded.replay;
        const patches = replay.steps.reduce((n, s) => n + s.patches.length, 0);
        console.log(
            `cape recording: ${STEPS} steps, ${recorded.particles} particles, ${replay.colliders.length} colliders, ${patches} changes, ` +
                `${bytes.byteLength} bytes`,
        );
        expect(replay.steps.length).toBe(STEPS);
        // The recording is what the scene did: its final positions are the cape's.
        expect(replay.final[0].every((x, k) => Object.is(x, recorded.positions[k]))).toBe(true);
        const report = replayInNode(bytes);
        console.log(`in Node: ${report.summary} in ${(report.ms / 1000).toFixed(2)} s`);
        expect(report).toMatchObject({ steps: STEPS, divergedAtStep: null, finalPositionsMatch: true });
    }, 120_000);

    test("a default changed behind the recording's back: the replayer reports the step it first matters", () => {
        // Version 1's default tether setting is what the cape uses (impostors do not set it); a release that edits
        // version 1 in place turns the tethers off. The cape stretches from its first step under load.
        const tethers = futureRelease((v1) => (v1.body.tethers = false), ["../../src/core/index"], true).load<typeof core>(
            "../../src/core/index",
        );
        const tethersReport = new tethers.XpbdReplayer(parseReplay(bytes)).run();
        // Restitution 0 → 0.5: the cape bounces off the character's body at its first contact faster than 0.2 m/s.
        const bouncy = futureRelease((v1) => (v1.body.restitution = 0.5), ["../../src/core/index"], true).load<typeof core>(
            "../../src/core/index",
        );
        const bouncyReport = new bouncy.XpbdReplayer(parseReplay(bytes)).run();
        console.log(`tethers off: ${tethersReport.summary}\nrestitution 0.5: ${bouncyReport.summary}`);
        for (const [report, library] of [
            [tethersReport, tethers],
            [bouncyReport, bouncy],
        ] as const) {
            expect(report.divergedAtStep).not.toBeNull();
            // The reported step is the first whose positions differ, found independently by playing both side by side.
            const edited = new library.XpbdReplayer(parseReplay(bytes));
            const reference = new XpbdReplayer(parseReplay(bytes));
            let first: number | null = null;
            while (first === null && !edited.done) {
                edited.step();
                reference.step();
                const a = edited.world.bodies[0];
                const b = reference.world.bodies[0];
                if (
                    !a.positions.every((x, k) => Object.is(x, b.positions[k])) ||
                    !a.velocities.every((v, k) => Object.is(v, b.velocities[k]))
                ) {
                    first = edited.stepIndex;
                }
            }
            expect(report.divergedAtStep).toBe(first);
        }
        expect(bouncyReport.divergedAtStep).toBeGreaterThan(1);
    });
});
