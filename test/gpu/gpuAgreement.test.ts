import { Collider } from "../../src/core/collider";
import { clothBody, tetBlock } from "../support/coreScenes";
import { compareSolvers, expectAgreement, type Scene } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

/**
 * The WebGPU solver against the CPU solver (`XpbdWorld`) on the same scenes, at the default quality: after N
 * free-running steps, and one step at a time from the CPU's state. The bounds come from float32 rounding (see
 * `support/agreement.ts`); the one-step bounds are the sharp ones (a constraint projected out of order, a force
 * or a contact computed differently, moves a particle far more than rounding does within one step).
 */
describeGpu("WebGPU solver against the CPU solver", (device) => {
    test("a 32² cloth hung by two corners, released from horizontal: 60 steps", async () => {
        const scene: Scene = {
            body: () => {
                const { body, columns } = clothBody(32, { plane: "xz", origin: [0, 1, 0], allowSleep: false });
                body.setPinWeight(0, 1);
                body.setPinWeight(columns - 1, 1);
                return body;
            },
            colliders: () => [],
        };
        // One-step checks while it falls, swings through and swings back.
        expectAgreement("hanging 32² cloth", await compareSolvers(device(), scene, 60, [1, 15, 30, 45]));
    }, 300_000);

    test("a 32² cloth dropped onto a sphere, draped over it: 90 steps", async () => {
        const scene: Scene = {
            body: () => clothBody(32, { plane: "xz", origin: [0, 1, 0], allowSleep: false }).body,
            colliders: () => [new Collider([{ kind: "sphere", center: [0, 0.5, 0], radius: 0.3 }])],
        };
        // The cloth meets the sphere at step 13; checks at the impact, while it wraps and while it hangs.
        const a = await compareSolvers(device(), scene, 90, [14, 30, 60, 89]);
        expectAgreement("cloth draped over a sphere", a);
        // It is draped: the cloth's lowest particles hang below the sphere's equator, none inside the sphere.
        let lowest = Infinity;
        let deepest = -Infinity;
        for (let p = 0; p < a.cpu.particleCount; p++) {
            const [x, y, z] = [a.gpuPositions[3 * p], a.gpuPositions[3 * p + 1], a.gpuPositions[3 * p + 2]];
            lowest = Math.min(lowest, y);
            deepest = Math.max(deepest, 0.3 - Math.hypot(x, y - 0.5, z));
        }
        expect(lowest).toBeLessThan(0.5);
        expect(deepest).toBeLessThan(0);
    }, 300_000);

    test("a jelly (tetrahedralised 0.4 m box) dropped onto the ground, resting: 120 steps", async () => {
        const scene: Scene = {
            body: () => tetBlock([0.4, 0.4, 0.4], [0, 0.3, 0], { allowSleep: false }),
            colliders: () => [new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }])],
        };
        // It lands at step 9; checks at the landing, while it settles and at rest.
        expectAgreement("jelly on the ground", await compareSolvers(device(), scene, 120, [10, 30, 119]));
    }, 300_000);
});
