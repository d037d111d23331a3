import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { HingeConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import type { Demo, DemoHandle } from "./demo.js";
import { fabric } from "./fabricMaterial.js";
import { clothMesh, colour, ControlPanel, createStage, solverFigures, type Stage } from "./stage.js";

const BALL_X = -5.2;
const WALL_X = -3.2;
const TRAMPOLINE_X = 0;
const CARGO_X = -0.2;
const CARGO_Z = -2.6;
const CRATE = 0.3;
const CRATE_KG = 20;
const PLAYER_KG = 70;
const PLAYER_HALF_HEIGHT = 0.85;
const PLAYER_RADIUS = 0.25;
const SEESAW_X = 3.6;
const BOX = 0.34;

/**
 * Two-way coupling, four ways: a soft ball knocks over a wall of Havok boxes; a 70 kg player capsule lands on a 2 kg
 * cloth trampoline and stays on it; a 0.5 kg cargo net holds a stack of three 20 kg crates; a heavy jelly lands on a
 * hinged Havok seesaw and catapults a box. All at the default quality.
 */
export const twoWay: Demo = {
    id: "two-way",
    title: "Two-way coupling",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        const stage = createStage(scene, havok, { target: new Vector3(-0.6, 0.9, 0), radius: 11, alpha: -Math.PI / 2 - 0.15, beta: 1.2 });
        const xpbd = new XpbdPlugin(scene, pluginOptions());
        const params = { ballSpeed: 7, jellyMass: 8 };
        const boxMaterial = colour(scene, "boxMaterial", new Color3(0.25, 0.55, 0.85));
        const box = (name: string, position: Vector3, mass: number, size = BOX): PhysicsAggregate => {
            const mesh = CreateBox(name, { size }, scene);
            mesh.position.copyFrom(position);
            mesh.material = boxMaterial;
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
        const ball = new SoftBodyImpostor(
            ballMesh,
            { mass: 2, stretchStiffness: 0.85, volumeStiffness: 1, resolution: 5, friction: 0.4 },
            xpbd,
        );
        ball.setLinearVelocity(new Vector3(params.ballSpeed, 1.5, 0));

        // 2. A 2 kg trampoline pinned all round, and a 70 kg "player" capsule dropped onto it from 0.5 m.
        const posts = colour(scene, "postMaterial", new Color3(0.6, 0.6, 0.62));
        const height = 1.1;
        const trampoline = sheetOnPosts(stage, "trampoline", TRAMPOLINE_X, 0, 2, 20, height, posts, new Color3(0.95, 0.8, 0.3), {
            xpbd,
            mass: 2,
            pinEdges: true,
        });
        const playerMesh = CreateCapsule("player", { height: 2 * PLAYER_HALF_HEIGHT, radius: PLAYER_RADIUS, tessellation: 16 }, scene);
        playerMesh.position.set(TRAMPOLINE_X, height + PLAYER_HALF_HEIGHT + 0.5, 0);
        playerMesh.material = colour(scene, "playerMaterial", new Color3(0.3, 0.3, 0.75));
        const player = new PhysicsAggregate(playerMesh, PhysicsShapeType.CAPSULE, { mass: PLAYER_KG, friction: 0.8 }, scene);

        // 3. A 0.5 kg cargo net pinned by its corners, holding a stack of three 20 kg crates.
        const net = sheetOnPosts(stage, "cargoNet", CARGO_X, CARGO_Z, 1.2, 24, height, posts, new Color3(0.45, 0.7, 0.5), {
            xpbd,
            mass: 0.5,
        });
        const crates = [0, 1, 2].map((k) =>
            box(`crate${k}`, new Vector3(CARGO_X, height + 0.015 + CRATE / 2 + k * (CRATE + 0.002), CARGO_Z), CRATE_KG, CRATE),
        );

        // 4. A seesaw: a dynamic plank hinged on a static triangular prism; a light box waits on its low end.
        const plank = seesaw(stage, SEESAW_X);
        const payload = box("payload", new Vector3(SEESAW_X + 1.3, 0.97, 0), 0.3, 0.3);
        const jellyMesh = CreateBox("heavyJelly", { size: 0.55 }, scene);
        jellyMesh.position.set(SEESAW_X - 1.25, 3.2, 0);
        jellyMesh.material = colour(scene, "jellyMaterial", new Color3(0.35, 0.85, 0.4));
        const heavy = new SoftBodyImpostor(
            jellyMesh,
            { mass: params.jellyMass, stretchStiffness: 0.8, volumeStiffness: 1, resolution: 4, damping: 2 },
            xpbd,
        );

        const panel = new ControlPanel();
        panel.slider("ball stretch", 0, 1, 0.01, ball.stretchStiffness, (v) => (ball.stretchStiffness = v));
        panel.slider("jelly kg", 1, 20, 0.5, heavy.mass, (v) => (heavy.mass = v));
        panel.slider("trampoline stretch", 0, 1, 0.01, trampoline.stretchStiffness, (v) => (trampoline.stretchStiffness = v));
        panel.slider("crate kg", 1, 500, 1, CRATE_KG, (v) => crates.forEach((c) => c.body.setMassProperties({ mass: v })));
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
                "crates above net mm": Math.round(1000 * clearance(crates[0], CRATE / 2, net)),
                "player above trampoline mm": Math.round(
                    1000 * clearance(player, PLAYER_HALF_HEIGHT - PLAYER_RADIUS, trampoline, PLAYER_RADIUS),
                ),
                "net pins carry N": net.getPinForce().y.toFixed(0),
                "plank angle °": (((plank.rotationQuaternion?.toEulerAngles().z ?? plank.rotation.z) * 180) / Math.PI).toFixed(1),
                "payload speed m/s": (payload.body.getLinearVelocityToRef(v), v.length()).toFixed(2),
            }),
            dispose() {},
        };
    },
};

