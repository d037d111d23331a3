import type { Collider } from "../core/index.js";
import { COPY_DST, MAP_READ, createBuffer } from "./bodyBuffers.js";

/**
 * Words of one dynamic collider's accumulator: linear impulse (3), angular impulse about the centre of mass (3), the
 * sum of every contribution's largest component (u32, for the overflow test), the overflow flag, the number of
 * contact projections (for the motion kernel's mass split: `colliderMotionShader.ts`) and the collider attachments'
 * share of the angular impulse (3, already in the angular words: the motion kernel turns the collider by it within
 * the substep, as the core's `Collider._turn`). Accumulators start 16-byte aligned.
 */
export const ACCUMULATOR_WORDS = 12;

/**
 * The largest float below 2³¹: a contribution is clamped to it before it becomes an `i32` (a single contribution
 * that large has overflowed anyway, and the flag says so).
 */
const FIXED_MAX = 2147483520;

/**
 * A step's impulse on a dynamic collider may reach its mass times this speed change (m/s) before its sum can
 * overflow, plus {@link RANGE_ACCELERATION} × dt: far beyond any push a soft body gives in one step.
 */
const RANGE_SPEED = 100;
/** See {@link RANGE_SPEED} (m/s²). */
const RANGE_ACCELERATION = 1e4;
/** Lever arms (m) up to this multiple of the collider's bounding radius about its centre of mass fit the angular scale. */
const LEVER_MARGIN = 2;
/** Smallest lever arm the angular scale allows for (m): a point-like collider still has particles a thickness off it. */
const MIN_LEVER = 0.1;
/** Lever arm assumed for a collider with an unbounded shape (a plane), m. */
const UNBOUNDED_LEVER = 1e3;

/**
 * Accumulation in WGSL, over the atomic multiplier buffer `lambdas` (see `particlePassShader.ts`). Each
 * contribution is rounded to the nearest integer of its collider's scale and added with `atomicAdd`: integer sums
 * do not depend on the order the threads add in, so the result is bit-for-bit deterministic. Two's-complement sums
 * wrap, so only the total must fit in an `i32` (intermediate sums may wrap and come back); the contribution's
 * largest component is added to an unsigned magnitude sum, and the thread whose addition carries it across 2³¹
 * raises the overflow flag: below that, no component's total can have left the `i32` range.
 */
export const IMPULSE_WGSL = /* wgsl */ `
fn fixedPoint(v: vec3<f32>) -> vec3<i32> {
    return vec3<i32>(round(clamp(v, vec3<f32>(-${FIXED_MAX}.0), vec3<f32>(${FIXED_MAX}.0))));
}

fn accumulateImpulse(word: u32, linear: vec3<f32>, angular: vec3<f32>) {
    let l = fixedPoint(linear);
    let a = fixedPoint(angular);
    atomicAdd(&lambdas[word], l.x);
    atomicAdd(&lambdas[word + 1u], l.y);
    atomicAdd(&lambdas[word + 2u], l.z);
    atomicAdd(&lambdas[word + 3u], a.x);
    atomicAdd(&lambdas[word + 4u], a.y);
    atomicAdd(&lambdas[word + 5u], a.z);
    let largest = max(abs(l), abs(a));
    let size = u32(max(largest.x, max(largest.y, largest.z)));
    let before = bitcast<u32>(atomicAdd(&lambdas[word + 6u], bitcast<i32>(size)));
    if (before < 0x80000000u && before + size >= 0x80000000u) {
        atomicStore(&lambdas[word + 7u], 1);
    }
}

fn countContact(word: u32) {
    atomicAdd(&lambdas[word + 8u], 1);
}

// A collider attachment's angular impulse, already added by accumulateImpulse (same value, same rounding), again in
// the turn words.
fn accumulateTurn(word: u32, angular: vec3<f32>) {
    let a = fixedPoint(angular);
    atomicAdd(&lambdas[word + 9u], a.x);
    atomicAdd(&lambdas[word + 10u], a.y);
    atomicAdd(&lambdas[word + 11u], a.z);
}
`;

