/**
 * Fast things meet thin things, with real Havok (WASM, NullEngine) at the default quality (60 Hz, 5 substeps): a jelly
 * thrown at a 5 cm Havok wall stays before it, and a ball thrown at a hanging cloth is stopped by it.
 */
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { hangingCurtain } from "../support/hangingCurtain";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";

/** The wall's near face (x) and thickness. */
const NEAR = 0.4;
const WALL = 0.05;

describe("fast impacts on thin things", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it.each([10, 20, 40])("a 0.4 m jelly thrown at %d m/s at a 5 cm Havok wall stays before it", (speed) => {
        createBody(
            h.scene,
            { kind: "box", extents: [WALL, 2, 2] },
            { motionType: PhysicsMotionType.STATIC, position: [NEAR + WALL / 2, 0.5, 0] },
        );
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateSphere("jelly", { diameter: 0.4, segments: 12 }, h.scene);
        mesh.position.set(NEAR - 0.4, 0.5, 0);
        const jelly = new SoftBodyImpostor(mesh, { mass: 2, resolution: 5 }, xpbd);
        jelly.setLinearVelocity(new Vector3(speed, 0, 0));
        const x = jelly.body.positions;
        let particles = -Infinity;
        let render = -Infinity;
        const point = new Vector3();
        for (let f = 0; f < 60; f++) {
            h.step();
            for (let i = 0; i < x.length; i += 3) {
                particles = Math.max(particles, x[i] - NEAR);
            }
            // The render mesh as drawn: its vertices through its world matrix.
            const local = mesh.getVerticesData(VertexBuffer.PositionKind)!;
            const world = mesh.getWorldMatrix();
            for (let i = 0; i < local.length; i += 3) {
                Vector3.TransformCoordinatesFromFloatsToRef(local[i], local[i + 1], local[i + 2], world, point);
                render = Math.max(render, point.x - NEAR);
            }
        }
        const velocity = jelly.getLinearVelocity().x;
        console.log(
            `jelly at ${speed} m/s (${mesh.getTotalVertices()} render vertices): particles ${(particles * 1000).toFixed(1)} mm, ` +
                `render vertices ${(render * 1000).toFixed(1)} mm past the near face; final velocity ${velocity.toFixed(2)} m/s`,
        );
        // Particles keep the thickness (1 cm) before the face; render vertices (bound to the tets, which fall short
        // of the sphere and squash on impact) may reach into the wall by less than its thickness, never through it.
        expect(particles).toBeLessThan(-0.009);
        expect(render).toBeLessThan(0.6 * WALL);
        expect(velocity).toBeLessThan(0.05);
    });

    it.each([20, 40])("a 0.2 m ball thrown at %d m/s at a hanging cloth is stopped by it and leaves slower", (speed) => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = hangingCurtain(h.scene, xpbd);
        const radius = 0.1;
        const ball = createBody(
            h.scene,
            { kind: "sphere", radius },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 1, -0.5], mass: 0.5 },
        );
        ball.body.setLinearVelocity(new Vector3(0, 0, speed));
        const x = cloth.body.positions;
        // How far the ball's centre stays before the cloth particles in front of it (within its radius across).
        let ahead = Infinity;
        let gap = Infinity;
        let farthest = -Infinity;
        for (let f = 0; f < 60; f++) {
            h.step();
            // The ball where the soft step left it (Havok's pose is a step further on, past the cloth's positions).
            const c = xpbd.getColliderForBody(ball.body)!.position;
            farthest = Math.max(farthest, c[2]);
            for (let p = 0; p < x.length / 3; p++) {
                // Pinned particles do not collide (the ball flies up and grazes the pinned edge after the bounce).
                if (cloth.body.inverseMasses[p] === 0) {
                    continue;
                }
                const dx = x[3 * p] - c[0];
                const dy = x[3 * p + 1] - c[1];
                const dz = x[3 * p + 2] - c[2];
                gap = Math.min(gap, Math.hypot(dx, dy, dz) - radius);
                if (Math.hypot(dx, dy) < radius) {
                    ahead = Math.min(ahead, dz);
                }
            }
        }
        const velocity = ball.body.getLinearVelocity();
        console.log(
            `ball at ${speed} m/s into a hanging cloth: centre at least ${(ahead * 1000).toFixed(1)} mm before the cloth in front of it, ` +
                `closest free particle ${(gap * 1000).toFixed(1)} mm from its surface, farthest z ${farthest.toFixed(3)} m, ` +
                `velocity after 1 s (${velocity.x.toFixed(2)}, ${velocity.y.toFixed(2)}, ${velocity.z.toFixed(2)}) m/s`,
        );
        // The cloth was always in front of the ball's centre: it never got through.
        expect(ahead).toBeGreaterThan(0);
        // It was caught and thrown back, slower than it came.
        expect(velocity.z).toBeLessThan(0);
        expect(velocity.length()).toBeLessThan(speed);
    });
});
