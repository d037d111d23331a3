import { Collider, ColliderMotion, ColliderShapeKind, SubstepContext, type ColliderShape, type SoftBody } from "../core/index.js";
import { kernelOf } from "./bodyRecords.js";
import { ACCUMULATOR_WORDS } from "./colliderImpulses.js";
import { motionVec4s, writeMotionRecords } from "./colliderMotionRecords.js";
import { SHAPE_VEC4S } from "./colliderShapesShader.js";
import { POSE_VEC4S } from "./particlePassShader.js";

/**
 * The world's colliders as the GPU reads them: one slot per shape (as the core's broad phase), each with a shape
 * record written once per collider list (with, after the records, the planes of convex hulls and the triangles and
 * grids of meshes), and a pose record per substep written every step. A pose is where the
 * core's step would have the collider during that substep: the pose the step starts from, advanced by the
 * collider's velocities substep by substep (the collider objects themselves are not moved: the world or the host
 * owns them).
 */
export class ColliderRecords {
    /** The collider of each slot. */
    public readonly slotColliders: Collider[] = [];
    /** The dynamic colliders, in the order of their impulse accumulators (see `colliderImpulses.ts`). */
    public readonly dynamicColliders: Collider[] = [];
    /** Shape records, {@link SHAPE_VEC4S} vec4s per slot, then the hulls' and meshes' data (see `shapeBlock`). */
    public readonly shapes: Float32Array;
    /** Pose records, {@link POSE_VEC4S} vec4s per slot and substep (filled by {@link writePoses}). */
    public poses: Float32Array = new Float32Array(0);
    /** The dynamic colliders' motion records, with their header (filled by {@link writeMotions}; `colliderMotionRecords.ts`). */
    public readonly motions: Float32Array;

    /** Each collider's first shape slot. */
    private readonly _firstSlot = new Map<Collider, number>();
    /** A collider the poses are advanced on, so that the world's are left alone (`_integrate` is the core's, once). */
    private readonly _scratch = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 1 }], { motion: ColliderMotion.Kinematic });
    private readonly _parameters = new Float64Array(19);
    private readonly _context = new SubstepContext();
    /** {@link firstSlot}, made once (the step allocates nothing). */
    private readonly _slotOf = (collider: Collider): number => this.firstSlot(collider);

    /**
     * The colliders the records were built from: a copy of the list given (the world's own list changes in place as
     * colliders come and go, and {@link matches} compares against it).
     */
    public readonly colliders: readonly Collider[];

    /** @param colliders - the world's colliders, with shapes of any kind (layout: `SHAPES_WGSL`) */
    public constructor(colliders: readonly Collider[]) {
        this.colliders = colliders.slice();
        for (const collider of colliders) {
            this._firstSlot.set(collider, this.slotColliders.length);
            for (let s = 0; s < collider.shapes.length; s++) {
                this.slotColliders.push(collider);
            }
            if (collider.motion === ColliderMotion.Dynamic) {
                this.dynamicColliders.push(collider);
            }
        }
        this.motions = new Float32Array(4 * motionVec4s(this.dynamicColliders.length));
        const shapes = colliders.flatMap((collider) => collider.shapes);
        // The data blocks of hulls and meshes, and the vec4 index where each starts (after every record).
        const blocks = shapes.map(shapeBlock);
        const blockBase: number[] = [];
        let next = Math.max(shapes.length, 1) * SHAPE_VEC4S;
        for (const block of blocks) {
            blockBase.push(next);
            next += block.length / 4;
        }
        this.shapes = new Float32Array(next * 4);
        const words = new Uint32Array(this.shapes.buffer);
        const p = this._parameters;
        shapes.forEach((shape, slot) => {
            const o = slot * SHAPE_VEC4S * 4;
            words[o] = shape.kind;
            words[o + 1] = shape.twoSided ? 1 : 0;
            this.shapes.set(blocks[slot], blockBase[slot] * 4);
            const mesh = shape.triangleMesh;
            if (shape.kind === ColliderShapeKind.ConvexHull) {
                // 1: where the planes start (vec4 index) and how many.
                words[o + 4] = blockBase[slot];
                words[o + 5] = shape.hullPlanes.length / 4;
            } else if (mesh !== null) {
                // 1: the grid's origin and cell size; 2: cells per axis and where the triangles start (vec4 index);
                // 3: the word indices of the cell starts and of the cells' triangle lists.
                const grid = mesh.data;
                const triangles = grid.indices.length / 3;
                this.shapes.set([grid.origin[0], grid.origin[1], grid.origin[2], grid.cellSize], o + 4);
                words.set([grid.dims[0], grid.dims[1], grid.dims[2], blockBase[slot]], o + 8);
                const cellStartWord = (blockBase[slot] + 4 * triangles) * 4;
                words.set([cellStartWord, cellStartWord + vec4Words(grid.cellStart.length)], o + 12);
            } else {
                shape.writeParameters(p);
                // 1: a and the radius (the offset of a plane); 2: b; 3: the centre; 4–6: the box rotation's rows.
                this.shapes.set([p[0], p[1], p[2], p[6], p[3], p[4], p[5], 0, p[7], p[8], p[9], 0], o + 4);
                for (let row = 0; row < 3; row++) {
                    this.shapes.set([p[10 + 3 * row], p[11 + 3 * row], p[12 + 3 * row], 0], o + 16 + 4 * row);
                }
            }
        });
    }

    /** The first shape slot of `collider` (its pose records are that slot's), or −1 when it is not in the list. */
    public firstSlot(collider: Collider): number {
        return this._firstSlot.get(collider) ?? -1;
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
     * friction and restitution: per slot its position and rotation, centre of mass, velocities, the combined friction
     * coefficients (geometric means, as the core), the restitution, whether the body collides with it at all and how it
     * moves (0 when it does not, else 1 + its `ColliderMotion`: the sweep of fast particles reads it); for
     * a dynamic collider its accumulator's first word (from `accumulatorBase`, the word the accumulators start at) and
     * its fixed-point `scales` (linear and angular per dynamic collider). A dynamic collider's records are advanced
     * here as a kinematic one's; the GPU rewrites their poses and velocities as its contacts move it (see
     * {@link writeMotions}), keeping the rest.
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
            // As `ParticleContacts.applyRestitution`: the livelier of the two.
            const restitution = Math.max(body.restitution, collider.restitution);
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
                    poses[o + 11] = collides ? 1 + collider.motion : 0;
                    poses[o + 15] = restitution;
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

    /**
     * Fills {@link motions} with the dynamic colliders' state at the step's start, which the GPU advances within the
     * step (same-step coupling: `colliderMotionShader.ts`), with their accumulators from `accumulatorBase` and their
     * fixed-point `scales`. Refreshes each collider's derived pose first (`syncPose`, as the world's step does).
     */
    public writeMotions(accumulatorBase: number, scales: Float64Array): void {
        for (const collider of this.dynamicColliders) {
            collider.syncPose();
        }
        writeMotionRecords(this.motions, this.dynamicColliders, this._slotOf, accumulatorBase, scales);
    }
}

