import { COPY_DST, STORAGE, UNIFORM, createBuffer } from "./bodyBuffers.js";
import { ACCUMULATOR_WORDS } from "./colliderImpulses.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import type { GpuSoftBodySolver } from "./gpuSoftBodySolver.js";

/** Threads of a workgroup of the shared-impulse kernels (one per dynamic collider). */
const SHARED_THREADS = 64;

/**
 * One motion per dynamic collider across the bodies of a `GpuContactGroup`, as `XpbdWorld` moves a collider once per
 * substep from the contacts of every body. Each body still adds its contacts' impulses to its own accumulators (in
 * its multiplier buffer: the particle pass binds no other), and each still keeps its own copy of every dynamic
 * collider's motion record; these kernels make every body's accumulator hold the group's total before the motion
 * kernel reads it, so every copy takes the same impulses, in the same order, and moves bit for bit alike: one motion.
 *
 * The group's buffer holds, per dynamic collider (`ACCUMULATOR_WORDS` i32 words each, in accumulator order): the
 * group's total so far in the step (`N`), then per body the value last written into its accumulator (`B`) and the
 * body's own contributions so far (`C`). Dispatched body by body, one thread per collider:
 *
 * - `collect`: the body's contributions since its accumulator was last written (A − B: integer differences, exact)
 *   are added to `N` and to its `C`, and the new total is written back into its accumulator (A = B = N); the overflow
 *   flag is raised where the body raised it or where a magnitude sum (`N`'s, `C`'s) crossed 2³¹;
 * - `spread`: A = B = N (a body that collected before others did gets their impulses);
 * - `restore` (the step's end): A = C, the body's own impulses for the read-back (the host adds every body's, which
 *   sum to the one motion's), and `N`, `B`, `C` back to 0 as the accumulators are after the read-back's clear.
 *
 * Integer sums in a fixed order of dispatches: two runs give the same bits.
 */
export const SHARED_IMPULSES_WGSL = /* wgsl */ `
struct Shared {
    impulseBase: u32,
    colliders: u32,
    written: u32,
    contributed: u32,
}
@group(0) @binding(0) var<uniform> S: Shared;
@group(0) @binding(1) var<storage, read_write> lambdas: array<i32>;
@group(0) @binding(2) var<storage, read_write> sums: array<i32>;

const WORDS = ${ACCUMULATOR_WORDS}u;

/** Whether adding d to the unsigned magnitude sum \`before\` carries it across 2³¹ (see \`IMPULSE_WGSL\`). */
fn crosses(before: i32, d: i32) -> bool {
    let b = bitcast<u32>(before);
    return b < 0x80000000u && b + bitcast<u32>(d) >= 0x80000000u;
}

@compute @workgroup_size(${SHARED_THREADS})
fn collect(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= S.colliders) {
        return;
    }
    let a = S.impulseBase + id.x * WORDS;
    let n = id.x * WORDS;
    let b = S.written + n;
    let c = S.contributed + n;
    let raised = lambdas[a + 7u] != sums[b + 7u];
    let magnitude = lambdas[a + 6u] - sums[b + 6u];
    sums[n + 7u] = select(sums[n + 7u], 1, raised || crosses(sums[n + 6u], magnitude));
    sums[c + 7u] = select(sums[c + 7u], 1, raised || crosses(sums[c + 6u], magnitude));
    for (var w = 0u; w < WORDS; w++) {
        if (w != 7u) {
            // Two's-complement differences and sums: exact even where a partial sum wraps.
            let d = lambdas[a + w] - sums[b + w];
            sums[n + w] += d;
            sums[c + w] += d;
        }
        lambdas[a + w] = sums[n + w];
        sums[b + w] = sums[n + w];
    }
}

@compute @workgroup_size(${SHARED_THREADS})
fn spread(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= S.colliders) {
        return;
    }
    let a = S.impulseBase + id.x * WORDS;
    let n = id.x * WORDS;
    for (var w = 0u; w < WORDS; w++) {
        lambdas[a + w] = sums[n + w];
        sums[S.written + n + w] = sums[n + w];
    }
}

@compute @workgroup_size(${SHARED_THREADS})
fn restore(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= S.colliders) {
        return;
    }
    let a = S.impulseBase + id.x * WORDS;
    let n = id.x * WORDS;
    for (var w = 0u; w < WORDS; w++) {
        lambdas[a + w] = sums[S.contributed + n + w];
        sums[S.contributed + n + w] = 0;
        sums[S.written + n + w] = 0;
        sums[n + w] = 0;
    }
}
`;

