import { interiorEdges } from "../core/softContacts.js";
import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { BODY_RECORD_WORDS } from "./bodyContactsShader.js";
import { compiledSolverPipelines, type SolverPipelines } from "./gpuPipelines.js";
import type { GpuSoftBodySolver } from "./gpuSoftBodySolver.js";
import { SCAN_SIZE } from "./particleContactShader.js";
import { SharedColliderMotion } from "./sharedColliderMotion.js";
import { encodeParticleHashBuild } from "./particleHashBuild.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { StepTimer } from "./stepTimer.js";

/**
 * Soft bodies on the GPU that touch each other: steps several {@link GpuSoftBodySolver}s together, in one command
 * buffer, with the contacts between them (the CPU world's `softContacts`) solved as `XpbdWorld` solves them: a hash
 * of every body's surface particles rebuilt every substep after all the bodies predicted, and the contacts projected
 * after each solver pass of all the bodies, before the next pass. Each contact keeps a particle of one body the mean
 * of the two bodies' thicknesses from a triangle of the other, on the side it started the substep on, with friction,
 * and moves the particle and the triangle's corners by their inverse masses (momentum is exchanged by the masses,
 * and conserved); the moves are summed in fixed point and applied Jacobi-style, so the result does not depend on
 * thread order. Pairs whose collision groups keep them apart (`membership`, `collideWith`) do not touch; with the
 * world's `softContacts` off, none do.
 *
 * The group moves each dynamic collider once for all its bodies, as `XpbdWorld` does (`sharedColliderMotion.ts`): the
 * held solves body after body at each substep's start, then after each pass of every body the sum of their contacts'
 * impulses. Every body's copy of the collider takes the same sums and moves alike; each body's read-back hands on
 * its own impulses, which add up to the one motion's.
 *
 * The bodies keep their own buffers; the group holds a copy of their particles (gathered before each use) and the
 * hash, made once for the group: a step allocates nothing. Every body must be on the same device and have the same
 * world (its substeps and iterations pace the step). While in a group, a body is stepped by the group's
 * {@link step} only (its solver's own `step` would step it alone). Bodies without triangles take no part in the
 * contacts but are stepped.
 */
export class GpuContactGroup {
    /** The group's bodies, in the order their particles are gathered. */
    public readonly solvers: readonly GpuSoftBodySolver[];
    private readonly _device: GPUDevice;
    private readonly _pipelines: SolverPipelines;
    private readonly _params: GPUBuffer;
    private readonly _records: GPUBuffer;
    private readonly _positions: GPUBuffer;
    private readonly _previous: GPUBuffer;
    private readonly _counts: GPUBuffer;
    private readonly _table: GPUBuffer;
    private readonly _frozen: GPUBuffer;
    private readonly _sums: GPUBuffer;
    private readonly _group: GPUBindGroup;
    private readonly _bodyParams: GPUBuffer[] = [];
    private readonly _bodyGroups: GPUBindGroup[] = [];
    /** The bodies' records as written each step (thickness, friction, collision groups). */
    private readonly _bodyWords: Uint32Array;
    private readonly _bodyFloats: Float32Array;
    private readonly _particles: number;
    private readonly _triangles: number;
    private readonly _buckets: number;
    /** `GroupParams` as written (see `bodyContactsShader.ts`), and its float view for the largest thickness. */
    private readonly _paramsData = new ArrayBuffer(32);
    private readonly _paramsFloats = new Float32Array(this._paramsData);
    private _disposed = false;
    /** The timestamps of the group's step pass (see {@link gpuStepMs}). */
    private readonly _timer: StepTimer;
    /** One motion per dynamic collider for every body (see {@link step}). */
    private readonly _shared: SharedColliderMotion;