/** The impulses one body put on the dynamic colliders in one step, as read back from the GPU. */
export interface StepImpulses {
    /** The step the figures belong to: the solver's `stepCount` just after it (1 for the first step). */
    readonly step: number;
    /**
     * The solver's `time` when the step started (s): the host that applies the figures later gives the body the
     * displacement of every step since (its time now less this).
     */
    readonly time: number;
    /** The dynamic colliders of that step, in the order of the arrays below. */
    readonly colliders: readonly Collider[];
    /** Linear impulse on each collider (N·s, xyz per collider): what the host adds to the collider's body. */
    readonly linear: Float64Array;
    /**
     * Each collider's `forecastImpulse` when the step started (N·s, xyz per collider): what the host said it would
     * give the body during the step itself, so that the figures' {@link linear} less this is what is left to give.
     */
    readonly forecast: Float64Array;
    /** Angular impulse on each collider about its centre of mass (N·m·s, world, xyz per collider). */
    readonly angular: Float64Array;
    /**
     * Per collider, 1 where the sums may have overflowed (the contributions' magnitudes added up past the `i32`
     * range: a push of over 100 m/s × the collider's mass in one step), in which case its figures are not to be
     * used; else 0.
     */
    readonly overflowed: Uint8Array;
}

/** One staging buffer of the ring, and the figures it brings back. */
interface Staging {
    buffer: GPUBuffer;
    /** Colliders it can hold. */
    capacity: number;
    report: { -readonly [K in keyof StepImpulses]: StepImpulses[K] };
    /** The scales (linear, angular per collider) the step used. */
    scales: Float64Array;
}

/**
 * The host side of two-way coupling on the GPU: chooses each dynamic collider's fixed-point scales, copies the
 * accumulators to a staging buffer at the end of every step (then zeroes them for the next), maps it asynchronously
 * and turns what arrives into {@link StepImpulses}. No step waits: the figures of step n arrive a frame or so later.
 *
 * Scales: a collider of mass M gets a linear range R = M × (100 m/s + 10⁴ m/s² × dt) N·s over the 2³¹ integers, so
 * the rounding of one contribution changes its speed by at most R / (2·2³¹·M) ≈ 6·10⁻⁸ m/s at 60 Hz, and the
 * angular range is R × ℓ with ℓ twice the collider's bounding radius about its centre of mass (at least 0.1 m). A
 * step that pushes harder raises the collider's overflow flag (see {@link IMPULSE_WGSL}) rather than reporting a
 * wrapped sum.
 *
 * The ring starts with three staging buffers and grows only when all of them are still mapping (a host that steps
 * faster than the GPU reads back), so every step's figures arrive, in step order.
 */
export class ColliderImpulses {
    /** Scales of the current step, linear and angular per dynamic collider (units per N·s and per N·m·s). */
    public scales = new Float64Array(0);

    private readonly _free: Staging[] = [];
    /** Staging buffers mapping, oldest first, with the promise of their map. */
    private readonly _mapping: { staging: Staging; done: Promise<void> }[] = [];
    /** Staging buffers whose figures arrived and are not consumed yet, in step order. */
    private readonly _arrived: Staging[] = [];
    /** The staging buffer {@link encode} filled, for {@link afterSubmit}. */
    private _pending: Staging | null = null;
    private _disposed = false;

    public constructor(private readonly _device: GPUDevice) {
        for (let k = 0; k < 3; k++) {
            this._free.push(this._createStaging(1));
        }
    }

    /** Chooses the scales of a step of `dt` seconds for `colliders` (the dynamic ones, in accumulator order). */
    public prepare(colliders: readonly Collider[], dt: number): void {
        if (this.scales.length !== 2 * colliders.length) {
            this.scales = new Float64Array(2 * colliders.length);
        }
        for (let c = 0; c < colliders.length; c++) {
            const collider = colliders[c];
            const range = collider.mass * (RANGE_SPEED + RANGE_ACCELERATION * dt);
            // As the GPU holds them (f32), so that decoding divides by exactly what the contributions were scaled by.
            this.scales[2 * c] = Math.fround(FIXED_MAX / range);
            this.scales[2 * c + 1] = Math.fround(FIXED_MAX / (range * leverArm(collider)));
        }
    }

    /**
     * Encodes the copy of the accumulators (at byte `offset` of `source`) of step `step`, started at `time` (s), into a
     * staging buffer and their zeroing; call {@link afterSubmit} once the encoder is submitted.
     */
    public encode(
        encoder: GPUCommandEncoder,
        source: GPUBuffer,
        offset: number,
        colliders: readonly Collider[],
        step: number,
        time: number,
    ): void {
        if (colliders.length === 0) {
            return;
        }
        let staging = this._free.pop() ?? this._createStaging(colliders.length);
        if (staging.capacity < colliders.length) {
            staging.buffer.destroy();
            staging = this._createStaging(colliders.length);
        }
        const bytes = colliders.length * ACCUMULATOR_WORDS * 4;
        encoder.copyBufferToBuffer(source, offset, staging.buffer, 0, bytes);
        encoder.clearBuffer(source, offset, bytes);
        staging.report.step = step;
        staging.report.time = time;
        staging.report.colliders = colliders;
        for (let c = 0; c < colliders.length; c++) {
            staging.report.forecast.set(colliders[c].forecastImpulse, 3 * c);
        }
        staging.scales.set(this.scales);
        this._pending = staging;
    }

