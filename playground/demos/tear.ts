import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Plane } from "@babylonjs/core/Maths/math.plane";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
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
import { clothMesh, colour, ControlPanel, createStage, solverFigures } from "./stage.js";

const WIDTH = 2.4;
const HEIGHT = 1.4;
const TOP = 2.6;
const BALL_RADIUS = 0.15;
const BALL_KG = 2;
/** Balls kept in the scene; the oldest goes when another is thrown. */
const MAX_BALLS = 8;
/**
 * Where the "Throw ball" button aims, in turn: the particle at these fractions of the banner's width and height from
 * its top-left corner, wherever it is now. Deterministic, so that a run can be repeated.
 */
const AIMS: readonly [number, number][] = [
    [0.5, 0.55],
    [0.25, 0.35],
    [0.7, 0.7],
    [0.55, 0.25],
];

/**
 * A banner that tears (`tearRatio` 1.5): it swings down from its two top corners; click the scene to throw a 2 kg
 * ball where you click (or press "Throw ball"), or drag any of its four corners (the orange handles) until it rips.
 * The figures count the tears, the particles split and the render vertices the mesh gained with them.
 */
export const tear: Demo = {
    id: "tear",
    title: "Tearing banner",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        const stage = createStage(scene, havok, { target: new Vector3(0, 1.85, 0), radius: 5.2, alpha: -Math.PI / 2, beta: 1.38 });
        const { camera } = stage;
        const xpbd = new XpbdPlugin(scene, pluginOptions());
        // Horizontal at first, its top edge (the last row, at −z) along x: it swings down into a hanging banner.
        const { mesh, grid } = clothMesh(scene, "banner", {
            width: WIDTH,
            height: HEIGHT,
            segmentsX: 36,
            segmentsY: 21,
            plane: "xz",
            origin: [0, TOP, HEIGHT / 2],
        });
        mesh.material = fabric(scene, "bannerMaterial", new Color3(0.85, 0.25, 0.3));
        const cloth = new ClothImpostor(
            mesh,
            { mass: 0.6, tearRatio: 1.5, bendStiffness: 0.3, damping: 1, thickness: 0.02, friction: 0.4 },
            xpbd,
        );
        const params = { speed: 14 };
        let thrown = 0;
        let tornEdges = 0;
        cloth.onTearObservable.add((event) => (tornEdges += event.edgeCount));

        // The corner handles: the top two hold the banner; the bottom two follow their corner until dragged.
        const columns = grid.columns;
        const last = (grid.rows - 1) * columns;
        const corners = [last, last + columns - 1, 0, columns - 1];
        const handleMaterial = colour(scene, "handleMaterial", new Color3(1, 0.6, 0.15));
        const handles = corners.map((vertex, k) => {
            const handle = CreateSphere(`corner${k}`, { diameter: 0.12, segments: 12 }, scene);
            handle.material = handleMaterial;
            placeOnParticle(handle.position, cloth, vertex);
            return handle;
        });
        cloth.pinTo([corners[0]], handles[0]);
        cloth.pinTo([corners[1]], handles[1]);
        const held = [true, true, false, false];
        const followCorners = scene.onBeforeRenderObservable.add(() => {
            handles.forEach((handle, k) => {
                if (!held[k]) placeOnParticle(handle.position, cloth, corners[k]);
            });
        });

        // Dragging: in the plane through the handle facing the camera; the camera stays still meanwhile.
        let dragged = -1;
        const dragPlane = new Plane(0, 0, 1, 0);
        const pointerRay = () => scene.createPickingRay(scene.pointerX, scene.pointerY, Matrix.Identity(), camera);
        const pointer = scene.onPointerObservable.add((info) => {
            if (info.type === PointerEventTypes.POINTERDOWN) {
                const pick = scene.pick(scene.pointerX, scene.pointerY, (m) => handles.includes(m as Mesh));
                const k = pick?.hit && pick.pickedMesh ? handles.indexOf(pick.pickedMesh as Mesh) : -1;
                if (k < 0) return;
                dragged = k;
                camera.detachControl();
                const normal = camera.getForwardRay().direction;
                Plane.FromPositionAndNormalToRef(handles[k].position, normal, dragPlane);
                if (!held[k]) {
                    cloth.pinTo([corners[k]], handles[k]);
                    held[k] = true;
                }
            } else if (info.type === PointerEventTypes.POINTERMOVE && dragged >= 0) {
                const ray = pointerRay();
                const distance = ray.intersectsPlane(dragPlane);
                if (distance !== null) handles[dragged].position.copyFrom(ray.origin).addInPlace(ray.direction.scale(distance));
            } else if (info.type === PointerEventTypes.POINTERUP && dragged >= 0) {
                // A bottom corner is let go; a top one stays where it was dropped.
                if (dragged >= 2) {
                    cloth.unpin([corners[dragged]]);
                    held[dragged] = false;
                }
                dragged = -1;
                camera.attachControl(true);
            } else if (info.type === PointerEventTypes.POINTERTAP && dragged < 0) {
                const ray = pointerRay();
                throwBall(ray.origin, ray.direction);
            }
        });

        const balls: PhysicsAggregate[] = [];
        const ballMaterial = colour(scene, "ballMaterial", new Color3(0.25, 0.5, 0.95));
        const throwBall = (from: Vector3, direction: Vector3) => {
            const ball = CreateSphere(`ball${thrown}`, { diameter: 2 * BALL_RADIUS, segments: 16 }, scene);
            ball.material = ballMaterial;
            const unit = direction.normalizeToNew();
            // Half a metre ahead, so that it never starts inside the camera's near plane.
            ball.position.copyFrom(from).addInPlace(unit.scale(0.5));
            const body = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: BALL_KG, restitution: 0.3, friction: 0.4 }, scene);
            body.body.setLinearVelocity(unit.scale(params.speed));
            balls.push(body);
            thrown++;
            if (balls.length > MAX_BALLS) {
                const oldest = balls.shift()!;
                oldest.transformNode.dispose();
                oldest.dispose();
            }
        };

        const panel = new ControlPanel();
        panel.button("Throw ball", () => {
            // The aimed particle (rows run from the free edge, row 0, to the top edge), raised by the ball's drop on the way.
            const [u, v] = AIMS[thrown % AIMS.length];
            const vertex = Math.round((1 - v) * (grid.rows - 1)) * columns + Math.round(u * (columns - 1));
            const target = new Vector3();
            placeOnParticle(target, cloth, vertex);
            const flight = Vector3.Distance(camera.position, target) / params.speed;
            target.y += 0.5 * 9.81 * flight * flight;
            throwBall(camera.position, target.subtract(camera.position));
        });
        panel.slider("tear ratio", 1.1, 3, 0.05, cloth.tearRatio ?? 1.5, (v) => (cloth.tearRatio = v));
        panel.slider("ball m/s", 4, 25, 1, params.speed, (v) => (params.speed = v));
        panel.slider("stretch", 0, 1, 0.01, cloth.stretchStiffness, (v) => (cloth.stretchStiffness = v));
        panel.button("Restart", () => window.dispatchEvent(new HashChangeEvent("hashchange")));

        await scene.whenReadyAsync();
        return {
            xpbd,
            figures: () => ({
                ...solverFigures(xpbd),
                "balls thrown": thrown,
                "torn edges": tornEdges,
                "particles split": cloth.body.tearing?.tornParticles ?? 0,
                "render vertices": mesh.getTotalVertices(),
            }),
            dispose() {
                scene.onBeforeRenderObservable.remove(followCorners);
                scene.onPointerObservable.remove(pointer);
            },
        };
    },
};

/** Puts `point` where the particle of render vertex `vertex` is. */
function placeOnParticle(point: Vector3, cloth: ClothImpostor, vertex: number): void {
    const x = cloth.body.positions;
    const i = 3 * cloth.vertexToParticle[vertex];
    point.set(x[i], x[i + 1], x[i + 2]);
}
