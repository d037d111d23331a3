/**
 * The plugin's WebGPU backend: moves impostors' bodies out of the CPU world onto a `GPUDevice`, steps them there, draws
 * them from GPU buffers (or from read-backs), and moves a body back to the CPU when it starts using a feature the GPU
 * lacks.
 */
import { Logger } from "@babylonjs/core/Misc/logger";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine";
import {
    ColliderMotion,
    EventQueue,
    measureAsleep,
    measureCounts,
    readyToSleep,
    SoftBodyEventType,
    type Collider,
    type SoftBody,
    type StepStats,
    type XpbdWorld,
} from "../core/index.js";
import { overlaps, pairAllowed } from "../core/softContacts.js";
import { GpuContactGroup, GpuSoftBodySolver, unsupportedGpuFeature, type GpuFigures, type StepImpulses } from "../gpu/index.js";
import { SupportForecast } from "./supportForecast.js";
import { GpuDrawnMesh } from "./gpuDrawnMesh.js";
import type { SoftImpostor } from "./softImpostor.js";

/** Where an impostor's body is simulated: the CPU solver or the WebGPU one. */
export type XpbdBackend = "cpu" | "webgpu";

/** The `backend` option of an `XpbdPlugin`: a backend, or `"auto"` (WebGPU on a `WebGPUEngine`, else the CPU). */
export type XpbdBackendOption = "auto" | XpbdBackend;

/** The valid values of {@link XpbdBackendOption}, for the option's check. */
export const BACKEND_OPTIONS: readonly XpbdBackendOption[] = ["auto", "cpu", "webgpu"];

/**
 * Steps an impostor stays in the GPU group, or on the CPU, after it was last within reach of another (1 s at 60 Hz):
 * a body that bounces on a cloth or a jelly does not send it back and forth.
 */
const SUPPORT_HOLD_STEPS = 60;

/**
 * Where a GPU body's impulses on dynamic colliders go: the Havok bridge's `applyLateImpulse`. `forecast` is the part
 * of `linear` that the host gave the body during the step already (see `SupportForecast`).
 */
export type LateImpulseSink = (
    collider: Collider,
    linear: Float64Array,
    angular: Float64Array,
    seconds: number,
    forecast: Float64Array,
) => void;

/**
 * The feature named when an impostor may touch one that runs on the CPU, or a dynamic body that one touches (contacts
 * between soft bodies, and the one motion of a dynamic body within the step, run where both bodies are: on the GPU in a
 * `GpuContactGroup`, or on the CPU).
 */
const CONTACT_FEATURE =
    "contacts with an impostor that runs on the CPU (softContacts, or a dynamic body both may touch; within reach of each other)";

/**
 * Steps between two state read-backs of a body drawn from GPU buffers (10 a second at 60 Hz): they only feed the
 * bounding box and the CPU-side state (`readGpuStateAsync` reads on demand).
 */
export const DRAWN_READ_INTERVAL = 6;

/**
 * Steps between two read-backs of a GPU body's figures (20 a second at 60 Hz): the statistics, the residual heatmaps
 * (with `XpbdWorld.residuals`), the sleep test and the `OverStretch` and `InvalidState` events. 64 bytes each (12
 * bytes a particle more with the heatmaps).
 */
export const FIGURES_INTERVAL = 3;

/**
 * Steps between two figures read-backs of a GPU body that may tear: every step (one read in flight at a time), so that
 * an edge over the tear ratio is seen as soon as the GPU can tell (see {@link GpuBackend}).
 */
export const TEARING_FIGURES_INTERVAL = 1;

/** One impostor's GPU state. */
interface GpuBody {
    solver: GpuSoftBodySolver;
    /** The read-back of positions and velocities in flight, or null. */
    reading: Promise<void> | null;
    /** Hands one of its steps' impulses to the host (made once per body: the step allocates none). */
    addImpulses: (impulses: StepImpulses) => void;
    /** The render mesh drawn from GPU buffers, or null when it is drawn from read-backs. */
    drawn: GpuDrawnMesh | null;
    /** Steps submitted since the last read-back started. */
    stepsSinceRead: number;
    /** The solver's step count of the state in the body's CPU arrays (the last read-back that arrived). */
    stateStep: number;
    /** The figures read-back in flight, or null. */
    figures: Promise<void> | null;
    /** Steps submitted since the last figures read-back started. */
    stepsSinceFigures: number;
    /** The solver's step count of the last figures that arrived (the sleep test's time covers the steps since). */
    figuresStep: number;
    /** Wake-ups so far: figures requested before the last one are not taken after it. */
    awakenings: number;
}

