import {
    BendConstraints,
    DistanceConstraints,
    GasPressure,
    IsometricBendConstraints,
    ShapeMatching,
    TETHER_ANCHORS,
    VolumeConstraints,
    type ConstraintSet,
    type SoftBody,
} from "../core/index.js";
import { colourBatches } from "./colourBatches.js";
import { GAS_LAMBDA_WORDS } from "./gasPressureShader.js";
import { shapeMatchingLambdaWords } from "./shapeMatchingShader.js";
import { PassMode, UNIFORM_STRIDE } from "./substepParams.js";

/** The GPU kernel that projects a constraint set. */
export enum ConstraintKernel {
    Distance = 0,
    IsometricBend = 1,
    DihedralBend = 2,
    Volume = 3,
    /** Two dispatches per projection: the fit, then the pull (see `shapeMatchingShader.ts`). */
    ShapeMatching = 4,
    /**
     * Two dispatches per projection: the volume's sum, then the push (see `gasPressureShader.ts`). Its records are
     * the push's scratch: the gradient of the volume at each particle, written by the sum.
     */
    Gas = 5,
}

/** One of the body's constraint sets as the GPU holds it. */
export interface GpuConstraintSet {
    /** The core's set (its `enabled` and `compliance` are read every step). */
    readonly set: ConstraintSet;
    /** The kernel that projects it. */
    readonly kernel: ConstraintKernel;
    /** Index of its first record in the kernel's record buffer. */
    readonly firstRecord: number;
    /** Index of its first multiplier in the multiplier buffer. */
    readonly firstLambda: number;
    /** Its batches (see `colourBatches`): batch `b` is records `[starts[b], starts[b + 1])` of the set. */
    readonly starts: Int32Array;
}

/** 32-bit words per record of each kernel. */
export const RECORD_WORDS: Readonly<Record<ConstraintKernel, number>> = {
    [ConstraintKernel.Distance]: 4,
    [ConstraintKernel.IsometricBend]: 12,
    [ConstraintKernel.DihedralBend]: 8,
    [ConstraintKernel.Volume]: 8,
    [ConstraintKernel.ShapeMatching]: 4,
    [ConstraintKernel.Gas]: 4,
};

/** The kernel of a core constraint set, or null when the GPU has none for its kind. */
export function kernelOf(set: ConstraintSet): ConstraintKernel | null {
    if (set instanceof DistanceConstraints) {
        return ConstraintKernel.Distance;
    }
    if (set instanceof IsometricBendConstraints) {
        return ConstraintKernel.IsometricBend;
    }
    if (set instanceof BendConstraints) {
        return ConstraintKernel.DihedralBend;
    }
    if (set instanceof VolumeConstraints) {
        return ConstraintKernel.Volume;
    }
    if (set instanceof ShapeMatching) {
        return ConstraintKernel.ShapeMatching;
    }
    if (set instanceof GasPressure) {
        return ConstraintKernel.Gas;
    }
    return null;
}

/** Particle indices per constraint of each kernel of indexed constraints. */
const ARITY: Readonly<Record<Exclude<ConstraintKernel, ConstraintKernel.ShapeMatching | ConstraintKernel.Gas>, number>> = {
    [ConstraintKernel.Distance]: 2,
    [ConstraintKernel.IsometricBend]: 4,
    [ConstraintKernel.DihedralBend]: 4,
    [ConstraintKernel.Volume]: 4,
};

/**
 * The body's constraint sets in solve order, their records packed per kernel (one buffer per kernel, sets of the same
 * kernel one after another), and the multiplier layout: every set's multipliers, then one per particle for the soft
 * pins (`pinLambdaBase`).
 */
export interface ConstraintRecords {
    /** The sets, in the body's solve order. */
    readonly sets: readonly GpuConstraintSet[];
    /** Records of each kernel (32-bit words; floats stored as their bits). */
    readonly records: Readonly<Record<ConstraintKernel, ArrayBuffer>>;
    /** Index of the first soft-pin multiplier. */
    readonly pinLambdaBase: number;
    /** Multipliers in all. */
    readonly lambdaCount: number;
}

