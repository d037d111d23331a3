/**
 * Records an {@link XpbdWorld} into an {@link XpbdReplay}: call {@link XpbdWorldRecorder.beforeStep} right before
 * each `world.step(dt)` (after the host wrote its inputs) and {@link XpbdWorldRecorder.afterStep} right after it.
 *
 * How: the recorder keeps a shadow world built exactly as a replayer will build it (`buildReplayWorld`, the recorded
 * options and defaults version, the state when recording started). Before each step it compares every input of the
 * real world with the shadow (world inputs, colliders, every body's arrays and scalars: `stepInputs.ts` and
 * `replayData.ts`), records what differs as patches and applies them to the shadow; after the step it copies the
 * step's results into the shadow the same way, unrecorded. So a patch is exactly what the host changed, including
 * what it set differently from the recorded defaults, and nothing the defaults version gives is written down.
 * Recording costs two comparisons of the scene's state per step; the step itself is untouched.
 */
import { Collider } from "./collider.js";
import {
    applyPatch,
    BODY_ARRAY_TARGETS,
    bodyTargetArray,
    buildReplayWorld,
    REPLAY_FORMAT_VERSION,
    ReplayTarget,
    stateChecksum,
    type ReplayWorld,
    type XpbdReplay,
    type XpbdReplayCollider,
    type XpbdReplayPatch,
    type XpbdReplayStep,
} from "./replayData.js";
import type { SoftBody } from "./softBody.js";
import {
    BODY_SCALAR_COUNT,
    COLLIDER_INPUT_COUNT,
    readBodyScalars,
    readColliderInputs,
    readWorldInputs,
    WORLD_INPUT_COUNT,
} from "./stepInputs.js";
import { captureWorldState, restoreWorldState, type XpbdSnapshot } from "./worldSnapshot.js";
import type { XpbdWorld } from "./xpbdWorld.js";

/** Options of an {@link XpbdWorldRecorder}. */
export interface XpbdWorldRecorderOptions {
    /** Steps a recording may hold; {@link XpbdWorldRecorder.beforeStep} records no more. Default 36,000 (10 minutes at 60 Hz). */
    maxSteps?: number;
}

/** Records a core world step by step; see the module comment. */
export class XpbdWorldRecorder {
    /** Steps a recording may hold. */
    public readonly maxSteps: number;

    private _recording = false;
    private _shadow: ReplayWorld | null = null;
    private _bodies: SoftBody[] = [];
    private _initial: XpbdSnapshot | null = null;
    private _header: Pick<XpbdReplay, "world" | "bodies" | "defaultsVersion"> | null = null;
    private readonly _colliders: XpbdReplayCollider[] = [];
    private readonly _ids = new Map<Collider, number>();
    private readonly _shadowIds = new Map<Collider, number>();
    private _steps: XpbdReplayStep[] = [];
    private _pending: XpbdReplayStep | null = null;
    private readonly _a = new Float64Array(Math.max(WORLD_INPUT_COUNT, BODY_SCALAR_COUNT, COLLIDER_INPUT_COUNT));
    private readonly _b = new Float64Array(this._a.length);

    /**
     * @param world - the world to record
     * @param options - see {@link XpbdWorldRecorderOptions}
     */
    public constructor(
        public readonly world: XpbdWorld,
        options: XpbdWorldRecorderOptions = {},
    ) {
        this.maxSteps = options.maxSteps ?? 36000;
    }

    /** Whether a recording is under way. */
    public get isRecording(): boolean {
        return this._recording;
    }

    /** Steps recorded so far. */
    public get stepCount(): number {
        return this._steps.length;
    }

    /** Whether the recording holds {@link maxSteps} steps (later steps are not recorded). */
    public get isFull(): boolean {
        return this._steps.length >= this.maxSteps;
    }

    /** Starts recording from the world's state now. Throws when already recording. */
    public start(): void {
        if (this._recording) {
            throw new Error("XpbdWorldRecorder.start: already recording (stop first)");
        }
        const world = this.world;
        this._bodies = world.bodies.slice();
        this._header = {
            defaultsVersion: world.defaultsVersion,
            // Every version explicit: a replay takes its defaults from the version it was recorded with.
            world: { ...jsonable(world.options), defaultsVersion: world.defaultsVersion },
            bodies: this._bodies.map((body) => ({
                options: { ...jsonable(body.options), defaultsVersion: body.defaultsVersion },
                positions: body.restPositions.slice(),
                masses: body.masses.slice(),
                triangles: body.triangles.slice(),
                stretch: body.stretch.indices.slice(),
                shear: body.shear.indices.slice(),
                bend: body.bend.indices.slice(),
                tets: body.volume.indices.slice(),
            })),
        };
        this._initial = captureWorldState(world, { colliders: false });
        this._colliders.length = 0;
        this._ids.clear();
        this._shadowIds.clear();
        this._shadow = buildReplayWorld({ ...this._header, colliders: [] });
        restoreWorldState(this._shadow.world, this._initial, { colliders: false });
        this._steps = [];
        this._pending = null;
        this._recording = true;
    }