/** Words a list of `count` u32 takes, padded to whole vec4s. */
function vec4Words(count: number): number {
    return Math.ceil(count / 4) * 4;
}

/**
 * What a shape keeps after the records, in vec4s (nothing for the analytic kinds): a convex hull's planes (normal,
 * offset); a mesh's triangles (corners a, b, c and the outward normal, 4 vec4s each), then its grid's cell starts and
 * the cells' triangle lists (u32 words, each list padded to whole vec4s), as `TriangleMeshShape.query` reads them.
 */
function shapeBlock(shape: ColliderShape): Float32Array {
    if (shape.kind === ColliderShapeKind.ConvexHull) {
        return Float32Array.from(shape.hullPlanes);
    }
    const mesh = shape.triangleMesh;
    if (mesh === null) {
        return new Float32Array(0);
    }
    const { positions, indices, normals, cellStart, cellTriangles } = mesh.data;
    const triangles = indices.length / 3;
    const block = new Float32Array(16 * triangles + vec4Words(cellStart.length) + vec4Words(cellTriangles.length));
    for (let t = 0; t < triangles; t++) {
        for (let corner = 0; corner < 3; corner++) {
            const v = 3 * indices[3 * t + corner];
            block.set([positions[v], positions[v + 1], positions[v + 2]], 16 * t + 4 * corner);
        }
        block.set([normals[3 * t], normals[3 * t + 1], normals[3 * t + 2]], 16 * t + 12);
    }
    const words = new Uint32Array(block.buffer);
    words.set(cellStart, 16 * triangles);
    words.set(cellTriangles, 16 * triangles + vec4Words(cellStart.length));
    return block;
}

/**
 * The first feature of `body` that the WebGPU solver does not have yet, named for a message, or null when the GPU
 * can simulate it (with colliders of every shape and motion, bouncing or not, gas pressure, self-collision, and
 * particles attached to colliders of every motion). Missing today: level of detail, and constraint kinds without a
 * kernel (none of the core's today). Dynamic colliders are coupled within the step, with the core's held contacts
 * (see docs/webgpu.md); bodies that touch the same one step in one `GpuContactGroup`, which moves it once from all
 * their contacts (alone, each body would move its own copy). What the GPU does
 * differently without changing the motion (figures reduced on demand, sleep left to the host, no contact figures,
 * no events) is not a missing feature: see docs/webgpu.md.
 */
export function unsupportedGpuFeature(body: SoftBody): string | null {
    if (body.substeps > 0 || body.holdAsleep) {
        return "level of detail (SoftBody.substeps, holdAsleep)";
    }
    for (const set of body.constraintSets) {
        if (kernelOf(set) === null) {
            return `constraint kind ${set.getClassName()}`;
        }
    }
    return null;
}
