import {
    strainLimitActive,
    TEAR_RECORD_SIZE,
    type ClothTearing,
    type Collider,
    type EventQueue,
    type SoftBody,
    type XpbdWorld,
} from "../core/index.js";
import {
    ConstraintKernel,
    packConstraints,
    packDispatches,
    packPins,
    packTriangles,
    packVectors,
    type ConstraintRecords,
    type PassRecords,
} from "./bodyRecords.js";
import { BodyFigures, type GpuFigures } from "./bodyFigures.js";
import { ATTACHMENT_VEC4S, AttachmentRecords } from "./attachmentRecords.js";
import { ACCUMULATOR_WORDS, ColliderImpulses, type StepImpulses } from "./colliderImpulses.js";
import { ColliderRecords, unsupportedGpuFeature } from "./colliderRecords.js";
import { motionVec4s } from "./colliderMotionRecords.js";
import { PendingImpulses } from "./pendingImpulses.js";
import { compiledSolverPipelines, solverPipelines, type SolverPipelines } from "./gpuPipelines.js";
import { BodyBuffers, COPY_DST, COPY_SRC, MAP_READ, STORAGE, createBuffer, type BindGroups } from "./bodyBuffers.js";
import { StepParams } from "./stepParams.js";
import { StepTimer } from "./stepTimer.js";
import { SelfCollisionPass } from "./selfCollisionPass.js";
import { StrainLimitPass } from "./strainLimitPass.js";
import { UNIFORM_STRIDE } from "./substepParams.js";
import { POSE_VEC4S } from "./particlePassShader.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { ValidState } from "./validState.js";

/**
 * One soft body simulated on a WebGPU device: the same substep loop as {@link XpbdWorld.step} (prediction with
 * gravity, external and aerodynamic forces, weight-1 pins on their moving targets; per pass tethers, the constraint
 * sets colour batch by colour batch (shape matching and the gas included), in the last pass the strain limit, soft pins and
 * collider contacts with friction; velocities and restitution; deformation damping),
 * in f32, in one command buffer per step. Inside a step nothing waits for the GPU: the step writes its uniforms and
 * collider poses, encodes every dispatch and submits. Positions come back only when asked ({@link readPositions}).
 *
 * The world supplies the environment, read at every step as `world.step` reads it: gravity, wind, air density,
 * substeps, iterations and colliders. The body supplies the particles, the constraints (already in colour order)
 * and their settings (compliances, enabled flags, damping, thickness, friction, pins and their targets); the body
 * itself must not be in the world, or the world would step it too. The body's CPU arrays are the starting state and
 * are not updated by the GPU steps, except the pin targets' bookkeeping.
 *
 * Dynamic colliders are coupled within the step, as on the CPU: the impulses the body puts on them (contacts,
 * bounces and the collider attachments to them) are summed on the GPU (deterministic fixed-point atomics), and after every particle pass a small kernel
 * moves each one by what that pass added (`colliderMotionShader.ts`), so the next pass sees it moved; at each
 * substep's start the held solve stops one pressing on particles that their taut tethers hold (`heldContactsShader.ts`:
 * the pins take the load, so a light cloth holds a heavy body, and a rope tied to one holds it through its
 * tethers); the step's sums
 * are read back asynchronously for the host to apply ({@link consumeColliderImpulses}), which gives the body what
 * the GPU gave it before the next step, or later with the steps it missed made up; with
 * {@link predictImpulsesInFlight} each step starts from the host's pose of the body with the effect of the steps
 * whose sums the host has not taken yet added (`pendingImpulses.ts`), as if it had applied them on time. The body's
 * figures (kinetic energy, the fastest free particle, edge ratios, volume, the per-particle residuals) are reduced on
 * the GPU when asked ({@link readFigures}); the host decides sleep from them ({@link stopMotion}) and raises the events; a read that
 * finds a non-finite state restores the last valid one. Particles attached to colliders follow them as on the CPU
 * (a dynamic one sharing the correction). Self-collision (`SoftBody.selfCollision`) runs as its own pass (`selfCollisionPass.ts`: a hash
 * rebuilt every substep, contacts after every solver pass). Bodies that touch each other step together in a
 * `GpuContactGroup`, which encodes their steps phase by phase with the contacts between them. A cloth that may tear
 * tears when the host asks ({@link tear}), from a state it read back; the GPU follows the new topology before the next
 * step, its per-particle buffers holding the body's particle capacity from the start. Not yet on the GPU
 * (see docs/webgpu.md): what {@link unsupportedGpuFeature} names (construction refuses it).
 */
export class GpuSoftBodySolver {
    /** Steps taken. */
    public stepCount = 0;
    /**
     * The time at the next step's start (s): 0 at first, advanced by each step's length. A host that lets its clock
     * run while the body is not stepped (a sleeping body) sets it to its clock before a step. Each step's impulses on
     * the dynamic colliders carry it (`StepImpulses.time`), and the impulses in flight are predicted from it (see
     * {@link consumeColliderImpulses}).
     */
    public time = 0;
    /**
     * Whether each step starts from the host's state of the dynamic colliders with the effect of the impulses in
     * flight added (the steps whose figures {@link consumeColliderImpulses} has not handed on yet; see there): for a
     * host that applies every step's impulses when they arrive, however many steps late (the plugin turns it on).
     * Off, each step starts from the host's state as it is: a host that applies each step's impulses before the next,
     * or holds a body where it is. Default false.
     */
    public predictImpulsesInFlight = false;