    /**
     * Records the host's changes since the last step; call right before `world.step(dt)`. Does nothing when not
     * recording or full. Throws when bodies were added to or removed from the world during the recording.
     */
    public beforeStep(dt: number): void {
        if (!this._recording || this.isFull) {
            return;
        }
        const patches: XpbdReplayPatch[] = [];
        this._compare(patches);
        this._pending = { dt, patches, checksum: 0 };
    }

    /** Records the step's checksum; call right after `world.step(dt)`. */
    public afterStep(): void {
        const step = this._pending;
        if (!step) {
            return;
        }
        step.checksum = stateChecksum(this.world);
        this._steps.push(step);
        this._pending = null;
        // The step's results, copied into the shadow (what a replayer computes), so that the next comparison sees
        // only what the host changes.
        this._compare(null);
    }

    /** Stops and returns the recording. Throws when not recording. */
    public stop(): XpbdReplay {
        if (!this._recording || !this._header || !this._initial) {
            throw new Error("XpbdWorldRecorder.stop: not recording");
        }
        this._recording = false;
        this._shadow = null;
        this._pending = null;
        return {
            formatVersion: REPLAY_FORMAT_VERSION,
            ...this._header,
            colliders: this._colliders.slice(),
            initial: this._initial,
            steps: this._steps,
            final: this._bodies.map((body) => body.positions.slice()),
        };
    }

    /** Returns "XpbdWorldRecorder". */
    public getClassName(): string {
        return "XpbdWorldRecorder";
    }

    /** Finds where the world differs from the shadow, applies each difference to the shadow and lists it in `out`. */
    private _compare(out: XpbdReplayPatch[] | null): void {
        const world = this.world;
        const shadow = this._shadow as ReplayWorld;
        if (world.bodies.length !== this._bodies.length || world.bodies.some((b, i) => b !== this._bodies[i])) {
            throw new Error("XpbdWorldRecorder: bodies were added to or removed from the world during the recording; stop and start again");
        }
        const a = this._a;
        const b = this._b;
        readWorldInputs(world, a);
        readWorldInputs(shadow.world, b);
        this._patch(out, ReplayTarget.World, 0, a, b, WORLD_INPUT_COUNT);
        const order = world.colliders.map((c) => this._idOf(c));
        if (order.length !== shadow.world.colliders.length || shadow.world.colliders.some((c, i) => this._shadowIds.get(c) !== order[i])) {
            this._apply(out, { target: ReplayTarget.ColliderOrder, index: 0, indices: null, values: Float64Array.from(order) });
        }
        world.colliders.forEach((collider, i) => {
            readColliderInputs(collider, a);
            readColliderInputs(shadow.world.colliders[i], b);
            this._patch(out, ReplayTarget.ColliderInputs, order[i], a, b, COLLIDER_INPUT_COUNT);
        });
        world.bodies.forEach((body, i) => {
            const twin = shadow.world.bodies[i];
            for (const target of BODY_ARRAY_TARGETS) {
                const live = bodyTargetArray(body, target);
                this._patch(out, target, i, live, bodyTargetArray(twin, target), live.length);
            }
            readBodyScalars(body, a);
            readBodyScalars(twin, b);
            this._patch(out, ReplayTarget.BodyScalars, i, a, b, BODY_SCALAR_COUNT);
        });
    }

    /** A patch for the first `length` entries where `live` and `recorded` differ (bit for bit), if any. */
    private _patch(
        out: XpbdReplayPatch[] | null,
        target: ReplayTarget,
        index: number,
        live: Float64Array,
        recorded: Float64Array,
        length: number,
    ): void {
        const changed: number[] = [];
        for (let k = 0; k < length; k++) {
            // Object.is: −0 differs from 0, and NaN equals NaN (a NaN left in place is not a change).
            if (!Object.is(live[k], recorded[k])) {
                changed.push(k);
            }
        }
        if (changed.length === 0) {
            return;
        }
        // Whole when more than half changed: the indices would cost more than the values they save.
        const whole = 2 * changed.length > length;
        this._apply(out, {
            target,
            index,
            indices: whole ? null : Uint32Array.from(changed),
            values: whole ? live.slice(0, length) : Float64Array.from(changed, (k) => live[k]),
        });
    }

    private _apply(out: XpbdReplayPatch[] | null, patch: XpbdReplayPatch): void {
        applyPatch(this._shadow as ReplayWorld, patch);
        out?.push(patch);
    }

    /** The recording's id of a collider; a collider seen for the first time is added to the recording and the shadow. */
    private _idOf(collider: Collider): number {
        let id = this._ids.get(collider);
        if (id === undefined) {
            id = this._colliders.length;
            const definition: XpbdReplayCollider = {
                id,
                shapes: jsonable(collider.shapeDescriptors) as XpbdReplayCollider["shapes"],
                options: { ...jsonable(collider.options), defaultsVersion: collider.defaultsVersion },
            };
            this._colliders.push(definition);
            this._ids.set(collider, id);
            const twin = new Collider(definition.shapes, definition.options);
            (this._shadow as ReplayWorld).colliders.set(id, twin);
            this._shadowIds.set(twin, id);
        }
        return id;
    }
}

/** A deep copy with typed arrays as plain arrays and undefined fields left out: what survives JSON unchanged. */
function jsonable<T>(value: T): T {
    return JSON.parse(JSON.stringify(value, (_, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v))) as T;
}
