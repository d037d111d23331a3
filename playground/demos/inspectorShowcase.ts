import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, createStage, solverFigures } from "./stage.js";

const SEGMENTS = 16;
const SIZE = 1.4;
const HEIGHT = 1.6;

/**
 * A stage for the Inspector's soft-body panes ("Inspector" button): a square of cloth held horizontally by its four
 * corners (a trampoline sagging under its weight) and a jelly cube resting on the Havok ground. Select either in the "Soft bodies" pane (or its mesh in the Scene
 * Explorer) to tune it, paint its pins or show a residual heatmap.
 */
export const inspectorShowcase: Demo = {
    id: "inspector",
    title: "Inspector showcase",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0.35, 1.1, 0), radius: 4.4, alpha: -Math.PI / 2, beta: 0.95 });
        const xpbd = new XpbdPlugin(scene, pluginOptions());

        const { mesh, grid } = clothMesh(scene, "trampoline", {
            width: SIZE,
            height: SIZE,
            segmentsX: SEGMENTS,
            segmentsY: SEGMENTS,
            plane: "xz",
            origin: [0, HEIGHT, 0],
        });
        mesh.material = fabric(scene, "trampolineMaterial", new Color3(0.3, 0.55, 0.9));
        // The four corners of the grid.
        const last = grid.rows * grid.columns - 1;
        const pins = [0, grid.columns - 1, last - grid.columns + 1, last];
        const cloth = new ClothImpostor(
            mesh,
            { mass: 0.4, stretchStiffness: 0.95, shearStiffness: 0.9, bendStiffness: 0.3, damping: 1, friction: 0.5, pins },
            xpbd,
        );

        const cube = CreateBox("jelly", { size: 0.55 }, scene);
        cube.position.set(1.3, 0.6, 0.1);
        cube.rotation.y = 0.4;
        cube.material = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        const jelly = new SoftBodyImpostor(
            cube,
            { mass: 1.5, stretchStiffness: 0.7, volumeStiffness: 1, shapeMatching: 0.5, damping: 2, resolution: 4 },
            xpbd,
        );

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                ...solverFigures(xpbd),
                bodies: xpbd.impostors.length,
                "jelly asleep": jelly.sleeping ? "yes" : "no",
                "cloth asleep": cloth.sleeping ? "yes" : "no",
            }),
            // Everything belongs to the scene, which the page disposes.
            dispose() {},
        };
    },
};