    private readonly _buffers: BodyBuffers;
    private readonly _params: StepParams;
    /** The colliders' records, and the buffer that holds them (shapes, then the poses of every substep). */
    private _colliders: ColliderRecords;
    private _colliderBuffer: GPUBuffer;
    /** The records {@link _colliderBuffer} holds the shapes of. */
    private _colliderBufferRecords: ColliderRecords;
    private _groups: BindGroups;
    /** Dispatch-record index of each set's first batch, and of the three particle-pass modes. */
    private _firstBatch: readonly number[];
    private _passRecord: PassRecords;
    /** Per particle, where its incident triangles start in the incidence list (the pin uploads rewrite `info`). */
    private _incidenceStarts: Int32Array;
    /** 16 bytes a tear copies a parent's vec4s through (a buffer cannot be copied onto itself); null for a body that never tears. */
    private readonly _tearScratch: GPUBuffer | null;
    /** Pin slots' particles and soft-pin compliances (−1: weight 1), and the targets uploaded per step. */
    private _pinSlots: Int32Array = new Int32Array(0);
    private _pinCompliances: Float64Array = new Float64Array(0);
    private _pinData: Float32Array = new Float32Array(8);
    /** Dynamic offsets handed to `setBindGroup` (one array for the whole step: hundreds of binds). */
    private readonly _offsets = new Uint32Array(2);
    private _inverseMassesDirty = false;
    private _disposed = false;
    /** The staging buffer of {@link readStateInto}, made at its first read; whether a read is in flight. */
    private _staging: GPUBuffer | null = null;
    private _reading = false;
    private readonly _timer: StepTimer;
    private readonly _impulses: ColliderImpulses;
    /** The prediction of the impulses in flight to the host (see {@link consumeColliderImpulses}). */
    private readonly _pending: PendingImpulses;
    /** The length of the step being encoded (s). */
    private _dt = 0;
    private readonly _figures: BodyFigures;
    private readonly _validState: ValidState;
    /** The strain limit's sweep, for a body with a strain limiter; null without one. */
    private readonly _strain: StrainLimitPass | null;
    /** Whether the strain limit acts in the step being encoded (`strainLimitActive`, from the body's last figures). */
    private _straining = false;
    /** 1 / h² of the last step's substeps (1/s²): what the gas's multiplier is read over. */
    private _invH2 = 0;
    /** The body's collider attachments as the particle pass reads them. */
    private readonly _attachments = new AttachmentRecords();
    /** A collider's first shape slot in the current records (made once: the step allocates nothing). */
    private readonly _slotOf = (collider: Collider): number => this._colliders.firstSlot(collider);
    /** Self-collision's pass, made when the body first collides with itself (kept when it stops: it may again). */
    private _self: SelfCollisionPass | null = null;
    /** @internal Set by a `GpuContactGroup` for its steps: contacts with other bodies follow each pass. */
    public _grouped = false;
    /**
     * @internal Set by a `GpuContactGroup` whose bodies move their dynamic colliders as one (`sharedColliderMotion.ts`):
     * the group runs the held solve ({@link _encodeHeld}) and the motion after a pass ({@link _encodeDeferredMotion}).
     */
    public _sharedMotion = false;
    /** The motion kernel's mode (a pass record) the last particle pass left for the group to dispatch, or −1. */
    private _deferredMotion = -1;

    private constructor(
        /** The device the body lives on. */
        public readonly device: GPUDevice,
        /** The body simulated. */
        public readonly body: SoftBody,
        /** The environment (gravity, air, substeps, iterations, colliders). */
        public readonly world: XpbdWorld,
        private readonly _pipelines: SolverPipelines,
        private _constraints: ConstraintRecords,
    ) {
        const triangles = packTriangles(body);
        this._incidenceStarts = triangles.starts;
        const dispatches = packDispatches(_constraints);
        this._firstBatch = dispatches.firstBatch;
        this._passRecord = dispatches.passRecord;
        this._buffers = new BodyBuffers(device, body, _constraints, triangles, dispatches.records);
        this._params = new StepParams(device);
        this._timer = new StepTimer(device);
        this._impulses = new ColliderImpulses(device);
        this._pending = new PendingImpulses(device, _pipelines);
        this._validState = new ValidState(device, this._buffers);
        this._figures = new BodyFigures(device, body, _pipelines, this._buffers, _constraints, this._validState);
        this._colliders = new ColliderRecords(world.colliders);
        this._buffers.reserveImpulseWords(this._colliders.dynamicColliders.length * ACCUMULATOR_WORDS);
        this._colliderBufferRecords = this._colliders;
        this._colliderBuffer = this._createColliderBuffer(world.substeps);
        this._strain = body._strainLimiter === null ? null : new StrainLimitPass(device, body._strainLimiter);
        this._tearScratch = body.tearing === null ? null : createBuffer(device, 16, COPY_SRC | COPY_DST, "tear scratch");
        this._uploadPins();
        this._groups = this._createGroups();
    }

    /**
     * Builds the GPU copy of `body` on `device`, with `world` as its environment. Rejects when the body or the
     * world's colliders use a feature the GPU lacks (see {@link unsupportedGpuFeature}), when the body is in the
     * world, or when a shader does not compile.
     */
    public static async create(device: GPUDevice, body: SoftBody, world: XpbdWorld): Promise<GpuSoftBodySolver> {
        GpuSoftBodySolver._check(body, world);
        const pipelines = await solverPipelines(device);
        return GpuSoftBodySolver._build(device, body, world, pipelines);
    }

    /**
     * Compiles the solver's kernels for `device` (once per device; every later body shares them). Rejects with the
     * compiler's messages when a shader does not compile. {@link create} does this itself.
     */
    public static async compile(device: GPUDevice): Promise<void> {
        await solverPipelines(device);
    }

