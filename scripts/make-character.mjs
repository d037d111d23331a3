// Builds the cape demo's character, playground/demos/character.glb, from a procedural rig (no outside asset):
// a 19-bone skeleton (hips, spine, chest, neck, head; shoulder, upper arm, forearm, hand and thigh, shin, foot on
// each side), a body of capsules and spheres skinned with weight 1 to one bone each, and an in-place walk cycle
// ("walk", one stride, looping; the demo carries the character round its circle). Written by Babylon's glTF 2.0
// exporter (@babylonjs/serializers) under NullEngine. Run: node scripts/make-character.mjs [output.glb]
import { register } from "node:module";
import { writeFileSync } from "node:fs";

register("./babylonResolveHook.mjs", import.meta.url);
const { NullEngine } = await import("@babylonjs/core/Engines/nullEngine");
const { Scene } = await import("@babylonjs/core/scene");
const { Skeleton } = await import("@babylonjs/core/Bones/skeleton");
const { Bone } = await import("@babylonjs/core/Bones/bone");
const { TransformNode } = await import("@babylonjs/core/Meshes/transformNode");
const { Mesh } = await import("@babylonjs/core/Meshes/mesh");
const { CreateCapsule } = await import("@babylonjs/core/Meshes/Builders/capsuleBuilder");
const { CreateSphere } = await import("@babylonjs/core/Meshes/Builders/sphereBuilder");
const { VertexBuffer } = await import("@babylonjs/core/Buffers/buffer");
const { Matrix, Quaternion, Vector3 } = await import("@babylonjs/core/Maths/math.vector");
const { Animation } = await import("@babylonjs/core/Animations/animation");
const { AnimationGroup } = await import("@babylonjs/core/Animations/animationGroup");
const { Logger } = await import("@babylonjs/core/Misc/logger");
const { GLTF2Export } = await import("@babylonjs/serializers/glTF/2.0/glTFSerializer.js");

const output = process.argv[2] ?? new URL("../playground/demos/character.glb", import.meta.url).pathname;
/** Frames per second of the walk's keys, and frames per stride (left + right step). */
const FPS = 60;
const STRIDE = 44;

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
const engine = new NullEngine();
const scene = new Scene(engine);
const skeleton = new Skeleton("rig", "rig", scene);

// --- Skeleton: rest pose in metres, facing −z; every bone is linked to a node (what glTF joints are) --------
const bones = {};
const nodes = {};
function joint(name, parent, x, y, z) {
    const node = new TransformNode(name, scene);
    node.parent = parent ? nodes[parent] : null;
    node.position.set(x, y, z);
    node.rotationQuaternion = Quaternion.Identity();
    const bone = new Bone(name, skeleton, parent ? bones[parent] : null, Matrix.Translation(x, y, z));
    bone.linkTransformNode(node);
    nodes[name] = node;
    bones[name] = bone;
}
joint("hips", null, 0, 0.95, 0);
joint("spine", "hips", 0, 0.2, 0);
joint("chest", "spine", 0, 0.32, 0);
joint("neck", "chest", 0, 0.22, 0);
joint("head", "neck", 0, 0.08, 0);
for (const [side, s] of [
    ["L", -1],
    ["R", 1],
]) {
    joint(`shoulder.${side}`, "chest", 0.1 * s, 0.12, 0);
    joint(`upperArm.${side}`, `shoulder.${side}`, 0.12 * s, 0, 0);
    joint(`forearm.${side}`, `upperArm.${side}`, 0, -0.29, 0);
    joint(`hand.${side}`, `forearm.${side}`, 0, -0.27, 0);
    joint(`thigh.${side}`, "hips", 0.11 * s, -0.04, 0);
    joint(`shin.${side}`, `thigh.${side}`, 0, -0.42, 0);
    joint(`foot.${side}`, `shin.${side}`, 0, -0.42, 0);
}

