import { SOLVER_KERNELS_BASE64, SOLVER_KERNELS_SIMD_BASE64 } from "./solverKernelsBinary.js";

/**
 * The exports of `solverKernels.wat`. The arguments are byte offsets into the memory and counts (small integers:
 * passing them never allocates); each kernel's real-valued arguments are read from {@link KernelMemory.scalar}.
 */
export interface SolverKernels {
    /**
     * `DistanceConstraints.project`; scalar α̃. Four constraints at a time where the platform has WebAssembly SIMD
     * (`solverKernelsSimd.wat`), with the same result: `independent` holds one i32 per constraint, 1 where that
     * constraint and the next three share no particle (only the SIMD kernel reads it).
     */
    distance(indices: number, restLengths: number, lambdas: number, count: number, x: number, w: number, independent: number): void;
    /**
     * `IsometricBendConstraints.project`, `reverse` 1 for back to front; scalar α/h². Four elements at a time where
     * the platform has WebAssembly SIMD (`solverKernelsSimd.wat`), with the same result: `independent` holds one i32
     * per element, 1 where that element and the next three share no particle (only the SIMD kernel reads it).
     */
    isometricBend(
        indices: number,
        weights: number,
        hingeLengths2: number,
        lambdas: number,
        count: number,
        x: number,
        w: number,
        reverse: number,
        independent: number,
    ): void;
    /** `TetherConstraints.project`; scalar the slack. */
    tethers(particles: number, anchors: number, lengths: number, count: number, x: number): void;
    /**
     * `XpbdWorld`'s start of a substep over `count` particles: `x` copied to `previous`, velocities and positions of
     * the free particles advanced by gravity and the forces; scalars h, then gravity·h along x, y and z.
     */
    predict(x: number, previous: number, velocities: number, w: number, forces: number, aerodynamicForces: number, count: number): void;
    /** `XpbdWorld`'s end of a substep: `velocities = (x − previous) / h` over `length` values; scalar 1/h. */
    velocities(x: number, previous: number, velocities: number, length: number): void;
}

/** Where a body's arrays come from: plain typed arrays, or views into its {@link KernelMemory}. */
export interface ArrayAllocator {
    /** A zeroed Float64Array of `length` elements. */
    f64(length: number): Float64Array;
    /** A zeroed Int32Array of `length` elements. */
    i32(length: number): Int32Array;
}

/** Plain typed arrays: what a body uses without WebAssembly (the JavaScript loops run on them). */
export const PLAIN_ARRAYS: ArrayAllocator = {
    f64: (length) => new Float64Array(length),
    i32: (length) => new Int32Array(length),
};

const PAGE_BYTES = 65536;
/** Real-valued kernel arguments at most (`predict` has four). */
const SCALARS = 4;

/** The compiled modules, shared by every body; `simd` null where the platform cannot compile SIMD. */
interface KernelModules {
    readonly scalar: WebAssembly.Module;
    readonly simd: WebAssembly.Module | null;
}

// Undefined until first asked for, null where WebAssembly is missing.
let compiled: KernelModules | null | undefined;

function moduleBytes(base64: string): Uint8Array<ArrayBuffer> {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
        bytes[i] = text.charCodeAt(i);
    }
    return bytes;
}

function kernelModules(): KernelModules | null {
    if (compiled === undefined) {
        compiled = null;
        if (typeof WebAssembly === "object" && typeof atob === "function") {
            // Synchronous: each module is about 2 KB, far below what browsers compile on the main thread.
            const simd = moduleBytes(SOLVER_KERNELS_SIMD_BASE64);
            compiled = {
                scalar: new WebAssembly.Module(moduleBytes(SOLVER_KERNELS_BASE64)),
                simd: WebAssembly.validate(simd) ? new WebAssembly.Module(simd) : null,
            };
        }
    }
    return compiled;
}

/**
 * One body's WebAssembly memory, sized once when the body is built, and the kernels instantiated on it. The body
 * allocates the arrays its hot loops touch (positions, inverse masses, the distance, bending and tether lists) here,
 * as ordinary typed-array views, so JavaScript reads and writes them as before and the kernels see the same bytes.
 * The memory never grows: growing would detach every view.
 */
export class KernelMemory implements ArrayAllocator {
    /** The memory's buffer: the kernels run only on arrays that are views of it. */
    public readonly buffer: ArrayBuffer;
    /** The kernels, bound to this memory. */
    public readonly kernels: SolverKernels;
    /** The memory's first 32 bytes: the real-valued arguments of the next kernel call, written just before it. */
    public readonly scalar: Float64Array;
    /** Whether {@link kernels} include the SIMD ones (`solverKernelsSimd.wat`). */
    public readonly simd: boolean;
    private _offset = 0;

    private constructor(memory: WebAssembly.Memory, scalar: WebAssembly.Module, simd: WebAssembly.Module | null) {
        this.buffer = memory.buffer;
        const kernels = new WebAssembly.Instance(scalar, { env: { memory } }).exports as unknown as SolverKernels;
        this.simd = simd !== null;
        if (simd === null) {
            this.kernels = kernels;
        } else {
            // The SIMD kernels hand what they cannot pair to the scalar ones.
            const { isometricBend, distance } = kernels;
            const paired = new WebAssembly.Instance(simd, { env: { memory, isometricBend, distance } }).exports as unknown as SolverKernels;
            this.kernels = { ...kernels, isometricBend: paired.isometricBend, distance: paired.distance };
        }
        this.scalar = this.f64(SCALARS);
    }

    /**
     * A memory of at least `bytes` bytes, or null where WebAssembly is not available.
     *
     * @param bytes - bytes the body's arrays need (see {@link bytesFor})
     * @param simd - whether to use the SIMD kernels where the platform has them (default); false runs the scalar
     *   kernels everywhere, as on a platform without SIMD
     */
    public static create(bytes: number, simd = true): KernelMemory | null {
        const modules = kernelModules();
        if (modules === null) {
            return null;
        }
        const pages = Math.ceil((bytes + 8 * SCALARS) / PAGE_BYTES);
        return new KernelMemory(new WebAssembly.Memory({ initial: pages }), modules.scalar, simd ? modules.simd : null);
    }

    /** Bytes {@link f64} and {@link i32} reserve for arrays of these lengths (each rounded up to 8 bytes). */
    public static bytesFor(f64Lengths: readonly number[], i32Lengths: readonly number[]): number {
        let bytes = 0;
        for (const length of f64Lengths) {
            bytes += 8 * length;
        }
        for (const length of i32Lengths) {
            bytes += 8 * Math.ceil(length / 2);
        }
        return bytes;
    }

    /** See {@link ArrayAllocator.f64}. */
    public f64(length: number): Float64Array {
        return new Float64Array(this.buffer, this._reserve(8 * length), length);
    }

    /** See {@link ArrayAllocator.i32}. */
    public i32(length: number): Int32Array {
        return new Int32Array(this.buffer, this._reserve(4 * length), length);
    }

    private _reserve(bytes: number): number {
        const offset = this._offset;
        const end = offset + Math.ceil(bytes / 8) * 8;
        if (end > this.buffer.byteLength) {
            throw new Error(`kernel memory exhausted: ${end} bytes asked for, ${this.buffer.byteLength} reserved`);
        }
        this._offset = end;
        return offset;
    }
}