    /**
     * {@link create} without waiting, for a host that moves a body to the GPU between two of its steps, once
     * {@link compile} has settled for `device`. Throws where {@link create} rejects, and when the kernels are not
     * compiled yet.
     */
    public static createCompiled(device: GPUDevice, body: SoftBody, world: XpbdWorld): GpuSoftBodySolver {
        GpuSoftBodySolver._check(body, world);
        const pipelines = compiledSolverPipelines(device);
        if (!pipelines) {
            throw new Error("the solver's kernels are not compiled for this device yet: await GpuSoftBodySolver.compile(device)");
        }
        return GpuSoftBodySolver._build(device, body, world, pipelines);
    }

    private static _check(body: SoftBody, world: XpbdWorld): void {
        if (world.bodies.includes(body)) {
            throw new Error("the body is in the world, which would step it on the CPU as well: keep it out of the world");
        }
        const missing = unsupportedGpuFeature(body);
        if (missing !== null) {
            throw new Error(`the WebGPU solver does not support ${missing} yet`);
        }
    }

    private static _build(device: GPUDevice, body: SoftBody, world: XpbdWorld, pipelines: SolverPipelines): GpuSoftBodySolver {
        // What `XpbdWorld.addBody` does: inverse masses, pin lists and tethers from the pin weights.
        body._rebuildPins();
        return new GpuSoftBodySolver(device, body, world, pipelines, packConstraints(body));
    }

    /**
     * Advances the body by `dt` seconds in `world.substeps` substeps on the GPU: writes the step's uniforms, collider
     * poses and pin targets, then encodes and submits every dispatch of the step. Never waits for the GPU.
     */
    public step(dt: number): void {
        this._beginStep(dt);
        const encoder = this.device.createCommandEncoder({ label: "xpbd step" });
        const pass = encoder.beginComputePass({ label: "xpbd step", timestampWrites: this._timer.timestampWrites });
        this._encodeStart(pass);
        for (let s = 0; s < this.world.substeps; s++) {
            this._encodeSubstepStart(pass, s);
            this._encodePassOpen(pass, s);
            for (let k = 0; k < this.passCount; k++) {
                this._encodePass(pass, s, k);
                this._encodePassClose(pass, s, k);
            }
        }
        this._encodeEnd(pass);
        pass.end();
        const timed = this._timer.encodeResolve(encoder);
        this._encodeAfterPass(encoder);
        this.device.queue.submit([encoder.finish()]);
        this._afterSubmit(timed);
    }

    /** Solver passes per substep (2 × the world's iterations). */
    public get passCount(): number {
        return 2 * this.world.iterations;
    }

    /** @internal After the step's compute pass: the impulse accumulators' read-back copy. */
    public _encodeAfterPass(encoder: GPUCommandEncoder): void {
        this._impulses.encode(
            encoder,
            this._buffers.lambdas,
            4 * this._buffers.impulseBase,
            this._colliders.dynamicColliders,
            this.stepCount + 1,
            this.time,
        );
    }

    /** @internal After the step's submit: the reads it started, the pins' bookkeeping, the step count. */
    public _afterSubmit(timed: boolean): void {
        this._impulses.afterSubmit();
        if (timed) {
            this._timer.read();
        }
        // The targets reached at the end of this step are where the next one starts (as `PinConstraints.endStep`).
        this.body.pins.endStep();
        this.stepCount++;
        this.time += this._dt;
    }

    /** @internal The host side of a step (uploads of its uniforms, poses, pins), before its dispatches are encoded. */
    public _beginStep(dt: number): void {
        if (this._disposed) {
            throw new Error("the WebGPU solver is disposed");
        }
        if (!(dt > 0) || !Number.isFinite(dt)) {
            throw new RangeError(`time step must be positive and finite, got ${dt}`);
        }
        const { body, world, device } = this;
        if (body.pins.dirty) {
            body._rebuildPins();
            this._uploadPins();
            this._groups = this._createGroups();
        }
        if (!this._colliders.matches(world.colliders)) {
            this._colliders = new ColliderRecords(world.colliders);
            if (this._buffers.reserveImpulseWords(this._colliders.dynamicColliders.length * ACCUMULATOR_WORDS)) {
                this._groups = this._createGroups();
            }
        }
        // Before the feature check: a particle tied to a dynamic collider that left the world is free.
        this._freeFromRemovedColliders();
        const missing = unsupportedGpuFeature(body);
        if (missing !== null) {
            throw new Error(`the WebGPU solver does not support ${missing} yet`);
        }
        if (this._attachments.changed(body)) {
            this._uploadPins();
            this._groups = this._createGroups();
        }
        if (body.selfCollision && this._self === null && body.triangles.length > 0) {
            this._self = new SelfCollisionPass(device, body);
            this._groups = this._createGroups();
        }
        const dynamic = this._colliders.dynamicColliders;
        this._impulses.prepare(dynamic, dt);
        const substeps = world.substeps;
        this._invH2 = (substeps / dt) ** 2;
        const slots = this._colliders.slotColliders.length;
        const shapeBytes = this._colliders.shapes.byteLength;
        if (this._colliderBufferRecords !== this._colliders || this._colliderBuffer.size < this._colliderBytes(substeps)) {
            this._colliderBuffer.destroy();
            this._colliderBuffer = this._createColliderBuffer(substeps);
            this._groups = this._createGroups();
        }
        this._colliders.writePoses(body, dt, substeps, this._buffers.impulseBase, this._impulses.scales);
        device.queue.writeBuffer(this._colliderBuffer, shapeBytes, this._colliders.poses);
        const attachmentBytes = shapeBytes + this._colliders.poses.byteLength;
        const attached = body.attachments.count;
        if (attached > 0) {
            this._attachments.write(body, this._slotOf);
            device.queue.writeBuffer(this._colliderBuffer, attachmentBytes, this._attachments.data, 0, attached * ATTACHMENT_VEC4S * 4);
        }
        const motionBytes = attachmentBytes + attached * ATTACHMENT_VEC4S * 16;
        if (dynamic.length > 0) {
            this._colliders.writeMotions(this._buffers.impulseBase, this._impulses.scales);
            device.queue.writeBuffer(this._colliderBuffer, motionBytes, this._colliders.motions);
        }
        const paramsChanged = this._params.write(
            world,
            body,
            this._constraints,
            dt,
            slots,
            shapeBytes / 16,
            attachmentBytes / 16,
            motionBytes / 16,
            this._buffers.impulseBase,
        );
        if (paramsChanged) {
            this._groups = this._createGroups();
        }
        this._pending.prepare(
            this.predictImpulsesInFlight,
            this.stepCount + 1,
            this.time,
            dynamic,
            this._impulses,
            this._colliderBuffer,
            this._buffers.lambdas,
            shapeBytes / 16,
            attachmentBytes / 16,
            attached,
            motionBytes / 16,
            this._buffers.impulseBase,
        );
        this._dt = dt;
        this._writePinTargets();
        if (this._colliding()) {
            this._self!.write(body);
        }
        // As `XpbdWorld`: from the body's figures of the last step (the host's read-back of the GPU's figures).
        this._straining = this._strain !== null && strainLimitActive(body);
    }

