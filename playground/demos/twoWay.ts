import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { HingeConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import type { Demo, DemoHandle } from "./demo.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures, type Stage } from "./stage.js";

const BALL_X = -5.2;
const WALL_X = -3.2;
const TRAMPOLINE_X = 0;
const SEESAW_X = 3.6;
const BOX = 0.34;

/**
 * Two-way coupling, three ways: a soft ball knocks over a wall of Havok boxes; Havok boxes fall into a cloth
 * trampoline, dent it and are pushed back up; a heavy jelly lands on a hinged Havok seesaw and catapults a box.
 */
export const twoWay: Demo = {
    id: "two-way",
    title: "Two-way coupling",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        const stage = createStage(scene, havok, { target: new Vector3(-0.6, 0.9, 0), radius: 11, alpha: -Math.PI / 2 - 0.15, beta: 1.2 });
        const xpbd = new XpbdPlugin(scene, { substeps: 10 }); // contacts with heavy bodies hold better with more substeps;
        const params = { ballSpeed: 7, jellyMass: 8 };
        const boxMaterial = colour(scene, "boxMaterial", new Color3(0.25, 0.55, 0.85));
        const box = (name: string, position: Vector3, mass: number, size = BOX): PhysicsAggregate => {
            const mesh = CreateBox(name, { size }, scene);
            mesh.position.copyFrom(position);
            mesh.material = boxMaterial;
            mesh.receiveShadows = true;
            stage.shadows.addShadowCaster(mesh);
            return new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass, friction: 0.6, restitution: 0.05 }, scene);
        };

        // 1. A soft ball thrown at a wall of boxes.
        const wall: PhysicsAggregate[] = [];
        for (let row = 0; row < 3; row++) {
            for (let col = 0; col < 2; col++) {
                wall.push(box(`wall${row}_${col}`, new Vector3(WALL_X, BOX / 2 + row * BOX, (col - 0.5) * BOX * 1.02), 0.4));
            }
        }
        const ballMesh = CreateSphere("softBall", { diameter: 0.7, segments: 12 }, scene);
        ballMesh.position.set(BALL_X, 0.6, 0);
        ballMesh.material = colour(scene, "ballMaterial", new Color3(0.9, 0.35, 0.3));
        stage.shadows.addShadowCaster(ballMesh);
        const ball = new SoftBodyImpostor(
            ballMesh,
            { mass: 2, stretchStiffness: 0.85, volumeStiffness: 1, resolution: 5, friction: 0.4 },
            xpbd,
        );
        ball.setLinearVelocity(new Vector3(params.ballSpeed, 1.5, 0));

        // 2. A trampoline of cloth pinned at its four corners; boxes drop into it.
        const posts = colour(scene, "postMaterial", new Color3(0.6, 0.6, 0.62));
        const height = 1.1;
        for (const [dx, dz] of [
            [-0.8, -0.8],
            [0.8, -0.8],
            [-0.8, 0.8],
            [0.8, 0.8],
        ]) {
            const post = CreateCylinder("post", { diameter: 0.06, height }, scene);
            post.position.set(TRAMPOLINE_X + dx, height / 2, dz);
            post.material = posts;
        }
        const { mesh: sheet, grid } = clothMesh(scene, "trampoline", {
            width: 1.6,
            height: 1.6,
            segmentsX: 16,
            segmentsY: 16,
            plane: "xz",
            origin: [TRAMPOLINE_X, height, 0],
        });
        sheet.material = colour(scene, "trampolineMaterial", new Color3(0.95, 0.8, 0.3), true);
        sheet.receiveShadows = true;
        stage.shadows.addShadowCaster(sheet);
        const c = grid.columns,
            last = (grid.rows - 1) * c;
        const trampoline = new ClothImpostor(
            sheet,
            {
                mass: 0.5,
                stretchStiffness: 1,
                bendStiffness: 0.2,
                damping: 1,
                friction: 0.6,
                thickness: 0.015,
                pins: [0, c - 1, last, last + c - 1],
            },
            xpbd,
        );
        const falling = [
            box("drop0", new Vector3(TRAMPOLINE_X - 0.3, 2.0, 0.2), 0.3, 0.42),
            box("drop1", new Vector3(TRAMPOLINE_X + 0.3, 2.6, -0.2), 0.3, 0.42),
            box("drop2", new Vector3(TRAMPOLINE_X, 3.2, 0.1), 0.3, 0.42),
        ];

        // 3. A seesaw: a dynamic plank hinged on a static triangular prism; a light box waits on its low end.
        const plank = seesaw(stage, SEESAW_X);
        const payload = box("payload", new Vector3(SEESAW_X + 1.3, 0.97, 0), 0.3, 0.3);
        const jellyMesh = CreateBox("heavyJelly", { size: 0.55 }, scene);
        jellyMesh.position.set(SEESAW_X - 1.25, 3.2, 0);
        jellyMesh.material = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        stage.shadows.addShadowCaster(jellyMesh);
        const heavy = new SoftBodyImpostor(
            jellyMesh,
            { mass: params.jellyMass, stretchStiffness: 0.8, volumeStiffness: 1, resolution: 4, damping: 2 },
            xpbd,
        );

        const panel = new ControlPanel();
        panel.slider("ball stretch", 0, 1, 0.01, ball.stretchStiffness, (v) => (ball.stretchStiffness = v));
        panel.slider("jelly kg", 1, 20, 0.5, heavy.mass, (v) => (heavy.mass = v));
        panel.slider("trampoline stretch", 0, 1, 0.01, trampoline.stretchStiffness, (v) => (trampoline.stretchStiffness = v));
        panel.button("Restart", () => window.dispatchEvent(new HashChangeEvent("hashchange")));

        await scene.whenReadyAsync();
        const v = new Vector3();
        const fallen = () =>
            wall.filter((a) => a.transformNode.position.y > 0 && Math.abs(a.transformNode.position.x - WALL_X) > 0.3).length;
        return {
            xpbd,
            figures: () => ({
                ...solverFigures(xpbd),
                "wall boxes moved": `${fallen()} / ${wall.length}`,
                "lowest drop box y": Math.min(...falling.map((a) => a.transformNode.position.y)).toFixed(2),
                "plank angle °": (((plank.rotationQuaternion?.toEulerAngles().z ?? plank.rotation.z) * 180) / Math.PI).toFixed(1),
                "payload speed m/s": (payload.body.getLinearVelocityToRef(v), v.length()).toFixed(2),
            }),
            dispose() {},
        };
    },
};