    /**
     * @param solvers - the bodies, each in at most one group, on one device, with one world
     * @throws Error when there are none, a body appears twice, the devices or worlds differ, or the kernels are not compiled
     */
    public constructor(solvers: readonly GpuSoftBodySolver[]) {
        if (solvers.length === 0) {
            throw new Error("a contact group needs at least one body");
        }
        if (new Set(solvers).size !== solvers.length) {
            throw new Error("a contact group holds each body once");
        }
        const device = solvers[0].device;
        const world = solvers[0].world;
        this._timer = new StepTimer(device);
        if (solvers.some((s) => s.device !== device || s.world !== world)) {
            throw new Error("the bodies of a contact group must share one device and one world");
        }
        const pipelines = compiledSolverPipelines(device);
        if (!pipelines) {
            throw new Error("the solver's kernels are not compiled for this device yet: await GpuSoftBodySolver.compile(device)");
        }
        this.solvers = [...solvers];
        this._device = device;
        this._pipelines = pipelines;
        this._shared = new SharedColliderMotion(device, pipelines);
        const firsts: number[] = [];
        let particles = 0;
        let triangles = 0;
        let edgeSum = 0;
        for (const { body } of solvers) {
            firsts.push(particles);
            particles += body.particleCount;
            triangles += body.triangles.length / 3;
            const rest = body.restPositions;
            const tri = body.triangles;
            const edge = (i: number, j: number): number =>
                Math.hypot(rest[3 * i] - rest[3 * j], rest[3 * i + 1] - rest[3 * j + 1], rest[3 * i + 2] - rest[3 * j + 2]);
            for (let t = 0; t < tri.length; t += 3) {
                edgeSum += edge(tri[t], tri[t + 1]) + edge(tri[t + 1], tri[t + 2]) + edge(tri[t + 2], tri[t]);
            }
        }
        this._particles = particles;
        this._triangles = triangles;
        // As the core's `SoftContacts.attach`: cells of the mean rest edge of every body's triangles.
        const cell = edgeSum > 0 ? edgeSum / (3 * triangles) : 1;
        let buckets = 16;
        while (buckets < 2 * particles) {
            buckets *= 2;
        }
        this._buckets = buckets;
        const n = solvers.length;
        const triangleBase = BODY_RECORD_WORDS * n;
        const flagBase = triangleBase + 4 * triangles;
        const records = new Uint32Array(flagBase + particles);
        let t0 = 0;
        solvers.forEach(({ body }, b) => {
            const tri = body.triangles;
            const interior = interiorEdges(body);
            const first = firsts[b];
            for (let t = 0; t < tri.length / 3; t++) {
                const w = triangleBase + 4 * (t0 + t);
                records[w] = first + tri[3 * t];
                records[w + 1] = first + tri[3 * t + 1];
                records[w + 2] = first + tri[3 * t + 2];
                records[w + 3] = (interior !== null ? interior[t] : 0) | (b << 3);
            }
            t0 += tri.length / 3;
            // The particles that take part: the corners of triangles (a cloth's all, a tetrahedral body's surface).
            for (let k = 0; k < tri.length; k++) {
                records[flagBase + first + tri[k]] = b + 1;
            }
            records[BODY_RECORD_WORDS * b + 5] = first;
            records[BODY_RECORD_WORDS * b + 6] = body.particleCount;
        });
        this._bodyWords = records.slice(0, triangleBase);
        this._bodyFloats = new Float32Array(this._bodyWords.buffer);
        const storage = (data: ArrayBufferView | number, label: string): GPUBuffer => createBuffer(device, data, STORAGE | COPY_DST, label);
        this._records = storage(records, "group contact records");
        this._positions = storage(16 * particles, "group positions");
        this._previous = storage(16 * particles, "group start positions");
        this._counts = storage(4 * buckets, "group cell counts");
        this._table = storage(4 * (buckets + 1 + particles + SCAN_SIZE), "group cell table");
        this._frozen = storage(16 * particles, "group predicted positions");
        // 4 words per particle, the largest motion, then a split count per particle.
        this._sums = storage(4 * (5 * particles + 1), "group contact sums");
        const words = new Uint32Array(this._paramsData);
        this._paramsFloats[0] = 1 / cell;
        words[1] = buckets - 1;
        words[2] = buckets;
        words[3] = particles;
        words[4] = triangles;
        words[5] = triangleBase;
        words[6] = flagBase;
        this._params = createBuffer(device, this._paramsData, UNIFORM | COPY_DST, "group contact params");
        const layouts = pipelines.layouts;
        const group = [this._params, this._positions, this._previous, this._records, this._counts, this._table, this._frozen, this._sums];
        this._group = device.createBindGroup({
            layout: layouts.bodyContacts,
            entries: group.map((buffer, binding) => ({ binding, resource: { buffer } })),
        });
        solvers.forEach((solver, b) => {
            const params = createBuffer(
                device,
                Uint32Array.of(firsts[b], solver.body.particleCount, 4 * particles + 1, 0),
                UNIFORM | COPY_DST,
                "group body params",
            );
            this._bodyParams.push(params);
            const buffers = [params, solver.particlePositions, solver._previousPositions, this._positions, this._previous, this._sums];
            this._bodyGroups.push(
                device.createBindGroup({
                    layout: layouts.bodyTransfer,
                    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
                }),
            );
        });
    }

