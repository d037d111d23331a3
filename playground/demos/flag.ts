import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
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

const POLE_HEIGHT = 4;
const POLE_RADIUS = 0.05;
const FLAG_WIDTH = 1.8;
const FLAG_HEIGHT = 1.2;

/**
 * Gusty wind: a base speed along +x, modulated by a sum of incommensurate sines (so it never repeats exactly) and
 * swinging slowly about the vertical. Smooth in time: no sudden jumps for the explicit aerodynamic force.
 */
function gustyWind(t: number, speed: number, gust: number, out: Vector3): Vector3 {
    const strength = speed * Math.max(0, 1 + gust * (0.5 * Math.sin(1.1 * t) + 0.3 * Math.sin(2.7 * t + 1) + 0.2 * Math.sin(5.3 * t + 2)));
    // Never quite in the flag's plane (heading 0): the sheet would stay flat, edge-on to the flow.
    const heading = 0.35 + gust * (0.45 * Math.sin(0.37 * t) + 0.3 * Math.sin(2.3 * t + 0.5) + 0.15 * Math.sin(4.7 * t + 1.3));
    const lift = gust * (0.25 * Math.sin(3.1 * t) + 0.15 * Math.sin(6.7 * t + 2));
    return out.set(strength * Math.cos(heading), strength * lift, strength * Math.sin(heading));
}

/** A flag on a pole, pinned along the pole edge, flapping in gusty wind (`xpbd.wind` set every frame). */
export const flag: Demo = {
    id: "flag",
    title: "Flag in gusty wind",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, {
            target: new Vector3(0.9, 2.7, 0),
            radius: 7,
            alpha: -Math.PI / 2 - 0.5,
            beta: 1.4,
        });

        const pole = CreateCylinder("pole", { diameter: 2 * POLE_RADIUS, height: POLE_HEIGHT, tessellation: 16 }, scene);
        pole.position.y = POLE_HEIGHT / 2;
        const metal = colour(scene, "poleMaterial", new Color3(0.75, 0.75, 0.78));
        pole.material = metal;
        new PhysicsAggregate(pole, PhysicsShapeType.CYLINDER, { mass: 0 }, scene);
        const knob = CreateSphere("knob", { diameter: 0.16 }, scene);
        knob.position.y = POLE_HEIGHT + 0.05;
        knob.material = metal;

        const params = { speed: 7, gust: 0.6, on: true };
        let time = 0;
        const wind = new Vector3();
        // Assigned once, after the observer below that reads it is added (it must run before the plugin's own).
        // eslint-disable-next-line prefer-const
        let xpbd: XpbdPlugin | undefined;
        // Before each physics step (added before the plugin's own observer, so it runs first), in simulated time.
        const physics = scene.getPhysicsEngine()!;
        const windObserver = scene.onBeforePhysicsObservable.add(() => {
            time += physics.getTimeStep();
            if (xpbd) xpbd.wind = params.on ? gustyWind(time, params.speed, params.gust, wind) : wind.setAll(0);
        });
        xpbd = new XpbdPlugin(scene, pluginOptions());
        const { mesh, grid } = clothMesh(scene, "flag", {
            width: FLAG_WIDTH,
            height: FLAG_HEIGHT,
            segmentsX: 24,
            segmentsY: 16,
            plane: "xy",
            origin: [POLE_RADIUS + 0.02 + FLAG_WIDTH / 2, POLE_HEIGHT - 0.1 - FLAG_HEIGHT / 2, 0],
        });
        const material = fabric(scene, "flagMaterial", new Color3(0.85, 0.2, 0.22));
        mesh.material = material;
        // Column 0 runs along the pole.
        const pins = Array.from({ length: grid.rows }, (_, j) => j * grid.columns);
        const cloth = new ClothImpostor(
            mesh,
            {
                mass: 0.5,
                stretchStiffness: 1,
                shearStiffness: 0.9,
                bendStiffness: 0.1,
                damping: 0.5,
                thickness: 0.01,
                allowSleep: false,
                pins,
            },
            xpbd,
        );

        const panel = new ControlPanel();
        panel.checkbox("wind", params.on, (v) => (params.on = v));
        panel.slider("speed m/s", 0, 15, 0.5, params.speed, (v) => (params.speed = v));
        panel.slider("gusts", 0, 1, 0.05, params.gust, (v) => (params.gust = v));
        panel.slider("drag", 0, 3, 0.05, cloth.dragCoefficient, (v) => (cloth.dragCoefficient = v));
        panel.slider("lift", 0, 3, 0.05, cloth.liftCoefficient, (v) => (cloth.liftCoefficient = v));
        panel.slider("bend", 0, 1, 0.01, cloth.bendStiffness, (v) => (cloth.bendStiffness = v));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => {
                const w = xpbd.world.wind;
                return {
                    "wind m/s": Math.hypot(w[0], w[1], w[2]).toFixed(1),
                    "wind heading °": ((Math.atan2(w[2], w[0]) * 180) / Math.PI).toFixed(0),
                    ...solverFigures(xpbd),
                };
            },
            dispose() {
                scene.onBeforePhysicsObservable.remove(windObserver);
            },
        };
    },
};
