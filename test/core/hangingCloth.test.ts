import { Collider } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

/**
 * The 16×16 self-test of the source documents: a 1 m cloth pinned at the two corners of its top edge swings down
 * from horizontal onto a static sphere that stands in its way, drapes against it and comes to rest.
 */
describe("16×16 hanging cloth over a static sphere", () => {
    const thickness = 0.01;
    const radius = 0.3;
    const center = [0, 0.45, 0.25] as const;
    const world = new XpbdWorld();
    const { body, columns } = clothBody(16, { plane: "xz", origin: [0, 1, 0], allowSleep: false, thickness });
    body.setPinWeight(0, 1);
    body.setPinWeight(columns - 1, 1);
    world.addBody(body);
    world.addCollider(new Collider([{ kind: "sphere", center, radius }]));
    let deepest = 0;
    let maxRatio = 0;
    let maxCorrection = 0;
    for (let s = 0; s < 600; s++) {
        world.step(1 / 60);
        maxRatio = Math.max(maxRatio, world.stats.maxEdgeRatio);
        maxCorrection = Math.max(maxCorrection, world.stats.maxContactCorrection);
        for (let p = 0; p < body.particleCount; p++) {
            const d =
                Math.hypot(
                    body.positions[3 * p] - center[0],
                    body.positions[3 * p + 1] - center[1],
                    body.positions[3 * p + 2] - center[2],
                ) - radius;
            deepest = Math.max(deepest, thickness - d);
        }
    }

    test("no particle is ever deeper inside the sphere than its thickness + 1 mm", () => {
        expect(deepest).toBeLessThan(thickness + 0.001);
    });

    test("it rests against the sphere (the scene is what it says)", () => {
        expect(world.stats.contacts).toBeGreaterThan(0);
    });

    test("it settles: kinetic energy < 1e-6 J after 10 s, without sleeping", () => {
        expect(body.sleeping).toBe(false);
        expect(world.stats.kineticEnergy).toBeLessThan(1e-6);
    });

    test("the edge ratio is reported and stays bounded (max < 1.1, mean within 1%)", () => {
        expect(world.stats.maxEdgeRatio).toBeGreaterThan(1);
        expect(maxRatio).toBeLessThan(1.1);
        expect(Math.abs(world.stats.meanEdgeRatio - 1)).toBeLessThan(0.01);
        // The contact correction is reported: positive while the cloth hits the sphere, and never more than a few
        // centimetres (the cloth swings in at well under 3 m/s, i.e. < 5 mm per substep).
        expect(maxCorrection).toBeGreaterThan(0);
        expect(maxCorrection).toBeLessThan(0.03);
    });
});