    /**
     * Advances every body of the group by `dt` seconds, with the contacts between them, in one command buffer (as
     * each solver's `step`, interleaved substep by substep and pass by pass). Never waits for the GPU.
     */
    public step(dt: number): void {
        if (this._disposed) {
            throw new Error("the contact group is disposed");
        }
        const solvers = this.solvers;
        for (const solver of solvers) {
            solver._grouped = true;
        }
        try {
            this._writeBodies();
            for (const solver of solvers) {
                solver._beginStep(dt);
            }
            // Every body has the world's dynamic colliders: with two bodies or more, each collider moves once.
            const shared = solvers.length > 1 && solvers[0]._dynamicColliderCount > 0;
            if (shared) {
                this._shared.bind(solvers);
            }
            for (const solver of solvers) {
                solver._sharedMotion = shared;
            }
            const encoder = this._device.createCommandEncoder({ label: "xpbd group step" });
            const pass = encoder.beginComputePass({ label: "xpbd group step", timestampWrites: this._timer.timestampWrites });
            for (const solver of solvers) {
                solver._encodeStart(pass);
            }
            const world = solvers[0].world;
            const passes = solvers[0].passCount;
            // With the world's contacts between bodies off, the group only moves its dynamic colliders as one.
            const contacts = world.softContacts.enabled;
            for (let s = 0; s < world.substeps; s++) {
                if (shared) {
                    this._encodeHeld(pass, s);
                }
                for (const solver of solvers) {
                    solver._encodeSubstepStart(pass, s);
                }
                if (contacts) {
                    this._encodeBuild(pass);
                }
                for (const solver of solvers) {
                    solver._encodePassOpen(pass, s);
                }
                for (let k = 0; k < passes; k++) {
                    for (const solver of solvers) {
                        solver._encodePass(pass, s, k);
                    }
                    if (contacts) {
                        this._encodeProject(pass);
                    }
                    if (shared) {
                        this._encodeMotion(pass, s);
                    }
                    for (const solver of solvers) {
                        solver._encodePassClose(pass, s, k);
                    }
                    if (shared) {
                        this._encodeMotion(pass, s);
                    }
                }
            }
            if (shared) {
                // Every body's prediction records the group's total, which the host applies as the bodies' shares.
                for (const solver of solvers) {
                    solver._encodeRecordImpulses(pass);
                }
                // Each body's accumulators back to its own impulses, for its read-back (the host adds them up).
                for (let b = 0; b < solvers.length; b++) {
                    this._shared.encode(pass, "restore", b);
                }
            }
            for (const solver of solvers) {
                solver._encodeEnd(pass);
            }
            pass.end();
            const timed = this._timer.encodeResolve(encoder);
            for (const solver of solvers) {
                solver._encodeAfterPass(encoder);
            }
            this._device.queue.submit([encoder.finish()]);
            if (timed) {
                this._timer.read();
            }
            for (const solver of solvers) {
                solver._afterSubmit(false);
            }
        } finally {
            for (const solver of solvers) {
                solver._grouped = false;
                solver._sharedMotion = false;
            }
        }
    }

    /**
     * GPU milliseconds of a recent step of the whole group (every body's dispatches and the contacts between them, in
     * its one compute pass), from timestamp queries on a device with the `timestamp-query` feature, read back
     * asynchronously as a solver's `gpuStepMs` is; NaN without the feature or before the first read. The bodies'
     * own `gpuStepMs` keep the figure of their last step alone: a grouped step writes no timestamps of its own for each.
     */
    public get gpuStepMs(): number {
        return this._timer.ms;
    }

