import type { SoftBody } from "../core/index.js";
import { ConstraintKernel, packParticles, packVectors, type ConstraintRecords } from "./bodyRecords.js";
import type { SolverPipelines } from "./gpuPipelines.js";
import { HELD_VEC4S } from "./heldLayout.js";
import { impulseBase } from "./multiplierLayout.js";
import { DISPATCH_SIZE, PARAMS_SIZE } from "./substepParams.js";

/** WebGPU's buffer usage and map mode flags (the spec's values; the globals may not exist outside a browser). */
export const MAP_READ = 0x1;
export const COPY_SRC = 0x4;
export const COPY_DST = 0x8;
export const UNIFORM = 0x40;
export const STORAGE = 0x80;

/** The bind groups of the kernel families (one per constraint kernel). */
export type BindGroups = Record<"predict" | "particle" | "motion" | "held" | "aerodynamics" | "damping", GPUBindGroup> & {
    constraint: GPUBindGroup[];
};

/** A buffer holding `data`, or `data` bytes of zeros; never empty (bindings may not be), a multiple of 16 bytes. */
export function createBuffer(device: GPUDevice, data: ArrayBufferView | ArrayBuffer | number, usage: number, label: string): GPUBuffer {
    const bytes = typeof data === "number" ? data : data.byteLength;
    const buffer = device.createBuffer({ label: `xpbd ${label}`, size: Math.max(16, Math.ceil(bytes / 16) * 16), usage });
    if (typeof data !== "number") {
        const source = data instanceof ArrayBuffer ? data : data.buffer;
        device.queue.writeBuffer(buffer, 0, source, data instanceof ArrayBuffer ? 0 : data.byteOffset, bytes);
    }
    return buffer;
}

/**
 * One body's buffers on the GPU: the particle state (vec4s: positions with the inverse mass in w, previous
 * positions, velocities), forces, masses, the pin and tether tables, the multipliers (with the touch records and the
 * impulse accumulators after them, see `multiplierLayout.ts`), the constraint records of each kernel, the
 * surface triangles for the air, and the dispatch records.
 */
export class BodyBuffers {
    public readonly positions: GPUBuffer;
    public readonly previous: GPUBuffer;
    public readonly velocities: GPUBuffer;
    public readonly externalForces: GPUBuffer;
    /** External plus aerodynamic force per particle, for the step (N). */
    public readonly forces: GPUBuffer;
    public readonly masses: GPUBuffer;
    /** New inverse masses, copied into `positions.w` after pin weights changed. */
    public readonly inverseMasses: GPUBuffer;
    /** Per particle: pin slot, incidence range (see `packPins`). */
    public readonly info: GPUBuffer;
    public readonly tethers: GPUBuffer;
    /** The held solve's contact state and list (see `heldContactsShader.ts`). */
    public readonly held: GPUBuffer;
    /** Pin slots' targets (see `PIN_WGSL`). */
    public readonly pins: GPUBuffer;
    /** The multipliers, then the touch records, then the impulse accumulators (layout: `multiplierLayout.ts`). */
    public lambdas: GPUBuffer;
    /** Word of {@link lambdas} where the impulse accumulators start (16-byte aligned, after the touch records). */
    public readonly impulseBase: number;
    /** Accumulator words {@link lambdas} has room for. */
    private _impulseWords = 0;
    public readonly triangles: GPUBuffer;
    public readonly triangleForces: GPUBuffer;
    public readonly incidence: GPUBuffer;
    /** The rigid motion the damping is relative to (see `dampingShader.ts`). */
    public readonly rigid: GPUBuffer;
    public readonly records: Readonly<Record<ConstraintKernel, GPUBuffer>>;
    public readonly dispatches: GPUBuffer;

    public constructor(
        private readonly _device: GPUDevice,
        body: SoftBody,
        constraints: ConstraintRecords,
        triangles: { triangles: Uint32Array; incidence: Uint32Array },
        dispatchRecords: Uint32Array,
    ) {
        const n = body.particleCount;
        const storage = (data: ArrayBufferView | ArrayBuffer | number, label: string): GPUBuffer =>
            createBuffer(_device, data, STORAGE | COPY_DST | COPY_SRC, label);
        const particles = packParticles(body);
        this.positions = storage(particles.positions, "positions");
        this.previous = storage(particles.previous, "previous positions");
        this.velocities = storage(particles.velocities, "velocities");
        this.externalForces = storage(packVectors(body.externalForces), "external forces");
        this.forces = storage(16 * n, "forces");
        this.masses = storage(Float32Array.from(body.masses), "masses");
        this.inverseMasses = storage(4 * n, "inverse masses");
        this.info = storage(16 * n, "particle info");
        this.tethers = storage(32 * n, "tethers");
        this.held = storage(16 * HELD_VEC4S * n, "held contacts");
        this.pins = storage(32 * n, "pins");
        this.impulseBase = impulseBase(constraints.lambdaCount, n);
        this.lambdas = storage(4 * this.impulseBase, "multipliers and touch records");
        this.triangles = storage(triangles.triangles, "triangles");
        this.triangleForces = storage(Math.max(body.triangles.length / 3, 1) * 16, "triangle forces");
        this.incidence = storage(triangles.incidence, "triangle incidence");
        this.rigid = storage(48, "rigid motion");
        this.records = {
            [ConstraintKernel.Distance]: storage(constraints.records[ConstraintKernel.Distance], "distance records"),
            [ConstraintKernel.IsometricBend]: storage(constraints.records[ConstraintKernel.IsometricBend], "isometric bend records"),
            [ConstraintKernel.DihedralBend]: storage(constraints.records[ConstraintKernel.DihedralBend], "dihedral bend records"),
            [ConstraintKernel.Volume]: storage(constraints.records[ConstraintKernel.Volume], "volume records"),
            [ConstraintKernel.ShapeMatching]: storage(constraints.records[ConstraintKernel.ShapeMatching], "shape matching records"),
            [ConstraintKernel.Gas]: storage(constraints.records[ConstraintKernel.Gas], "gas gradients"),
        };
        this.dispatches = createBuffer(_device, dispatchRecords, UNIFORM | COPY_DST, "dispatch records");
    }