    /**
     * GPU milliseconds of a recent step, from timestamp queries on a device created with the `timestamp-query`
     * feature (read back asynchronously, one read at a time: a step or a few behind); NaN without the feature or
     * before the first read. On SwiftShader (the CPU's Vulkan) these are CPU times, not a GPU's.
     */
    public get gpuStepMs(): number {
        return this._timer.ms;
    }

    /**
     * Two-way coupling: hands `visit` the impulses the body put on each dynamic collider in every step whose figures
     * arrived from the GPU since the last call, oldest first (each step once; the arrays are reused afterwards, so
     * copy what you keep). Within its step the GPU moved each dynamic collider by these impulses (and by its
     * acceleration); the host gives them to its body before its next step, with the displacement its steps since
     * `StepImpulses.time` went without (J/M and a turn of I⁻¹L times the host's time now less that: the plugin's
     * `HavokColliderSync.applyLateImpulse`), so that the body is where it would be had they come on time. With
     * {@link predictImpulsesInFlight}, until a step's figures are consumed the solver takes them as in flight: each
     * step adds their effect to the host's pose and velocities of the body (those figures' J/M and I⁻¹L, and the
     * displacement over the time since their step; `pendingImpulses.ts`), so the late read adds no delay to the
     * coupling. A read that arrives later is handed on later; nothing is lost. Never waits for the GPU.
     */
    public consumeColliderImpulses(visit: (impulses: StepImpulses) => void): void {
        this._impulses.consume(visit);
    }

    /**
     * Steps submitted whose impulses on the dynamic colliders {@link consumeColliderImpulses} has not handed on yet: on
     * their way back from the GPU, or arrived since the last call (0 without dynamic colliders).
     */
    public get colliderImpulsesInFlight(): number {
        return this._impulses.inFlightCount;
    }

    /** Settles when the collider impulses of every step submitted so far have arrived (see {@link consumeColliderImpulses}). */
    public colliderImpulsesSettled(): Promise<void> {
        return this._impulses.settled();
    }

    /**
     * The GPU buffer of the particle positions (a vec4 per particle: xyz world, w the inverse mass), for kernels that
     * read the body where it is, such as `GpuRenderMeshWriter`. Read it only: the solver owns it.
     */
    public get particlePositions(): GPUBuffer {
        return this._buffers.positions;
    }

    /** @internal The GPU buffer of the start positions of the substep (vec4 per particle), for a `GpuContactGroup`. */
    public get _previousPositions(): GPUBuffer {
        return this._buffers.previous;
    }

    /** @internal The buffer holding the impulse accumulators (the multipliers'), for a `GpuContactGroup`. */
    public get _accumulatorBuffer(): GPUBuffer {
        return this._buffers.lambdas;
    }

    /** @internal The word of {@link _accumulatorBuffer} where the impulse accumulators start. */
    public get _accumulatorBase(): number {
        return this._buffers.impulseBase;
    }

    /** @internal The dynamic colliders of the step being encoded (one accumulator and motion record each). */
    public get _dynamicColliderCount(): number {
        return this._colliders.dynamicColliders.length;
    }

    /** The particle positions (xyz per particle, world) after the last submitted step, read back from the GPU. */
    public readPositions(): Promise<Float32Array> {
        return this._readVectors(this._buffers.positions);
    }

    /** The particle velocities (m/s, xyz per particle) after the last submitted step, read back from the GPU. */
    public readVelocities(): Promise<Float32Array> {
        return this._readVectors(this._buffers.velocities);
    }

