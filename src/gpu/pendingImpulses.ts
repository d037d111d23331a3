import type { Collider } from "../core/index.js";
import { ATTACHMENT_VEC4S } from "./attachmentRecords.js";
import { COPY_DST, COPY_SRC, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { ACCUMULATOR_WORDS, type ColliderImpulses } from "./colliderImpulses.js";
import { MOTION_VEC4S } from "./colliderMotionRecords.js";
import { COLLIDER_TURN_WGSL, ROTATION_ROWS_WGSL } from "./colliderMotionShader.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import { POSE_VEC4S } from "./particlePassShader.js";

/** Threads of a workgroup of the prediction's kernels. */
const PENDING_THREADS = 64;

/** Steps the ring holds at first; it doubles whenever more are in flight at once. */
const INITIAL_SLOTS = 4;

/** Words of the uniform block ({@link PENDING_IMPULSES_WGSL}'s `Pending`). */
const HEADER_WORDS = 9;

/**
 * The prediction of the impulses in flight, in WGSL (a Smith predictor: the GPU's step starts from the host's pose of
 * a dynamic collider, which lacks the impulses of the steps whose read-back the host has not applied yet, so the
 * step adds their effect first). The ring buffer holds one weight vec4 per slot (x: 1 where the slot's step is in
 * flight and its colliders are this step's, y: the seconds from that step's start to this one's), then per slot and
 * dynamic collider what the host has still to give of the step's linear and angular impulse (two vec4s, decoded from
 * the accumulators with the step's scales, the linear one less the host's forecast that its body got during the step,
 * `Collider.forecastImpulse` in the motion record; zero where the sums overflowed, as the host then applies nothing
 * more). One thread per dynamic collider, or per attachment:
 *
 * - `record` (the step's end, before the read-back's copy clears the accumulators): the step's impulses into its slot;
 * - `predict` (the step's start, before anything reads the motion records): each collider's record gains what the
 *   host will give its body, as `HavokColliderSync.applyLateImpulse` does with the same time: v += ΣJ/M,
 *   ω += I⁻¹ΣL, the centre of mass moves by Σ J/M·t and the rotation turns by I⁻¹Σ L·t about it (t each step's
 *   seconds), and the world inverse inertia follows the turn;
 * - `carry` (then): the attachment records' start anchors on dynamic colliders (where the `Carry` pass puts their
 *   particles) at the predicted pose.
 *
 * The slots are summed in slot order, so two runs with the same history give the same bits.
 */
export const PENDING_IMPULSES_WGSL = /* wgsl */ `
struct Pending {
    motionBase: u32,
    impulseBase: u32,
    colliders: u32,
    capacity: u32,
    slots: u32,
    slot: u32,
    attachmentBase: u32,
    attachments: u32,
    poseBase: u32,
}
@group(0) @binding(0) var<uniform> S: Pending;
@group(0) @binding(1) var<storage, read_write> colliders: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> lambdas: array<i32>;
@group(0) @binding(3) var<storage, read_write> ring: array<vec4<f32>>;

${ROTATION_ROWS_WGSL}
${COLLIDER_TURN_WGSL}

fn motionAt(c: u32) -> u32 {
    return S.motionBase + 1u + c * ${MOTION_VEC4S}u;
}

// Where collider c's impulses of slot s start in the ring.
fn entry(s: u32, c: u32) -> u32 {
    return S.slots + 2u * (s * S.capacity + c);
}

@compute @workgroup_size(${PENDING_THREADS})
fn record(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = id.x;
    if (c >= S.colliders) {
        return;
    }
    let r = motionAt(c);
    let word = u32(colliders[r + 5u].w);
    let o = entry(S.slot, c);
    if (lambdas[word + 7u] != 0) {
        ring[o] = vec4<f32>(0.0);
        ring[o + 1u] = vec4<f32>(0.0);
        return;
    }
    let j = vec3<f32>(vec3<i32>(lambdas[word], lambdas[word + 1u], lambdas[word + 2u])) / colliders[r + 6u].w;
    let l = vec3<f32>(vec3<i32>(lambdas[word + 3u], lambdas[word + 4u], lambdas[word + 5u])) / colliders[r + 8u].w;
    // The host gave the body its forecast during the step already: only the rest is still to come.
    ring[o] = vec4<f32>(j - colliders[r + 14u].xyz, 0.0);
    ring[o + 1u] = vec4<f32>(l, 0.0);
}

@compute @workgroup_size(${PENDING_THREADS})
fn predict(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = id.x;
    if (c >= S.colliders) {
        return;
    }
    var j = vec3<f32>(0.0);
    var l = vec3<f32>(0.0);
    var jt = vec3<f32>(0.0);
    var lt = vec3<f32>(0.0);
    for (var s = 0u; s < S.slots; s++) {
        let weight = ring[s];
        if (weight.x != 0.0) {
            let o = entry(s, c);
            j += ring[o].xyz;
            l += ring[o + 1u].xyz;
            jt += ring[o].xyz * weight.y;
            lt += ring[o + 1u].xyz * weight.y;
        }
    }
    let r = motionAt(c);
    let invMass = colliders[r].w;
    // Rows of the world inverse inertia at the host's pose (symmetric), as the host turns the body.
    let inertia = mat3x3<f32>(colliders[r + 11u].xyz, colliders[r + 12u].xyz, colliders[r + 13u].xyz);
    colliders[r] = vec4<f32>(colliders[r].xyz + jt * invMass, invMass);
    colliders[r + 2u] = vec4<f32>(colliders[r + 2u].xyz + j * invMass, colliders[r + 2u].w);
    colliders[r + 3u] = vec4<f32>(colliders[r + 3u].xyz + l * inertia, colliders[r + 3u].w);
    let q = turned(colliders[r + 1u], 0.5 * (lt * inertia));
    colliders[r + 1u] = q;
    let turnedInertia = worldInverseInertia(r, q);
    for (var row = 0u; row < 3u; row++) {
        colliders[r + 11u + row] = vec4<f32>(turnedInertia[row], colliders[r + 11u + row].w);
    }
}

@compute @workgroup_size(${PENDING_THREADS})
fn carry(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= S.attachments) {
        return;
    }
    let a = S.attachmentBase + ${ATTACHMENT_VEC4S}u * id.x;
    let anchor = colliders[a];
    // The first substep's pose record of the collider's first shape: its accumulator word, −1 unless dynamic.
    let accumulator = colliders[S.poseBase + u32(anchor.w) * ${POSE_VEC4S}u + 6u].w;
    if (accumulator < 0.0) {
        return;
    }
    let r = motionAt((u32(accumulator) - S.impulseBase) / ${ACCUMULATOR_WORDS}u);
    let rows = rotationRows(colliders[r + 1u]);
    let origin = colliders[r].xyz - colliders[r + 5u].xyz * rows;
    colliders[a + 1u] = vec4<f32>(origin + anchor.xyz * rows, colliders[a + 1u].w);
}
`;

/** The prediction's kernels, by entry point (see {@link PENDING_IMPULSES_WGSL}). */
export const PENDING_IMPULSE_KERNELS = ["record", "predict", "carry"] as const;

/** A prediction kernel's entry point. */
export type PendingImpulseKernel = (typeof PENDING_IMPULSE_KERNELS)[number];

/**
 * The host side of the impulses' prediction ({@link PENDING_IMPULSES_WGSL}) for one solver: the ring of the last
 * steps' impulses on the GPU, its weights (which steps are still in flight to the host, from the solver's
 * {@link ColliderImpulses}, and how long ago each started) and the dispatches. A step in flight whose dynamic colliders
 * are not this step's (the world's colliders changed since) is not predicted: its slots hold other colliders.
 *
 * The ring starts with {@link INITIAL_SLOTS} steps and doubles (copying the steps it holds) when more are in flight
 * than it holds, as the read-back's staging ring grows, so every step in flight is predicted. A solver that does not
 * predict (`GpuSoftBodySolver.predictImpulsesInFlight` off) records nothing, and a step with nothing in flight
 * dispatches no prediction, so a host that applies every step's impulses before the next sees the solver unchanged.
 * The weights are written every step from arrays made once; buffers are made only as the ring or the colliders grow.
 */
export class PendingImpulses {
    private _slots = INITIAL_SLOTS;
    /** Dynamic colliders each slot holds. */
    private _capacity = 0;
    private _ring: GPUBuffer | null = null;
    private readonly _params: GPUBuffer;
    private readonly _header = new Uint32Array(HEADER_WORDS);
    private _weights = new Float32Array(4 * INITIAL_SLOTS);
    private _group: GPUBindGroup | null = null;
    /** The buffers {@link _group} binds. */
    private _boundColliders: GPUBuffer | null = null;
    private _boundLambdas: GPUBuffer | null = null;
    /** This step's dynamic colliders, how many attachments, and whether any step in flight is predicted. */
    private _dynamic = 0;
    private _attachments = 0;
    private _predicts = false;
    /** The first step whose impulses the ring holds since the solver last did not predict. */
    private _firstRecorded = 1;

    public constructor(
        private readonly _device: GPUDevice,
        private readonly _pipelines: SolverPipelines,
    ) {
        // A uniform block's size is a multiple of 16 bytes.
        this._params = createBuffer(_device, 16 * Math.ceil(HEADER_WORDS / 4), UNIFORM | COPY_DST, "pending impulse params");
    }

    /**
     * Before step `step` (started at `time`, s) with the `dynamic` colliders, where the solver `predicts`: weighs the
     * steps of `inFlight` whose impulses the host has not applied yet (those recorded since it predicts), and uploads
     * the weights and where the step's records lie: in `colliders` the first substep's pose records at vec4
     * `poseBase`, `attachments` attachment records at `attachmentBase` and the motion records at `motionBase`; in
     * `lambdas` the accumulators from word `impulseBase`.
     */
    public prepare(
        predicts: boolean,
        step: number,
        time: number,
        dynamic: readonly Collider[],
        inFlight: ColliderImpulses,
        colliders: GPUBuffer,
        lambdas: GPUBuffer,
        poseBase: number,
        attachmentBase: number,
        attachments: number,
        motionBase: number,
        impulseBase: number,
    ): void {
        this._dynamic = dynamic.length;
        this._attachments = attachments;
        this._predicts = false;
        if (!predicts || dynamic.length === 0) {
            // Nothing recorded: a later prediction starts from the steps after this one.
            this._dynamic = 0;
            this._firstRecorded = step + 1;
            return;
        }
        // The oldest step in flight with these colliders: the ring must hold every step from it to this one.
        let oldest = step;
        for (let k = 0; k < inFlight.inFlightCount; k++) {
            const report = inFlight.inFlight(k);
            if (report.colliders === dynamic && report.step >= this._firstRecorded) {
                oldest = Math.min(oldest, report.step);
            }
        }
        let slots = this._slots;
        while (slots < step - oldest + 1) {
            slots *= 2;
        }
        if (this._ring === null || dynamic.length > this._capacity || slots > this._slots) {
            this._grow(slots, Math.max(dynamic.length, this._capacity), step, oldest);
        }
        if (this._boundColliders !== colliders || this._boundLambdas !== lambdas || this._group === null) {
            this._bind(colliders, lambdas);
        }
        const weights = this._weights;
        weights.fill(0);
        for (let k = 0; k < inFlight.inFlightCount; k++) {
            const report = inFlight.inFlight(k);
            if (report.colliders === dynamic && report.step >= this._firstRecorded) {
                const slot = report.step % this._slots;
                weights[4 * slot] = 1;
                weights[4 * slot + 1] = time - report.time;
                this._predicts = true;
            }
        }
        const header = this._header;
        header[0] = motionBase;
        header[1] = impulseBase;
        header[2] = dynamic.length;
        header[3] = this._capacity;
        header[4] = this._slots;
        header[5] = step % this._slots;
        header[6] = attachmentBase;
        header[7] = attachments;
        header[8] = poseBase;
        const queue = this._device.queue;
        queue.writeBuffer(this._params, 0, header);
        // Without a step to predict, `predict` is not dispatched and the weights are not read.
        if (this._predicts) {
            queue.writeBuffer(this._ring!, 0, weights);
        }
    }

    /** At the step's start: the dynamic colliders' records and their attachments' start anchors, at the predicted pose. */
    public encodePredict(pass: GPUComputePassEncoder): void {
        if (!this._predicts) {
            return;
        }
        this._dispatch(pass, "predict", this._dynamic);
        if (this._attachments > 0) {
            this._dispatch(pass, "carry", this._attachments);
        }
    }

    /** At the step's end, while the accumulators hold the step's impulses: those into the step's slot. */
    public encodeRecord(pass: GPUComputePassEncoder): void {
        if (this._dynamic > 0) {
            this._dispatch(pass, "record", this._dynamic);
        }
    }

    /** Releases the buffers. */
    public dispose(): void {
        this._ring?.destroy();
        this._params.destroy();
    }

    private _dispatch(pass: GPUComputePassEncoder, kernel: PendingImpulseKernel, threads: number): void {
        pass.setPipeline(this._pipelines.pendingImpulses[kernel]);
        pass.setBindGroup(0, this._group!);
        pass.dispatchWorkgroups(Math.ceil(threads / PENDING_THREADS));
    }

    /**
     * A ring of `slots` steps of `capacity` colliders, holding the old one's steps from `oldest` to `step` − 1 (those
     * still to be predicted; when the capacity changes the colliders changed, and none is).
     */
    private _grow(slots: number, capacity: number, step: number, oldest: number): void {
        const ring = createBuffer(this._device, 16 * (slots + 2 * slots * capacity), STORAGE | COPY_DST | COPY_SRC, "pending impulses");
        const old = this._ring;
        if (old !== null && capacity === this._capacity && oldest < step) {
            const encoder = this._device.createCommandEncoder({ label: "xpbd pending impulses growth" });
            const bytes = 32 * capacity;
            for (let s = oldest; s < step; s++) {
                const from = 16 * (this._slots + 2 * (s % this._slots) * capacity);
                const to = 16 * (slots + 2 * (s % slots) * capacity);
                encoder.copyBufferToBuffer(old, from, ring, to, bytes);
            }
            this._device.queue.submit([encoder.finish()]);
        }
        old?.destroy();
        this._ring = ring;
        this._slots = slots;
        this._capacity = capacity;
        this._weights = new Float32Array(4 * slots);
        this._group = null;
    }

    private _bind(colliders: GPUBuffer, lambdas: GPUBuffer): void {
        this._boundColliders = colliders;
        this._boundLambdas = lambdas;
        this._group = this._device.createBindGroup({
            label: "xpbd pending impulses",
            layout: this._pipelines.layouts.pendingImpulses,
            entries: [this._params, colliders, lambdas, this._ring!].map((buffer, binding) => ({ binding, resource: { buffer } })),
        });
    }
}