/**
 * Packs the body's constraint sets; throws naming a set whose kind the GPU cannot project. The gas has no compliance
 * slot (its compliance follows its volume, see `gasPressureShader.ts`), so it does not count towards the five.
 */
export function packConstraints(body: SoftBody): ConstraintRecords {
    const compliant = body.constraintSets.filter((set) => !(set instanceof GasPressure)).length;
    if (compliant > 5) {
        throw new Error(
            `the WebGPU solver holds 5 constraint sets per body besides the gas (compliances in Params.alpha and alpha4), the body has ${compliant}`,
        );
    }
    const sets: GpuConstraintSet[] = [];
    const counts = [0, 0, 0, 0, 0, 0];
    let lambdas = 0;
    for (const set of body.constraintSets) {
        const kernel = kernelOf(set);
        if (kernel === null) {
            throw new Error(`the WebGPU solver has no kernel for ${set.getClassName()}`);
        }
        // Shape matching is one fit and one pull per particle, the gas one sum and one push: a single batch.
        const starts =
            kernel === ConstraintKernel.ShapeMatching || kernel === ConstraintKernel.Gas
                ? Int32Array.of(0, set.count)
                : colourBatches(
                      (set as DistanceConstraints | BendConstraints | IsometricBendConstraints | VolumeConstraints).indices,
                      ARITY[kernel],
                      body.particleCount,
                  );
        sets.push({ set, kernel, firstRecord: counts[kernel], firstLambda: lambdas, starts });
        counts[kernel] += set.count;
        lambdas +=
            kernel === ConstraintKernel.ShapeMatching
                ? shapeMatchingLambdaWords(set.count)
                : kernel === ConstraintKernel.Gas
                  ? GAS_LAMBDA_WORDS
                  : set.count;
    }
    // The gas's records are its gradients, one per particle (a body has one gas at most).
    counts[ConstraintKernel.Gas] = counts[ConstraintKernel.Gas] > 0 ? body.particleCount : 0;
    const buffers = counts.map((count, kernel) => new ArrayBuffer(Math.max(count, 1) * RECORD_WORDS[kernel as ConstraintKernel] * 4));
    for (const gpuSet of sets) {
        if (gpuSet.kernel !== ConstraintKernel.Gas) {
            writeRecords(gpuSet, buffers[gpuSet.kernel]);
        }
    }
    return {
        sets,
        records: {
            [ConstraintKernel.Distance]: buffers[0],
            [ConstraintKernel.IsometricBend]: buffers[1],
            [ConstraintKernel.DihedralBend]: buffers[2],
            [ConstraintKernel.Volume]: buffers[3],
            [ConstraintKernel.ShapeMatching]: buffers[4],
            [ConstraintKernel.Gas]: buffers[5],
        },
        pinLambdaBase: lambdas,
        lambdaCount: lambdas + body.particleCount,
    };
}

function writeRecords(gpuSet: GpuConstraintSet, buffer: ArrayBuffer): void {
    const words = RECORD_WORDS[gpuSet.kernel];
    const u = new Uint32Array(buffer);
    const f = new Float32Array(buffer);
    const set = gpuSet.set;
    for (let c = 0; c < set.count; c++) {
        const o = (gpuSet.firstRecord + c) * words;
        if (set instanceof ShapeMatching) {
            f.set(set.restOffsets.subarray(3 * c, 3 * c + 3), o);
            f[o + 3] = set.masses[c];
            continue;
        }
        if (set instanceof DistanceConstraints) {
            u[o] = set.indices[2 * c];
            u[o + 1] = set.indices[2 * c + 1];
            f[o + 2] = set.restLengths[c];
            continue;
        }
        const indices = (set as IsometricBendConstraints | BendConstraints | VolumeConstraints).indices;
        u.set(indices.subarray(4 * c, 4 * c + 4), o);
        if (set instanceof IsometricBendConstraints) {
            for (let k = 0; k < 4; k++) {
                f[o + 4 + k] = set.weights[4 * c + k];
            }
            f[o + 8] = set.hingeLengths2[c];
        } else if (set instanceof BendConstraints) {
            f[o + 4] = set.restAngles[c];
        } else if (set instanceof VolumeConstraints) {
            f[o + 4] = set.restVolumes[c];
        }
    }
}