    /** Starts mapping the staging buffer {@link encode} filled (after the submit that copies into it). */
    public afterSubmit(): void {
        const staging = this._pending;
        if (!staging) {
            return;
        }
        this._pending = null;
        const entry = { staging, done: Promise.resolve() };
        entry.done = staging.buffer.mapAsync(MAP_READ).then(
            () => {
                this._decode(staging);
                staging.buffer.unmap();
                this._mapping.splice(this._mapping.indexOf(entry), 1);
                this._arrived.push(staging);
                this._arrived.sort(byStep);
            },
            () => {
                // Disposed meanwhile: the buffer is destroyed, which aborts the map; nothing arrives.
                this._mapping.splice(this._mapping.indexOf(entry), 1);
            },
        );
        this._mapping.push(entry);
    }

    /**
     * Hands every step's figures that arrived since the last call to `visit`, oldest first, then recycles them:
     * `visit` must copy what it keeps.
     */
    public consume(visit: (impulses: StepImpulses) => void): void {
        const arrived = this._arrived;
        for (let k = 0; k < arrived.length; k++) {
            visit(arrived[k].report);
            this._free.push(arrived[k]);
        }
        arrived.length = 0;
    }

    /** Steps encoded whose figures are not consumed yet (mapping, or arrived): in flight to the host. */
    public get inFlightCount(): number {
        return this._mapping.length + this._arrived.length;
    }

    /**
     * The figures of the `k`th step in flight (k from 0 below {@link inFlightCount}, in no particular order): their `step`,
     * `time` and `colliders` are set from the encode; their impulses only once they arrived.
     */
    public inFlight(k: number): StepImpulses {
        const mapping = this._mapping.length;
        return k < mapping ? this._mapping[k].staging.report : this._arrived[k - mapping].report;
    }

    /** Settles when the figures of every step encoded so far have arrived. */
    public async settled(): Promise<void> {
        while (this._mapping.length > 0) {
            await this._mapping[this._mapping.length - 1].done;
        }
    }

    /** Releases the staging buffers (maps in flight are aborted). */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        for (const staging of [...this._free, ...this._arrived, ...this._mapping.map((entry) => entry.staging)]) {
            staging.buffer.destroy();
        }
    }

    private _createStaging(capacity: number): Staging {
        return {
            buffer: createBuffer(this._device, capacity * ACCUMULATOR_WORDS * 4, MAP_READ | COPY_DST, "collider impulse read-back"),
            capacity,
            report: {
                step: 0,
                time: 0,
                colliders: [],
                linear: new Float64Array(3 * capacity),
                forecast: new Float64Array(3 * capacity),
                angular: new Float64Array(3 * capacity),
                overflowed: new Uint8Array(capacity),
            },
            scales: new Float64Array(2 * capacity),
        };
    }

    private _decode(staging: Staging): void {
        const words = new Int32Array(staging.buffer.getMappedRange());
        const { report, scales } = staging;
        for (let c = 0; c < report.colliders.length; c++) {
            const o = c * ACCUMULATOR_WORDS;
            for (let axis = 0; axis < 3; axis++) {
                report.linear[3 * c + axis] = words[o + axis] / scales[2 * c];
                report.angular[3 * c + axis] = words[o + 3 + axis] / scales[2 * c + 1];
            }
            report.overflowed[c] = words[o + 7] !== 0 ? 1 : 0;
        }
    }
}

/** Orders staging buffers by the step their figures belong to (maps need not settle in submission order). */
function byStep(a: Staging, b: Staging): number {
    return a.report.step - b.report.step;
}

/**
 * The lever arm the angular scale allows for: {@link LEVER_MARGIN} × the largest distance from the collider's centre of
 * mass to a corner of a shape's bounds (collider frame), at least {@link MIN_LEVER}.
 */
function leverArm(collider: Collider): number {
    let radius = 0;
    const c = collider.centerOfMass;
    for (const shape of collider.shapes) {
        const b = shape.bounds;
        let corner = 0;
        for (let axis = 0; axis < 3; axis++) {
            const far = Math.max(Math.abs(b[axis] - c[axis]), Math.abs(b[axis + 3] - c[axis]));
            corner += far * far;
        }
        radius = Math.max(radius, Math.sqrt(corner));
    }
    return Number.isFinite(radius) ? Math.max(LEVER_MARGIN * radius, MIN_LEVER) : UNBOUNDED_LEVER;
}
