/**
 * Drivers that move pinned particles with an animated target: a TransformNode (or mesh), or a skeleton Bone.
 * Each pinned particle keeps its position relative to the target as it was when pinned ("rest-local"); every
 * step the driver writes `targetWorldMatrix × restLocal` as the particle's end-of-step pin target, and the core
 * interpolates it across the substeps.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Matrix } from "@babylonjs/core/Maths/math.vector";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Bone } from "@babylonjs/core/Bones/bone";
import type { SoftBody } from "../core/index.js";
import { boneWorldMatrixToRef, findSkinnedMesh } from "./boneWorldMatrix.js";

/** What a pin can follow: any node (meshes included, animated or parented) or a bone of a skinned mesh. */
export type PinTarget = TransformNode | Bone;

/** Whether `target` is a Bone (bones are Nodes but not TransformNodes; they have a skeleton). */
function isBone(target: PinTarget): target is Bone {
    return typeof (target as Bone).getSkeleton === "function";
}

/**
 * Follows one target for a set of particles of one body.
 *
 * World matrix of a Bone: see `boneWorldMatrixToRef`, with the first mesh of the scene that uses the bone's skeleton.
 */
export class PinDriver {
    /** Particles this driver moves. */
    public particles: Int32Array;
    /** Rest-local coordinates of each particle in the target frame, xyz. */
    public local: Float64Array;

    private readonly _skinnedMesh: Nullable<AbstractMesh>;
    private readonly _matrix = new Matrix();
    private readonly _inverse = new Matrix();

    /**
     * @param target - the node or bone to follow
     * @param particles - particle indices (distinct)
     * @param body - the body the particles belong to (their current positions become the rest-local coordinates)
     */
    public constructor(
        public readonly target: PinTarget,
        particles: Int32Array,
        body: SoftBody,
    ) {
        this._skinnedMesh = isBone(target) ? findSkinnedMesh(target) : null;
        this.particles = particles;
        this.local = new Float64Array(3 * particles.length);
        this.worldMatrix().invertToRef(this._inverse);
        const m = this._inverse.m;
        const x = body.positions;
        for (let k = 0; k < particles.length; k++) {
            const i = 3 * particles[k];
            transform(m, x[i], x[i + 1], x[i + 2], this.local, 3 * k);
        }
    }

    /** Whether the target was disposed (the driver is then dropped). */
    public get isTargetDisposed(): boolean {
        return this.target.isDisposed();
    }

    /** The target's current world matrix (a reused Matrix). */
    public worldMatrix(): Matrix {
        const target = this.target;
        if (!isBone(target)) {
            return this._matrix.copyFrom(target.computeWorldMatrix(true));
        }
        return boneWorldMatrixToRef(target, this._skinnedMesh, this._matrix);
    }

    /** Writes every particle's end-of-step pin target from the target's current world matrix. Allocation-free. */
    public update(body: SoftBody): void {
        const m = this.worldMatrix().m;
        const local = this.local;
        const out = body.pins.targetsEnd;
        for (let k = 0; k < this.particles.length; k++) {
            transform(m, local[3 * k], local[3 * k + 1], local[3 * k + 2], out, 3 * this.particles[k]);
        }
    }

    /** Stops driving the given particles (a later `pinTo` took them over). */
    public release(taken: Set<number>): void {
        const keep: number[] = [];
        for (let k = 0; k < this.particles.length; k++) {
            if (!taken.has(this.particles[k])) {
                keep.push(k);
            }
        }
        if (keep.length === this.particles.length) {
            return;
        }
        const particles = new Int32Array(keep.length);
        const local = new Float64Array(3 * keep.length);
        keep.forEach((k, j) => {
            particles[j] = this.particles[k];
            local.set(this.local.subarray(3 * k, 3 * k + 3), 3 * j);
        });
        this.particles = particles;
        this.local = local;
    }
}

/** `p · M` (Babylon's row-vector convention) into `out[o..o+2]`. */
function transform(m: Float32Array | number[] | ArrayLike<number>, x: number, y: number, z: number, out: Float64Array, o: number): void {
    out[o] = x * m[0] + y * m[4] + z * m[8] + m[12];
    out[o + 1] = x * m[1] + y * m[5] + z * m[9] + m[13];
    out[o + 2] = x * m[2] + y * m[6] + z * m[10] + m[14];
}