    /**
     * Copies the particle positions and velocities after the last submitted step into `positions` and `velocities`
     * (xyz per particle, for instance the body's own arrays), through one staging buffer kept for these reads. The
     * arrays are written when the promise settles, a frame or more later; one read at a time.
     * @throws Error when a read is already in flight or an array is shorter than 3 × particleCount
     */
    public async readStateInto(positions: Float64Array, velocities: Float64Array): Promise<void> {
        const n = this.body.particleCount;
        if (positions.length < 3 * n || velocities.length < 3 * n) {
            throw new RangeError(`readStateInto needs arrays of at least ${3 * n} numbers`);
        }
        if (this._reading) {
            throw new Error("readStateInto: a read is already in flight; wait for it");
        }
        this._reading = true;
        const bytes = this._buffers.positions.size;
        this._staging ??= createBuffer(this.device, 2 * bytes, MAP_READ | COPY_DST, "state read-back");
        const staging = this._staging;
        const encoder = this.device.createCommandEncoder({ label: "xpbd state read-back" });
        encoder.copyBufferToBuffer(this._buffers.positions, 0, staging, 0, bytes);
        encoder.copyBufferToBuffer(this._buffers.velocities, 0, staging, bytes, bytes);
        this.device.queue.submit([encoder.finish()]);
        try {
            await staging.mapAsync(MAP_READ);
        } catch (error) {
            this._reading = false;
            // Disposed meanwhile: the staging buffer is destroyed, which aborts the map; nothing to read.
            if (this._disposed) {
                return;
            }
            throw error;
        }
        try {
            const vec4s = new Float32Array(staging.getMappedRange());
            const v = bytes / 4;
            for (let p = 0; p < n; p++) {
                for (let a = 0; a < 3; a++) {
                    positions[3 * p + a] = vec4s[4 * p + a];
                    velocities[3 * p + a] = vec4s[v + 4 * p + a];
                }
            }
            staging.unmap();
        } finally {
            this._reading = false;
        }
    }

    /**
     * Measures the body's figures on the GPU after the last submitted step (kinetic energy, the fastest free
     * particle, edge ratios and the most stretched edge, bending, volume, invalid particles: see {@link GpuFigures})
     * and reads them back, 64 bytes, a frame or so later. With `residuals` the read also writes the body's
     * per-particle `stretchResidual`, `volumeResidual` and `bendResidual` (12 bytes a particle more). Never waits
     * inside a step; one read at a time (rejects when one is in flight). The object resolved is reused by the next
     * read.
     *
     * Invalid state (the CPU world's containment, later): when the figures find a position or velocity that is not
     * finite or beyond `MAX_COORDINATE`, the body is put back, at rest, on the positions of the last read that found
     * none, after the steps submitted meanwhile; the host reports it. The CPU world does this at the end of the very
     * step, from the state of the step before; here the state restored is that of the last valid read, and the
     * steps between it and the read that found the fault are lost.
     *
     * A body with gas gets its gas's `volume` and `appliedPressure` from the read: those of the gas's last projection
     * in the step measured, as the core's projection leaves them.
     */
    public async readFigures(residuals = false): Promise<GpuFigures> {
        const invH2 = this._invH2;
        const figures = await this._figures.read(this.stepCount, residuals);
        // The gas's last projection of the step, for the body's `gas.volume` and `gas.appliedPressure` (a disabled
        // gas was not projected: it keeps its last figures, as on the CPU).
        const gas = this.body.gas;
        if (gas !== null && gas.enabled) {
            gas._setMeasured(figures.gasVolume, figures.gasMultiplier, invH2);
        }
        if (figures.invalidParticles > 0) {
            // The read restored the last valid positions, whose w holds the inverse masses of then.
            this._inverseMassesDirty = true;
        }
        return figures;
    }

    /**
     * Zeroes every particle's velocity on the GPU, after the steps submitted so far (the body falls asleep: the host
     * stops stepping it, as the CPU world stops a sleeping body, and it starts again from rest).
     */
    public stopMotion(): void {
        const encoder = this.device.createCommandEncoder({ label: "xpbd stop motion" });
        encoder.clearBuffer(this._buffers.velocities);
        this.device.queue.submit([encoder.finish()]);
    }

    /**
     * Uploads the body's positions, previous positions and velocities from its CPU arrays, replacing the GPU's: for
     * a host that moved the body (a teleport), or to restart from a state computed elsewhere.
     */
    public writeState(): void {
        this._buffers.writeState(this.body);
    }

    /** Uploads `body.externalForces` (N per particle): call after changing them; every later step applies them. */
    public writeExternalForces(): void {
        this.device.queue.writeBuffer(this._buffers.externalForces, 0, packVectors(this.body.externalForces));
    }

    /**
     * Tearing on the GPU (a body built with a tear ratio): tears the body as the CPU world does at the end of a step
     * (the core's `ClothTearing`, every edge longer than the tear ratio × its rest length, the most stretched first),
     * measured on the positions in the body's CPU arrays, which the host has read back from a step of this solver
     * ({@link readStateInto}); then brings the GPU to the new topology before the next step. The splits change the
     * body's CPU arrays (triangles, masses, constraints, tethers, pins, the particles made) exactly as on the CPU; on
     * the GPU each particle made takes its parent's position, previous position and velocity as the steps submitted
     * since the read left them (a copy in queue order), and the masses, external forces, triangles, constraint
     * records, batches, pins and tethers are uploaded again. With no step submitted between the read and this call
     * the body tears at the very step the CPU world would; each step submitted in between delays the tear by one.
     * Call between steps, never with a {@link readStateInto} in flight. The body's `tearing.tearCount` and `tears`
     * hold this call's splits; events (the `CapacityExceeded` of a body out of particles) go to `events`.
     * Allocation-free when nothing tears; a call that tears allocates the new records.
     * @returns the particles made (0 for a body that never tears)
     */
    public tear(events: EventQueue): number {
        const tearing = this.body.tearing;
        if (tearing === null) {
            return 0;
        }
        tearing.tearCount = 0;
        tearing.tear(this.body, events);
        if (tearing.tearCount > 0) {
            this._followTears(tearing);
        }
        return tearing.tearCount;
    }