/** The shared-impulse kernels, by entry point (see {@link SHARED_IMPULSES_WGSL}). */
export const SHARED_IMPULSE_KERNELS = ["collect", "spread", "restore"] as const;

/** A shared-impulse kernel's entry point. */
export type SharedImpulseKernel = (typeof SHARED_IMPULSE_KERNELS)[number];

/**
 * The group's side of one motion per dynamic collider (see {@link SHARED_IMPULSES_WGSL}): its sums buffer and a bind
 * group per body, made again only when a body's accumulators move (its colliders changed). A step allocates nothing
 * otherwise.
 */
export class SharedColliderMotion {
    private readonly _device: GPUDevice;
    private readonly _pipelines: SolverPipelines;
    /** Per body: the multiplier buffer, the first accumulator word, as last bound. */
    private readonly _buffers: GPUBuffer[] = [];
    private readonly _bases: number[] = [];
    private _colliders = 0;
    private _sums: GPUBuffer | null = null;
    private readonly _params: GPUBuffer[] = [];
    private readonly _groups: GPUBindGroup[] = [];

    /**
     * @param device - the group's device
     * @param pipelines - the solver's kernels compiled for it (with the shared-impulse kernels)
     */
    public constructor(device: GPUDevice, pipelines: SolverPipelines) {
        this._device = device;
        this._pipelines = pipelines;
    }

    /** Dynamic colliders the bodies share (every body of a group has the world's), 0 before {@link bind}. */
    public get colliders(): number {
        return this._colliders;
    }

    /**
     * Takes the bodies' accumulators as they are this step (after each one's `_beginStep`): rebuilds the sums (zeroed)
     * and the bind groups when any moved since the last call (their colliders changed), else allocates nothing.
     * @throws Error when the bodies do not have the same number of dynamic colliders
     */
    public bind(solvers: readonly GpuSoftBodySolver[]): void {
        const colliders = solvers[0]._dynamicColliderCount;
        let same = solvers.length === this._buffers.length && colliders === this._colliders;
        for (let b = 0; b < solvers.length; b++) {
            if (solvers[b]._dynamicColliderCount !== colliders) {
                throw new Error("the bodies of a contact group must share their dynamic colliders");
            }
            same = same && solvers[b]._accumulatorBuffer === this._buffers[b] && solvers[b]._accumulatorBase === this._bases[b];
        }
        if (same) {
            return;
        }
        this._release();
        this._colliders = colliders;
        const words = colliders * ACCUMULATOR_WORDS;
        for (const solver of solvers) {
            this._buffers.push(solver._accumulatorBuffer);
            this._bases.push(solver._accumulatorBase);
        }
        if (words === 0) {
            return;
        }
        const sums = createBuffer(this._device, 4 * words * (1 + 2 * solvers.length), STORAGE | COPY_DST, "group collider impulses");
        this._sums = sums;
        solvers.forEach((solver, k) => {
            const params = createBuffer(
                this._device,
                Uint32Array.of(solver._accumulatorBase, colliders, words * (1 + 2 * k), words * (2 + 2 * k)),
                UNIFORM | COPY_DST,
                "group collider impulse params",
            );
            this._params.push(params);
            this._groups.push(
                this._device.createBindGroup({
                    layout: this._pipelines.layouts.sharedImpulses,
                    entries: [params, solver._accumulatorBuffer, sums].map((buffer, binding) => ({ binding, resource: { buffer } })),
                }),
            );
        });
    }

    /** Dispatches `kernel` for body `b` (see {@link SHARED_IMPULSES_WGSL}). */
    public encode(pass: GPUComputePassEncoder, kernel: SharedImpulseKernel, b: number): void {
        pass.setPipeline(this._pipelines.sharedImpulses[kernel]);
        pass.setBindGroup(0, this._groups[b]);
        pass.dispatchWorkgroups(Math.ceil(this.colliders / SHARED_THREADS));
    }

    /** Releases the sums buffer and the bodies' parameters. */
    public dispose(): void {
        this._release();
    }

    private _release(): void {
        this._sums?.destroy();
        this._sums = null;
        for (const params of this._params) {
            params.destroy();
        }
        this._params.length = 0;
        this._groups.length = 0;
        this._buffers.length = 0;
        this._bases.length = 0;
        this._colliders = 0;
    }
}