/** Dispatch-record indices of the particle pass's modes. */
export interface PassRecords {
    /** Tethers only: the start of a substep's first pass. */
    readonly head: number;
    /** The end of one pass and the start of the next. */
    readonly between: number;
    /** The end of one pass, where the next opens without tethers (no soft pin and no collider: see `XpbdWorld`). */
    readonly tail: number;
    /** The end of the last pass and the velocities. */
    readonly last: number;
    /** The end of the last pass after the strain limit (its tethers ran before it, with `head`) and the velocities. */
    readonly settleLast: number;
    /** Before the substeps: attached particles onto their anchors. */
    readonly carry: number;
    /** The end of the last pass after the strain limit, without the velocities (self-collision projects between). */
    readonly settle: number;
    /** The velocities only (after the last pass's self-collision). */
    readonly velocity: number;
    /** The dynamic colliders' motion at a substep's start (the motion kernel's, see `colliderMotionShader.ts`). */
    readonly begin: number;
}

/**
 * The `Dispatch` uniform records (see `substepParams.ts`), {@link UNIFORM_STRIDE} bytes apart: one per batch of
 * every set (its first record, its size, the set's index for its compliance, the multiplier index of the kernel's
 * record 0 for this set), then the particle pass's modes. Written once: batches never change.
 */
export function packDispatches(constraints: ConstraintRecords): { records: Uint32Array; firstBatch: number[]; passRecord: PassRecords } {
    const words: number[][] = [];
    const firstBatch: number[] = [];
    constraints.sets.forEach((gpuSet, setIndex) => {
        firstBatch.push(words.length);
        for (let b = 0; b + 1 < gpuSet.starts.length; b++) {
            const size = gpuSet.starts[b + 1] - gpuSet.starts[b];
            words.push([gpuSet.firstRecord + gpuSet.starts[b], size, setIndex, gpuSet.firstLambda - gpuSet.firstRecord]);
        }
    });
    const first = words.length;
    const passRecord = {
        head: first,
        between: first + 1,
        last: first + 2,
        tail: first + 3,
        settleLast: first + 4,
        carry: first + 5,
        settle: first + 6,
        velocity: first + 7,
        begin: first + 8,
    };
    words.push(
        [PassMode.Head, 0, 0, 0],
        [PassMode.Tail | PassMode.Head, 0, 0, 0],
        [PassMode.Tail | PassMode.Velocity, 0, 0, 0],
        [PassMode.Tail, 0, 0, 0],
        [PassMode.Settle | PassMode.Velocity, 0, 0, 0],
        [PassMode.Carry, 0, 0, 0],
        [PassMode.Settle, 0, 0, 0],
        [PassMode.Velocity, 0, 0, 0],
        [PassMode.Begin, 0, 0, 0],
    );
    const records = new Uint32Array((words.length * UNIFORM_STRIDE) / 4);
    words.forEach((record, k) => records.set(record, (k * UNIFORM_STRIDE) / 4));
    return { records, firstBatch, passRecord };
}

/**
 * The per-particle state as the GPU holds it, xyz plus one number per vec4: positions with the inverse mass in w
 * (every kernel that reads a position needs it), previous positions, velocities.
 */
export function packParticles(body: SoftBody): { positions: Float32Array; previous: Float32Array; velocities: Float32Array } {
    const n = body.particleCount;
    const positions = new Float32Array(4 * n);
    const previous = new Float32Array(4 * n);
    const velocities = new Float32Array(4 * n);
    for (let p = 0; p < n; p++) {
        for (let k = 0; k < 3; k++) {
            positions[4 * p + k] = body.positions[3 * p + k];
            previous[4 * p + k] = body.previousPositions[3 * p + k];
            velocities[4 * p + k] = body.velocities[3 * p + k];
        }
        positions[4 * p + 3] = body.inverseMasses[p];
        previous[4 * p + 3] = body.inverseMasses[p];
    }
    return { positions, previous, velocities };
}

