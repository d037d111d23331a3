/**
 * Plays an {@link XpbdReplay} back on a core world, headless (no Babylon: it runs in Node), and reports the first
 * step after which the state differs from the recording.
 */
import { XpbdDataError } from "./snapshotError.js";
import {
    applyPatch,
    buildReplayWorld,
    checkPatch,
    REPLAY_FORMAT_VERSION,
    stateChecksum,
    type ReplayWorld,
    type XpbdReplay,
} from "./replayData.js";
import { restoreWorldState } from "./worldSnapshot.js";
import type { XpbdWorld } from "./xpbdWorld.js";

/** Options of an {@link XpbdReplayer}. */
export interface XpbdReplayerOptions {
    /**
     * The defaults version to replay under. When given it must be the recording's: a replay recorded under one version
     * and replayed under another is refused (an `XpbdDataError` with reason `"version"`) rather than replayed wrongly.
     * Default: the recording's.
     */
    defaultsVersion?: number;
}

/** What {@link XpbdReplayer.run} found. */
export interface XpbdReplayReport {
    /** Steps played. */
    steps: number;
    /** The first step (1-based: the state after that many steps) whose state differs from the recording; null when none. */
    divergedAtStep: number | null;
    /** Whether every body's final positions equal the recorded ones bit for bit. */
    finalPositionsMatch: boolean;
    /** Largest difference of a final position coordinate from the recording (m). */
    maxFinalDifference: number;
    /** One line for a person: "replayed 300 steps: identical" or where it diverged. */
    summary: string;
}

/** Plays a replay back step by step; see the module comment. */
export class XpbdReplayer {
    /** The world being replayed (read its bodies and stats between steps). */
    public readonly world: XpbdWorld;
    /** The first step (1-based) whose state differed from the recording so far; null while none has. */
    public divergedAtStep: number | null = null;

    private readonly _replayWorld: ReplayWorld;
    private _next = 0;

    /**
     * Builds the recorded world and restores its initial state. Checks the whole replay first: its format, its
     * defaults version (against `options.defaultsVersion` and the versions this build knows), and that every patch of
     * every step fits the world.
     * @param replay - from `XpbdWorldRecorder.stop`, `XpbdRecorder.stop` or `parseReplay`
     * @param options - see {@link XpbdReplayerOptions}
     * @throws XpbdDataError when the replay cannot be played here
     */
    public constructor(
        public readonly replay: XpbdReplay,
        options: XpbdReplayerOptions = {},
    ) {
        if (replay.formatVersion !== REPLAY_FORMAT_VERSION) {
            throw new XpbdDataError(
                "version",
                `replay format version ${replay.formatVersion} cannot be played by this build (${REPLAY_FORMAT_VERSION})`,
            );
        }
        if (options.defaultsVersion !== undefined && options.defaultsVersion !== replay.defaultsVersion) {
            throw new XpbdDataError(
                "version",
                `the replay was recorded with defaults version ${replay.defaultsVersion} and cannot be replayed under version ` +
                    `${options.defaultsVersion}: its scene would get other defaults and diverge`,
            );
        }
        this._replayWorld = buildReplayWorld(replay);
        this.world = this._replayWorld.world;
        if (replay.initial.defaultsVersion !== replay.defaultsVersion) {
            throw new XpbdDataError("version", "the replay's initial state has another defaults version than the replay");
        }
        restoreWorldState(this.world, replay.initial, { colliders: false });
        replay.steps.forEach((step, s) => {
            if (!(step.dt > 0) || !Number.isFinite(step.dt)) {
                throw new XpbdDataError("invalid", `replay step ${s + 1}: time step ${step.dt} must be positive and finite`);
            }
            step.patches.forEach((patch, p) => checkPatch(this._replayWorld, patch, `replay step ${s + 1}, change ${p + 1}`));
        });
        if (
            replay.final.length !== this.world.bodies.length ||
            replay.final.some((x, b) => x.length !== this.world.bodies[b].positions.length)
        ) {
            throw new XpbdDataError("malformed", "the replay's final positions do not match its bodies");
        }
    }

    /** Steps played so far. */
    public get stepIndex(): number {
        return this._next;
    }

    /** Whether every step was played. */
    public get done(): boolean {
        return this._next >= this.replay.steps.length;
    }

    /** Plays the next step: the recorded changes, then the step. Returns whether its state matches the recording. */
    public step(): boolean {
        if (this.done) {
            throw new Error("XpbdReplayer.step: the replay has no more steps");
        }
        const step = this.replay.steps[this._next++];
        for (const patch of step.patches) {
            applyPatch(this._replayWorld, patch);
        }
        this.world.step(step.dt);
        const matches = stateChecksum(this.world) === step.checksum;
        if (!matches && this.divergedAtStep === null) {
            this.divergedAtStep = this._next;
        }
        return matches;
    }

    /** Plays every step left and reports (see {@link XpbdReplayReport}). */
    public run(): XpbdReplayReport {
        while (!this.done) {
            this.step();
        }
        let maxFinalDifference = 0;
        let finalPositionsMatch = true;
        this.world.bodies.forEach((body, b) => {
            const recorded = this.replay.final[b];
            for (let k = 0; k < recorded.length; k++) {
                if (!Object.is(body.positions[k], recorded[k])) {
                    finalPositionsMatch = false;
                    maxFinalDifference = Math.max(maxFinalDifference, Math.abs(body.positions[k] - recorded[k]));
                }
            }
        });
        const steps = this._next;
        const summary =
            this.divergedAtStep === null && finalPositionsMatch
                ? `replayed ${steps} steps: identical to the recording, bit for bit`
                : `replayed ${steps} steps: the state first differs from the recording after step ${this.divergedAtStep ?? steps}` +
                  ` (final positions differ by up to ${maxFinalDifference.toExponential(3)} m)`;
        return { steps, divergedAtStep: this.divergedAtStep, finalPositionsMatch, maxFinalDifference, summary };
    }

    /** Returns "XpbdReplayer". */
    public getClassName(): string {
        return "XpbdReplayer";
    }
}