/** Options of {@link sheetOnPosts}. */
interface SheetOptions {
    xpbd: XpbdPlugin;
    mass: number;
    /** Pin every edge vertex (a trampoline) instead of the four corners (a net). */
    pinEdges?: boolean;
}

/** A square cloth `size` wide at `height`, centred on (x, z), pinned to four posts (and all round with `pinEdges`). */
function sheetOnPosts(
    stage: Stage,
    name: string,
    x: number,
    z: number,
    size: number,
    segments: number,
    height: number,
    postMaterial: StandardMaterial,
    tint: Color3,
    options: SheetOptions,
): ClothImpostor {
    const { scene } = stage;
    const half = size / 2;
    for (const [dx, dz] of [
        [-half, -half],
        [half, -half],
        [-half, half],
        [half, half],
    ]) {
        const post = CreateCylinder(`${name}Post`, { diameter: 0.06, height }, scene);
        post.position.set(x + dx, height / 2, z + dz);
        post.material = postMaterial;
    }
    const { mesh, grid } = clothMesh(scene, name, {
        width: size,
        height: size,
        segmentsX: segments,
        segmentsY: segments,
        plane: "xz",
        origin: [x, height, z],
    });
    mesh.material = fabric(scene, `${name}Material`, tint);
    const c = grid.columns;
    const r = grid.rows;
    const pins: number[] = [];
    for (let i = 0; i < r; i++) {
        for (let j = 0; j < c; j++) {
            const edge = i === 0 || j === 0 || i === r - 1 || j === c - 1;
            const corner = (i === 0 || i === r - 1) && (j === 0 || j === c - 1);
            if (options.pinEdges ? edge : corner) {
                pins.push(i * c + j);
            }
        }
    }
    return new ClothImpostor(
        mesh,
        { mass: options.mass, bendStiffness: 0.2, damping: 1, friction: 0.6, thickness: 0.015, pins },
        options.xpbd,
    );
}

/**
 * Height (m) of a body's lowest point over the highest cloth particle under it. The body is a box of half height
 * `halfHeight` or, with `radius`, a capsule whose axis segment is `2·halfHeight` long (it may have toppled).
 */
function clearance(aggregate: PhysicsAggregate, halfHeight: number, cloth: ClothImpostor, radius = 0): number {
    const node = aggregate.transformNode;
    const p = node.position;
    const up = node.getDirection(Vector3.Up());
    const bottom = radius > 0 ? p.y - halfHeight * Math.abs(up.y) - radius : p.y - halfHeight;
    const x = cloth.body.positions;
    let top = -Infinity;
    for (let k = 0; k < x.length; k += 3) {
        if (Math.abs(x[k] - p.x) < 0.1 && Math.abs(x[k + 2] - p.z) < 0.1) {
            top = Math.max(top, x[k + 1]);
        }
    }
    return bottom - top;
}

/** A static triangular prism (apex up, axis along z) with a dynamic plank hinged on its apex; returns the plank. */
function seesaw({ scene }: Stage, x: number): Mesh {
    const radius = 0.45; // circumradius of the prism's triangle: apex at +radius, base at −radius/2
    const prism = CreateCylinder("fulcrum", { diameter: 2 * radius, height: 0.7, tessellation: 3 }, scene);
    // Axis along z (RotationX), then a corner turned up (RotationZ): row vectors, so X is applied first.
    prism.bakeTransformIntoVertices(Matrix.RotationX(Math.PI / 2).multiply(Matrix.RotationZ(Math.PI / 2)));
    prism.position.set(x, radius / 2, 0);
    prism.material = colour(scene, "fulcrumMaterial", new Color3(0.55, 0.5, 0.45));
    const fulcrum = new PhysicsAggregate(prism, PhysicsShapeType.CONVEX_HULL, { mass: 0 }, scene);

    const apexY = radius / 2 + radius;
    const plank = CreateBox("plank", { width: 3, height: 0.1, depth: 0.6 }, scene);
    plank.position.set(x, apexY + 0.06, 0);
    plank.rotation.set(0, 0, 0);
    plank.material = colour(scene, "plankMaterial", new Color3(0.7, 0.5, 0.3));
    const board = new PhysicsAggregate(plank, PhysicsShapeType.BOX, { mass: 10, friction: 0.8 }, scene);
    // Pivots in each body's frame: the plank's centre, 6 cm above the prism's apex.
    const hinge = new HingeConstraint(new Vector3(0, radius + 0.06, 0), Vector3.Zero(), new Vector3(0, 0, 1), new Vector3(0, 0, 1), scene);
    fulcrum.body.addConstraint(board.body, hinge);
    return plank;
}
