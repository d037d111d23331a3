/**
 * The world matrix of a skeleton bone (its frame: bone space → world), for anything that follows bones from the
 * scene's step (pins, bone colliders). Babylon's `getFinalMatrix()` is the skinning matrix (inverse bind × absolute),
 * not the bone's frame, and is only refreshed at render time, so it is not used.
 */
import type { Nullable } from "@babylonjs/core/types";
import type { Matrix } from "@babylonjs/core/Maths/math.vector";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Bone } from "@babylonjs/core/Bones/bone";

/**
 * Writes the bone's world matrix into `result`: when the bone is linked to a TransformNode (glTF skeletons), that
 * node's world matrix; otherwise `bone.getAbsoluteMatrix()` (skeleton space, recomputed when the pose changed) × the
 * world matrix of `skinnedMesh` (identity when null).
 */
export function boneWorldMatrixToRef(bone: Bone, skinnedMesh: Nullable<AbstractMesh>, result: Matrix): Matrix {
    const linked = bone.getTransformNode();
    if (linked) {
        return result.copyFrom(linked.computeWorldMatrix(true));
    }
    const absolute = bone.getAbsoluteMatrix();
    if (skinnedMesh) {
        absolute.multiplyToRef(skinnedMesh.computeWorldMatrix(true), result);
        return result;
    }
    return result.copyFrom(absolute);
}

/** The first mesh of the scene skinned to the bone's skeleton, or null. */
export function findSkinnedMesh(bone: Bone): Nullable<AbstractMesh> {
    const skeleton = bone.getSkeleton();
    for (const mesh of skeleton.getScene().meshes) {
        if (mesh.skeleton === skeleton) {
            return mesh;
        }
    }
    return null;
}