// --- Body: one part per bone, in rest-pose world space, each vertex weighted 1 to its bone -------------------
const at = (name) => nodes[name].computeWorldMatrix(true).getTranslation();
const parts = [];
function capsule(bone, from, to, radius) {
    const a = at(from);
    const b = to ? at(to) : a;
    const mesh = CreateCapsule(
        "part",
        {
            orientation: b.subtract(a),
            height: Vector3.Distance(a, b) + 2 * radius,
            radius,
            tessellation: 12,
            subdivisions: 2,
            capSubdivisions: 4,
        },
        scene,
    );
    mesh.position.copyFrom(a.add(b).scale(0.5));
    parts.push({ mesh, bone });
}
function sphere(bone, centre, diameter) {
    const mesh = CreateSphere("part", { diameter, segments: 10 }, scene);
    mesh.position.copyFrom(centre);
    parts.push({ mesh, bone });
}
sphere("hips", at("hips").add(new Vector3(0, -0.02, 0)), 0.34);
capsule("spine", "spine", "chest", 0.19);
capsule("chest", "chest", "neck", 0.2);
capsule("neck", "neck", "head", 0.06);
sphere("head", at("head").add(new Vector3(0, 0.12, 0)), 0.28);
for (const side of ["L", "R"]) {
    sphere(`shoulder.${side}`, at(`upperArm.${side}`), 0.14);
    capsule(`upperArm.${side}`, `upperArm.${side}`, `forearm.${side}`, 0.06);
    capsule(`forearm.${side}`, `forearm.${side}`, `hand.${side}`, 0.05);
    sphere(`hand.${side}`, at(`hand.${side}`).add(new Vector3(0, -0.06, 0)), 0.1);
    capsule(`thigh.${side}`, `thigh.${side}`, `shin.${side}`, 0.09);
    capsule(`shin.${side}`, `shin.${side}`, `foot.${side}`, 0.07);
    sphere(`foot.${side}`, at(`foot.${side}`).add(new Vector3(0, 0, -0.06)), 0.12);
}
const boneOfVertex = parts.flatMap((p) => Array(p.mesh.getTotalVertices()).fill(skeleton.bones.indexOf(bones[p.bone])));
const body = Mesh.MergeMeshes(
    parts.map((p) => p.mesh),
    true,
    true,
);
body.name = "character";
const count = body.getTotalVertices();
const indices = new Float32Array(4 * count);
const weights = new Float32Array(4 * count);
boneOfVertex.forEach((b, v) => {
    indices[4 * v] = b;
    weights[4 * v] = 1;
});
body.setVerticesData(VertexBuffer.MatricesIndicesKind, indices, false, 4);
body.setVerticesData(VertexBuffer.MatricesWeightsKind, weights, false, 4);
body.skeleton = skeleton;
body.numBoneInfluencers = 1;

// --- Walk cycle in place: legs and arms swing, knees and elbows bend, the chest twists, the hips bob -----------
const walk = new AnimationGroup("walk", scene);
function keyed(name, property, value) {
    const type = property === "position" ? Animation.ANIMATIONTYPE_VECTOR3 : Animation.ANIMATIONTYPE_QUATERNION;
    const animation = new Animation(`${name}.${property}`, property, FPS, type, Animation.ANIMATIONLOOPMODE_CYCLE);
    const keys = [];
    for (let k = 0; k <= 16; k++) {
        keys.push({ frame: (STRIDE * k) / 16, value: value((2 * Math.PI * k) / 16) });
    }
    animation.setKeys(keys);
    walk.addTargetedAnimation(animation, nodes[name]);
}
const pitch = (angle) => Quaternion.RotationAxis(Vector3.Right(), angle);
keyed("hips", "position", (t) => new Vector3(0, 0.95 + 0.025 * Math.abs(Math.sin(t)), 0));
keyed("hips", "rotationQuaternion", (t) => Quaternion.RotationYawPitchRoll(0, 0, 0.04 * Math.sin(t)));
keyed("chest", "rotationQuaternion", (t) => Quaternion.RotationYawPitchRoll(0.12 * Math.sin(t), 0.05, 0));
for (const [side, phase] of [
    ["L", 0],
    ["R", Math.PI],
]) {
    keyed(`thigh.${side}`, "rotationQuaternion", (t) => pitch(0.45 * Math.sin(t + phase)));
    // The knee bends while the leg swings forward (never backwards).
    keyed(`shin.${side}`, "rotationQuaternion", (t) => pitch(-0.3 * (1 + Math.cos(t + phase))));
    keyed(`upperArm.${side}`, "rotationQuaternion", (t) => pitch(0.35 * Math.sin(t + phase + Math.PI)));
    keyed(`forearm.${side}`, "rotationQuaternion", (t) => pitch(0.2 + 0.15 * Math.sin(t + phase + Math.PI)));
}

const data = await GLTF2Export.GLBAsync(scene, "character", { shouldExportNode: (node) => node === body || node.name in nodes });
const blob = data.files["character.glb"];
writeFileSync(output, new Uint8Array(await blob.arrayBuffer()));
console.log(`${output}: ${skeleton.bones.length} bones, ${count} vertices, walk cycle ${STRIDE} frames at ${FPS} fps`);
engine.dispose();