/**
 * Runs the impostors whose bodies the GPU solver supports on one device. A body starts on the CPU; at the first step
 * after the device's kernels are compiled (asynchronously, from the backend's creation) it moves to the GPU with its
 * current state. From then on the plugin's step submits its GPU step (never waiting for the GPU).
 *
 * Drawing: a cloth or a soft body on the engine's own device (a `WebGPUEngine`) is drawn from GPU buffers
 * ({@link GpuDrawnMesh}): the render kernels write its vertex buffers before each render after a step, and its state
 * is read back only every {@link DRAWN_READ_INTERVAL} steps, for the bounding box (grown by how far the body may move
 * until the next one) and the CPU-side state. Other bodies (ropes, a device that is not the engine's)
 * are read back asynchronously after every step, one read in flight per body, and drawn from what arrives: a frame or
 * two late.
 *
 * The body's figures (energy, edge ratios, bending, volume, their heatmaps) are reduced on the GPU and read back every
 * {@link FIGURES_INTERVAL} steps; the contact figures are 0 (the GPU keeps no contact list). The `OverStretch` event
 * (with the most stretched edge) and the `InvalidState` one (the GPU solver restored its last valid state) come from
 * those reads, so up to {@link FIGURES_INTERVAL} steps and a read's lag later than on the CPU. A GPU body sleeps by
 * the CPU world's rule, its slow time counted over the steps each figures read covers: asleep it is not stepped (its velocities zeroed, on the GPU too), and it wakes on
 * the world's triggers (a wake request, a pin target moving, a moving collider near it, a change of wind or air); the
 * Sleep and Wake events go into the world's queue after its step. When the body or the scene starts using a feature
 * the GPU lacks, the body goes back to the CPU world from
 * its last read-back state, with one warning per feature naming it.
 *
 * A cloth that may tear has its figures read every step ({@link TEARING_FIGURES_INTERVAL}); when they find an edge
 * over the tear ratio a state read starts, and each state read that arrives tears the body from that state
 * (`GpuSoftBodySolver.tear`) before the next step: a figures read's and a state read's lag later than on the CPU. Its
 * render mesh opens along the tear and is drawn from GPU buffers again with its new vertices.
 *
 * Dynamic Havok bodies are coupled within the step: the GPU moves them by its contacts' and attachments' impulses
 * substep by substep (`GpuSoftBodySolver`), and the impulses of step n, read back asynchronously, are handed to the
 * Havok bridge as soon as they arrive (see {@link addColliderImpulses}), with the displacement Havok's steps since
 * went without; the GPU steps meanwhile add the impulses still in flight to Havok's pose. So a rigid body rests on a
 * GPU cloth or jelly, a heavy one on a pinned cloth too (the GPU's held contacts hand its load to the pins), and hangs
 * from GPU ropes tied to it (`#rope-bridge`) however many frames the read-back takes. Impostors that a dynamic body
 * may touch at once step together (see {@link _findNear}), and the group moves the body once from all of their
 * contacts. A body leaving the GPU keeps its solver until the impulses of its steps in flight are handed on.
 *
 * Contacts between impostors (the world's `softContacts`) run where both bodies are: GPU impostors within reach of
 * each other step together in one {@link GpuContactGroup}, and an impostor within reach of one on the CPU goes to the
 * CPU (see {@link _findNear}).
 */
export class GpuBackend {
    private readonly _bodies = new Map<SoftImpostor, GpuBody>();
    private readonly _warned = new Set<string>();
    /** The step of the last read-back, for the bounds of a read on demand. */
    private _lastDt = 1 / 60;
    /** Whether the device's kernels are compiled; null while they compile, false when they failed. */
    private _compiled: boolean | null = null;
    /** Settles when the kernels are compiled or failed to (never rejects). */
    public readonly compiled: Promise<void>;
    private _warnedOverflow = false;
    /** Solvers of bodies that left the GPU, kept until the impulses of their last steps are handed on. */
    private readonly _retired: { solver: GpuSoftBodySolver; settled: boolean; addImpulses: (impulses: StepImpulses) => void }[] = [];
    /**
     * Impostors within reach of an impostor on the CPU that they may collide with, with the steps left before they may
     * go back to the GPU ({@link SUPPORT_HOLD_STEPS} after the last step in reach; see {@link _findNear}).
     */
    private readonly _near = new Map<SoftImpostor, number>();
    /**
     * Impostors within reach of another one, both able to run on the GPU, with the steps left before they step alone
     * again ({@link SUPPORT_HOLD_STEPS} after the last step in reach): on the GPU they step together, in {@link _group}.
     */
    private readonly _grouped = new Map<SoftImpostor, number>();
    /** The GPU bodies that step together with the contacts between them (made again when its members change), or null. */
    private _group: GpuContactGroup | null = null;
    /** The impostors of this step that step in {@link _group} (reused every step). */
    private readonly _members: SoftImpostor[] = [];
    /** Each impostor's box for {@link _findNear} (min xyz, max xyz), grown as impostors are added. */
    private _boxes = new Float64Array(0);
    /** Per pair of impostors (`i × count + j`): whether their boxes overlap this step; grown as impostors are added. */
    private _overlaps = new Uint8Array(0);
    /** Per impostor: whether it runs on the CPU this step (its own features, or within reach of one that does). */
    private _onCpu = new Uint8Array(0);
    /** Per impostor: whether its box overlaps the dynamic collider's being tested (see {@link _shareDynamicBodies}). */
    private _touching = new Uint8Array(0);
    /** A dynamic collider's box (min xyz, max xyz; see {@link colliderBox}). */
    private readonly _colliderBox = new Float64Array(6);
    /** The length of the current step (s); before a step, the last one's. */
    private _dt = 0;
    /**
     * The plugin's time at the start of the next step (s), the sum of the steps' lengths: each GPU solver steps at it
     * (`GpuSoftBodySolver.time`), so that impulses applied late make up every step since theirs.
     */
    private _clock = 0;
    /** Where {@link addColliderImpulses} hands the impulses. */
    private _sink: LateImpulseSink | null = null;
    /** See {@link readBackLag}. */
    private _readBackLag = 0;
    /**
     * One collider's impulses for {@link _sink} (N·s, N·m·s), the forecast its step's figures carry, and the part of
     * that the host is to take back.
     */
    private readonly _linear = new Float64Array(3);
    private readonly _angular = new Float64Array(3);
    private readonly _reported = new Float64Array(3);
    private readonly _forecast = new Float64Array(3);
    /** Each dynamic collider's support during a GPU step, given by the host before the step's impulses arrive. */
    private readonly _support = new SupportForecast();
    /** State read-backs started so far (all bodies): a debugging figure, to see that drawing reads nothing back. */
    public stateReadCount = 0;
    /** Figures read-backs started so far (all bodies): a debugging figure. */
    public figuresReadCount = 0;
    /** The wind and air density of the last step: a change wakes the sleeping bodies the air acts on, as on the CPU. */
    private readonly _air = new Float64Array(4);
    /** Events of GPU bodies (type, body id, element, value), for the world's queue after its step. */
    private readonly _events: number[] = [];
    /** Where a GPU body's tear puts its events (a body out of particles), moved into {@link _events} at once. */
    private readonly _tearEvents = new EventQueue(8);

