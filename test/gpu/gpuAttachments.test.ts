/** Particles attached to colliders (`SoftBody.attachments`) on the WebGPU solver, against the CPU's `ColliderAttachments`. */
import { Collider, ColliderMotion } from "../../src/core/collider";
import type { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { clothBody } from "../support/coreScenes";
import { compareSolvers, expectAgreement, F32_ROUNDOFF, roundingsPerSubstep, type Scene } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

/** Segments of the 0.6 m cloth hanging in the xy plane, centred 1 m up; particle 0 and COLUMNS − 1 are its top corners. */
const SEGMENTS = 8;
const COLUMNS = SEGMENTS + 1;
const SIZE = 0.6;

/** A 0.1 m box collider centred 0.1 m above `corner`'s rest position, of the given motion. */
function boxAbove(corner: [number, number, number], motion: ColliderMotion): Collider {
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.05, 0.05, 0.05] }], { motion });
    box.setPose(corner[0], corner[1] + 0.1, corner[2], 0, 0, 0, 1);
    return box;
}

/** Ties `particle` of `body` to `collider` where the particle is now (its anchor in the collider's frame). */
function tie(body: SoftBody, particle: number, collider: Collider): void {
    const x = body.positions;
    const c = collider.position;
    // The colliders here start unrotated: the frame's axes are the world's.
    body.attachments.attach(particle, collider, x[3 * particle] - c[0], x[3 * particle + 1] - c[1], x[3 * particle + 2] - c[2]);
}

const hangingCloth = (): SoftBody => clothBody(SEGMENTS, { size: SIZE, plane: "xy", origin: [0, 1, 0], allowSleep: false }).body;
const topLeft: [number, number, number] = [-SIZE / 2, 1 + SIZE / 2, 0];
const topRight: [number, number, number] = [SIZE / 2, 1 + SIZE / 2, 0];

