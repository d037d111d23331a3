import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/** Quads per side on the WebGPU backend, and on the CPU one (where 256² would take most of a second per step). */
const GPU_SEGMENTS = 256;
const CPU_SEGMENTS = 64;
const SIZE = 2.4;
const HEIGHT = 3;

/**
 * Quads per side: `?cloth=N` (2 to 256) when the page gives it (the browser tests use a small cloth: SwiftShader
 * takes seconds for a 256² step), else {@link GPU_SEGMENTS} on the WebGPU backend and {@link CPU_SEGMENTS} on the CPU.
 */
function segments(xpbd: XpbdPlugin): number {
    const asked = Number(new URLSearchParams(globalThis.location?.search ?? "").get("cloth"));
    if (Number.isInteger(asked) && asked >= 2 && asked <= GPU_SEGMENTS) {
        return asked;
    }
    return xpbd.backend === "webgpu" ? GPU_SEGMENTS : CPU_SEGMENTS;
}

/**
 * A 256×256 cloth (66,049 particles) on the WebGPU backend: held along one edge by a bar, it starts horizontal, swings
 * down and waves in a slow breeze. On WebGPU it is drawn straight from GPU buffers (nothing is read back to draw a
 * frame); on the CPU backend it is 64×64, and the figures panel says so.
 */
export const bigCloth: Demo = {
    id: "big-cloth",
    title: "Big cloth (256², WebGPU)",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, {
            // Above the cloth's middle, so that the page's bar and figures do not hide the bar.
            target: new Vector3(0, 2.3, 0),
            radius: 7.5,
            alpha: -Math.PI / 2 - 0.6,
            beta: 1.3,
        });
        const xpbd = new XpbdPlugin(scene, pluginOptions({ wind: new Vector3(0.6, 0, 0.4) }));
        const n = segments(xpbd);

        const bar = CreateCylinder("bar", { diameter: 0.06, height: SIZE + 0.3, tessellation: 16 }, scene);
        bar.rotation.z = Math.PI / 2;
        bar.position.set(0, HEIGHT, -SIZE / 2);
        bar.material = colour(scene, "barMaterial", new Color3(0.45, 0.45, 0.5));

        const { mesh, grid } = clothMesh(scene, "big cloth", {
            width: SIZE,
            height: SIZE,
            segmentsX: n,
            segmentsY: n,
            plane: "xz",
            origin: [0, HEIGHT, 0],
        });
        mesh.material = fabric(scene, "bigClothMaterial", new Color3(0.75, 0.3, 0.35));
        // The last row is the −z edge, along the bar: pinned all along it.
        const last = (grid.rows - 1) * grid.columns;
        const pins = Array.from({ length: grid.columns }, (_, k) => last + k);
        const cloth = new ClothImpostor(
            mesh,
            { mass: 1.2, stretchStiffness: 1, shearStiffness: 0.9, bendStiffness: 0.1, damping: 0.5, allowSleep: false, pins },
            xpbd,
        );

        const panel = new ControlPanel();
        panel.slider("breeze m/s", 0, 4, 0.1, xpbd.wind.length(), (v) => (xpbd.wind = new Vector3(0.6, 0, 0.4).normalize().scale(v)));
        panel.slider("bend", 0, 1, 0.01, cloth.bendStiffness, (v) => (cloth.bendStiffness = v));

        const size = `${n}² (${(n + 1) ** 2} particles)`;
        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                cloth: xpbd.backend === "webgpu" ? size : `${size}: the CPU backend; 256² runs with ?engine=webgpu`,
                // On the engine's own device (a WebGPUEngine), the GPU cloth is drawn from its vertex buffers on the GPU.
                drawn: cloth.backend === "webgpu" && scene.getEngine().isWebGPU ? "from GPU buffers" : "from the CPU",
                ...solverFigures(xpbd),
            }),
            dispose() {},
        };
    },
};
