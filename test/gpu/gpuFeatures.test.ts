import { Collider, ColliderMotion } from "../../src/core/collider";
import { SoftBody } from "../../src/core/softBody";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { clothBody, tetBlock } from "../support/coreScenes";
import { compareSolvers, expectAgreement, type Scene } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

/**
 * Every feature of the GPU path against the CPU solver, in short scenes (see `support/agreement.ts` for the bounds):
 * each collider shape kind, a moving collider, soft and moving pins, wind, dihedral bending, several iterations,
 * compliant constraints, no tethers. The long scenes are in `gpuAgreement.test.ts`.
 */
describeGpu("WebGPU solver features against the CPU solver", (device) => {
    test("a cloth falls onto a rotated box, a capsule, a cylinder and a thin box (a two-sided sheet)", async () => {
        const turn = (angle: number, axis: [number, number, number]): [number, number, number, number] => {
            const s = Math.sin(angle / 2);
            return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
        };
        const scene: Scene = {
            body: () => clothBody(12, { plane: "xz", origin: [0, 0.8, 0], allowSleep: false }).body,
            colliders: () => [
                new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.15, 0.1, 0.2], rotation: turn(0.5, [0, 0, 1]) }], {
                    friction: 0.8,
                }),
                new Collider([{ kind: "capsule", pointA: [-0.2, 0, 0], pointB: [0.2, 0, 0], radius: 0.08 }]),
                new Collider([{ kind: "cylinder", pointA: [0, -0.2, 0], pointB: [0, 0.2, 0], radius: 0.1 }], { friction: 0 }),
                new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [2, 0.0004, 2] }]),
            ],
        };
        // The colliders' frames are posed apart from their shapes' own placement: both transforms are exercised.
        const pose = (colliders: Collider[]): Collider[] => {
            colliders[0].setPose(-0.25, 0.5, -0.2, ...turn(0.3, [0, 1, 0]));
            colliders[1].setPose(0.25, 0.55, 0.25, ...turn(0.7, [0, 1, 0]));
            colliders[2].setPose(0.25, 0.45, -0.25, ...turn(0.2, [1, 0, 0]));
            colliders[3].setPose(0, 0.45, 0, 0, 0, 0, 1);
            return colliders;
        };
        const a = await compareSolvers(device(), { ...scene, colliders: () => pose(scene.colliders()) }, 40, [12, 20, 39]);
        expectAgreement("box, capsule, cylinder and thin box", a);
        // The scene is what it says: the cloth's edges came down onto the sheet and rest on it, a thickness (10 mm)
        // above its top face (0.4 mm above its centre), within a millimetre.
        const lowest = Math.min(...Array.from(a.gpuPositions).filter((_, k) => k % 3 === 1));
        console.log(`lowest particle ${lowest.toFixed(5)} m`);
        expect(Math.abs(lowest - (0.45 + 0.0004 + 0.01))).toBeLessThan(1e-3);
    }, 300_000);

    test("a hanging cloth in the wind, one corner carried in a circle, the other on a soft pin, swept by a spinning kinematic sphere", async () => {
        const scene: Scene = {
            body: () => {
                const { body, columns } = clothBody(12, { plane: "xy", origin: [0, 1, 0], allowSleep: false });
                body.setPinWeight(0, 1);
                body.setPinWeight(columns - 1, 0.6);
                return body;
            },
            colliders: () => {
                const sphere = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.15 }], { motion: ColliderMotion.Kinematic });
                sphere.setPose(-0.8, 0.8, 0.05, 0, 0, 0, 1);
                sphere.setVelocity(2, 0, 0, 0, 0, 8);
                return [sphere];
            },
            world: { wind: [2, 0, 4] },
            beforeStep: (body, step) => {
                const angle = step * 0.1;
                body.setPinTarget(0, -0.5 + 0.1 * Math.cos(angle), 1.5 + 0.1 * Math.sin(angle), 0);
            },
        };
        expectAgreement("wind, moving and soft pins, kinematic sphere", await compareSolvers(device(), scene, 40, [10, 25, 39]));
    }, 300_000);

    test("dihedral bending, two iterations, compliant stretch, no tethers", async () => {
        const scene: Scene = {
            body: () => {
                const { body, columns } = clothBody(12, {
                    plane: "xz",
                    origin: [0, 1, 0],
                    allowSleep: false,
                    bendModel: "dihedral",
                    stretchCompliance: 1e-4,
                    tethers: false,
                });
                body.setPinWeight(0, 1);
                body.setPinWeight(columns - 1, 1);
                return body;
            },
            colliders: () => [],
            world: { iterations: 2, airDensity: 0 },
        };
        expectAgreement("dihedral, 2 iterations, compliant, no tethers", await compareSolvers(device(), scene, 30, [1, 5, 29]));
    }, 300_000);

    test("a compliant jelly thrown spinning against the ground", async () => {
        const scene: Scene = {
            body: () => {
                const body = tetBlock([0.3, 0.3, 0.3], [0, 0.3, 0], {
                    allowSleep: false,
                    volumeCompliance: 1e-6,
                    damping: 0.2,
                    resolution: 3,
                });
                body.setLinearVelocity(1, -1, 0);
                // A spin about z on top of the throw.
                for (let p = 0; p < body.particleCount; p++) {
                    body.velocities[3 * p] -= 4 * (body.positions[3 * p + 1] - 0.3);
                    body.velocities[3 * p + 1] += 4 * body.positions[3 * p];
                }
                return body;
            },
            colliders: () => [new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { friction: 0.3 })],
        };
        expectAgreement("spinning compliant jelly", await compareSolvers(device(), scene, 40, [5, 20, 39]));
    }, 300_000);

    test("shape matching: a jelly of soft tets thrown spinning against the ground, held in shape by shape matching", async () => {
        const scene: Scene = {
            body: () => {
                const body = tetBlock([0.3, 0.3, 0.3], [0, 0.3, 0], {
                    allowSleep: false,
                    // Tets too soft to hold the shape (ω = 1/√α = 3 rad/s): shape matching (100 rad/s) holds it.
                    stretchCompliance: 0.1,
                    volumeCompliance: 0.1,
                    shapeMatchingCompliance: 1e-4,
                    resolution: 3,
                });
                body.setLinearVelocity(1, -1, 0);
                for (let p = 0; p < body.particleCount; p++) {
                    body.velocities[3 * p] -= 4 * (body.positions[3 * p + 1] - 0.3);
                    body.velocities[3 * p + 1] += 4 * body.positions[3 * p];
                }
                return body;
            },
            colliders: () => [new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { friction: 0.3 })],
        };
        expectAgreement("shape-matched jelly", await compareSolvers(device(), scene, 40, [1, 20, 39]));
    }, 300_000);

    test("strain limiting: a cape on a pin carried round a circle at up to 10 m/s, limited to ×1.02", async () => {
        // The core's fast-pin cape (test/core/strainLimit.test.ts), smaller and slower: its top row carried round a
        // circle of radius 1 m, the angular speed ramping to 10 rad/s over 40 steps; the air's drag loads the whole cape,
        // so edges at every level from the pins come past the limit.
        const grid = createClothGrid({ width: 0.4, height: 0.6, segmentsX: 6, segmentsY: 10 });
        const t = grid.topology;
        const pinTargets = (body: SoftBody, step: number): void => {
            const angle = step < 1 ? 0 : (10 * (Math.min(step, 40) ** 2 / 80 + Math.max(0, step - 40))) / 60;
            const [cx, cz, tx, tz] = [Math.cos(angle), Math.sin(angle), -Math.sin(angle), Math.cos(angle)];
            for (let i = 0; i < grid.columns; i++) {
                body.setPinTarget(i, cx + tx * t.positions[3 * i], 2, cz + tz * t.positions[3 * i]);
            }
        };
        const scene: Scene = {
            body: () => {
                const placed = new Float64Array(t.positions.length);
                for (let p = 0; p < placed.length / 3; p++) {
                    placed[3 * p] = 1;
                    placed[3 * p + 1] = t.positions[3 * p + 1] + 1.7;
                    placed[3 * p + 2] = t.positions[3 * p];
                }
                const body = new SoftBody(
                    { positions: placed, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.1 },
                    { allowSleep: false, strainLimit: 1.02 },
                );
                for (let i = 0; i < grid.columns; i++) {
                    body.setPinWeight(i, 1);
                }
                return body;
            },
            colliders: () => [],
            // The limit acts in every step (as after a step past halfway to it): both solvers read the same figure.
            beforeStep: (body, step) => {
                pinTargets(body, step);
                body.stats.maxEdgeRatio = 2;
            },
        };
        expectAgreement("strain-limited cape", await compareSolvers(device(), scene, 60, [1, 30, 59]));
    }, 300_000);
});