describeGpu("collider attachments on the WebGPU solver", (device) => {
    test("a cloth tied to a static box and to a spinning, moving kinematic box, which the host teleports once, agrees with the CPU", async () => {
        const scene: Scene = {
            body: hangingCloth,
            colliders: () => {
                const moving = boxAbove(topLeft, ColliderMotion.Kinematic);
                moving.setVelocity(0.5, 0, 0.3, 0, 2, 0);
                return [moving, boxAbove(topRight, ColliderMotion.Static)];
            },
            attach: (body, colliders) => {
                tie(body, 0, colliders[0]);
                tie(body, COLUMNS - 1, colliders[1]);
            },
            // The host moves the kinematic box 0.1 m at once before step 12 (as a rigid-body engine does through
            // contacts the soft world does not see): the step starts with the particle carried onto its anchor.
            beforeStep: (body, step) => {
                if (step === 12) {
                    const box = body.attachments.colliders[0]!;
                    const p = box.position;
                    const q = box.rotation;
                    box.setPose(p[0], p[1] - 0.1, p[2], q[0], q[1], q[2], q[3]);
                }
            },
        };
        const a = await compareSolvers(device(), scene, 24, [1, 12, 23]);
        expectAgreement("cloth tied to a static and a kinematic box", a);
        // The scene is what it says: the tied corners are on their anchors, the moving one carried away.
        const anchor = new Float64Array(3);
        for (const p of [0, COLUMNS - 1]) {
            a.cpu.attachments.anchorPosition(p, anchor);
            const gap = Math.hypot(
                a.gpuPositions[3 * p] - anchor[0],
                a.gpuPositions[3 * p + 1] - anchor[1],
                a.gpuPositions[3 * p + 2] - anchor[2],
            );
            console.log(`particle ${p}: ${gap.toExponential(2)} m from its anchor`);
            expect(gap).toBeLessThan(1e-5);
        }
        expect(Math.hypot(a.gpuPositions[0] - topLeft[0], a.gpuPositions[1] - topLeft[1], a.gpuPositions[2] - topLeft[2])).toBeGreaterThan(
            0.2,
        );
    }, 300_000);

    test("a cloth tied by a corner to a kinematic box the host drives follows it 1 m in 1 s, its corner on the anchor, as on the CPU", async () => {
        /** The box, the cloth tied to it by its top-left corner, in a world of its own. */
        const rig = (): { world: XpbdWorld; box: Collider; body: SoftBody } => {
            const world = new XpbdWorld();
            const box = boxAbove(topLeft, ColliderMotion.Kinematic);
            world.addCollider(box);
            const body = hangingCloth();
            tie(body, 0, box);
            return { world, box, body };
        };
        /** The host's part, after each step: the box moves at 1 m/s along x (its velocity within the step, its pose after it). */
        const drive = (box: Collider, step: number): void => {
            box.setPose(topLeft[0] + step / 60, topLeft[1] + 0.1, topLeft[2], 0, 0, 0, 1);
            box.setVelocity(1, 0, 0, 0, 0, 0);
        };
        const cpu = rig();
        cpu.world.addBody(cpu.body);
        const onGpu = rig();
        const start = centroidX(onGpu.body.positions);
        const gpu = await GpuSoftBodySolver.create(device(), onGpu.body, onGpu.world);
        const anchor = new Float64Array(3);
        let worst = 0;
        let x: Float32Array = new Float32Array(0);
        const steps = 60;
        try {
            drive(cpu.box, 0);
            drive(onGpu.box, 0);
            for (let s = 1; s <= steps; s++) {
                cpu.world.step(1 / 60);
                gpu.step(1 / 60);
                drive(cpu.box, s);
                drive(onGpu.box, s);
                if (s % 15 === 0) {
                    x = await gpu.readPositions();
                    onGpu.body.attachments.anchorPosition(0, anchor);
                    worst = Math.max(worst, Math.hypot(x[0] - anchor[0], x[1] - anchor[1], x[2] - anchor[2]));
                }
            }
        } finally {
            gpu.dispose();
        }
        let difference = 0;
        for (let i = 0; i < x.length; i++) {
            difference = Math.max(difference, Math.abs(x[i] - cpu.body.positions[i]));
        }
        // The free-running bound of support/agreement.ts, X the largest coordinate (1.6 m).
        const bound = (F32_ROUNDOFF / 2) * 1.6 * Math.sqrt(roundingsPerSubstep(cpu.body, cpu.world)) * (steps * cpu.world.substeps) ** 1.5;
        const moved = centroidX(x) - start;
        console.log(
            `tied corner within ${worst.toExponential(2)} m of its anchor; the cloth's centre moved ${moved.toFixed(4)} m ` +
                `(CPU ${(centroidX(cpu.body.positions) - start).toFixed(4)}); GPU within ${difference.toExponential(2)} m of the CPU (bound ${bound.toExponential(2)})`,
        );
        // On the anchor within f32 rounding of a 1.5 m coordinate (a few ulps of the pose and the anchor).
        expect(worst).toBeLessThan(1e-5);
        expect(difference).toBeLessThan(bound);
        // Dragged, not left behind (a cloth let go would not move along x at all): it trails the box by its swing.
        expect(moved).toBeGreaterThan(0.3);
    }, 300_000);

    test("a collider that leaves the world frees the particles tied to it, as the CPU world frees those of its bodies", async () => {
        const world = new XpbdWorld();
        const box = boxAbove(topLeft, ColliderMotion.Static);
        world.addCollider(box);
        const body = hangingCloth();
        tie(body, 0, box);
        const gpu = await GpuSoftBodySolver.create(device(), body, world);
        try {
            for (let s = 0; s < 10; s++) {
                gpu.step(1 / 60);
            }
            const held = (await gpu.readPositions())[1];
            world.removeCollider(box);
            for (let s = 0; s < 10; s++) {
                gpu.step(1 / 60);
            }
            const fallen = held - (await gpu.readPositions())[1];
            console.log(`tied corner at ${held.toFixed(4)} m; freed, it fell ${fallen.toFixed(4)} m in 10 steps`);
            expect(body.attachments.count).toBe(0);
            // Held at its anchor, then free: it falls with the cloth, about ½ g t² = 0.136 m in 1/6 s.
            expect(Math.abs(held - topLeft[1])).toBeLessThan(1e-5);
            expect(fallen).toBeGreaterThan(0.1);
        } finally {
            gpu.dispose();
        }
    }, 300_000);
});

function centroidX(x: ArrayLike<number>): number {
    let sum = 0;
    for (let i = 0; i < x.length; i += 3) {
        sum += x[i];
    }
    return sum / (x.length / 3);
}
