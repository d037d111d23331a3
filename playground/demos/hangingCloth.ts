import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
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

const SEGMENTS = 16;
const SIZE = 1.6;
const HEIGHT = 2.4;
const SPHERE_RADIUS = 0.4;

/**
 * The 16×16 self-test: a 16×16 cloth, horizontal at first, pinned by its two back corners, swings down
 * and comes to rest hanging against a static Havok sphere. The figures are the acceptance numbers: edge ratios
 * (stretch), contact correction and count, kinetic energy (→ ~0 at rest: no jitter) and the cost of a step.
 */
export const hangingCloth: Demo = {
    id: "hanging-cloth",
    title: "Hanging cloth self-test",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, {
            target: new Vector3(0, 1.45, -0.4),
            radius: 5.5,
            alpha: Math.PI / 2 - 0.7,
            beta: 1.3,
        });

        // The cloth swings down about its pinned back edge (z = −SIZE/2) onto the sphere, which bulges 20 cm through
        // that plane, and comes to rest draped over its front.
        const sphere = CreateSphere("sphere", { diameter: 2 * SPHERE_RADIUS, segments: 24 }, scene);
        sphere.position.set(0.15, HEIGHT - 1.0, -SIZE / 2 + SPHERE_RADIUS - 0.2);
        sphere.material = colour(scene, "sphereMaterial", new Color3(0.85, 0.55, 0.2));
        new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0, friction: 0.5 }, scene);

        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const { mesh, grid } = clothMesh(scene, "cloth", {
            width: SIZE,
            height: SIZE,
            segmentsX: SEGMENTS,
            segmentsY: SEGMENTS,
            plane: "xz",
            origin: [0, HEIGHT, 0],
        });
        mesh.material = fabric(scene, "clothMaterial", new Color3(0.3, 0.55, 0.9));
        // Row 0 is the +z edge; the last row is the −z edge: pin its two corners.
        const last = (grid.rows - 1) * grid.columns;
        const pins = [last, last + grid.columns - 1];
        const cloth = new ClothImpostor(
            mesh,
            { mass: 0.4, stretchStiffness: 1, shearStiffness: 0.9, bendStiffness: 0.15, damping: 1, friction: 0.5, thickness: 0.01, pins },
            xpbd,
        );

        const panel = new ControlPanel();
        panel.slider("stretch", 0, 1, 0.01, cloth.stretchStiffness, (v) => (cloth.stretchStiffness = v));
        panel.slider("bend", 0, 1, 0.01, cloth.bendStiffness, (v) => (cloth.bendStiffness = v));
        panel.slider("damping", 0, 5, 0.1, cloth.damping, (v) => (cloth.damping = v));
        panel.select("substeps", ["2", "5", "10"], String(xpbd.substeps), (v) => (xpbd.substeps = Number(v)));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({ ...solverFigures(xpbd), sleeping: cloth.sleeping ? "yes" : "no" }),
            dispose() {},
        };
    },
};
