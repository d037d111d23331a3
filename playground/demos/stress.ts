import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdLodLevel, type XpbdLodOptions } from "../../src/babylon/levelOfDetail.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/** Quality tiers: substeps per Havok step (one iteration). */
const TIERS = { "low (2)": 2, "medium (5)": 5, "high (10)": 10 } as const;
type Tier = keyof typeof TIERS;
const BOXES_PER_STATION = 6;
/**
 * Full detail within 15 m of the camera (every station from where the camera starts, 9–13 m away), half the
 * substeps up to 30 m, asleep beyond or out of view.
 */
const LOD: XpbdLodOptions = { distances: [15, 30] };
/** The fly-through: out from the starting radius to the camera's limit and back, in this many seconds. */
const FLIGHT_SECONDS = 8;

/**
 * Many of everything: six stations, each a static sphere with a free cloth falling on it and a soft cube, while
 * dynamic Havok boxes rain on all of them. The quality tier sets the substeps; the page's frame and step times show
 * what each costs. Level of detail is on: "Fly away and back" takes the camera
 * out past 30 m and back, and the figures count the impostors at each level and the substeps solved.
 */
export const stress: Demo = {
    id: "stress",
    title: "Stress test",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        const { camera } = createStage(scene, havok, {
            target: new Vector3(0, 0.6, 0),
            radius: 11,
            alpha: -Math.PI / 2 - 0.3,
            beta: 1.05,
        });
        let tier: Tier = "medium (5)";
        const xpbd = new XpbdPlugin(scene, pluginOptions({ substeps: TIERS[tier], lod: LOD }));

        const sphereMaterial = colour(scene, "sphereMaterial", new Color3(0.85, 0.55, 0.2));
        const clothMaterials = [new Color3(0.3, 0.55, 0.9), new Color3(0.85, 0.25, 0.3), new Color3(0.95, 0.8, 0.3)].map((c, i) =>
            fabric(scene, `clothMaterial${i}`, c),
        );
        const jellyMaterial = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        const boxMaterial = colour(scene, "boxMaterial", new Color3(0.55, 0.6, 0.7));

        const boxes: PhysicsAggregate[] = [];
        const boxHome: Vector3[] = [];
        let station = 0;
        for (const z of [-1.6, 1.6]) {
            for (const x of [-3.2, 0, 3.2]) {
                const sphere = CreateSphere(`sphere${station}`, { diameter: 0.9, segments: 16 }, scene);
                sphere.position.set(x, 0.45, z);
                sphere.material = sphereMaterial;
                new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0 }, scene);

                const { mesh } = clothMesh(scene, `cloth${station}`, {
                    width: 1.3,
                    height: 1.3,
                    segmentsX: 12,
                    segmentsY: 12,
                    plane: "xz",
                    origin: [x, 1.4, z],
                });
                mesh.material = clothMaterials[station % clothMaterials.length];
                new ClothImpostor(mesh, { mass: 0.3, bendStiffness: 0.2, friction: 0.6 }, xpbd);

                const cube = CreateBox(`jelly${station}`, { size: 0.45 }, scene);
                cube.position.set(x + 0.85, 2.2, z - 0.3);
                cube.rotation.set(0.4, 0.3 * station, 0.2);
                cube.material = jellyMaterial;
                new SoftBodyImpostor(cube, { mass: 1, stretchStiffness: 0.8, resolution: 3, damping: 2 }, xpbd);

                for (let b = 0; b < BOXES_PER_STATION; b++) {
                    const angle = b * 2.39996 + station;
                    const home = new Vector3(x + 0.5 * Math.cos(angle), 3 + 0.5 * b, z + 0.5 * Math.sin(angle));
                    const box = CreateBox(`box${station}_${b}`, { size: 0.25 }, scene);
                    box.position.copyFrom(home);
                    box.rotationQuaternion = Quaternion.RotationYawPitchRoll(angle, 0.5 * b, 0.3);
                    box.material = boxMaterial;
                    boxes.push(new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 0.3, friction: 0.6 }, scene));
                    boxHome.push(home);
                }
                station++;
            }
        }

        // The fly-through: the radius eases out to the camera's limit and back (phase 0 → 1), then stops.
        const homeRadius = camera.radius;
        let flight = -1;
        const flying = scene.onBeforeRenderObservable.add(() => {
            if (flight < 0) {
                return;
            }
            flight = Math.min(1, flight + scene.getEngine().getDeltaTime() / 1000 / FLIGHT_SECONDS);
            const out = 0.5 - 0.5 * Math.cos(2 * Math.PI * flight);
            camera.radius = homeRadius + ((camera.upperRadiusLimit ?? homeRadius) - homeRadius) * out;
            if (flight === 1) {
                flight = -1;
            }
        });
        const levels = () => {
            const count = [0, 0, 0];
            xpbd.impostors.forEach((impostor) => count[impostor.lodLevel]++);
            return `${count[XpbdLodLevel.Full]} / ${count[XpbdLodLevel.Reduced]} / ${count[XpbdLodLevel.Asleep]}`;
        };

        const panel = new ControlPanel();
        panel.select("quality", Object.keys(TIERS), tier, (value) => {
            tier = value as Tier;
            xpbd.substeps = TIERS[tier];
        });
        panel.checkbox("level of detail", true, (on) => (xpbd.lod = on ? LOD : null));
        panel.button("Fly away and back", () => (flight = 0));
        panel.button("Rain again", () => {
            boxes.forEach((aggregate, i) => {
                const { body, transformNode } = aggregate;
                transformNode.position.copyFrom(boxHome[i]);
                body.disablePreStep = false; // teleport: Havok takes the node's pose at the next step
                body.setLinearVelocity(Vector3.Zero());
                body.setAngularVelocity(Vector3.Zero());
                scene.onAfterPhysicsObservable.addOnce(() => (body.disablePreStep = true));
            });
        });

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                tier,
                "soft bodies": xpbd.impostors.length,
                "rigid bodies": boxes.length + 6,
                "camera m": camera.radius.toFixed(1),
                "LOD full / reduced / asleep": levels(),
                "substeps solved": xpbd.stats.solvedSubsteps,
                ...solverFigures(xpbd),
            }),
            dispose() {
                scene.onBeforeRenderObservable.remove(flying);
            },
        };
    },
};