    /**
     * @param device - the device the bodies run on
     * @param _world - the plugin's CPU world: its environment (gravity, air, substeps, colliders) drives the GPU steps
     * @param _engine - the engine that draws the meshes when its device is `device` (cloths are then drawn from GPU
     *   buffers), else null
     */
    public constructor(
        public readonly device: GPUDevice,
        private readonly _world: XpbdWorld,
        private readonly _engine: WebGPUEngine | null = null,
    ) {
        this._air.set(_world.wind);
        this._air[3] = _world.airDensity;
        this.compiled = GpuSoftBodySolver.compile(device).then(
            () => {
                this._compiled ??= true;
            },
            (error: unknown) => {
                this._compiled = false;
                Logger.Error(
                    `XpbdPlugin: the WebGPU solver's kernels failed to compile (${String(error)}); every impostor runs on the CPU`,
                );
            },
        );
    }

    /** Whether `impostor` runs on the GPU now. */
    public runs(impostor: SoftImpostor): boolean {
        return this._bodies.has(impostor);
    }

    /**
     * Before the CPU world steps: moves each impostor to the GPU or back as its features allow, then submits the
     * GPU step of every impostor on the GPU (they are out of the world, which steps the rest).
     */
    public step(impostors: readonly SoftImpostor[], dt: number): void {
        this._dt = dt;
        const world = this._world;
        const air = this._air;
        const airChanged = air[0] !== world.wind[0] || air[1] !== world.wind[1] || air[2] !== world.wind[2] || air[3] !== world.airDensity;
        air.set(world.wind);
        air[3] = world.airDensity;
        this._findNear(impostors, dt);
        this._support.beginStep();
        const members = this._members;
        members.length = 0;
        for (let i = 0; i < impostors.length; i++) {
            const impostor = impostors[i];
            const missing = this._unsupported(impostor);
            let gpu = this._bodies.get(impostor);
            if (missing !== null) {
                if (gpu) {
                    this._toCpu(impostor, gpu);
                }
                this._warnOnce(missing);
                continue;
            }
            if (gpu) {
                if (airChanged && impostor.body.triangles.length > 0 && impostor.body.windScale > 0) {
                    impostor.body._wakeRequested = true;
                }
            } else if (this._compiled === true) {
                gpu = this._toGpu(impostor, dt);
            }
            const tearing = impostor.body.tearing;
            if (gpu && tearing !== null) {
                // Its splits were reported when the read that tore it arrived (see _read): not again after this step.
                tearing.tearCount = 0;
            }
            if (gpu && this._grouped.has(impostor)) {
                members.push(impostor);
            } else if (gpu) {
                this._advance(impostor, gpu, dt);
            }
        }
        this._advanceGroup(members, dt);
        this._clock += dt;
    }

    /**
     * GPU milliseconds of a recent step of every body on the GPU together (timestamp queries; see
     * `GpuSoftBodySolver.gpuStepMs`): the bodies stepped alone, each its own figure, and those stepped in the contact
     * group, the group's (`GpuContactGroup.gpuStepMs`); NaN when none is measured.
     */
    public get gpuStepMs(): number {
        let ms = NaN;
        const grouped = this._group !== null && this._members.length > 0;
        for (const [impostor, gpu] of this._bodies) {
            if (!(grouped && this._members.includes(impostor))) {
                ms = addMeasured(ms, gpu.solver.gpuStepMs);
            }
        }
        return grouped ? addMeasured(ms, this._group!.gpuStepMs) : ms;
    }

    /**
     * How many GPU steps' impulses on dynamic colliders were still on their way back when the last step started
     * ({@link addColliderImpulses}), the most of any body: 0 where each step's impulses arrive before the next (a
     * one-step delay), k where they arrive k steps later still. The solver's prediction bridges these steps.
     */
    public get readBackLag(): number {
        return this._readBackLag;
    }

    /**
     * Two-way coupling, before the colliders are synced for a step: hands `apply` the impulses the GPU bodies put on
     * each dynamic collider in every GPU step whose figures arrived since the last call (normally the previous step,
     * read back between the frames), with the time since that step's start, which Havok's steps took without them
     * (see `HavokColliderSync.applyLateImpulse`): a read k frames late makes up all k steps. Nothing waits for the
     * GPU; until figures arrive, each GPU step starts from Havok's pose with their effect added (the solver's
     * prediction of the impulses in flight), so a rope tied to a dynamic body pulls it as if they had come on time.
     */
    public addColliderImpulses(apply: LateImpulseSink): void {
        this._sink = apply;
        let lag = 0;
        for (const gpu of this._bodies.values()) {
            gpu.solver.consumeColliderImpulses(gpu.addImpulses);
            lag = Math.max(lag, gpu.solver.colliderImpulsesInFlight);
        }
        this._readBackLag = lag;
        const retired = this._retired;
        for (let k = retired.length - 1; k >= 0; k--) {
            const { solver, settled, addImpulses } = retired[k];
            solver.consumeColliderImpulses(addImpulses);
            if (settled) {
                solver.dispose();
                retired.splice(k, 1);
            }
        }
    }

    /**
     * After the CPU world's step (which cleared its event queue): adds the GPU bodies' events since the last call
     * (sleep, wake, over-stretch, invalid state) to `events`, for the plugin to dispatch with the CPU bodies'.
     */
    public addEvents(events: EventQueue): void {
        const pending = this._events;
        for (let k = 0; k < pending.length; k += 4) {
            events.push(pending[k] as SoftBodyEventType, pending[k + 1], pending[k + 2], pending[k + 3]);
        }
        pending.length = 0;
    }

