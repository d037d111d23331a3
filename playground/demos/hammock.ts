import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { createHammockScene, HAMMOCK_MASS, JELLY_MASS } from "./hammockScene.js";
import { colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/**
 * A jelly lying in a cloth hammock pinned by its four corners: soft body on cloth, the pins carrying both. "Add a
 * jelly" lays one more onto the pile.
 */
export const hammock: Demo = {
    id: "hammock",
    title: "Jelly in a hammock",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0, 1, 0), radius: 4, beta: 1.1 });
        const { xpbd, cloth, jellies, add } = createHammockScene(scene);
        cloth.mesh.material = fabric(scene, "hammockMaterial", new Color3(0.85, 0.6, 0.3));
        const jellyMaterial = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        jellies[0].mesh.material = jellyMaterial;

        const panel = new ControlPanel();
        panel.button("Add a jelly", () => {
            add().material = jellyMaterial;
        });

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => {
                // Each jelly's lowest particle against the hammock's lowest point: above it while they lie in it.
                let lowestCloth = Infinity;
                const x = cloth.body.positions;
                for (let i = 1; i < 3 * cloth.body.particleCount; i += 3) lowestCloth = Math.min(lowestCloth, x[i]);
                let lowestJelly = Infinity;
                for (const jelly of jellies) {
                    const y = jelly.body.positions;
                    for (let i = 1; i < 3 * jelly.body.particleCount; i += 3) lowestJelly = Math.min(lowestJelly, y[i]);
                }
                return {
                    ...solverFigures(xpbd),
                    jellies: jellies.length,
                    "jellies above hammock mm": ((lowestJelly - lowestCloth) * 1000).toFixed(1),
                    "pins carry N": cloth.body.pinForce[1].toFixed(1),
                    "weight N": ((HAMMOCK_MASS + JELLY_MASS * jellies.length) * 9.81).toFixed(1),
                    "soft contacts": xpbd.stats.softContacts,
                };
            },
            dispose() {},
        };
    },
};
