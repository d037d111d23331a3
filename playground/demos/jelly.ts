import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { colour, ControlPanel, createStage, solverFigures } from "./stage.js";

const SLOPE_ANGLE = (28 * Math.PI) / 180;

/**
 * The large jelly: a 10k-triangle sphere at resolution 16 (about 25,000 tets), whose meshing blocks the page for
 * several hundred milliseconds when built synchronously.
 */
const LARGE_JELLY = { segments: 48, resolution: 16, mass: 3 };

/**
 * A jelly cube: a box mesh tetrahedralised at runtime (resolution 5), with volume constraints, dropped onto a
 * static slope; it slides down into a static sphere and settles. "Drop again" rebuilds it with the sliders' values.
 * "model" switches to the cheap jelly: the lattice's surface only, held in shape by shape matching. "Large jelly"
 * builds a finely meshed jelly ball with `SoftBodyImpostor.CreateAsync` (a progress bar shows the build while the
 * scene keeps running); "Large jelly, blocking" builds the same with the constructor, for comparison.
 */
export const jelly: Demo = {
    id: "jelly",
    title: "Jelly",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, {
            target: new Vector3(0, 0.9, 0),
            radius: 6.5,
            alpha: -Math.PI / 2 - 0.35,
            beta: 1.2,
        });

        const slope = CreateBox("slope", { width: 3.2, height: 0.2, depth: 1.8 }, scene);
        slope.position.set(-0.7, 0.72, 0);
        slope.rotation.z = -SLOPE_ANGLE;
        slope.material = colour(scene, "slopeMaterial", new Color3(0.55, 0.5, 0.45));
        new PhysicsAggregate(slope, PhysicsShapeType.BOX, { mass: 0, friction: 0.4 }, scene);

        const sphere = CreateSphere("sphere", { diameter: 0.9, segments: 24 }, scene);
        sphere.position.set(1.55, 0.45, 0.15);
        sphere.material = colour(scene, "sphereMaterial", new Color3(0.85, 0.55, 0.2));
        new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0, friction: 0.5 }, scene);

        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const jellyMaterial = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        jellyMaterial.alpha = 0.9;
        const params = { volumeStiffness: 1, stretchStiffness: 0.75, damping: 2, resolution: 5, surfaceOnly: false };
        let impostor: SoftBodyImpostor | undefined;
        let building: Mesh | undefined;

        const clear = () => {
            building?.dispose(); // a large jelly still being built: its build rejects
            impostor?.mesh.dispose(); // disposes the impostor too
            impostor = undefined;
        };
        const drop = () => {
            clear();
            const cube = CreateBox("jelly", { size: 0.7 }, scene);
            cube.position.set(-1.35, 2.9, 0);
            cube.rotation.set(0.3, 0.2, 0.4);
            cube.material = jellyMaterial;
            const { surfaceOnly, ...options } = params;
            const model = surfaceOnly ? { tetrahedra: false, shapeMatching: 0.6 } : {};
            impostor = new SoftBodyImpostor(cube, { mass: 2, friction: 0.4, ...options, ...model }, xpbd);
        };
        drop();

        const panel = new ControlPanel();
        panel.slider(
            "volume",
            0,
            1,
            0.01,
            params.volumeStiffness,
            (v) => impostor && (impostor.volumeStiffness = params.volumeStiffness = v),
        );
        panel.slider(
            "stretch",
            0,
            1,
            0.01,
            params.stretchStiffness,
            (v) => impostor && (impostor.stretchStiffness = params.stretchStiffness = v),
        );
        panel.slider("damping", 0, 10, 0.1, params.damping, (v) => impostor && (impostor.damping = params.damping = v));
        panel.select("resolution", ["3", "4", "5", "6"], String(params.resolution), (v) => {
            params.resolution = Number(v);
            drop();
        });
        panel.select("model", ["tetrahedra", "surface + shape matching"], "tetrahedra", (v) => {
            params.surfaceOnly = v !== "tetrahedra";
            drop();
        });
        panel.button("Drop again", drop);

        const progress = panel.progress("building");
        const largeJelly = async (blocking: boolean): Promise<void> => {
            clear();
            const ball = CreateSphere("largeJelly", { diameter: 1.1, segments: LARGE_JELLY.segments }, scene);
            ball.position.set(-1.3, 3, 0);
            ball.material = jellyMaterial;
            const { volumeStiffness, stretchStiffness, damping } = params;
            const options = {
                mass: LARGE_JELLY.mass,
                friction: 0.4,
                volumeStiffness,
                stretchStiffness,
                damping,
                resolution: LARGE_JELLY.resolution,
            };
            if (blocking) {
                impostor = new SoftBodyImpostor(ball, options, xpbd);
                return;
            }
            building = ball;
            progress.parentElement!.hidden = false;
            try {
                impostor = await SoftBodyImpostor.CreateAsync(ball, options, xpbd, { onProgress: (p) => (progress.value = p) });
            } finally {
                if (building === ball) building = undefined;
                progress.parentElement!.hidden = true;
            }
        };
        // A build cut short by "Drop again" (or another build) rejects: nothing to report.
        panel.button("Large jelly", () => void largeJelly(false).catch((e: unknown) => console.warn(String(e))));
        panel.button("Large jelly, blocking", () => void largeJelly(true));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                ...solverFigures(xpbd),
                tets: xpbd.stats.volumeConstraints,
                "volume ratio": xpbd.stats.volumeRatio.toFixed(3),
            }),
            actions: { largeJelly: () => largeJelly(false), largeJellyBlocking: () => largeJelly(true) },
            dispose() {},
        };
    },
};