    /** Adds the figures of every body on the GPU (as of its last read-back) to `stats`, the world's of this step. */
    public accumulateStats(stats: StepStats): void {
        for (const impostor of this._bodies.keys()) {
            stats.accumulate(impostor.body.stats);
        }
    }

    /** Moves `impostor` back to the CPU world (its last read-back state) and releases its GPU buffers. */
    public remove(impostor: SoftImpostor): void {
        this._near.delete(impostor);
        this._grouped.delete(impostor);
        const gpu = this._bodies.get(impostor);
        if (gpu) {
            this._toCpu(impostor, gpu);
        }
    }

    /** Releases every body's GPU buffers (the plugin is being disposed: the bodies are not given back to the world). */
    public dispose(): void {
        this._compiled = false;
        for (const gpu of this._bodies.values()) {
            gpu.drawn?.dispose();
            gpu.solver.dispose();
        }
        this._bodies.clear();
        for (const entry of this._retired) {
            entry.solver.dispose();
        }
        this._retired.length = 0;
        this._near.clear();
        this._grouped.clear();
        this._group?.dispose();
        this._group = null;
        // No collider keeps a forecast of support from bodies that are gone.
        this._support.beginStep();
    }

    /** The render mesh of `impostor` while it is drawn from GPU buffers, else null (for tests and tools). */
    public drawnMesh(impostor: SoftImpostor): GpuDrawnMesh | null {
        return this._bodies.get(impostor)?.drawn ?? null;
    }

    private _unsupported(impostor: SoftImpostor): string | null {
        return this._ownUnsupported(impostor) ?? (this._near.has(impostor) ? CONTACT_FEATURE : null);
    }

    /** The first feature of the impostor itself (not of its neighbours) that keeps it on the CPU, or null. */
    private _ownUnsupported(impostor: SoftImpostor): string | null {
        return impostor._gpuUnsupportedFeature() ?? unsupportedGpuFeature(impostor.body);
    }

    /**
     * Contacts between impostors (the world's `softContacts`) run where both bodies are: on the GPU, two impostors that
     * may touch step together in a {@link GpuContactGroup}; an impostor that may touch one on the CPU goes to the CPU
     * too. Each impostor's box is that of its particles (as last read back, for a GPU body) grown by its thickness and
     * by how far it may move (its fastest speed and a fall from rest, {@link travel}) over the steps its state is
     * behind (a GPU body's read-back lags) and two more, as the test runs again at every step. Two impostors whose
     * collision groups let them touch and whose boxes overlap are in reach of each other: when one of them runs on the
     * CPU (for a feature of its own, or in reach of one that does, and so on), both do ({@link _near}), else both join
     * the GPU group ({@link _grouped}), each for {@link SUPPORT_HOLD_STEPS} steps more after they last were in reach
     * (a ball bouncing on a cloth does not send it back and forth). Two impostors whose boxes both overlap a dynamic
     * body's ({@link colliderBox}: its shapes, grown by how far it may move over two steps) are in reach of each other
     * too, whatever their collision groups and even with `softContacts` off: the body moves once within the step from
     * the contacts of both (as the CPU world moves it), which the group does on the GPU.
     */
    private _findNear(impostors: readonly SoftImpostor[], dt: number): void {
        countDown(this._near);
        countDown(this._grouped);
        const count = impostors.length;
        if (count < 2) {
            return;
        }
        if (this._boxes.length < 6 * count) {
            this._boxes = new Float64Array(6 * count);
            this._overlaps = new Uint8Array(count * count);
            this._onCpu = new Uint8Array(count);
            this._touching = new Uint8Array(count);
        }
        const boxes = this._boxes;
        const overlapping = this._overlaps;
        const onCpu = this._onCpu;
        for (let i = 0; i < count; i++) {
            const impostor = impostors[i];
            const body = impostor.body;
            const gpu = this._bodies.get(impostor);
            // The state in the CPU arrays is `late` steps old (0 on the CPU), and this test runs again at the next step:
            // the box must hold the body until then, and a step more for a state that arrives within it.
            const late = gpu ? gpu.solver.stepCount - gpu.stateStep : 0;
            const reach = travel(body.velocities, this._world.gravity, (late + 2) * dt);
            particleBox(body.positions, body.particleCount, body.thickness + reach, boxes, i);
            // Before the kernels are compiled every impostor is on the CPU, where contacts need no choice.
            onCpu[i] = this._compiled === true && (this._near.has(impostor) || this._ownUnsupported(impostor) !== null) ? 1 : 0;
        }
        const contacts = this._world.softContacts.enabled;
        for (let i = 0; i < count; i++) {
            for (let j = i + 1; j < count; j++) {
                overlapping[i * count + j] = contacts && pairAllowed(impostors[i].body, impostors[j].body) && overlaps(boxes, i, j) ? 1 : 0;
            }
        }
        this._shareDynamicBodies(count, dt);
        // The CPU spreads along chains of impostors in reach of each other (each round reaches one more link).
        let spread = true;
        while (spread) {
            spread = false;
            for (let i = 0; i < count; i++) {
                for (let j = i + 1; j < count; j++) {
                    if (overlapping[i * count + j] === 1 && onCpu[i] !== onCpu[j]) {
                        onCpu[i] = onCpu[j] = 1;
                        spread = true;
                    }
                }
            }
        }
        for (let i = 0; i < count; i++) {
            for (let j = i + 1; j < count; j++) {
                if (overlapping[i * count + j] === 1) {
                    // After the spread, both of a pair in reach are on the CPU or neither is.
                    const held = onCpu[i] === 1 ? this._near : this._grouped;
                    held.set(impostors[i], SUPPORT_HOLD_STEPS);
                    held.set(impostors[j], SUPPORT_HOLD_STEPS);
                }
            }
        }
    }

