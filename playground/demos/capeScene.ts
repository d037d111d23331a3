/**
 * The cape demo's scene without its looks: a character built in code (a seven-bone skeleton animated by key frames,
 * walking round a circle; a mesh skinned to it; ANIMATED Havok capsules that follow the bones every frame) and a cape
 * pinned to its shoulder bones that collides with the capsules. The playground adds a stage, materials, shadows and
 * controls; the replay test builds the same scene in Node (NullEngine and real Havok).
 */
import { Animation } from "@babylonjs/core/Animations/animation";
import type { Animatable } from "@babylonjs/core/Animations/animatable.core";
import "@babylonjs/core/Animations/animatable"; // scene.beginDirectAnimation
import { Bone } from "@babylonjs/core/Bones/bone";
import { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import { PhysicsShapeCapsule, PhysicsShapeSphere } from "@babylonjs/core/Physics/v2/physicsShape";
import type { Scene } from "@babylonjs/core/scene";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import { clothMesh } from "./stage.js";

/** Frames per second of the key-frame animations. */
const FPS = 60;
/** One lap of the walking circle, in frames. */
const LAP = 600;
/** One stride (left + right step), in frames. */
const STRIDE = 44;
/** Radius of the walking circle (m); it is centred at (CIRCLE_RADIUS, 0, 0) and passes through the rest pose. */
export const CIRCLE_RADIUS = 1.3;
const HIP_HEIGHT = 0.95;

/** A body part: its rest-pose mesh (mesh space), the bone that moves it, and its Havok collider in the bone's frame. */
interface Part {
    mesh: Mesh;
    bone: Bone;
    collider: { kind: "capsule"; a: Vector3; b: Vector3; radius: number } | { kind: "sphere"; center: Vector3; radius: number };
}

/** What {@link createCapeScene} built. */
export interface CapeScene {
    xpbd: XpbdPlugin;
    cloth: ClothImpostor;
    /** The skinned character mesh. */
    body: Mesh;
    /** The skeleton's root bone (carries the walk round the circle). */
    hips: Bone;
    /** The key-frame animations (set their `speedRatio` to change the walking speed). */
    animatables: Animatable[];
    /** Removes the observer that moves the colliders with the bones (the rest goes with the scene). */
    dispose(): void;
}

/**
 * Builds the character, its colliders, the plugin and the cape in `scene`, which must have Havok physics v2 enabled
 * and `useConstantAnimationDeltaTime` on (so that the walk advances by the same amount every physics step).
 */
export function createCapeScene(scene: Scene): CapeScene {
    // --- Skeleton (rest pose, mesh space; the character faces −z, the cape hangs on +z) -----------------------
    const skeleton = new Skeleton("rig", "rig", scene);
    const bone = (name: string, parent: Bone | null, x: number, y: number, z: number) =>
        new Bone(name, skeleton, parent, Matrix.Translation(x, y, z));
    const hips = bone("hips", null, 0, HIP_HEIGHT, 0);
    const spine = bone("spine", hips, 0, 0.2, 0);
    const chest = bone("chest", spine, 0, 0.32, 0);
    const head = bone("head", chest, 0, 0.3, 0);
    const shoulderL = bone("shoulder.L", chest, -0.2, 0.12, 0);
    const shoulderR = bone("shoulder.R", chest, 0.2, 0.12, 0);
    const armL = bone("arm.L", shoulderL, -0.09, 0, 0);
    const armR = bone("arm.R", shoulderR, 0.09, 0, 0);
    const legL = bone("leg.L", hips, -0.11, -0.04, 0);
    const legR = bone("leg.R", hips, 0.11, -0.04, 0);

    // --- Skinned body: capsules merged into one mesh, each vertex bound with weight 1 to its part's bone ------
    const y = (b: Bone) => b.getAbsoluteMatrix().m[13];
    const x = (b: Bone) => b.getAbsoluteMatrix().m[12];
    const parts: Part[] = [
        {
            mesh: capsuleAt(scene, 0, y(spine) + 0.2, 0, 0.62, 0.2),
            bone: spine,
            collider: { kind: "capsule", a: new Vector3(0, -0.02, 0), b: new Vector3(0, 0.42, 0), radius: 0.21 },
        },
        {
            mesh: sphereAt(scene, 0, y(head) + 0.1, 0, 0.3),
            bone: head,
            collider: { kind: "sphere", center: new Vector3(0, 0.1, 0), radius: 0.15 },
        },
        ...[legL, legR].map((leg): Part => ({
            mesh: capsuleAt(scene, x(leg), y(leg) - 0.43, 0, 0.9, 0.085),
            bone: leg,
            collider: { kind: "capsule", a: new Vector3(0, -0.08, 0), b: new Vector3(0, -0.8, 0), radius: 0.09 },
        })),
        ...[armL, armR].map((arm): Part => ({
            mesh: capsuleAt(scene, x(arm), y(arm) - 0.3, 0, 0.66, 0.06),
            bone: arm,
            collider: { kind: "capsule", a: new Vector3(0, -0.04, 0), b: new Vector3(0, -0.58, 0), radius: 0.065 },
        })),
    ];
    const body = skinnedBody(parts, skeleton);

    // --- Key frames ----------------------------------------------------------------------------------------
    const hipsPosition = new Animation("hipsPosition", "position", FPS, Animation.ANIMATIONTYPE_VECTOR3, Animation.ANIMATIONLOOPMODE_CYCLE);
    const hipsRotation = new Animation(
        "hipsRotation",
        "rotationQuaternion",
        FPS,
        Animation.ANIMATIONTYPE_QUATERNION,
        Animation.ANIMATIONLOOPMODE_CYCLE,
    );
    const positionKeys = [],
        rotationKeys = [];
    const KEYS = 32;
    for (let k = 0; k <= KEYS; k++) {
        // From θ = π, the rest pose (origin, facing −z), round the circle; facing along the tangent (yaw π − θ).
        // Frame 0 is the rest pose, so the cape built in the rest pose starts exactly where its pins are.
        const theta = Math.PI + (2 * Math.PI * k) / KEYS;
        const frame = (LAP * k) / KEYS;
        const bob = 0.025 * Math.abs(Math.sin((2 * Math.PI * frame) / STRIDE));
        positionKeys.push({
            frame,
            value: new Vector3(CIRCLE_RADIUS * (1 + Math.cos(theta)), HIP_HEIGHT + bob, CIRCLE_RADIUS * Math.sin(theta)),
        });
        rotationKeys.push({
            frame,
            value: Quaternion.RotationYawPitchRoll(Math.PI - theta, 0, 0.04 * Math.sin((2 * Math.PI * frame) / STRIDE)),
        });
    }
    hipsPosition.setKeys(positionKeys);
    hipsRotation.setKeys(rotationKeys);
    const swing = (name: string, amplitude: number, phase: number) => {
        const anim = new Animation(name, "rotationQuaternion", FPS, Animation.ANIMATIONTYPE_QUATERNION, Animation.ANIMATIONLOOPMODE_CYCLE);
        const keys = [];
        for (let k = 0; k <= 8; k++) {
            const frame = (STRIDE * k) / 8;
            keys.push({ frame, value: Quaternion.RotationAxis(Vector3.Right(), amplitude * Math.sin((2 * Math.PI * k) / 8 + phase)) });
        }
        anim.setKeys(keys);
        return anim;
    };
    const chestTwist = new Animation(
        "chestTwist",
        "rotationQuaternion",
        FPS,
        Animation.ANIMATIONTYPE_QUATERNION,
        Animation.ANIMATIONLOOPMODE_CYCLE,
    );
    chestTwist.setKeys(
        [0, 1, 2, 3, 4].map((k) => ({
            frame: (STRIDE * k) / 4,
            value: Quaternion.RotationYawPitchRoll(0.12 * Math.sin((Math.PI * k) / 2), 0.05, 0),
        })),
    );
    const animatables = [
        scene.beginDirectAnimation(hips, [hipsPosition, hipsRotation], 0, LAP, true, 1),
        scene.beginDirectAnimation(chest, [chestTwist], 0, STRIDE, true, 1),
        scene.beginDirectAnimation(legL, [swing("legL", 0.45, 0)], 0, STRIDE, true, 1),
        scene.beginDirectAnimation(legR, [swing("legR", 0.45, Math.PI)], 0, STRIDE, true, 1),
        scene.beginDirectAnimation(armL, [swing("armL", 0.35, Math.PI)], 0, STRIDE, true, 1),
        scene.beginDirectAnimation(armR, [swing("armR", 0.35, 0)], 0, STRIDE, true, 1),
    ];

    // --- Havok colliders following the bones (ANIMATED, pre-step on: Havok and the cloth see their velocity) --
    const colliders = parts.map((part, i) => {
        const node = new TransformNode(`collider${i}`, scene);
        node.rotationQuaternion = new Quaternion();
        const physicsBody = new PhysicsBody(node, PhysicsMotionType.ANIMATED, false, scene);
        const c = part.collider;
        physicsBody.shape =
            c.kind === "capsule" ? new PhysicsShapeCapsule(c.a, c.b, c.radius, scene) : new PhysicsShapeSphere(c.center, c.radius, scene);
        physicsBody.disablePreStep = false;
        return { node, bone: part.bone };
    });
    const world = new Matrix();
    const scaling = new Vector3();
    const followBones = () => {
        const meshWorld = body.computeWorldMatrix(true);
        for (const { node, bone: b } of colliders) {
            b.getAbsoluteMatrix().multiplyToRef(meshWorld, world);
            world.decompose(scaling, node.rotationQuaternion!, node.position);
        }
    };
    // After the key frames are applied, before the physics step (and the cloth's) reads the poses.
    const followObserver = scene.onAfterAnimationsObservable.add(followBones);
    followBones();

    // --- The cape: pinned to the shoulder bones -------------------------------------------------------------
    const xpbd = new XpbdPlugin(scene, pluginOptions());
    // Rest pose: hips at (0, HIP_HEIGHT, 0), no rotation, so the cape is built at the character's back.
    const capeTop = y(shoulderL) + 0.05;
    const { mesh, grid } = clothMesh(scene, "cape", {
        width: 0.62,
        height: 1.05,
        segmentsX: 14,
        segmentsY: 22,
        plane: "xy",
        origin: [0, capeTop - 0.525, 0.25],
    });
    const cloth = new ClothImpostor(
        mesh,
        {
            mass: 0.35,
            stretchStiffness: 1,
            bendStiffness: 0.1,
            damping: 0.5,
            friction: 0.3,
            thickness: 0.015,
            // A cape folding round the legs must not pass through itself.
            selfCollision: true,
            allowSleep: false,
        },
        xpbd,
    );
    const top = Array.from({ length: grid.columns }, (_, i) => i);
    const half = Math.ceil(grid.columns / 2);
    cloth.pinTo(top.slice(0, half), shoulderL, 1);
    cloth.pinTo(top.slice(half), shoulderR, 1);

    return {
        xpbd,
        cloth,
        body,
        hips,
        animatables,
        dispose() {
            scene.onAfterAnimationsObservable.remove(followObserver);
        },
    };
}

function capsuleAt(scene: Scene, x: number, y: number, z: number, height: number, radius: number): Mesh {
    const m = CreateCapsule("part", { height, radius, tessellation: 12, subdivisions: 2, capSubdivisions: 4 }, scene);
    m.position.set(x, y, z);
    return m;
}

function sphereAt(scene: Scene, x: number, y: number, z: number, diameter: number): Mesh {
    const m = CreateSphere("part", { diameter, segments: 10 }, scene);
    m.position.set(x, y, z);
    return m;
}

/** Merges the parts into one mesh skinned to `skeleton`: every vertex follows its part's bone with weight 1. */
function skinnedBody(parts: Part[], skeleton: Skeleton): Mesh {
    const boneOfVertex: number[] = [];
    for (const part of parts) {
        const index = skeleton.bones.indexOf(part.bone);
        for (let v = 0; v < part.mesh.getTotalVertices(); v++) boneOfVertex.push(index);
    }
    const merged = Mesh.MergeMeshes(
        parts.map((p) => p.mesh),
        true,
        true,
    );
    if (!merged) throw new Error("could not merge the body parts");
    merged.name = "character";
    const count = merged.getTotalVertices();
    if (count !== boneOfVertex.length) throw new Error(`merged body has ${count} vertices, expected ${boneOfVertex.length}`);
    const indices = new Float32Array(4 * count);
    const weights = new Float32Array(4 * count);
    for (let v = 0; v < count; v++) {
        indices[4 * v] = boneOfVertex[v];
        weights[4 * v] = 1;
    }
    merged.setVerticesData(VertexBuffer.MatricesIndicesKind, indices, false, 4);
    merged.setVerticesData(VertexBuffer.MatricesWeightsKind, weights, false, 4);
    merged.skeleton = skeleton;
    merged.numBoneInfluencers = 1;
    // The bones carry the body round the circle while the mesh node stays put: never cull it by its rest bounds.
    merged.alwaysSelectAsActiveMesh = true;
    return merged;
}
