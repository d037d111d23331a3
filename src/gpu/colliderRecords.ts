import { Collider, ColliderMotion, ColliderShapeKind, SubstepContext, type SoftBody } from "../core/index.js";
import { kernelOf } from "./bodyRecords.js";
import { ACCUMULATOR_WORDS } from "./colliderImpulses.js";
import { POSE_VEC4S, SHAPE_VEC4S } from "./particlePassShader.js";

/**
 * The world's colliders as the GPU reads them: one slot per shape (as the core's broad phase), each with a shape
 * record written once per collider list, and a pose record per substep written every step. A pose is where the
 * core's step would have the collider during that substep: the pose the step starts from, advanced by the
 * collider's velocities substep by substep (the collider objects themselves are not moved: the world or the host
 * owns them).
 */
export class ColliderRecords {
    /** The collider of each slot. */
    public readonly slotColliders: Collider[] = [];
    /** The dynamic colliders, in the order of their impulse accumulators (see `colliderImpulses.ts`). */
    public readonly dynamicColliders: Collider[] = [];
    /** Shape records, {@link SHAPE_VEC4S} vec4s per slot. */
    public readonly shapes: Float32Array;
    /** Pose records, {@link POSE_VEC4S} vec4s per slot and substep (filled by {@link writePoses}). */
    public poses: Float32Array = new Float32Array(0);

    /** A collider the poses are advanced on, so that the world's are left alone (`_integrate` is the core's, once). */
    private readonly _scratch = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 1 }], { motion: ColliderMotion.Kinematic });
    private readonly _parameters = new Float64Array(19);
    private readonly _context = new SubstepContext();

    /** @param colliders - the world's colliders; their shapes must be analytic (see `unsupportedGpuFeature`) */
    public constructor(public readonly colliders: readonly Collider[]) {
        for (const collider of colliders) {
            for (let s = 0; s < collider.shapes.length; s++) {
                this.slotColliders.push(collider);
            }
            if (collider.motion === ColliderMotion.Dynamic) {
                this.dynamicColliders.push(collider);
            }
        }
        this.shapes = new Float32Array(Math.max(this.slotColliders.length, 1) * SHAPE_VEC4S * 4);
        const words = new Uint32Array(this.shapes.buffer);
        const p = this._parameters;
        let slot = 0;
        for (const collider of colliders) {
            for (const shape of collider.shapes) {
                const o = slot * SHAPE_VEC4S * 4;
                words[o] = shape.kind;
                words[o + 1] = shape.twoSided ? 1 : 0;
                shape.writeParameters(p);
                // 1: a and the radius (the offset of a plane); 2: b; 3: the centre; 4–6: the box rotation's rows.
                this.shapes.set([p[0], p[1], p[2], p[6], p[3], p[4], p[5], 0, p[7], p[8], p[9], 0], o + 4);
                for (let row = 0; row < 3; row++) {
                    this.shapes.set([p[10 + 3 * row], p[11 + 3 * row], p[12 + 3 * row], 0], o + 16 + 4 * row);
                }
                slot++;
            }
        }
    }

    /**
     * Whether `colliders` is still the list these records were built from (same colliders, same order, the same ones
     * dynamic: a collider's accumulator is kept for its motion type).
     */
    public matches(colliders: readonly Collider[]): boolean {
        if (colliders.length !== this.colliders.length) {
            return false;
        }
        let dynamic = 0;
        for (let c = 0; c < colliders.length; c++) {
            const collider = colliders[c];
            if (collider !== this.colliders[c]) {
                return false;
            }
            if (collider.motion === ColliderMotion.Dynamic) {
                if (this.dynamicColliders[dynamic] !== collider) {
                    return false;
                }
                dynamic++;
            }
        }
        return dynamic === this.dynamicColliders.length;
    }

    /**
     * Fills {@link poses} for the `substeps` substeps of a step of length `dt`, for `body`'s collision filter and
     * friction: per slot its position and rotation, centre of mass, velocities, the combined friction coefficients
     * (geometric means, as the core) and whether the body collides with it at all; for a dynamic collider its
     * accumulator's first word (from `accumulatorBase`, the word the accumulators start at) and its fixed-point
     * `scales` (linear and angular per dynamic collider). A dynamic collider moves as a kinematic one within the
     * step: with its velocities at the step's start (the impulses reach its host after the step).
     */
    public writePoses(body: SoftBody, dt: number, substeps: number, accumulatorBase: number, scales: Float64Array): void {
        const slots = this.slotColliders.length;
        const size = Math.max(slots, 1) * substeps * POSE_VEC4S * 4;
        if (this.poses.length !== size) {
            this.poses = new Float32Array(size);
        }
        const context = this._context;
        context.setStep(dt, substeps);
        const scratch = this._scratch;
        let slot = 0;
        let dynamic = 0;
        for (const collider of this.colliders) {
            const accumulates = collider.motion === ColliderMotion.Dynamic;
            const accumulator = accumulates ? accumulatorBase + dynamic * ACCUMULATOR_WORDS : -1;
            const linearScale = accumulates ? scales[2 * dynamic] : 0;
            const angularScale = accumulates ? scales[2 * dynamic + 1] : 0;
            scratch.position.set(collider.position);
            scratch.rotation.set(collider.rotation);
            scratch.centerOfMass.set(collider.centerOfMass);
            scratch.linearVelocity.set(collider.linearVelocity);
            scratch.angularVelocity.set(collider.angularVelocity);
            scratch.syncPose();
            const collides = (collider.membership & body.collideWith) !== 0 && (collider.collideWith & body.membership) !== 0;
            const staticFriction = Math.sqrt(body.staticFriction * collider.friction);
            const kineticFriction = Math.sqrt(body.kineticFriction * collider.friction);
            for (let s = 0; s < substeps; s++) {
                if (collider.motion !== ColliderMotion.Static) {
                    scratch._integrate(context);
                }
                for (let shape = 0; shape < collider.shapes.length; shape++) {
                    const o = (s * slots + slot + shape) * POSE_VEC4S * 4;
                    const m = scratch._matrix;
                    const poses = this.poses;
                    for (let axis = 0; axis < 3; axis++) {
                        poses[o + axis] = scratch.position[axis];
                        poses[o + 4 + axis] = m[axis];
                        poses[o + 8 + axis] = m[3 + axis];
                        poses[o + 12 + axis] = m[6 + axis];
                        poses[o + 16 + axis] = scratch._com[axis];
                        poses[o + 20 + axis] = scratch.linearVelocity[axis];
                        poses[o + 24 + axis] = scratch.angularVelocity[axis];
                    }
                    poses[o + 3] = staticFriction;
                    poses[o + 7] = kineticFriction;
                    poses[o + 11] = collides ? 1 : 0;
                    poses[o + 19] = linearScale;
                    poses[o + 23] = angularScale;
                    poses[o + 27] = accumulator;
                }
            }
            slot += collider.shapes.length;
            if (accumulates) {
                dynamic++;
            }
        }
    }
}

