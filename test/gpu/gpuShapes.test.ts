import { Collider } from "../../src/core/collider";
import { ColliderShapeKind } from "../../src/core/colliderShape";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { boxMesh, clothBody, tetBlock } from "../support/coreScenes";
import { compareSolvers, expectAgreement, type Scene } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";
import { shapeDistance } from "./support/shapeDistance";

/** A rotation of `angle` radians about the unit `axis`, as a quaternion. */
function turn(angle: number, axis: [number, number, number]): [number, number, number, number] {
    const s = Math.sin(angle / 2);
    return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Lowest y of xyz triples. */
function lowest(positions: ArrayLike<number>): number {
    let low = Infinity;
    for (let k = 1; k < positions.length; k += 3) {
        low = Math.min(low, positions[k]);
    }
    return low;
}

/** A flat open mesh at y = 0: a `size` m square of `segments`² quads, two triangles each, around the origin. */
function sheetMesh(segments: number, size: number): { positions: number[]; indices: number[] } {
    const positions: number[] = [];
    const indices: number[] = [];
    for (let j = 0; j <= segments; j++) {
        for (let i = 0; i <= segments; i++) {
            positions.push((i / segments - 0.5) * size, 0, (j / segments - 0.5) * size);
        }
    }
    for (let j = 0; j < segments; j++) {
        for (let i = 0; i < segments; i++) {
            const a = j * (segments + 1) + i;
            indices.push(a, a + segments + 1, a + 1, a + 1, a + segments + 1, a + segments + 2);
        }
    }
    return { positions, indices };
}

/**
 * The scene is what it says: every particle is at least a thickness (10 mm) from every collider's surface, as the
 * contact projection, the last thing a substep does to positions, leaves it (less f32 rounding of coordinates under
 * 1 m: 1e-6 m is a few hundred ulps), and some particle rests on each collider, exactly a thickness from it.
 */
function expectRestingOn(colliders: Collider[], positions: Float32Array, thickness: number): void {
    for (const collider of colliders) {
        let nearest = Infinity;
        for (let i = 0; i < positions.length; i += 3) {
            nearest = Math.min(nearest, shapeDistance(collider, positions, i));
        }
        console.log(
            `nearest particle ${nearest.toFixed(7)} m from a ${ColliderShapeKind[collider.shapes[0].kind]} (thickness ${thickness} m)`,
        );
        expect(Math.abs(nearest - thickness)).toBeLessThan(1e-6);
    }
}

/**
 * The shapes and the restitution that reach the GPU through data uploaded once (convex hull planes, triangle mesh
 * grids) or through the end of the substep (restitution), against the CPU solver (bounds: `support/agreement.ts`),
 * and restitution against the physics of a bounce.
 */
describeGpu("WebGPU solver: convex hulls, triangle meshes and restitution", (device) => {
    test("a cloth falls onto a tilted convex hull (a box given as triangles) and a pyramid", async () => {
        const box = boxMesh([0.3, 0.2, 0.3]);
        const pyramid = {
            positions: [-0.12, 0, -0.12, 0.12, 0, -0.12, 0.12, 0, 0.12, -0.12, 0, 0.12, 0, 0.15, 0],
            indices: [0, 1, 2, 0, 2, 3, 0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0],
        };
        const scene: Scene = {
            body: () => clothBody(12, { plane: "xz", origin: [0, 0.8, 0], allowSleep: false }).body,
            colliders: () => {
                const hull = new Collider([{ kind: "convexHull", ...box }], { friction: 0.5 });
                hull.setPose(-0.2, 0.45, 0, ...turn(0.3, [0, 0, 1]));
                const tip = new Collider([{ kind: "convexHull", ...pyramid }], { friction: 0 });
                tip.setPose(0.25, 0.5, 0.2, ...turn(0.4, [0, 1, 0]));
                return [hull, tip];
            },
        };
        const a = await compareSolvers(device(), scene, 40, [12, 20, 39]);
        expectAgreement("convex hulls", a);
        expectRestingOn(scene.colliders(), a.gpuPositions, 0.01);
    }, 300_000);

    test("a cloth drapes over a closed triangle mesh box onto an open mesh sheet (two-sided)", async () => {
        // The sheet: a 1.2 m square of 24² quads (finer than the grid's cells, so a query must visit its neighbours).
        const sheet = sheetMesh(24, 1.2);
        const scene: Scene = {
            body: () => clothBody(12, { plane: "xz", origin: [0, 0.7, 0], allowSleep: false }).body,
            colliders: () => {
                const block = new Collider([{ kind: "mesh", ...boxMesh([0.3, 0.3, 0.3]) }], { friction: 0.5 });
                block.setPose(0.1, 0.5, 0, ...turn(0.5, [0, 1, 0]));
                const ground = new Collider([{ kind: "mesh", ...sheet }], { friction: 0.3 });
                ground.setPose(0, 0.4, 0, 0, 0, 0, 1);
                return [block, ground];
            },
        };
        const solid = new Collider([{ kind: "mesh", ...boxMesh([0.3, 0.3, 0.3]) }]).shapes[0];
        const open = new Collider([{ kind: "mesh", ...sheet }]).shapes[0];
        expect([solid.twoSided, open.twoSided]).toEqual([false, true]);
        const a = await compareSolvers(device(), scene, 40, [12, 20, 39]);
        expectAgreement("triangle meshes", a);
        expectRestingOn(scene.colliders(), a.gpuPositions, 0.01);
    }, 300_000);

    test("a bouncy jelly thrown at the ground (restitution 0.6 of the body) agrees with the CPU", async () => {
        const scene: Scene = {
            body: () => {
                const body = tetBlock([0.2, 0.2, 0.2], [0, 0.25, 0], { allowSleep: false, restitution: 0.6, resolution: 2 });
                body.setLinearVelocity(1, -3, 0);
                return body;
            },
            colliders: () => [new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { friction: 0.3 })],
        };
        const steps = 30;
        const a = await compareSolvers(device(), scene, steps, [3, 4, 22]);
        expectAgreement("bouncy jelly", a);
        // The restitution is what the scene tests: without it the CPU's jelly ends far from where it ends with it
        // (it bounces on its elasticity alone, differently), ten times farther than the agreement bound allows, so a
        // GPU that ignored restitution would fail the agreement.
        const world = new XpbdWorld({ timing: false });
        scene.colliders().forEach((c) => world.addCollider(c));
        const plain = scene.body();
        plain.restitution = 0;
        world.addBody(plain);
        for (let s = 0; s < steps; s++) {
            world.step(1 / 60);
        }
        let change = 0;
        for (let k = 0; k < plain.positions.length; k++) {
            change = Math.max(change, Math.abs(plain.positions[k] - a.cpu.positions[k]));
        }
        console.log(`restitution moved the jelly by ${change.toExponential(2)} m`);
        expect(change).toBeGreaterThan(10 * a.trajectoryBound);
    }, 300_000);

    test("a flat cloth dropped on a ground of restitution 0.5 rebounds at 0.5 × its impact speed", async () => {
        const e = 0.5;
        const drop = 0.45;
        const thickness = 0.01;
        const world = new XpbdWorld({ airDensity: 0 });
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { restitution: e }));
        const { body } = clothBody(4, { plane: "xz", origin: [0, thickness + drop, 0], allowSleep: false, thickness });
        const gpu = await GpuSoftBodySolver.create(device(), body, world);
        const dt = 1 / 60;
        try {
            // Down, bounce, up to the apex and a little past it: about (1 + e)·√(2·drop/g) s.
            const heights: number[] = [];
            for (let s = 0; s < 32; s++) {
                gpu.step(dt);
                heights.push(lowest(await gpu.readPositions()));
            }
            const apex = Math.max(...heights.slice(heights.indexOf(Math.min(...heights))));
            // Every particle falls and bounces alike (nothing stretches a flat free cloth), so the apex gives the
            // rebound speed and the drop the impact speed: v = √(2·g·height) for each.
            const ratio = Math.sqrt((apex - thickness) / drop);
            console.log(
                `rebound apex ${(apex - thickness).toFixed(5)} m over a drop of ${drop} m: rebound / impact speed ${ratio.toFixed(4)} (e = ${e})`,
            );
            // The substeps (h = 1/600 s) blur both speeds: the contact substep's approach speed exceeds the impact
            // speed by up to 2·g·h (the contact is noticed up to one substep late, and the explicit step's position
            // lags ½·g·h·t), 2.2% of the 2.97 m/s impact; the rise to the apex is off by up to e·v·h (2.5 mm of
            // 0.11 m: 1.1% of the speed). 4% covers both.
            expect(Math.abs(ratio / e - 1)).toBeLessThan(0.04);
        } finally {
            gpu.dispose();
        }
    }, 300_000);
});