    /** Releases every GPU buffer of the body (the compiled kernels stay with the device, for other bodies). */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._buffers.dispose();
        this._colliderBuffer.destroy();
        this._params.dispose();
        this._staging?.destroy();
        this._timer.dispose();
        this._impulses.dispose();
        this._pending.dispose();
        this._figures.dispose();
        this._validState.dispose();
        this._strain?.dispose();
        this._self?.dispose();
        this._tearScratch?.destroy();
    }

    /** @internal The step's start: inverse masses after pin changes, the forces, attached particles onto their anchors. */
    public _encodeStart(pass: GPUComputePassEncoder): void {
        const p = this._pipelines;
        const g = this._groups;
        const n = this.body.particleCount;
        const step0 = this._params.offset(0);
        // Before anything reads the dynamic colliders' records: the impulses in flight to the host added to them.
        this._pending.encodePredict(pass);
        if (this._inverseMassesDirty) {
            pass.setPipeline(p.setInverseMasses);
            this._bind(pass, g.predict, step0);
            pass.dispatchWorkgroups(groupsOf(n));
            this._inverseMassesDirty = false;
        }
        if (this._params.aerodynamics) {
            pass.setPipeline(p.triangleForces);
            this._bind(pass, g.aerodynamics, step0);
            pass.dispatchWorkgroups(groupsOf(this.body.triangles.length / 3));
        }
        pass.setPipeline(p.gatherForces);
        this._bind(pass, g.aerodynamics, step0);
        pass.dispatchWorkgroups(groupsOf(n));
        if (this.body.attachments.count > 0) {
            // As `XpbdWorld`'s step start: attached particles onto their anchors, where the host left the colliders.
            this._particlePass(pass, step0, this._passRecord.carry);
        }
    }

    /**
     * @internal Substep `s`'s start: the dynamic colliders' motion (as `XpbdWorld`, they accelerate, are stopped by the
     * held particles they press on, and move before the particles do), the prediction, and the self-contacts' hash from the predicted positions (as `XpbdWorld`).
     */
    public _encodeSubstepStart(pass: GPUComputePassEncoder, s: number): void {
        const params = this._params.offset(s);
        if (!this._sharedMotion) {
            this._encodeHeld(pass, s);
        }
        this._colliderMotion(pass, params, this._passRecord.begin);
        pass.setPipeline(this._pipelines.predict);
        this._bind(pass, this._groups.predict, params);
        pass.dispatchWorkgroups(groupsOf(Math.max(this.body.particleCount, this._constraints.lambdaCount)));
        if (this._colliding()) {
            this._self!.encodeBuild(pass, this._pipelines, params, this._offsets);
        }
    }

    /**
     * @internal Substep `s`'s held solve, before the dynamic colliders move (`heldContactsShader.ts`), where the body
     * has tethers and there are dynamic colliders: as `XpbdWorld`, bodies resting on held particles are stopped first.
     */
    public _encodeHeld(pass: GPUComputePassEncoder, s: number): void {
        if (this._params.tethers && this._colliders.dynamicColliders.length > 0) {
            pass.setPipeline(this._pipelines.heldContacts);
            this._bind(pass, this._groups.held, this._params.offset(s));
            pass.dispatchWorkgroups(1);
        }
    }

    /**
     * @internal The dynamic colliders' motion after substep `s`'s last particle pass that projected contacts or bounced,
     * which a group with one motion per collider dispatches after every body's pass (see {@link _sharedMotion}).
     */
    public _encodeDeferredMotion(pass: GPUComputePassEncoder, s: number): void {
        if (this._deferredMotion >= 0) {
            this._colliderMotion(pass, this._params.offset(s), this._deferredMotion);
            this._deferredMotion = -1;
        }
    }

    /** @internal Whether a particle pass left its motion for {@link _encodeDeferredMotion}. */
    public get _motionDeferred(): boolean {
        return this._deferredMotion >= 0;
    }

    /** @internal The first pass's tethers of substep `s`. */
    public _encodePassOpen(pass: GPUComputePassEncoder, s: number): void {
        if (this._params.tethers) {
            this._particlePass(pass, this._params.offset(s), this._passRecord.head);
        }
    }

    /**
     * @internal Pass `k` of substep `s`: the constraint sets, then the end of the pass (tethers, the strain limit in
     * the last, soft pins and collider contacts). Where contacts between particles follow the pass (self-collision's
     * here, a `GpuContactGroup`'s after it), the next pass's tethers or the velocities wait for
     * {@link _encodePassClose}; else they run in the same particle pass.
     */
    public _encodePass(pass: GPUComputePassEncoder, s: number, k: number): void {
        const params = this._params.offset(s);
        this._encodeSets(pass, params, (k & 1) === 1);
        const last = k + 1 === this.passCount;
        const records = this._passRecord;
        if (this._splitPasses()) {
            if (last && this._straining) {
                this._particlePass(pass, params, records.head);
                this._strain!.encode(pass, this._pipelines, params, this._offsets);
                this._particlePass(pass, params, records.settle);
            } else {
                this._particlePass(pass, params, records.tail);
            }
            if (this._colliding()) {
                this._self!.encodeProject(pass, this._pipelines, params, this._offsets);
            }
        } else if (!last) {
            // As `XpbdWorld`: a later pass opens with tethers only where soft pins or colliders may move particles.
            const reopen = this.body.pins.softCount > 0 || this._colliders.slotColliders.length > 0;
            this._particlePass(pass, params, reopen ? records.between : records.tail);
        } else if (this._straining) {
            // As `XpbdWorld._pass`: tethers, the strain limit, then soft pins and contacts, which have the final say.
            this._particlePass(pass, params, records.head);
            this._strain!.encode(pass, this._pipelines, params, this._offsets);
            this._particlePass(pass, params, records.settleLast);
        } else {
            this._particlePass(pass, params, records.last);
        }
    }

    /** @internal After the contacts that follow pass `k` (see {@link _encodePass}): the next pass's tethers, or the velocities. */
    public _encodePassClose(pass: GPUComputePassEncoder, s: number, k: number): void {
        if (!this._splitPasses()) {
            return;
        }
        const params = this._params.offset(s);
        if (k + 1 === this.passCount) {
            this._particlePass(pass, params, this._passRecord.velocity);
        } else if (this._params.tethers) {
            // Contacts between particles may have moved them since the last tethers (as `XpbdWorld`'s reopening).
            this._particlePass(pass, params, this._passRecord.head);
        }
    }

    /**
     * @internal The step's impulses on the dynamic colliders into the prediction's ring, while the accumulators hold
     * every impulse that moved them (a group with one motion per collider calls it before each body's accumulators
     * go back to its own share).
     */
    public _encodeRecordImpulses(pass: GPUComputePassEncoder): void {
        this._pending.encodeRecord(pass);
    }

    /** @internal The step's end: the impulses' record (unless the group's motion did it), the damping of deformation. */
    public _encodeEnd(pass: GPUComputePassEncoder): void {
        if (!this._sharedMotion) {
            this._pending.encodeRecord(pass);
        }
        if (this.body.damping > 0) {
            const step0 = this._params.offset(0);
            pass.setPipeline(this._pipelines.rigidMotion);
            this._bind(pass, this._groups.damping, step0);
            pass.dispatchWorkgroups(1);
            pass.setPipeline(this._pipelines.dampDeformation);
            pass.dispatchWorkgroups(groupsOf(this.body.particleCount));
        }
    }

    /** One sweep over the enabled sets, batch by batch; symmetric sets run their batches backwards when `backward`. */
    private _encodeSets(pass: GPUComputePassEncoder, params: number, backward: boolean): void {
        const sets = this._constraints.sets;
        for (let k = 0; k < sets.length; k++) {
            const gpuSet = sets[k];
            if (!gpuSet.set.enabled || gpuSet.set.count === 0) {
                continue;
            }
            if (gpuSet.kernel === ConstraintKernel.ShapeMatching || gpuSet.kernel === ConstraintKernel.Gas) {
                // The fit or the volume's sum (one workgroup), then the pull or the push: one batch.
                this._bind(pass, this._groups.constraint[gpuSet.kernel], params, this._firstBatch[k] * UNIFORM_STRIDE);
                pass.setPipeline(gpuSet.kernel === ConstraintKernel.Gas ? this._pipelines.gasSum : this._pipelines.shapeMatchingFit);
                pass.dispatchWorkgroups(1);
            }
            pass.setPipeline(this._pipelines.constraints[gpuSet.kernel]);
            const batches = gpuSet.starts.length - 1;
            const reverse = backward && gpuSet.set.symmetric;
            for (let b = 0; b < batches; b++) {
                const batch = reverse ? batches - 1 - b : b;
                this._bind(pass, this._groups.constraint[gpuSet.kernel], params, (this._firstBatch[k] + batch) * UNIFORM_STRIDE);
                // The gas's one constraint pushes every particle.
                const threads =
                    gpuSet.kernel === ConstraintKernel.Gas ? this.body.particleCount : gpuSet.starts[batch + 1] - gpuSet.starts[batch];
                pass.dispatchWorkgroups(Math.ceil(threads / WORKGROUP_SIZE));
            }
        }
    }

    /** Binds `group` at the substep's `Params` offset and, for the kernels that read one, a `Dispatch` offset. */
    private _bind(pass: GPUComputePassEncoder, group: GPUBindGroup, params: number, dispatch = -1): void {
        const offsets = this._offsets;
        offsets[0] = params;
        offsets[1] = dispatch;
        pass.setBindGroup(0, group, offsets, 0, dispatch < 0 ? 1 : 2);
    }

    /**
     * One particle pass in the mode of `record`; after one that projects contacts or bounces, the dynamic colliders
     * take its impulses (same-step coupling).
     */
    private _particlePass(pass: GPUComputePassEncoder, params: number, record: number): void {
        pass.setPipeline(this._pipelines.particlePass);
        this._bind(pass, this._groups.particle, params, record * UNIFORM_STRIDE);
        pass.dispatchWorkgroups(groupsOf(this.body.particleCount));
        if (record === this._passRecord.head || record === this._passRecord.carry) {
            return;
        }
        if (this._sharedMotion) {
            this._deferredMotion = record;
        } else {
            this._colliderMotion(pass, params, record);
        }
    }

    /** The dynamic colliders' motion kernel in the mode of `record` (see `colliderMotionShader.ts`), when there are any. */
    private _colliderMotion(pass: GPUComputePassEncoder, params: number, record: number): void {
        const dynamic = this._colliders.dynamicColliders.length;
        if (dynamic === 0) {
            return;
        }
        pass.setPipeline(this._pipelines.colliderMotion);
        this._bind(pass, this._groups.motion, params, record * UNIFORM_STRIDE);
        pass.dispatchWorkgroups(Math.ceil(dynamic / 64));
    }

    /**
     * Frees the particles attached to colliders that left the world, as `XpbdWorld.removeCollider` frees those of
     * the bodies in it (this body is not).
     */
    private _freeFromRemovedColliders(): void {
        const attachments = this.body.attachments;
        let k = 0;
        while (k < attachments.count) {
            const collider = attachments.colliders[attachments.particles[k]]!;
            if (this._colliders.firstSlot(collider) < 0) {
                // Every particle of that collider goes (all at k or later, in order): k is the next one kept.
                attachments.detachCollider(collider);
                this.body.wake();
            } else {
                k++;
            }
        }
    }

    /**
     * The GPU side of a tear ({@link tear}): the particles made copy their parents' state, in the order of the splits
     * (a particle made by one split may be split again), then everything the topology decides is uploaded again.
     */
    private _followTears(tearing: ClothTearing): void {
        const { body, device } = this;
        const buffers = this._buffers;
        const scratch = this._tearScratch!;
        const states = [buffers.positions, buffers.previous, buffers.velocities, ...this._validState._copies];
        const encoder = device.createCommandEncoder({ label: "xpbd tear" });
        for (let k = 0; k < tearing.tearCount; k++) {
            const parent = 16 * tearing.tears[TEAR_RECORD_SIZE * k + 2];
            const made = 16 * tearing.tears[TEAR_RECORD_SIZE * k + 3];
            for (const state of states) {
                encoder.copyBufferToBuffer(state, parent, scratch, 0, 16);
                encoder.copyBufferToBuffer(scratch, 0, state, made, 16);
            }
        }
        device.queue.submit([encoder.finish()]);
        this._constraints = packConstraints(body);
        const triangles = packTriangles(body);
        this._incidenceStarts = triangles.starts;
        const dispatches = packDispatches(this._constraints);
        this._firstBatch = dispatches.firstBatch;
        this._passRecord = dispatches.passRecord;
        buffers.writeTopology(body, this._constraints, triangles, dispatches.records);
        this._figures.bind(this._constraints);
        if (this._self !== null) {
            // Its hash and triangle records are sized for the particles and topology of its making.
            this._self.dispose();
            this._self = new SelfCollisionPass(device, body);
        }
        // The inverse masses (the positions' w, copied from the parents) are written again before the next step.
        this._uploadPins();
        this._groups = this._createGroups();
    }

    /** Uploads what the pin weights decide: inverse masses (applied by the next step), pin slots and tethers. */
    private _uploadPins(): void {
        const packed = packPins(this.body, this._incidenceStarts);
        const queue = this.device.queue;
        queue.writeBuffer(this._buffers.info, 0, packed.info);
        queue.writeBuffer(this._buffers.tethers, 0, packed.tethers);
        queue.writeBuffer(this._buffers.inverseMasses, 0, packed.inverseMasses);
        this._pinSlots = packed.slots;
        this._pinCompliances = packed.compliances;
        this._pinData = new Float32Array(Math.max(packed.slots.length, 1) * 8);
        this._inverseMassesDirty = true;
        this._attachments.accept(this.body);
        // The levels from the pins decide the sweep's order and which end of an edge stays.
        this._strain?.upload(this.body);
    }

    /** Uploads each pin's targets at the start and the end of the step. */
    private _writePinTargets(): void {
        const slots = this._pinSlots;
        if (slots.length === 0) {
            return;
        }
        const pins = this.body.pins;
        const data = this._pinData;
        for (let s = 0; s < slots.length; s++) {
            const i = 3 * slots[s];
            for (let axis = 0; axis < 3; axis++) {
                data[8 * s + axis] = pins.targetsStart[i + axis];
                data[8 * s + 4 + axis] = pins.targetsEnd[i + axis];
            }
            data[8 * s + 3] = this._pinCompliances[s];
        }
        this.device.queue.writeBuffer(this._buffers.pins, 0, data);
    }

    /**
     * Bytes of the collider buffer: the shape records, a pose record per shape and substep, the attachment records, the
     * dynamic colliders' motion records.
     */
    private _colliderBytes(substeps: number): number {
        return (
            this._colliders.shapes.byteLength +
            Math.max(this._colliders.slotColliders.length, 1) * substeps * POSE_VEC4S * 16 +
            this.body.attachments.count * ATTACHMENT_VEC4S * 16 +
            motionVec4s(this._colliders.dynamicColliders.length) * 16
        );
    }

    /** A collider buffer for the current records, with their shapes written (once per collider list). */
    private _createColliderBuffer(substeps: number): GPUBuffer {
        this._colliderBufferRecords = this._colliders;
        const buffer = createBuffer(this.device, this._colliderBytes(substeps), STORAGE | COPY_DST, "colliders");
        this.device.queue.writeBuffer(buffer, 0, this._colliders.shapes);
        return buffer;
    }

    /** Whether the body collides with itself in this step. */
    private _colliding(): boolean {
        return this._self !== null && this.body.selfCollision;
    }

    /** Whether contacts between particles follow each pass, so that its end is split (see {@link _encodePass}). */
    private _splitPasses(): boolean {
        return this._colliding() || this._grouped;
    }

    private _createGroups(): BindGroups {
        this._strain?.bind(this._pipelines.layouts, this._params.buffer, this._buffers.positions, this._buffers.lambdas);
        this._self?.bind(this._pipelines.layouts, this._params.buffer, this._buffers.positions, this._buffers.previous);
        return this._buffers.bindGroups(this._pipelines.layouts, this._params.buffer, this._colliderBuffer);
    }

    private async _readVectors(source: GPUBuffer): Promise<Float32Array> {
        const size = source.size;
        const staging = createBuffer(this.device, size, MAP_READ | COPY_DST, "read-back");
        const encoder = this.device.createCommandEncoder({ label: "xpbd read-back" });
        encoder.copyBufferToBuffer(source, 0, staging, 0, size);
        this.device.queue.submit([encoder.finish()]);
        await staging.mapAsync(MAP_READ);
        const vec4s = new Float32Array(staging.getMappedRange());
        const n = this.body.particleCount;
        const out = new Float32Array(3 * n);
        for (let p = 0; p < n; p++) {
            out[3 * p] = vec4s[4 * p];
            out[3 * p + 1] = vec4s[4 * p + 1];
            out[3 * p + 2] = vec4s[4 * p + 2];
        }
        staging.unmap();
        staging.destroy();
        return out;
    }
}

/** Workgroups covering `count` threads. */
function groupsOf(count: number): number {
    return Math.ceil(count / WORKGROUP_SIZE);
}
