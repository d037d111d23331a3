import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { RopeImpostor } from "../../src/babylon/ropeImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import {
    CRATE,
    CRATE_MASS,
    CRATES,
    GAUGE,
    HEIGHT,
    PLANK,
    PLANK_MASS,
    PLANKS,
    SPAN,
    bridgeRope,
    cratePose,
    plankPose,
    plankTies,
} from "./ropeBridgeLayout.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { colour, ControlPanel, createStage, solverFigures } from "./stage.js";

/**
 * A plank bridge on two ropes: the ropes are pinned at the posts, every plank is a dynamic Havok box tied to both
 * ropes at its ends (`attachToBody`), and crates fall on it; a loose mooring rope swings from a post. The planks hang
 * on the ropes and the ropes carry the planks and the crates to the pins, both ways: a crate landing on a plank
 * pulls the ropes down. "Drop a crate" drops another.
 */
export const ropeBridge: Demo = {
    id: "rope-bridge",
    title: "Rope bridge",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        createStage(scene, havok, { target: new Vector3(0, 1.4, 0), radius: 7, beta: 1.2, alpha: -Math.PI / 2.6 });
        const xpbd = new XpbdPlugin(scene, pluginOptions({ substeps: 10 }));
        const wood = colour(scene, "woodMaterial", new Color3(0.55, 0.38, 0.22));
        for (const side of [-1, 1]) {
            for (const z of [-GAUGE / 2, GAUGE / 2]) {
                const post = CreateBox("post", { width: 0.16, height: HEIGHT + 0.2, depth: 0.16 }, scene);
                post.position.set(side * (SPAN / 2 + 0.1), (HEIGHT + 0.2) / 2, z);
                post.material = wood;
                new PhysicsAggregate(post, PhysicsShapeType.BOX, { mass: 0 }, scene);
            }
        }

        const ropeMaterial = colour(scene, "ropeMaterial", new Color3(0.8, 0.7, 0.45));
        const ropes: RopeImpostor[] = [];
        for (const z of [-GAUGE / 2, GAUGE / 2]) {
            const { path, options } = bridgeRope(z);
            const rope = new RopeImpostor(path, options, xpbd);
            rope.mesh.name = z < 0 ? "near rope" : "far rope";
            rope.mesh.material = ropeMaterial;
            ropes.push(rope);
        }

        // Each plank lies under the ropes, its top face touching them, tied to each rope near its edges.
        const planks: Mesh[] = [];
        for (let k = 0; k < PLANKS; k++) {
            const { x, y, tilt } = plankPose(k, PLANKS);
            const plank = CreateBox(`plank${k}`, { width: PLANK[0], height: PLANK[1], depth: PLANK[2] }, scene);
            plank.position.set(x, y, 0);
            plank.rotation.z = tilt;
            plank.material = wood;
            const aggregate = new PhysicsAggregate(plank, PhysicsShapeType.BOX, { mass: PLANK_MASS, friction: 0.8 }, scene);
            for (const rope of ropes) {
                rope.attachToBody(plankTies(rope, x), aggregate.body);
            }
            planks.push(plank);
        }

        // A mooring rope tied to a post, laid out straight and let go: it swings down.
        const mooring = new RopeImpostor(
            [new Vector3(SPAN / 2 + 0.1, HEIGHT + 0.15, -GAUGE / 2 - 0.12), new Vector3(SPAN / 2 + 1.6, HEIGHT + 0.15, -GAUGE / 2 - 0.12)],
            { radius: 0.015, mass: 0.3, pins: [0] },
            xpbd,
        );
        mooring.mesh.name = "mooring rope";
        mooring.mesh.material = ropeMaterial;

        const crateMaterial = colour(scene, "crateMaterial", new Color3(0.35, 0.5, 0.7));
        const crates: Mesh[] = [];
        const drop = (): void => {
            const k = crates.length;
            const crate = CreateBox(`crate${k}`, { size: CRATE }, scene);
            const { x, y, z, turn } = cratePose(k);
            crate.position.set(x, y, z);
            crate.rotation.y = turn;
            crate.material = crateMaterial;
            new PhysicsAggregate(crate, PhysicsShapeType.BOX, { mass: CRATE_MASS, friction: 0.8 }, scene);
            crates.push(crate);
        };
        for (let k = 0; k < CRATES; k++) {
            drop();
        }

        const panel = new ControlPanel();
        panel.button("Drop a crate", drop);

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => {
                const ropeY = (rope: RopeImpostor): number => {
                    let lowest = Infinity;
                    for (let p = 0; p < rope.particleCount; p++) lowest = Math.min(lowest, rope.body.positions[3 * p + 1]);
                    return lowest;
                };
                const deck = Math.min(...planks.map((p) => p.position.y));
                return {
                    ...solverFigures(xpbd),
                    crates: crates.length,
                    "lowest crate m": Math.min(...crates.map((c) => c.position.y)).toFixed(3),
                    "lowest plank m": deck.toFixed(3),
                    "lowest rope m": Math.min(...ropes.map(ropeY)).toFixed(3),
                    "rope max edge ratio": Math.max(...ropes.map((r) => r.body.stats.maxEdgeRatio)).toFixed(4),
                    "rope pins carry N": ropes.reduce((sum, r) => sum + r.getPinForce().y, 0).toFixed(1),
                };
            },
            dispose() {},
        };
    },
};
