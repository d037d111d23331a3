/**
 * The cape demo's glTF character (`playground/demos/character.glb`, made by `scripts/make-character.mjs`), loaded with
 * the glTF loader under NullEngine: at least 15 bones linked to joint nodes, a looping walk cycle, and bone colliders
 * that follow the walking joints (glTF bones follow their nodes, not `getAbsoluteMatrix()`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { createBoneColliders } from "../../src/babylon/boneColliders";
import { loadCharacter, type Character } from "../../playground/demos/character";

describe("the glTF character", () => {
    let h: HavokScene;
    let character: Character;
    beforeEach(async () => {
        h = await createHavokScene();
        h.scene.useConstantAnimationDeltaTime = true;
        character = await loadCharacter(
            h.scene,
            new Uint8Array(readFileSync(path.join(__dirname, "../../playground/demos/character.glb"))),
        );
    });
    afterEach(() => h.dispose());

    it("has at least 15 bones linked to joint nodes, shoulders, and a walk cycle", () => {
        const bones = character.skeleton.bones;
        expect(bones.length).toBeGreaterThanOrEqual(15);
        expect(bones.every((b) => b.getTransformNode())).toBe(true);
        expect(["hips", "shoulder.L", "shoulder.R"].every((name) => character.skeleton.getBoneIndexByName(name) >= 0)).toBe(true);
        expect(character.walk.to - character.walk.from).toBeCloseTo(44, 3);
        expect(character.walk.targetedAnimations.length).toBeGreaterThan(10);
    });

    it("bone colliders follow the walking joints", () => {
        const colliders = createBoneColliders(character.skeleton, character.mesh);
        expect(colliders.colliders.length).toBe(14); // 19 bones less the leaves: head, hands, feet
        const thigh = colliders.colliders.find((c) => c.bone.name === "thigh.L")!;
        expect(thigh.radius).toBeGreaterThan(0.07);
        expect(thigh.radius).toBeLessThan(0.11);
        character.walk.start(true);
        let maxError = 0;
        const knee = thigh.child.getTransformNode()!;
        const kneeStart = knee.getAbsolutePosition().clone();
        for (let s = 0; s < 30; s++) {
            h.step();
            for (const c of colliders.colliders) {
                const world = c.node.computeWorldMatrix(true);
                const a = Vector3.TransformCoordinates(c.pointA, world);
                const b = Vector3.TransformCoordinates(c.pointB, world);
                const error = Math.max(
                    Vector3.Distance(a, c.bone.getTransformNode()!.getAbsolutePosition()),
                    Vector3.Distance(b, c.child.getTransformNode()!.getAbsolutePosition()),
                );
                maxError = Math.max(maxError, error);
            }
        }
        console.log(`glTF character: 14 capsules within ${maxError.toExponential(2)} m of their joints over 30 walking steps`);
        expect(maxError).toBeLessThan(1e-5);
        // The knee swung (the walk is playing), and its capsule went with it.
        expect(Vector3.Distance(knee.getAbsolutePosition(), kneeStart)).toBeGreaterThan(0.05);
    });
});