/** xyz triples as vec4s (w = 0): external forces. */
export function packVectors(values: Float64Array): Float32Array {
    const out = new Float32Array((values.length / 3) * 4);
    for (let p = 0; p < values.length / 3; p++) {
        out[4 * p] = values[3 * p];
        out[4 * p + 1] = values[3 * p + 1];
        out[4 * p + 2] = values[3 * p + 2];
    }
    return out;
}

/**
 * The surface triangles (vec4 of indices each) and, per particle, the triangles that touch it in increasing order
 * (a compressed list: `incidence[starts[p] .. starts[p + 1])`), for the aerodynamic forces.
 */
export function packTriangles(body: SoftBody): { triangles: Uint32Array; incidence: Uint32Array; starts: Int32Array } {
    const tri = body.triangles;
    const count = tri.length / 3;
    const triangles = new Uint32Array(Math.max(count, 1) * 4);
    const starts = new Int32Array(body.particleCount + 1);
    for (let t = 0; t < count; t++) {
        for (let k = 0; k < 3; k++) {
            triangles[4 * t + k] = tri[3 * t + k];
            starts[tri[3 * t + k] + 1]++;
        }
    }
    for (let p = 0; p < body.particleCount; p++) {
        starts[p + 1] += starts[p];
    }
    const incidence = new Uint32Array(Math.max(tri.length, 1));
    const fill = starts.slice(0, body.particleCount);
    for (let t = 0; t < count; t++) {
        for (let k = 0; k < 3; k++) {
            incidence[fill[tri[3 * t + k]]++] = t;
        }
    }
    return { triangles, incidence, starts };
}

/**
 * What the pins and tethers give the GPU, rebuilt whenever pin weights or collider attachments change: per particle
 * its pin slot, its incidence range and its attachment record (−1: none; see `attachmentRecords.ts`) (`info`, 4
 * int32 each), its tethers (4 anchors, −1 past the last, then 4 lengths), the inverse
 * masses, and the slots' particles in order (weight-1 pins, then soft pins) with each slot's soft-pin compliance
 * (−1 for a weight-1 pin).
 */
export function packPins(
    body: SoftBody,
    incidenceStarts: Int32Array,
): { info: Int32Array; tethers: ArrayBuffer; inverseMasses: Float32Array; slots: Int32Array; compliances: Float64Array } {
    if (TETHER_ANCHORS !== 4) {
        throw new Error(`the WebGPU solver holds 4 tethers per particle (a vec4), the core makes ${TETHER_ANCHORS}`);
    }
    const n = body.particleCount;
    const pins = body.pins;
    const info = new Int32Array(4 * n);
    const slotCount = pins.kinematicCount + pins.softCount;
    const slots = new Int32Array(slotCount);
    const compliances = new Float64Array(slotCount);
    for (let p = 0; p < n; p++) {
        info[4 * p] = -1;
        info[4 * p + 1] = incidenceStarts[p];
        info[4 * p + 2] = incidenceStarts[p + 1];
        info[4 * p + 3] = -1;
    }
    const attachments = body.attachments;
    for (let k = 0; k < attachments.count; k++) {
        info[4 * attachments.particles[k] + 3] = k;
    }
    for (let s = 0; s < slotCount; s++) {
        const kinematic = s < pins.kinematicCount;
        const p = kinematic ? pins.kinematic[s] : pins.soft[s - pins.kinematicCount];
        slots[s] = p;
        compliances[s] = kinematic ? -1 : pins.softCompliance[s - pins.kinematicCount];
        info[4 * p] = s;
    }
    const tethers = new ArrayBuffer(n * 2 * TETHER_ANCHORS * 4);
    const anchors = new Int32Array(tethers);
    const lengths = new Float32Array(tethers);
    const t = body.tethers;
    for (let p = 0; p < n; p++) {
        for (let rank = 0; rank < TETHER_ANCHORS; rank++) {
            const slot = t.slotOf[p * TETHER_ANCHORS + rank];
            const o = p * 2 * TETHER_ANCHORS;
            anchors[o + rank] = slot < 0 ? -1 : t.anchors[slot];
            lengths[o + TETHER_ANCHORS + rank] = slot < 0 ? 0 : t.lengths[slot];
        }
    }
    return { info, tethers, inverseMasses: Float32Array.from(body.inverseMasses), slots, compliances };
}
