/**
 * The cape demo's scene without its looks: the glTF character (`character.ts`: a 19-bone skeleton with an in-place walk
 * cycle), carried round a circle, with ANIMATED Havok capsules on its bones (`createBoneColliders`), and a cape pinned
 * to its shoulder bones that collides with them. The playground adds a stage, materials, shadows and controls; the
 * replay test builds the same scene in Node (NullEngine and real Havok).
 */
import { Animation } from "@babylonjs/core/Animations/animation";
import "@babylonjs/core/Animations/animatable"; // scene.beginDirectAnimation
import type { Bone } from "@babylonjs/core/Bones/bone";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Scene } from "@babylonjs/core/scene";
import { createBoneColliders, type BoneColliders } from "../../src/babylon/boneColliders.js";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import type { Character } from "./character.js";
import { pluginOptions } from "./pluginOptions.js";
import { clothMesh } from "./stage.js";

/** Frames per second of the key-frame animations. */
const FPS = 60;
/** One lap of the walking circle, in frames. */
const LAP = 600;
/** Radius of the walking circle (m); it is centred at (CIRCLE_RADIUS, 0, 0) and passes through the rest pose. */
export const CIRCLE_RADIUS = 1.3;

/** What {@link createCapeScene} built. */
export interface CapeScene {
    xpbd: XpbdPlugin;
    cloth: ClothImpostor;
    /** The skinned character mesh. */
    body: AbstractMesh;
    /** The node of the skeleton's root bone (the hips). */
    hips: TransformNode;
    /** The capsules on the bones. */
    colliders: BoneColliders;
    /** The walk round the circle and the walk cycle (set their `speedRatio` to change the walking speed). */
    animatables: { speedRatio: number }[];
    /** Disposes the capsules (the rest goes with the scene). */
    dispose(): void;
}

/**
 * Builds the walk, the colliders, the plugin and the cape around `character` (loaded into `scene`, stopped, in its
 * rest pose), in a scene that must have Havok physics v2 enabled and `useConstantAnimationDeltaTime` on (so that
 * the walk advances by the same amount every physics step).
 */
export function createCapeScene(scene: Scene, character: Character): CapeScene {
    const { skeleton, mesh: body } = character;
    const bone = (name: string): Bone => {
        const found = skeleton.bones[skeleton.getBoneIndexByName(name)];
        if (!found?.getTransformNode()) throw new Error(`character: no bone "${name}" linked to a node`);
        return found;
    };
    const hips = bone("hips").getTransformNode()!;
    const shoulderL = bone("shoulder.L");
    const shoulderR = bone("shoulder.R");

    // --- The walk: a node carries the character round the circle while its own cycle swings the limbs ---------
    const walker = new TransformNode("walker", scene);
    walker.rotationQuaternion = new Quaternion();
    character.root.parent = walker;
    const walkerPosition = new Animation(
        "walkerPosition",
        "position",
        FPS,
        Animation.ANIMATIONTYPE_VECTOR3,
        Animation.ANIMATIONLOOPMODE_CYCLE,
    );
    const walkerRotation = new Animation(
        "walkerRotation",
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
        positionKeys.push({ frame, value: new Vector3(CIRCLE_RADIUS * (1 + Math.cos(theta)), 0, CIRCLE_RADIUS * Math.sin(theta)) });
        rotationKeys.push({ frame, value: Quaternion.RotationYawPitchRoll(Math.PI - theta, 0, 0) });
    }
    walkerPosition.setKeys(positionKeys);
    walkerRotation.setKeys(rotationKeys);
    const walk = character.walk;
    walk.start(true, 1);
    const animatables = [scene.beginDirectAnimation(walker, [walkerPosition, walkerRotation], 0, LAP, true, 1), walk];
    for (const node of [walker, ...walker.getDescendants(false)]) {
        (node as TransformNode).computeWorldMatrix?.(true);
    }

    // --- Havok capsules on the bones (the head is a leaf: the neck's capsule stands in for it) ------------------
    const colliders = createBoneColliders(skeleton, body, { radiusScale: 0.95 });

    // --- The cape: pinned to the shoulder bones -------------------------------------------------------------
    const xpbd = new XpbdPlugin(scene, pluginOptions());
    // Walker at the origin facing −z, so the cape is built at the character's back.
    const capeTop = shoulderL.getTransformNode()!.getAbsolutePosition().y + 0.05;
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
        colliders,
        animatables,
        dispose() {
            colliders.dispose();
        },
    };
}
