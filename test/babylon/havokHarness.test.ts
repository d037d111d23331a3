import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";

const GRAVITY = 9.81;

describe("Havok harness (real WASM, NullEngine)", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("steps Havok by a fixed 1/60 s per render: a box falls 4.92 m in 60 steps", () => {
        const { node, body } = createBody(
            h.scene,
            { kind: "box", extents: [1, 1, 1] },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 10, 0] },
        );
        expect(h.havok.getTimeStep()).toBeCloseTo(1 / 60, 10);
        h.step(60);
        // Havok's integrator lands slightly past the analytic ½·g·t² = 4.905 m.
        expect(10 - node.position.y).toBeCloseTo(4.9229, 3);
        // Observed: Havok's speed trails g·t by a constant ~0.0025 m/s (whatever the step count), hence precision 2.
        expect(body.getLinearVelocity().y).toBeCloseTo(-GRAVITY, 2);
    });

    it("fires before/after-physics once per step, around the Havok step, before onBeforeRender", () => {
        const { node } = createBody(
            h.scene,
            { kind: "sphere", radius: 0.5 },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 10, 0] },
        );
        const events: string[] = [];
        let yBefore = NaN;
        let yAfter = NaN;
        h.scene.onAfterAnimationsObservable.add(() => events.push("afterAnimations"));
        h.scene.onBeforePhysicsObservable.add(() => {
            events.push("beforePhysics");
            yBefore = node.position.y;
        });
        h.scene.onAfterPhysicsObservable.add(() => {
            events.push("afterPhysics");
            yAfter = node.position.y;
        });
        h.scene.onBeforeRenderObservable.add(() => events.push("beforeRender"));
        h.step();
        expect(events).toEqual(["afterAnimations", "beforePhysics", "afterPhysics", "beforeRender"]);
        // Before-physics sees the pre-step pose; the node is synced from Havok by the time after-physics runs.
        expect(yBefore).toBe(10);
        expect(yAfter).toBeLessThan(10);
        events.length = 0;
        h.step(9);
        expect(events.filter((e) => e === "beforePhysics")).toHaveLength(9);
    });

    it("with setSubTimeStep, runs `while (accumulated > subStep)` fixed Havok steps per render", () => {
        const { body } = createBody(
            h.scene,
            { kind: "sphere", radius: 0.5 },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 100, 0] },
        );
        let steps = 0;
        h.scene.onBeforePhysicsObservable.add(() => steps++);
        const stepsPerRender = (frames: number): number[] =>
            Array.from({ length: frames }, () => {
                const before = steps;
                h.step();
                return steps - before;
            });
        h.physicsEngine.setSubTimeStep(10);

        // NullEngine reports 0 ms, clamped to Scene.MinDeltaTime = 1 ms: the 11th render is the first step (11 > 10).
        expect(stepsPerRender(11)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

        // Fed 25 ms frames: remainder 1 → 26 (2 steps, 6 left) → 31 (3 steps, 1 left) → 26 (2) ...
        h.setFrameTime(25);
        expect(stepsPerRender(4)).toEqual([2, 3, 2, 3]);

        // A frame time equal to the sub step: the strict `>` leaves the last full sub step for the next frame.
        h.physicsEngine.setSubTimeStep(20);
        h.setFrameTime(20);
        expect(stepsPerRender(3)).toEqual([1, 1, 1]);

        // Each sub step still advances Havok by the plugin's fixed 1/60 s, not by the 10 or 20 ms sub step.
        expect(body.getLinearVelocity().y).toBeCloseTo((-GRAVITY * steps) / 60, 2);
    });
});