    /** Marks in {@link _overlaps} the pairs of the `count` boxes that both overlap a dynamic collider's (see {@link _findNear}). */
    private _shareDynamicBodies(count: number, dt: number): void {
        const boxes = this._boxes;
        const touching = this._touching;
        const colliders = this._world.colliders;
        const box = this._colliderBox;
        for (let c = 0; c < colliders.length; c++) {
            const collider = colliders[c];
            if (collider.motion !== ColliderMotion.Dynamic) {
                continue;
            }
            colliderBox(collider, 2 * dt, box);
            for (let i = 0; i < count; i++) {
                const o = 6 * i;
                touching[i] =
                    boxes[o] <= box[3] &&
                    boxes[o + 3] >= box[0] &&
                    boxes[o + 1] <= box[4] &&
                    boxes[o + 4] >= box[1] &&
                    boxes[o + 2] <= box[5] &&
                    boxes[o + 5] >= box[2]
                        ? 1
                        : 0;
            }
            for (let i = 0; i < count; i++) {
                for (let j = i + 1; j < count; j++) {
                    if (touching[i] === 1 && touching[j] === 1) {
                        this._overlaps[i * count + j] = 1;
                    }
                }
            }
        }
    }

    /**
     * Steps the GPU impostors in reach of each other together, with the contacts between them ({@link _group}, made
     * again when they change): awake as one (a sleeping member wakes when another is awake, and they fall asleep
     * together, as the CPU world lets a body sleep only with the bodies it touches). Fewer than two step alone.
     */
    private _advanceGroup(members: readonly SoftImpostor[], dt: number): void {
        if (members.length < 2) {
            for (const impostor of members) {
                this._advance(impostor, this._bodies.get(impostor)!, dt);
            }
            this._group?.dispose();
            this._group = null;
            return;
        }
        let awake = false;
        let ready = true;
        for (const impostor of members) {
            const body = impostor.body;
            this._wakeOnTriggers(impostor, this._bodies.get(impostor)!);
            if (!body.sleeping) {
                awake = true;
                ready = ready && readyToSleep(body);
            }
        }
        for (const impostor of members) {
            const gpu = this._bodies.get(impostor)!;
            if (awake && ready && !impostor.body.sleeping) {
                this._fallAsleep(impostor, gpu);
            } else if (awake && !ready && impostor.body.sleeping) {
                this._wake(impostor, gpu);
            }
        }
        if (!awake || ready) {
            for (const impostor of members) {
                impostor.body.pins.endStep();
                measureAsleep(impostor.body);
            }
            return;
        }
        const group = this._groupOf(members);
        for (const impostor of members) {
            this._bodies.get(impostor)!.solver.time = this._clock;
        }
        this._support.give(this._world.colliders, this._world.gravity);
        group.step(dt);
        for (const impostor of members) {
            this._afterStep(impostor, this._bodies.get(impostor)!, dt);
        }
    }

    /** The group of `members`' solvers: {@link _group} when it holds them, in order, else a new one (the old one released). */
    private _groupOf(members: readonly SoftImpostor[]): GpuContactGroup {
        const current = this._group;
        let same = current !== null && current.solvers.length === members.length;
        for (let k = 0; same && k < members.length; k++) {
            same = current!.solvers[k] === this._bodies.get(members[k])!.solver;
        }
        if (same) {
            return current!;
        }
        current?.dispose();
        this._group = new GpuContactGroup(members.map((impostor) => this._bodies.get(impostor)!.solver));
        return this._group;
    }

    /** Moves `impostor` to the GPU (not stepped yet), or leaves it on the CPU when that fails (then returns undefined). */
    private _toGpu(impostor: SoftImpostor, dt: number): GpuBody | undefined {
        const body = impostor.body;
        this._world.removeBody(body);
        // No contact heatmap on the GPU (see _takeFigures): not the last one of the CPU either.
        body.contactResidual.fill(0);
        let solver: GpuSoftBodySolver;
        try {
            solver = GpuSoftBodySolver.createCompiled(this.device, body, this._world);
            // The Havok bridge applies every step's impulses when they arrive, however late: predict those in flight.
            solver.predictImpulsesInFlight = true;
        } catch (error) {
            // The body must not be lost from the simulation: it stays on the CPU, and so do the others from now on.
            this._world.addBody(body);
            this._compiled = false;
            Logger.Error(`XpbdPlugin: the WebGPU backend failed (${String(error)}); every impostor runs on the CPU`);
            return undefined;
        }
        const gpu: GpuBody = {
            solver,
            reading: null,
            addImpulses: (impulses) => this._addImpulses(impulses),
            drawn: this._draw(impostor, solver),
            stepsSinceRead: 0,
            stateStep: 0,
            figures: null,
            stepsSinceFigures: 0,
            figuresStep: 0,
            awakenings: 0,
        };
        // Until the first read arrives the box is the state moved to the GPU, grown as if that read were as late
        // as the interval.
        gpu.drawn?.refreshBounds(this._boundsMargin(body, DRAWN_READ_INTERVAL, dt));
        this._bodies.set(impostor, gpu);
        return gpu;
    }

    /** Draws the impostor's mesh from GPU buffers where it can be (a cloth or a soft body on the engine's device), else null. */
    private _draw(impostor: SoftImpostor, solver: GpuSoftBodySolver): GpuDrawnMesh | null {
        const drawable = impostor._gpuDrawableMesh();
        if (this._engine === null || drawable === null) {
            return null;
        }
        try {
            return new GpuDrawnMesh(this._engine, drawable, solver);
        } catch (error) {
            Logger.Warn(
                `XpbdPlugin: mesh "${impostor.mesh.name}" cannot be drawn from GPU buffers (${String(error)}); it is drawn from read-backs`,
            );
            return null;
        }
    }