    /**
     * Makes room for `words` words of impulse accumulators, zeroed, replacing {@link lambdas} when it is too small (the
     * multipliers and touch records need not be kept: every substep starts them at zero, and ends with none). Returns whether it was replaced, so that bind
     * groups that use it must be rebuilt.
     */
    public reserveImpulseWords(words: number): boolean {
        if (words <= this._impulseWords) {
            return false;
        }
        this.lambdas.destroy();
        this.lambdas = createBuffer(
            this._device,
            4 * (this.impulseBase + words),
            STORAGE | COPY_DST | COPY_SRC,
            "multipliers, touch records and impulse accumulators",
        );
        this._impulseWords = words;
        return true;
    }

    /** Writes the body's positions, previous positions and velocities from its CPU arrays. */
    public writeState(body: SoftBody): void {
        const particles = packParticles(body);
        const queue = this._device.queue;
        queue.writeBuffer(this.positions, 0, particles.positions);
        queue.writeBuffer(this.previous, 0, particles.previous);
        queue.writeBuffer(this.velocities, 0, particles.velocities);
    }

    /** The bind groups of every kernel family, over these buffers, the step's uniforms and the collider buffer. */
    public bindGroups(layouts: SolverPipelines["layouts"], params: GPUBuffer, colliders: GPUBuffer): BindGroups {
        const p = { buffer: params, size: PARAMS_SIZE };
        const d = { buffer: this.dispatches, size: DISPATCH_SIZE };
        const group = (layout: GPUBindGroupLayout, buffers: (GPUBuffer | GPUBufferBinding)[]): GPUBindGroup =>
            this._device.createBindGroup({
                layout,
                entries: buffers.map((b, binding) => ({ binding, resource: "buffer" in b ? b : { buffer: b } })),
            });
        const kernels = [
            ConstraintKernel.Distance,
            ConstraintKernel.IsometricBend,
            ConstraintKernel.DihedralBend,
            ConstraintKernel.Volume,
            ConstraintKernel.ShapeMatching,
        ];
        return {
            predict: group(layouts.predict, [
                p,
                this.positions,
                this.previous,
                this.velocities,
                this.forces,
                this.info,
                this.pins,
                this.lambdas,
                this.inverseMasses,
            ]),
            constraint: [
                ...kernels.map((kernel) => group(layouts.constraint, [p, d, this.positions, this.lambdas, this.records[kernel]])),
                group(layouts.gas, [
                    p,
                    d,
                    this.positions,
                    this.lambdas,
                    this.triangles,
                    this.incidence,
                    this.info,
                    this.records[ConstraintKernel.Gas],
                ]),
            ],
            particle: group(layouts.particle, [
                p,
                d,
                this.positions,
                this.previous,
                this.velocities,
                this.info,
                this.tethers,
                this.pins,
                colliders,
                this.lambdas,
            ]),
            motion: group(layouts.motion, [p, d, colliders, this.lambdas]),
            held: group(layouts.held, [p, this.positions, this.velocities, this.tethers, colliders, this.lambdas, this.held, this.info]),
            aerodynamics: group(layouts.aerodynamics, [
                p,
                this.positions,
                this.velocities,
                this.triangles,
                this.triangleForces,
                this.info,
                this.incidence,
                this.externalForces,
                this.forces,
            ]),
            damping: group(layouts.damping, [p, this.positions, this.velocities, this.masses, this.rigid]),
        };
    }

    /** Releases every buffer. */
    public dispose(): void {
        const buffers = [
            this.positions,
            this.previous,
            this.velocities,
            this.externalForces,
            this.forces,
            this.masses,
            this.inverseMasses,
            this.info,
            this.tethers,
            this.held,
            this.pins,
            this.lambdas,
            this.triangles,
            this.triangleForces,
            this.incidence,
            this.rigid,
            this.dispatches,
            ...Object.values(this.records),
        ];
        for (const buffer of buffers) {
            buffer.destroy();
        }
    }
}