/** A static triangular prism (apex up, axis along z) with a dynamic plank hinged on its apex; returns the plank. */
function seesaw({ scene, shadows }: Stage, x: number): Mesh {
    const radius = 0.45; // circumradius of the prism's triangle: apex at +radius, base at −radius/2
    const prism = CreateCylinder("fulcrum", { diameter: 2 * radius, height: 0.7, tessellation: 3 }, scene);
    // Axis along z (RotationX), then a corner turned up (RotationZ): row vectors, so X is applied first.
    prism.bakeTransformIntoVertices(Matrix.RotationX(Math.PI / 2).multiply(Matrix.RotationZ(Math.PI / 2)));
    prism.position.set(x, radius / 2, 0);
    prism.material = colour(scene, "fulcrumMaterial", new Color3(0.55, 0.5, 0.45));
    prism.receiveShadows = true;
    shadows.addShadowCaster(prism);
    const fulcrum = new PhysicsAggregate(prism, PhysicsShapeType.CONVEX_HULL, { mass: 0 }, scene);

    const apexY = radius / 2 + radius;
    const plank = CreateBox("plank", { width: 3, height: 0.1, depth: 0.6 }, scene);
    plank.position.set(x, apexY + 0.06, 0);
    plank.rotation.set(0, 0, 0);
    plank.material = colour(scene, "plankMaterial", new Color3(0.7, 0.5, 0.3));
    plank.receiveShadows = true;
    shadows.addShadowCaster(plank);
    const board = new PhysicsAggregate(plank, PhysicsShapeType.BOX, { mass: 2, friction: 0.8 }, scene);
    // Pivots in each body's frame: the plank's centre, 6 cm above the prism's apex.
    const hinge = new HingeConstraint(new Vector3(0, radius + 0.06, 0), Vector3.Zero(), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
    fulcrum.body.addConstraint(board.body, hinge);
    return plank;
}
