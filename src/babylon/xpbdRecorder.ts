/**
 * Records what a plugin's soft bodies take in, step by step, into a replay that `XpbdReplayer` plays back in Node
 * without Babylon (see docs/replay.md).
 */
import type { Nullable } from "@babylonjs/core/types";
import { Logger } from "@babylonjs/core/Misc/logger";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable";
import { XpbdWorldRecorder, type XpbdReplay, type XpbdWorldRecorderOptions } from "../core/index.js";
import type { SoftImpostor } from "./softImpostor.js";
import type { XpbdPlugin } from "./xpbdPlugin.js";

/** Why a recording ended: `stop()` was called, it was full, or an impostor joined or left the plugin. */
export type XpbdRecorderStopReason = "stopped" | "full" | "sceneChanged";

/**
 * Records a plugin's simulation: per step the time step, and everything the host changed since the last step, read
 * from the core world right before it steps: pin targets (animated `pinTo` targets), the Havok colliders' poses,
 * velocities, mass properties and materials, the wind, gravity, option changes, and every change to the particles
 * (user impulses, `setLinearVelocity`, teleports), plus a checksum of the state after the step.
 * @example
 * ```ts
 * const recorder = new XpbdRecorder(xpbd);
 * recorder.start();
 * // … let the bug happen …
 * const bytes = serializeReplay(recorder.stop()); // save it as a file and attach it to the issue
 * ```
 */
export class XpbdRecorder {
    /** Fired when a recording ends, whatever the reason ({@link stopReason}). */
    public readonly onStoppedObservable = new Observable<XpbdRecorder>();

    private readonly _core: XpbdWorldRecorder;
    private _observers: Nullable<Observer<number> | Observer<SoftImpostor>>[] = [];
    private _replay: XpbdReplay | null = null;
    private _stopReason: XpbdRecorderStopReason | null = null;

    /**
     * @param plugin - the plugin to record
     * @param options - `maxSteps`: steps a recording may hold (default 36,000, ten minutes at 60 Hz); it stops there
     */
    public constructor(
        public readonly plugin: XpbdPlugin,
        options: XpbdWorldRecorderOptions = {},
    ) {
        this._core = new XpbdWorldRecorder(plugin.world, options);
    }

    /** Whether a recording is under way. */
    public get isRecording(): boolean {
        return this._core.isRecording;
    }

    /** Steps recorded (so far, or in the last recording). */
    public get stepCount(): number {
        return this._replay?.steps.length ?? this._core.stepCount;
    }

    /** Why the last recording ended; null while recording or before the first. */
    public get stopReason(): Nullable<XpbdRecorderStopReason> {
        return this._stopReason;
    }

    /**
     * Starts recording from the simulation's state now (the plugin's impostors must stay the same while it records).
     * @throws Error when already recording or the plugin is disposed
     */
    public start(): void {
        this.plugin._checkUsable("XpbdRecorder.start");
        if (this.isRecording) {
            throw new Error("XpbdRecorder.start: already recording (stop first)");
        }
        this._core.start();
        this._replay = null;
        this._stopReason = null;
        const p = this.plugin;
        this._observers = [
            p.onBeforeWorldStepObservable.add((dt) => this._core.beforeStep(dt)),
            p.onAfterWorldStepObservable.add(() => {
                this._core.afterStep();
                if (this._core.isFull) {
                    this._end("full");
                }
            }),
            p.onImpostorAddedObservable.add((impostor) => this._sceneChanged(impostor, "joined")),
            p.onImpostorRemovedObservable.add((impostor) => this._sceneChanged(impostor, "left")),
        ];
    }

    /**
     * Ends the recording (if it has not ended by itself) and returns it; turn it into bytes with `serializeReplay`.
     * @throws Error when nothing was recorded
     */
    public stop(): XpbdReplay {
        if (this.isRecording) {
            this._end("stopped");
        }
        if (!this._replay) {
            throw new Error("XpbdRecorder.stop: nothing was recorded (call start first)");
        }
        return this._replay;
    }

    /** Stops recording (the recording is dropped) and removes every observer. */
    public dispose(): void {
        this._detach();
        this._replay = null;
        this.onStoppedObservable.clear();
    }

    /** Returns "XpbdRecorder". */
    public getClassName(): string {
        return "XpbdRecorder";
    }

    private _sceneChanged(impostor: SoftImpostor, how: string): void {
        Logger.Warn(
            `XpbdRecorder: ${impostor.getClassName()} of mesh "${impostor.mesh.name}" ${how} the plugin; the recording stopped ` +
                `after ${this._core.stepCount} steps (a recording keeps the impostors it started with)`,
        );
        this._end("sceneChanged");
    }

    private _end(reason: XpbdRecorderStopReason): void {
        this._detach();
        this._replay = this._core.isRecording ? this._core.stop() : this._replay;
        this._stopReason = reason;
        this.onStoppedObservable.notifyObservers(this);
    }

    private _detach(): void {
        const p = this.plugin;
        const [before, after, added, removed] = this._observers;
        p.onBeforeWorldStepObservable.remove(before as Nullable<Observer<number>>);
        p.onAfterWorldStepObservable.remove(after as Nullable<Observer<number>>);
        p.onImpostorAddedObservable.remove(added as Nullable<Observer<SoftImpostor>>);
        p.onImpostorRemovedObservable.remove(removed as Nullable<Observer<SoftImpostor>>);
        this._observers = [];
    }
}
