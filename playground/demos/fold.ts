import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/** Tablecloth edge (m), quads per side, thickness (m): the thickness well under the 5 cm particle spacing. */
const SIZE = 1.4;
const SEGMENTS = 28;
const THICKNESS = 0.008;

/**
 * A tablecloth with self-collision falls onto a table off-centre and folds over its edge and onto the floor without
 * passing through itself. "Drop another" drops a second one on top, turned: the two lie on each other.
 */
export const fold: Demo = {
    id: "fold",
    title: "Folding tablecloth",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0, 0.7, 0), radius: 3.2, beta: 1.3 });
        const table = CreateBox("table", { width: 1, height: 0.06, depth: 0.7 }, scene);
        table.position.y = 0.72;
        table.material = colour(scene, "tableMaterial", new Color3(0.55, 0.38, 0.25));
        new PhysicsAggregate(table, PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene);

        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const colours = [new Color3(0.85, 0.25, 0.25), new Color3(0.95, 0.85, 0.35), new Color3(0.3, 0.6, 0.9)];
        const cloths: ClothImpostor[] = [];
        const drop = (): void => {
            const k = cloths.length;
            const { mesh } = clothMesh(scene, `tablecloth${k}`, {
                width: SIZE,
                height: SIZE,
                segmentsX: SEGMENTS,
                segmentsY: SEGMENTS,
                plane: "xz",
                origin: [0.25 - 0.1 * k, 1.1 + 0.15 * k, 0.1],
            });
            mesh.rotation.y = 0.5 * k;
            mesh.material = fabric(scene, `tableclothMaterial${k}`, colours[k % colours.length]);
            cloths.push(
                new ClothImpostor(mesh, { mass: 0.4, bendStiffness: 0.2, thickness: THICKNESS, selfCollision: true, friction: 0.6 }, xpbd),
            );
        };
        drop();

        const panel = new ControlPanel();
        panel.button("Drop another", drop);
        panel.checkbox("self-collision", true, (on) => cloths.forEach((cloth) => (cloth.selfCollision = on)));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                ...solverFigures(xpbd),
                tablecloths: cloths.length,
                "soft contacts": xpbd.stats.softContacts,
            }),
            dispose() {},
        };
    },
};
