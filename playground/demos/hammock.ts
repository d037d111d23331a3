import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/**
 * Hammock edge (m), quads per side, mass (kg), height of its four pinned corners (m), how far its middle hangs below
 * them at rest (m); each jelly's mass (kg) and how far above the pile it is laid (m).
 */
const SIZE = 1.2;
const SEGMENTS = 20;
const HAMMOCK_MASS = 0.5;
const HEIGHT = 1.2;
const SAG = 0.1;
const JELLY_MASS = 1;
const DROP = 0.03;
/** How far above the pinned corners the first jelly starts (m): it falls into the hammock. */
const FIRST_DROP = 0.5;

/**
 * A jelly lying in a cloth hammock pinned by its four corners: soft body on cloth, the pins carrying both. "Add a
 * jelly" lays one more onto the pile.
 */
export const hammock: Demo = {
    id: "hammock",
    title: "Jelly in a hammock",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0, 1, 0), radius: 4, beta: 1.1 });
        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const { mesh, grid } = clothMesh(scene, "hammock", {
            width: SIZE,
            height: SIZE,
            segmentsX: SEGMENTS,
            segmentsY: SEGMENTS,
            plane: "xz",
            origin: [0, HEIGHT, 0],
        });
        // Cloth cut 10 cm deeper than its span: hung flat and taut, a pile slid off its side.
        const positions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
        for (let i = 0; i < positions.length; i += 3) {
            const u = (2 * positions[i]) / SIZE;
            const v = (2 * positions[i + 2]) / SIZE;
            positions[i + 1] -= SAG * (1 - (u * u + v * v) / 2);
        }
        mesh.updateVerticesData(VertexBuffer.PositionKind, positions);
        mesh.refreshBoundingInfo();
        mesh.material = fabric(scene, "hammockMaterial", new Color3(0.85, 0.6, 0.3));
        const last = (grid.rows - 1) * grid.columns;
        const pins = [0, grid.columns - 1, last, last + grid.columns - 1];
        const cloth = new ClothImpostor(mesh, { mass: HAMMOCK_MASS, pins }, xpbd);

        const jellyMaterial = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        const jellies: SoftBodyImpostor[] = [];
        const add = (): void => {
            const k = jellies.length;
            // Laid just above the pile.
            let top = HEIGHT;
            for (const jelly of jellies) {
                const y = jelly.body.positions;
                for (let i = 1; i < 3 * jelly.body.particleCount; i += 3) top = Math.max(top, y[i]);
            }
            const cube = CreateBox(`jelly${k}`, { size: 0.3 }, scene);
            cube.position.set(0.1 * Math.sin(2.4 * k), top, 0.1 * Math.cos(2.4 * k));
            cube.rotation.set(0.3 * k, 0.5 * k, 0.2);
            // The turned cube reaches lower than half its size: its world bounds say how far.
            cube.computeWorldMatrix(true);
            cube.position.y += top + (k === 0 ? FIRST_DROP : DROP) - cube.getBoundingInfo().boundingBox.minimumWorld.y;
            cube.material = jellyMaterial;
            jellies.push(new SoftBodyImpostor(cube, { mass: JELLY_MASS, resolution: 4, damping: 2 }, xpbd));
        };
        add();

        const panel = new ControlPanel();
        panel.button("Add a jelly", add);

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
