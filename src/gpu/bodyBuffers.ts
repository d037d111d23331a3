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
 * surface triangles for the air, and the dispatch records. The per-particle buffers hold the body's particle capacity
 * (more than its particles for a cloth that may tear), so that a tear rewrites the topology and never moves the state
 * ({@link writeTopology}).
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
    public impulseBase: number;
    /** Accumulator words {@link lambdas} has room for. */
    private _impulseWords = 0;
    public readonly triangles: GPUBuffer;
    public readonly triangleForces: GPUBuffer;
    public readonly incidence: GPUBuffer;
    /** The rigid motion the damping is relative to (see `dampingShader.ts`). */
    public readonly rigid: GPUBuffer;
    /** The constraint records of each kernel (replaced by {@link writeTopology}). */
    public records: Readonly<Record<ConstraintKernel, GPUBuffer>>;
    /** The dispatch records (replaced by {@link writeTopology}). */
    public dispatches: GPUBuffer;

    public constructor(
        private readonly _device: GPUDevice,
        body: SoftBody,
        constraints: ConstraintRecords,
        triangles: { triangles: Uint32Array; incidence: Uint32Array },
        dispatchRecords: Uint32Array,
    ) {
        const n = body.particleCapacity;
        const storage = (data: ArrayBufferView | ArrayBuffer | number, label: string): GPUBuffer =>
            createBuffer(_device, data, STORAGE | COPY_DST | COPY_SRC, label);
        this.positions = storage(16 * n, "positions");
        this.previous = storage(16 * n, "previous positions");
        this.velocities = storage(16 * n, "velocities");
        this.writeState(body);
        this.externalForces = storage(packVectors(body.externalForces), "external forces");
        this.forces = storage(16 * n, "forces");
        this.masses = storage(Float32Array.from(body.masses), "masses");
        this.inverseMasses = storage(4 * n, "inverse masses");
        this.info = storage(16 * n, "particle info");
        this.tethers = storage(32 * n, "tethers");
        this.held = storage(16 * HELD_VEC4S * n, "held contacts");
        this.pins = storage(32 * n, "pins");
        this.impulseBase = impulseBase(constraints.lambdaCount, n);
        this.lambdas = this._createLambdas();
        this.triangles = storage(triangles.triangles, "triangles");
        this.triangleForces = storage(Math.max(body.triangles.length / 3, 1) * 16, "triangle forces");
        this.incidence = storage(triangles.incidence, "triangle incidence");
        this.rigid = storage(48, "rigid motion");
        this.records = this._createRecords(constraints);
        this.dispatches = createBuffer(_device, dispatchRecords, UNIFORM | COPY_DST, "dispatch records");
    }

    /**
     * Brings the buffers to the body's topology after a tear (`GpuSoftBodySolver.tear`): the masses, the external
     * forces, the triangles and their incidence are rewritten; the constraint records, the dispatch records and the
     * multipliers, whose sizes follow the constraint counts, are made again (zeroed multipliers, as every substep
     * starts them). The particle state stays where it is. Allocates: for a step that tore only.
     */
    public writeTopology(
        body: SoftBody,
        constraints: ConstraintRecords,
        triangles: { triangles: Uint32Array; incidence: Uint32Array },
        dispatchRecords: Uint32Array,
    ): void {
        const queue = this._device.queue;
        queue.writeBuffer(this.masses, 0, Float32Array.from(body.masses));
        queue.writeBuffer(this.externalForces, 0, packVectors(body.externalForces));
        queue.writeBuffer(this.triangles, 0, triangles.triangles);
        queue.writeBuffer(this.incidence, 0, triangles.incidence);
        for (const buffer of Object.values(this.records)) {
            buffer.destroy();
        }
        this.records = this._createRecords(constraints);
        this.dispatches.destroy();
        this.dispatches = createBuffer(this._device, dispatchRecords, UNIFORM | COPY_DST, "dispatch records");
        this.impulseBase = impulseBase(constraints.lambdaCount, body.particleCapacity);
        this.lambdas.destroy();
        this.lambdas = this._createLambdas();
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
        this._impulseWords = words;
        this.lambdas = this._createLambdas();
        return true;
    }

    /** The multiplier buffer with room for the impulse accumulators reserved so far, zeroed. */
    private _createLambdas(): GPUBuffer {
        return createBuffer(
            this._device,
            4 * (this.impulseBase + this._impulseWords),
            STORAGE | COPY_DST | COPY_SRC,
            "multipliers, touch records and impulse accumulators",
        );
    }

    /** A buffer per kernel holding its constraint records. */
    private _createRecords(constraints: ConstraintRecords): Record<ConstraintKernel, GPUBuffer> {
        const storage = (kernel: ConstraintKernel, label: string): GPUBuffer =>
            createBuffer(this._device, constraints.records[kernel], STORAGE | COPY_DST | COPY_SRC, label);
        return {
            [ConstraintKernel.Distance]: storage(ConstraintKernel.Distance, "distance records"),
            [ConstraintKernel.IsometricBend]: storage(ConstraintKernel.IsometricBend, "isometric bend records"),
            [ConstraintKernel.DihedralBend]: storage(ConstraintKernel.DihedralBend, "dihedral bend records"),
            [ConstraintKernel.Volume]: storage(ConstraintKernel.Volume, "volume records"),
            [ConstraintKernel.ShapeMatching]: storage(ConstraintKernel.ShapeMatching, "shape matching records"),
            [ConstraintKernel.Gas]: storage(ConstraintKernel.Gas, "gas gradients"),
        };
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
