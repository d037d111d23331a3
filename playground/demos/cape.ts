import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { CIRCLE_RADIUS, createCapeScene } from "./capeScene.js";
import { characterUrl, loadCharacter } from "./character.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/**
 * A glTF character (`character.glb`, loaded with the glTF loader: 19 bones, a walk cycle) carried round a circle, with
 * ANIMATED Havok capsules on its bones from `createBoneColliders`. The cape's top row is pinned to the two shoulder
 * bones with `pinTo(vertices, bone, 1)` and collides with the capsules (back, legs, arms). The scene itself is
 * `capeScene.ts`; this adds the stage, looks and controls.
 */
export const cape: Demo = {
    id: "cape",
    title: "Cape on an animated character",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        // The walk goes round a circle centred at (CIRCLE_RADIUS, 0, 0) that passes through the rest pose.
        createStage(scene, havok, {
            target: new Vector3(CIRCLE_RADIUS, 1, 0),
            radius: 6.5,
            alpha: -Math.PI / 2 - 0.4,
            beta: 1.2,
        });
        const character = await loadCharacter(scene, characterUrl());
        const { xpbd, cloth, body, hips, animatables, dispose } = createCapeScene(scene, character);
        body.material = colour(scene, "bodyMaterial", new Color3(0.75, 0.68, 0.6));
        const mesh = cloth.mesh;
        mesh.material = fabric(scene, "capeMaterial", new Color3(0.65, 0.1, 0.15));

        const panel = new ControlPanel();
        panel.slider("walk speed", 0, 2, 0.05, 1, (v) => animatables.forEach((a) => (a.speedRatio = v)));
        panel.slider("bend", 0, 1, 0.01, cloth.bendStiffness, (v) => (cloth.bendStiffness = v));
        panel.slider("drag", 0, 3, 0.05, cloth.dragCoefficient, (v) => (cloth.dragCoefficient = v));
        panel.checkbox("see-through body", false, (v) => (body.visibility = v ? 0.35 : 1));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => {
                const hipsPos = hips.getAbsolutePosition();
                return { ...solverFigures(xpbd), "hips x": hipsPos.x.toFixed(2), "hips z": hipsPos.z.toFixed(2) };
            },
            dispose,
        };
    },
};