/** Shape kinds the GPU's contact kernel evaluates. */
const GPU_SHAPES = new Set([
    ColliderShapeKind.Plane,
    ColliderShapeKind.Sphere,
    ColliderShapeKind.Box,
    ColliderShapeKind.Capsule,
    ColliderShapeKind.Cylinder,
]);

/** Names of the shape kinds the GPU lacks, for messages. */
const SHAPE_NAMES: Partial<Record<ColliderShapeKind, string>> = {
    [ColliderShapeKind.ConvexHull]: "convex hull colliders",
    [ColliderShapeKind.Mesh]: "triangle mesh colliders",
};

/**
 * The first feature of `body` or `colliders` that the WebGPU solver does not have yet, named for a message, or null
 * when the GPU can simulate them. Missing today: convex hull and triangle mesh shapes, restitution, self-collision,
 * attachments to colliders (ropes tied to bodies). Dynamic colliders are coupled one step late (see docs/webgpu.md):
 * the caller decides where that is not good enough (the plugin moves a soft body that a dynamic body rests on to
 * the CPU). What the GPU does differently without changing the motion (no sleep, no statistics or events) is not a
 * missing feature: see docs/webgpu.md.
 */
export function unsupportedGpuFeature(body: SoftBody, colliders: readonly Collider[]): string | null {
    if (body.restitution > 0) {
        return "restitution";
    }
    if (body.selfCollision) {
        return "self-collision";
    }
    if (body.attachments.count > 0) {
        return "collider attachments";
    }
    if (body.substeps > 0 || body.holdAsleep) {
        return "level of detail (SoftBody.substeps, holdAsleep)";
    }
    for (const collider of colliders) {
        if (collider.restitution > 0) {
            return "restitution";
        }
        for (const shape of collider.shapes) {
            if (!GPU_SHAPES.has(shape.kind)) {
                return SHAPE_NAMES[shape.kind] ?? `collider shape kind ${shape.kind}`;
            }
        }
    }
    for (const set of body.constraintSets) {
        if (kernelOf(set) === null) {
            return `constraint kind ${set.getClassName()}`;
        }
    }
    return null;
}
