import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateIcoSphere } from "@babylonjs/core/Meshes/Builders/icoSphereBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/**
 * Bench top height (m); cushion radius (m), height over width, mass (kg), gas pressure at the rest volume (Pa), drop height over the
 * bench (m); the crate's size (m: long and flat, across the three cushions, so it stays on them) and mass (kg).
 */
const BENCH_TOP = 0.45;
const RADIUS = 0.33;
const FLATNESS = 0.35;
const CUSHION_MASS = 2;
const PRESSURE = 800;
const CRATE: [number, number, number] = [1.9, 0.3, 0.6];
const DROP = 0.6;
const CRATE_MASS = 60;

/**
 * Three air cushions dropped on a bench, a long crate dropped across them: closed cloths holding gas (`pressure`, Pa)
 * that keep p·V constant, so the loaded cushions flatten and their pressure rises to carry the crate (no air outside: at 0 they collapse). A slider sets
 * the cushions' pressure; "Drop a crate" drops another.
 */
export const cushions: Demo = {
    id: "cushions",
    title: "Air cushions",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0, 0.7, 0), radius: 4, beta: 1.15 });
        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const bench = CreateBox("bench", { width: 2.6, height: BENCH_TOP, depth: 0.8 }, scene);
        bench.position.y = BENCH_TOP / 2;
        bench.material = colour(scene, "benchMaterial", new Color3(0.45, 0.3, 0.2));
        new PhysicsAggregate(bench, PhysicsShapeType.BOX, { mass: 0, friction: 0.8 }, scene);
        // A backrest: an air cushion is springy (the gas stores what the crate's fall gives it), and a crate bounced
        // off the back of a bare bench.
        const back = CreateBox("backrest", { width: 2.6, height: 0.7, depth: 0.12 }, scene);
        back.position.set(0, BENCH_TOP + 0.35, 0.46);
        back.material = bench.material;
        new PhysicsAggregate(back, PhysicsShapeType.BOX, { mass: 0, friction: 0.8 }, scene);

        const cushionMaterial = fabric(scene, "cushionMaterial", new Color3(0.25, 0.55, 0.9));
        const pillows: ClothImpostor[] = [];
        for (const x of [-0.7, 0, 0.7]) {
            const mesh = CreateIcoSphere(`cushion${pillows.length}`, { radius: RADIUS, subdivisions: 3, updatable: true }, scene);
            mesh.scaling.y = FLATNESS;
            mesh.scaling.z = 1.1;
            mesh.position.set(x, BENCH_TOP + RADIUS * FLATNESS + DROP, 0);
            mesh.material = cushionMaterial;
            pillows.push(new ClothImpostor(mesh, { mass: CUSHION_MASS, pressure: PRESSURE, bendStiffness: 0.3 }, xpbd));
        }

        const crateMaterial = colour(scene, "crateMaterial", new Color3(0.75, 0.55, 0.3));
        const crates: Mesh[] = [];
        const drop = (): void => {
            const k = crates.length;
            const crate = CreateBox(`crate${k}`, { width: CRATE[0], height: CRATE[1], depth: CRATE[2] }, scene);
            // The first falls with the cushions, just above them: it lands gently.
            crate.position.set(0.05 * k, 1.55 + 0.5 * k, -0.02);
            crate.rotation.y = 0.2 * k;
            crate.material = crateMaterial;
            const aggregate = new PhysicsAggregate(crate, PhysicsShapeType.BOX, { mass: CRATE_MASS, friction: 0.8 }, scene);
            // Kept from tipping (a huge inertia about x and z): on springy, rounded cushions a free crate soon tips and
            // slides off, and this demo is about the cushions, not about balancing.
            const inertia = aggregate.body.getMassProperties().inertia!;
            aggregate.body.setMassProperties({ mass: CRATE_MASS, inertia: new Vector3(1e6, inertia.y, 1e6) });
            // The gas is a lossless spring (no air outside to push it back into): a little damping stands in for the
            // fabric's and the air's losses, so the crate settles instead of bobbing on the cushions.
            aggregate.body.setLinearDamping(2);
            crates.push(crate);
        };
        drop();

        const panel = new ControlPanel();
        panel.slider("Pressure (Pa)", 0, 20000, 100, PRESSURE, (v) => {
            for (const pillow of pillows) pillow.pressure = v;
        });
        panel.button("Drop a crate", drop);

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => {
                // The lowest crate's bottom over the bench top (level crates): above 0 while the cushions hold it.
                const lowest = Math.min(...crates.map((c) => c.position.y));
                const figures: Record<string, number | string> = {
                    ...solverFigures(xpbd),
                    crates: crates.length,
                    "crate above bench mm": ((lowest - CRATE[1] / 2 - BENCH_TOP) * 1000).toFixed(0),
                };
                pillows.forEach((pillow, k) => {
                    const gas = pillow.body.gas!;
                    figures[`cushion ${k + 1} V/V0`] = (gas.volume / gas.restVolume).toFixed(3);
                    figures[`cushion ${k + 1} Pa`] = gas.appliedPressure.toFixed(0);
                });
                return figures;
            },
            dispose() {},
        };
    },
};