    /**
     * Wakes the body on the CPU world's triggers (`XpbdWorld`'s `_beginStep`), then steps it unless it sleeps; a
     * sleeping body gets the stats of one (as the world's `_endStep`).
     */
    private _advance(impostor: SoftImpostor, gpu: GpuBody, dt: number): void {
        const body = impostor.body;
        this._wakeOnTriggers(impostor, gpu);
        if (!body.sleeping && readyToSleep(body)) {
            this._fallAsleep(impostor, gpu);
        }
        if (!body.sleeping) {
            gpu.solver.time = this._clock;
            this._support.give(this._world.colliders, this._world.gravity);
            gpu.solver.step(dt);
            this._afterStep(impostor, gpu, dt);
            return;
        }
        body.pins.endStep();
        measureAsleep(body);
    }

    /** Wakes a sleeping body on the CPU world's triggers (`XpbdWorld`'s `_beginStep`). */
    private _wakeOnTriggers(impostor: SoftImpostor, gpu: GpuBody): void {
        const body = impostor.body;
        if (body.sleeping && (body._wakeRequested || body.pins.targetsMove() || this._world._movingColliderNear(body))) {
            this._wake(impostor, gpu);
        }
        body._wakeRequested = false;
    }

    /** Wakes the body and reports it. */
    private _wake(impostor: SoftImpostor, gpu: GpuBody): void {
        const body = impostor.body;
        body.sleeping = false;
        body._slowTime = 0;
        gpu.awakenings++;
        body.stats.sleepingBodies = 0;
        this._events.push(SoftBodyEventType.Wake, body.id, -1, 0);
    }

    /**
     * After the body's GPU step was submitted: reads its state back (every step, or every few when it is drawn on the
     * GPU) and its figures (every {@link FIGURES_INTERVAL} steps).
     */
    private _afterStep(impostor: SoftImpostor, gpu: GpuBody, dt: number): void {
        gpu.stepsSinceRead++;
        gpu.stepsSinceFigures++;
        if (gpu.drawn === null || gpu.stepsSinceRead >= DRAWN_READ_INTERVAL) {
            this._read(impostor, gpu, dt);
        }
        const interval = impostor.body.tearing === null ? FIGURES_INTERVAL : TEARING_FIGURES_INTERVAL;
        if (gpu.stepsSinceFigures >= interval && gpu.figures === null) {
            gpu.figures = this._readFigures(impostor, gpu);
        }
    }

    /** Starts a read-back of the body's figures (and heatmaps with `XpbdWorld.residuals`); see {@link _takeFigures}. */
    private _readFigures(impostor: SoftImpostor, gpu: GpuBody): Promise<void> {
        gpu.stepsSinceFigures = 0;
        this.figuresReadCount++;
        const awakenings = gpu.awakenings;
        return gpu.solver.readFigures(this._world.residuals).then(
            (figures) => {
                gpu.figures = null;
                if (this._bodies.get(impostor) === gpu && gpu.awakenings === awakenings && !impostor.body.sleeping) {
                    this._takeFigures(impostor, gpu, figures);
                }
            },
            (error: unknown) => {
                gpu.figures = null;
                Logger.Error(`XpbdPlugin: reading the figures of mesh "${impostor.mesh.name}" from the GPU failed: ${String(error)}`);
            },
        );
    }

    /**
     * The body's stats from the GPU's figures, and the CPU world's slow time (`XpbdWorld`'s `_endStep`) over the
     * steps they cover: slower than `sleepVelocity` at the figures' step counts as slow for every step since the last
     * figures ({@link FIGURES_INTERVAL} or so). A body slow for its sleep time falls asleep at the next step.
     */
    private _takeFigures(impostor: SoftImpostor, gpu: GpuBody, figures: GpuFigures): void {
        const body = impostor.body;
        const stats = body.stats;
        if (figures.invalidParticles > 0) {
            // The solver restored its last valid state, at rest (see `GpuSoftBodySolver.readFigures`): report it, as
            // the CPU world does, and bring the CPU-side state (read back from the faulty steps) up to it.
            this._events.push(SoftBodyEventType.InvalidState, body.id, -1, 0);
            stats.kineticEnergy = 0;
            body._slowTime = 0;
            gpu.figuresStep = figures.step;
            void this._readAfter(impostor, gpu);
            return;
        }
        if (figures.overStretchedEdges > 0) {
            this._events.push(SoftBodyEventType.OverStretch, body.id, figures.mostStretchedEdge, figures.maxEdgeRatio);
        }
        if (body.tearing !== null && figures.maxEdgeRatio > body.tearing.tearRatio) {
            // An edge is over the tear ratio: the state read that arrives next tears the body (see _read).
            this._read(impostor, gpu, this._dt);
        }
        measureCounts(body);
        // The GPU keeps no contact list (each pass tests every particle against every shape and keeps nothing of the
        // contacts it projects): no contact figures, rather than those of the body's last step on the CPU.
        stats.contacts = 0;
        stats.contactCandidates = 0;
        stats.maxContactCorrection = 0;
        stats.kineticEnergy = figures.kineticEnergy;
        stats.maxEdgeRatio = figures.maxEdgeRatio;
        stats.meanEdgeRatio = figures.meanEdgeRatio;
        stats.maxStretchResidual = figures.maxStretchResidual;
        stats.meanStretchResidual = figures.meanStretchResidual;
        stats.overStretchedEdges = figures.overStretchedEdges;
        // As the CPU's measureBend: NaN when the heatmaps are off (the CPU measures bending only then), 0 without bends.
        const bends = figures.residuals || body.bend.count === 0;
        stats.maxBendResidual = bends ? figures.maxBendResidual : NaN;
        stats.meanBendResidual = bends ? figures.meanBendResidual : NaN;
        stats.maxVolumeResidual = figures.maxVolumeResidual;
        stats.meanVolumeResidual = figures.meanVolumeResidual;
        stats.volumeRatio = figures.volumeRatio;
        const covered = figures.step - gpu.figuresStep;
        gpu.figuresStep = figures.step;
        if (body.allowSleep && figures.maxSpeed < body.sleepVelocity) {
            body._slowTime += covered * this._dt;
        } else {
            body._slowTime = 0;
        }
    }

