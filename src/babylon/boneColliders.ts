/**
 * Havok capsules that follow a skeleton's bones, so that cloth (and rigid bodies) collide with an animated
 * character: one ANIMATED body per bone, from the bone to its child bone, moved to the bone's world pose before
 * every physics step.
 */
import type { Nullable } from "@babylonjs/core/types";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Bone } from "@babylonjs/core/Bones/bone";
import type { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import { PhysicsShapeCapsule } from "@babylonjs/core/Physics/v2/physicsShape";
import type { Scene } from "@babylonjs/core/scene";
import { boneWorldMatrixToRef } from "./boneWorldMatrix.js";

/** Options of {@link createBoneColliders}. Lengths are in metres (world units). */
export interface BoneCollidersOptions {
    /**
     * Which bones get a capsule: bone names, or a predicate. Default: every bone that has a child bone and at least
     * one vertex of `mesh` weighted to it (or any bone with a child when {@link radius} is given). A bone named here
     * must exist and have a child bone, else the call throws.
     */
    bones?: readonly string[] | ((bone: Bone) => boolean);
    /**
     * Radius of every capsule (m). Default undefined: measured per bone as the mean distance from the bone's segment
     * of the vertices weighted to it (in the bind pose), times {@link radiusScale}.
     */
    radius?: number;
    /** Factor on the measured radius (not on {@link radius}); default 1. Below 1 keeps capsules inside the skin. */
    radiusScale?: number;
    /** Bones shorter than this (bone to child, m) get no capsule; default 0.02. */
    minLength?: number;
    /** A vertex counts for a bone's radius when its skin weight to that bone is at least this; default 0.5, in (0, 1]. */
    minWeight?: number;
    /**
     * Havok collision filter of the capsules' shapes (`filterMembershipMask`, `filterCollideMask`). Default
     * undefined: Havok's defaults (member of every group, collides with everything).
     */
    collisionFilter?: { membership: number; collideWith: number };
}

/** The defaults of {@link BoneCollidersOptions}. */
export const BONE_COLLIDERS_DEFAULTS = Object.freeze({ radiusScale: 1, minLength: 0.02, minWeight: 0.5 });

/** One capsule of {@link BoneColliders}. */
export interface BoneCollider {
    /** The bone it follows. */
    readonly bone: Bone;
    /** The child bone its far end reaches. */
    readonly child: Bone;
    /** The node it moves (a TransformNode named after the bone, at the bone's world pose without its scaling). */
    readonly node: TransformNode;
    /** Its ANIMATED Havok body (pre-step on: Havok and the soft bodies see its velocity). */
    readonly body: PhysicsBody;
    /** The capsule's end points in the node's frame (m): the bone's origin and its child's. */
    readonly pointA: Vector3;
    /** See {@link pointA}. */
    readonly pointB: Vector3;
    /** The capsule's radius (m). */
    readonly radius: number;
}

/**
 * What {@link createBoneColliders} made: the capsules and the observer that moves them before every physics step
 * (inserted first, so that it runs before the XPBD plugin reads the colliders).
 */
export class BoneColliders {
    private _observer: Nullable<Observer<Scene>>;
    private readonly _matrix = new Matrix();
    private readonly _scaling = new Vector3();

    /** @internal */
    public constructor(
        private readonly _scene: Scene,
        private readonly _mesh: AbstractMesh,
        /** The capsules, in skeleton order. */
        public readonly colliders: readonly BoneCollider[],
    ) {
        this.update();
        this._observer = _scene.onBeforePhysicsObservable.add(() => this.update(), undefined, true);
    }

    /** The Havok bodies, in the order of {@link colliders}. */
    public get bodies(): PhysicsBody[] {
        return this.colliders.map((c) => c.body);
    }

    /** Whether {@link dispose} was called. */
    public get isDisposed(): boolean {
        return this._observer === null;
    }

    /** Moves every capsule's node to its bone's world pose now (done before every physics step). */
    public update(): void {
        for (const c of this.colliders) {
            boneWorldMatrixToRef(c.bone, this._mesh, this._matrix).decompose(this._scaling, c.node.rotationQuaternion!, c.node.position);
        }
    }

    /** "BoneColliders". */
    public getClassName(): string {
        return "BoneColliders";
    }

    /** Removes the observer and disposes every body, shape and node. Safe to call twice. */
    public dispose(): void {
        if (!this._observer) {
            return;
        }
        this._scene.onBeforePhysicsObservable.remove(this._observer);
        this._observer = null;
        for (const c of this.colliders) {
            c.body.shape?.dispose();
            c.body.dispose();
            c.node.dispose();
        }
    }
}

/**
 * Makes ANIMATED Havok capsules fitted to `skeleton`'s bones that follow them every physics step. Each capsule runs
 * from a bone's origin to its child bone's (the child farthest from it in the bind pose, when it has several: the
 * spine rather than the legs for hips), so leaf bones get none. Its radius is {@link BoneCollidersOptions.radius}, or
 * measured from `mesh`'s bind-pose vertices weighted to the bone. Sizes are measured in the bind pose and scaled
 * to world units by the bone's world scaling when the call is made; a bone's scaling is not followed afterwards.
 *
 * @param skeleton - the skeleton to follow
 * @param mesh - a mesh skinned to it (`mesh.skeleton === skeleton`): its vertices give the radii, and its world
 *   matrix places bones that are not linked to TransformNodes
 * @param options - see {@link BoneCollidersOptions}
 * @returns the capsules, to dispose when done
 * @throws Error when the mesh is disposed or not skinned to the skeleton, the scene has no physics v2 engine, or a
 *   named bone is missing or has no child bone or no weighted vertex; RangeError for an invalid option
 */
export function createBoneColliders(skeleton: Skeleton, mesh: AbstractMesh, options: BoneCollidersOptions = {}): BoneColliders {
    if (!skeleton || !mesh || mesh.isDisposed()) {
        throw new Error(`createBoneColliders: ${!skeleton ? "no skeleton" : `mesh "${mesh?.name}" is disposed or missing`}`);
    }
    if (mesh.skeleton !== skeleton) {
        throw new Error(`createBoneColliders: mesh "${mesh.name}" is not skinned to skeleton "${skeleton.name}" (mesh.skeleton differs)`);
    }
    const scene = mesh.getScene();
    if (scene.getPhysicsEngine()?.getPluginVersion() !== 2 || !scene.onBeforePhysicsObservable) {
        throw new Error("createBoneColliders: the scene has no physics v2 engine; call scene.enablePhysics with a HavokPlugin first");
    }
    const o = { ...BONE_COLLIDERS_DEFAULTS, ...options };
    positive(o.radiusScale, "radiusScale");
    if (!(o.minLength >= 0 && Number.isFinite(o.minLength))) {
        throw new RangeError(`createBoneColliders: minLength must be a finite length ≥ 0 (m), got ${String(o.minLength)}`);
    }
    if (!(o.minWeight > 0 && o.minWeight <= 1)) {
        throw new RangeError(`createBoneColliders: minWeight must be in (0, 1], got ${String(o.minWeight)}`);
    }
    if (o.radius !== undefined) {
        positive(o.radius, "radius");
    }
    const named = Array.isArray(o.bones) ? new Set<string>(o.bones) : null;
    if (named) {
        for (const name of named) {
            if (skeleton.getBoneIndexByName(name) < 0) {
                throw new Error(`createBoneColliders: skeleton "${skeleton.name}" has no bone named "${name}"`);
            }
        }
    }
    const chosen = (bone: Bone) => (named ? named.has(bone.name) : typeof o.bones === "function" ? o.bones(bone) : true);

    const bindPosition = (bone: Bone) => bone.getAbsoluteInverseBindMatrix().clone().invert().getTranslation();
    const measured = o.radius === undefined ? meanSkinDistances(skeleton, mesh, o.minWeight, bindPosition) : null;
    const world = new Matrix();
    const scaling = new Vector3();
    const colliders: BoneCollider[] = [];
    for (const bone of skeleton.bones) {
        if (!chosen(bone)) {
            continue;
        }
        const origin = bindPosition(bone);
        let child: Bone | null = null;
        let farthest = -1;
        for (const c of bone.children) {
            const d = Vector3.Distance(bindPosition(c), origin);
            if (d > farthest) {
                farthest = d;
                child = c;
            }
        }
        if (!child) {
            if (named) {
                throw new Error(`createBoneColliders: bone "${bone.name}" has no child bone to measure a capsule to`);
            }
            continue;
        }
        const index = bone.getIndex();
        if (measured && measured.count[index] === 0) {
            if (named) {
                throw new Error(
                    `createBoneColliders: no vertex of mesh "${mesh.name}" is weighted ≥ ${o.minWeight} to bone "${bone.name}"; give a radius`,
                );
            }
            continue;
        }
        // The child in the bone's bind frame, then scaled to world units (the node carries rotation and translation only).
        boneWorldMatrixToRef(bone, mesh, world).decompose(scaling);
        const tip = Vector3.TransformCoordinates(bindPosition(child), bone.getAbsoluteInverseBindMatrix()).multiplyInPlace(scaling);
        if (tip.length() < o.minLength) {
            continue;
        }
        const meanScale = (Math.abs(scaling.x) + Math.abs(scaling.y) + Math.abs(scaling.z)) / 3;
        const radius = measured ? (measured.sum[index] / measured.count[index]) * meanScale * o.radiusScale : o.radius!;
        const node = new TransformNode(`${bone.name} collider`, scene);
        node.rotationQuaternion = new Quaternion();
        const body = new PhysicsBody(node, PhysicsMotionType.ANIMATED, false, scene);
        const pointA = Vector3.Zero();
        const shape = new PhysicsShapeCapsule(pointA, tip, radius, scene);
        if (o.collisionFilter) {
            shape.filterMembershipMask = o.collisionFilter.membership;
            shape.filterCollideMask = o.collisionFilter.collideWith;
        }
        body.shape = shape;
        body.disablePreStep = false;
        colliders.push({ bone, child, node, body, pointA, pointB: tip, radius });
    }
    return new BoneColliders(scene, mesh, colliders);
}

function positive(value: number, name: string): void {
    if (!(value > 0 && Number.isFinite(value))) {
        throw new RangeError(`createBoneColliders: ${name} must be a finite number > 0, got ${String(value)}`);
    }
}

/**
 * Per skinning matrix index (`bone.getIndex()`), the sum and count of the distances from the bone's bind-pose
 * segment (to its farthest child, or its origin for a leaf) of the bind-pose vertices weighted at least `minWeight`
 * to it, in mesh units (bind matrices are taken to be rigid).
 */
function meanSkinDistances(
    skeleton: Skeleton,
    mesh: AbstractMesh,
    minWeight: number,
    bindPosition: (bone: Bone) => Vector3,
): { sum: Float64Array; count: Int32Array } {
    const bones = skeleton.bones;
    const size = Math.max(bones.length, ...bones.map((b) => b.getIndex() + 1));
    const sum = new Float64Array(size);
    const count = new Int32Array(size);
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
    if (!positions) {
        throw new Error(`createBoneColliders: mesh "${mesh.name}" has no vertex positions to measure radii from; give a radius`);
    }
    const influences: [ArrayLike<number> | null, ArrayLike<number> | null][] = [
        [mesh.getVerticesData(VertexBuffer.MatricesIndicesKind), mesh.getVerticesData(VertexBuffer.MatricesWeightsKind)],
        [mesh.getVerticesData(VertexBuffer.MatricesIndicesExtraKind), mesh.getVerticesData(VertexBuffer.MatricesWeightsExtraKind)],
    ];
    const segments: { a: Vector3; b: Vector3 }[] = [];
    for (const bone of bones) {
        const a = bindPosition(bone);
        let b = a;
        for (const c of bone.children) {
            const p = bindPosition(c);
            b = Vector3.Distance(p, a) > Vector3.Distance(b, a) ? p : b;
        }
        segments[bone.getIndex()] = { a, b };
    }
    const v = new Vector3();
    for (const [indices, weights] of influences) {
        if (!indices || !weights) {
            continue;
        }
        for (let k = 0; k < weights.length; k++) {
            const bone = indices[k];
            if (weights[k] < minWeight || !segments[bone]) {
                continue;
            }
            const vertex = k >> 2;
            v.set(positions[3 * vertex], positions[3 * vertex + 1], positions[3 * vertex + 2]);
            sum[bone] += distanceToSegment(v, segments[bone].a, segments[bone].b);
            count[bone]++;
        }
    }
    return { sum, count };
}

function distanceToSegment(p: Vector3, a: Vector3, b: Vector3): number {
    const ab = b.subtract(a);
    const length2 = ab.lengthSquared();
    const t = length2 > 0 ? Math.min(1, Math.max(0, Vector3.Dot(p.subtract(a), ab) / length2)) : 0;
    return Vector3.Distance(p, a.add(ab.scale(t)));
}