    /** Releases the group's buffers (not the bodies': their solvers own them). */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._timer.dispose();
        this._shared.dispose();
        for (const buffer of [
            this._params,
            this._records,
            this._positions,
            this._previous,
            this._counts,
            this._table,
            this._frozen,
            this._sums,
        ]) {
            buffer.destroy();
        }
        for (const buffer of this._bodyParams) {
            buffer.destroy();
        }
    }

    /** Uploads the bodies' thickness, friction and collision groups, and the largest thickness (allocates nothing). */
    private _writeBodies(): void {
        const words = this._bodyWords;
        const floats = this._bodyFloats;
        let maxThickness = 0;
        for (let b = 0; b < this.solvers.length; b++) {
            const body = this.solvers[b].body;
            const r = BODY_RECORD_WORDS * b;
            floats[r] = body.thickness;
            floats[r + 1] = body.staticFriction;
            floats[r + 2] = body.kineticFriction;
            words[r + 3] = body.membership;
            words[r + 4] = body.collideWith;
            maxThickness = Math.max(maxThickness, body.thickness);
        }
        const queue = this._device.queue;
        queue.writeBuffer(this._records, 0, words);
        this._paramsFloats[7] = maxThickness;
        queue.writeBuffer(this._params, 0, this._paramsData);
    }

    /**
     * Substep `s`'s held solves, body after body as `XpbdWorld`'s (Gauss–Seidel): each body's accumulators first get
     * what the bodies before it added (its held solve starts from the collider's velocity after theirs), and its own
     * impulses go into the group's total; then every body gets the total, which the motion's `Begin` applies.
     */
    private _encodeHeld(pass: GPUComputePassEncoder, s: number): void {
        const solvers = this.solvers;
        for (let b = 0; b < solvers.length; b++) {
            if (b > 0) {
                this._shared.encode(pass, "spread", b);
            }
            solvers[b]._encodeHeld(pass, s);
            this._shared.encode(pass, "collect", b);
        }
        for (let b = 0; b < solvers.length - 1; b++) {
            this._shared.encode(pass, "spread", b);
        }
    }

    /**
     * The dynamic colliders' motion after a particle pass of every body that projected contacts or bounced (none after
     * one that did not): every body's impulses of the pass are summed (Jacobi between bodies, as between the particles
     * of one body; each contact's mass split counts the contacts of every body), and every body's copy of the collider
     * takes the sum: one motion.
     */
    private _encodeMotion(pass: GPUComputePassEncoder, s: number): void {
        const solvers = this.solvers;
        if (!solvers[0]._motionDeferred) {
            return;
        }
        for (let b = 0; b < solvers.length; b++) {
            this._shared.encode(pass, "collect", b);
        }
        for (let b = 0; b < solvers.length - 1; b++) {
            this._shared.encode(pass, "spread", b);
        }
        for (const solver of solvers) {
            solver._encodeDeferredMotion(pass, s);
        }
    }

    /** The hash of the group's particles, after every body predicted its positions (the core's `find`). */
    private _encodeBuild(pass: GPUComputePassEncoder): void {
        this._gather(pass);
        pass.setBindGroup(0, this._group);
        encodeParticleHashBuild(pass, this._pipelines.bodyContacts, this._buckets, this._particles);
    }

    /** One projection of the contacts, after a pass of every body: gather, project, and each body's moves back. */
    private _encodeProject(pass: GPUComputePassEncoder): void {
        this._gather(pass);
        pass.setBindGroup(0, this._group);
        // A group of ropes (tied to one plank) has no triangles, so no contacts to project.
        if (this._triangles > 0) {
            pass.setPipeline(this._pipelines.bodyContacts.projectPairs);
            pass.dispatchWorkgroups(Math.ceil(this._triangles / WORKGROUP_SIZE));
        }
        pass.setPipeline(this._pipelines.bodyTransfer.scatter);
        this._perBody(pass);
    }

    /** Copies every body's positions and start positions into the group's buffers. */
    private _gather(pass: GPUComputePassEncoder): void {
        pass.setPipeline(this._pipelines.bodyTransfer.gather);
        this._perBody(pass);
    }

    /** Dispatches the pipeline set on `pass` once per body, a thread per particle, with the body's bind group. */
    private _perBody(pass: GPUComputePassEncoder): void {
        for (let b = 0; b < this.solvers.length; b++) {
            pass.setBindGroup(0, this._bodyGroups[b]);
            pass.dispatchWorkgroups(Math.ceil(this.solvers[b].body.particleCount / WORKGROUP_SIZE));
        }
    }
}