    /** Puts the body to sleep where it is, at rest (as `XpbdWorld`'s `_fallAsleep`), and reports it. */
    private _fallAsleep(impostor: SoftImpostor, gpu: GpuBody): void {
        const body = impostor.body;
        body.sleeping = true;
        body.velocities.fill(0);
        gpu.solver.stopMotion();
        this._events.push(SoftBodyEventType.Sleep, body.id, -1, 0);
        // The CPU-side state where it sleeps (picking, the moving-collider wake test, a move to the CPU).
        void this._readAfter(impostor, gpu);
    }

    private _toCpu(impostor: SoftImpostor, gpu: GpuBody): void {
        this._bodies.delete(impostor);
        gpu.drawn?.dispose();
        this._retire(gpu);
        this._world.addBody(impostor.body);
    }

    /** Keeps a solver that left the GPU until the impulses of its steps in flight are handed on (momentum is kept). */
    private _retire(gpu: GpuBody): void {
        const entry = { solver: gpu.solver, settled: false, addImpulses: gpu.addImpulses };
        this._retired.push(entry);
        void gpu.solver.colliderImpulsesSettled().then(() => {
            entry.settled = true;
        });
    }

    /** Hands one GPU step's impulses on the dynamic colliders to {@link _sink}. */
    private _addImpulses(impulses: StepImpulses): void {
        const { colliders, linear, angular, overflowed } = impulses;
        for (let c = 0; c < colliders.length; c++) {
            const collider = colliders[c];
            if (overflowed[c] !== 0) {
                this._warnOverflow();
                continue;
            }
            // A collider that stopped being dynamic since (made kinematic, static) takes nothing.
            if (collider.motion !== ColliderMotion.Dynamic) {
                continue;
            }
            for (let axis = 0; axis < 3; axis++) {
                this._linear[axis] = linear[3 * c + axis];
                this._angular[axis] = angular[3 * c + axis];
                this._reported[axis] = impulses.forecast[3 * c + axis];
            }
            this._support.arrive(collider, impulses.time, this._linear, this._reported, this._forecast);
            // Havok stepped without them from their step's start until now: every step between is made up.
            this._sink?.(collider, this._linear, this._angular, this._clock - impulses.time, this._forecast);
        }
    }

    /**
     * Copies every GPU body's state after the steps submitted so far into its CPU arrays (after any read in flight),
     * measures its figures after them, and marks its render mesh out of date.
     */
    public async readAll(): Promise<void> {
        const reads: Promise<void>[] = [];
        for (const [impostor, gpu] of this._bodies) {
            reads.push(this._readAllAfter(impostor, gpu));
        }
        await Promise.all(reads);
    }

    private async _readAfter(impostor: SoftImpostor, gpu: GpuBody): Promise<void> {
        await gpu.reading;
        if (this._bodies.get(impostor) === gpu) {
            this._read(impostor, gpu, this._lastDt);
            await gpu.reading;
        }
    }

    /** {@link _readAfter}, and the body's figures after the steps submitted so far (unless it sleeps). */
    private async _readAllAfter(impostor: SoftImpostor, gpu: GpuBody): Promise<void> {
        await this._readAfter(impostor, gpu);
        // A step may start a read while this waits for one: start ours only when none is in flight.
        while (gpu.figures !== null) {
            await gpu.figures;
        }
        if (this._bodies.get(impostor) === gpu && !impostor.body.sleeping && gpu.figuresStep < gpu.solver.stepCount) {
            gpu.figures = this._readFigures(impostor, gpu);
            await gpu.figures;
        }
    }

    /**
     * Starts a read-back of the body's state into its CPU arrays, unless one is in flight. For a mesh drawn on the GPU,
     * what arrives sets its bounding box, grown by how far the body may move until the next read-back arrives.
     */
    private _read(impostor: SoftImpostor, gpu: GpuBody, dt: number): void {
        if (gpu.reading) {
            return;
        }
        this._lastDt = dt;
        this.stateReadCount++;
        gpu.stepsSinceRead = 0;
        const body = impostor.body;
        const requested = gpu.solver.stepCount;
        gpu.reading = gpu.solver.readStateInto(body.positions, body.velocities).then(
            () => {
                gpu.reading = null;
                if (this._bodies.get(impostor) === gpu) {
                    gpu.stateStep = requested;
                    const torn = body.tearing !== null && this._tear(impostor, gpu);
                    gpu.drawn?.refreshBounds(this._boundsMargin(body, gpu.solver.stepCount - requested, dt));
                    impostor._afterStep();
                    if (torn && this._engine !== null) {
                        // The render mesh opened along the tear (new vertices): drawn from GPU buffers again, as it is now.
                        gpu.drawn = this._draw(impostor, gpu.solver);
                        gpu.drawn?.refreshBounds(this._boundsMargin(body, gpu.solver.stepCount - requested, dt));
                    }
                }
            },
            (error: unknown) => {
                gpu.reading = null;
                Logger.Error(`XpbdPlugin: reading mesh "${impostor.mesh.name}" back from the GPU failed: ${String(error)}`);
            },
        );
    }

    /**
     * Tears a GPU body from the state just read back (`GpuSoftBodySolver.tear`: the GPU follows before its next step),
     * and returns whether it tore. A body that tore leaves the contact group (made again with its new particles) and
     * stops being drawn from GPU buffers until its render mesh has opened along the tear.
     */
    private _tear(impostor: SoftImpostor, gpu: GpuBody): boolean {
        const events = this._tearEvents;
        const torn = !impostor.body.sleeping && gpu.solver.tear(events) > 0;
        for (let k = 0; k < events.count; k++) {
            this._events.push(events.types[k], events.bodies[k], events.elements[k], events.values[k]);
        }
        events.clear();
        if (torn) {
            if (this._group?.solvers.includes(gpu.solver)) {
                this._group.dispose();
                this._group = null;
            }
            gpu.drawn?.dispose();
            gpu.drawn = null;
        }
        return torn;
    }

    private _warnOverflow(): void {
        if (!this._warnedOverflow) {
            this._warnedOverflow = true;
            Logger.Warn(
                "XpbdPlugin: a soft body on the GPU pushed a dynamic body harder than its impulse accumulator holds " +
                    "(over 100 m/s × its mass in one step); that step's push on it is dropped",
            );
        }
    }

    /**
     * The margin (m) around a state read back `late` steps ago that the body stays within until the next read
     * arrives: the steps it is behind now, as many again for the next read, and the interval between reads.
     */
    private _boundsMargin(body: SoftBody, late: number, dt: number): number {
        return travel(body.velocities, this._world.gravity, (2 * late + DRAWN_READ_INTERVAL) * dt);
    }

    private _warnOnce(feature: string): void {
        if (!this._warned.has(feature)) {
            this._warned.add(feature);
            Logger.Warn(`XpbdPlugin: the WebGPU backend does not support ${feature} yet; impostors that use it run on the CPU`);
        }
    }
}

/**
 * How far (m) a particle may get in `time` seconds from where a read-back found it: its speed, at most the fastest
 * read back, for the whole time, plus the fall under gravity from rest. A bound for free flight; contacts and
 * constraints only hold particles back (a pin dragged faster than the cloth moved may outrun it).
 */
function travel(velocities: Float64Array, gravity: Float64Array, time: number): number {
    let fastest2 = 0;
    for (let i = 0; i < velocities.length; i += 3) {
        fastest2 = Math.max(fastest2, velocities[i] ** 2 + velocities[i + 1] ** 2 + velocities[i + 2] ** 2);
    }
    return Math.sqrt(fastest2) * time + 0.5 * Math.hypot(gravity[0], gravity[1], gravity[2]) * time * time;
}

/**
 * The box (min xyz, max xyz) of the first `count` particles of `positions`, grown by `margin` on every side, into
 * `out` at slot `slot`. A NaN coordinate leaves the box as it would be without it.
 */
function particleBox(positions: Float64Array, count: number, margin: number, out: Float64Array, slot: number): void {
    const o = 6 * slot;
    for (let axis = 0; axis < 3; axis++) {
        let min = Infinity;
        let max = -Infinity;
        for (let p = axis; p < 3 * count; p += 3) {
            min = Math.min(min, positions[p]);
            max = Math.max(max, positions[p]);
        }
        out[o + axis] = min - margin;
        out[o + 3 + axis] = max + margin;
    }
}

/** Scratch of {@link colliderBox}: one shape's world box. */
const shapeBox = new Float64Array(6);

/**
 * The world box (min xyz, max xyz) of `collider`'s shapes into `out`, grown by how far it may move in `time` seconds
 * at its velocities and acceleration (its turn about its centre of mass included). A shape without finite bounds (a
 * plane) makes the box infinite.
 */
function colliderBox(collider: Collider, time: number, out: Float64Array): void {
    out.fill(Infinity, 0, 3);
    out.fill(-Infinity, 3, 6);
    const box = shapeBox;
    const com = collider._com;
    let reach = 0;
    for (let s = 0; s < collider.shapes.length; s++) {
        collider._shapeBox(collider.shapes[s], box, 0);
        if (box[0] === -Infinity) {
            out.set(box);
            return;
        }
        for (let axis = 0; axis < 3; axis++) {
            out[axis] = Math.min(out[axis], box[axis]);
            out[3 + axis] = Math.max(out[3 + axis], box[3 + axis]);
            reach = Math.max(reach, Math.max(Math.abs(box[axis] - com[axis]), Math.abs(box[3 + axis] - com[axis])));
        }
    }
    const v = collider.linearVelocity;
    const w = collider.angularVelocity;
    const a = collider.acceleration;
    // Its speed, its turn (each corner within √3 × the largest offset along an axis of its centre of mass) and its fall.
    const sweep =
        (Math.hypot(v[0], v[1], v[2]) + Math.hypot(w[0], w[1], w[2]) * Math.sqrt(3) * reach) * time +
        0.5 * Math.hypot(a[0], a[1], a[2]) * time * time;
    for (let axis = 0; axis < 3; axis++) {
        out[axis] -= sweep;
        out[3 + axis] += sweep;
    }
}

/** Counts every entry of `holds` down by a step, removing those that reach 0. */
function countDown(holds: Map<SoftImpostor, number>): void {
    for (const [impostor, steps] of holds) {
        if (steps <= 1) {
            holds.delete(impostor);
        } else {
            holds.set(impostor, steps - 1);
        }
    }
}

/** `sum + figure`, where NaN stands for no figure yet (a sum of none is NaN). */
function addMeasured(sum: number, figure: number): number {
    if (!Number.isFinite(figure)) {
        return sum;
    }
    return Number.isFinite(sum) ? sum + figure : figure;
}
