/** Particles attached to colliders (`SoftBody.attachments`) on the WebGPU solver, against the CPU's `ColliderAttachments`. */
import { Collider, ColliderMotion } from "../../src/core/collider";
import type { SoftBody } from "../../src/core/softBody";
import { HELD_TOLERANCE } from "../../src/core/heldContacts";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { chain, clothBody, cube } from "../support/coreScenes";
import { compareSolvers, expectAgreement, F32_ROUNDOFF, roundingsPerSubstep, type Scene } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";
import { hostBox } from "./support/hostedBox";

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

const G = 9.81;
const DT = 1 / 60;
/** The chain's particles, mass (kg) and spacing (m), and the box's mass (kg). */
const LINKS = 11;
const CHAIN_MASS = 0.05;
const SPACING = 0.1;
const BOX_MASS = 1;

/** A scene of a body with particle {@link Rig.tied} attached to a dynamic box, the box in the world. */
interface Rig {
    world: XpbdWorld;
    body: SoftBody;
    box: Collider;
    /** The attached particle. */
    tied: number;
}

/**
 * The core test's hanging box (`test/core/colliderAttachments.test.ts`): a light chain pinned at its top, 2 m up,
 * its last particle tied to the top face of a dynamic 10 cm box (at `offset` from the face's centre along x) that
 * gravity pulls, starting with velocities `v` (linear, angular).
 */
function hangingBox(offset: number, v: number[]): Rig {
    const world = new XpbdWorld({ airDensity: 0, substeps: 10 });
    const body = chain(LINKS, [0, 2, 0], [0, -1, 0], SPACING, CHAIN_MASS);
    body.setPinWeight(0, 1);
    const box = cube(BOX_MASS, [-offset, 2 - (LINKS - 1) * SPACING - 0.05, 0]);
    box.acceleration[1] = -G;
    box.setVelocity(v[0], v[1], v[2], v[3], v[4], v[5]);
    world.addCollider(box);
    body.attachments.attach(LINKS - 1, box, offset, 0.05, 0);
    return { world, body, box, tied: LINKS - 1 };
}

/** The cloth's mass (kg) in {@link clothHoldingBox}. */
const CLOTH_MASS = 0.1;

/**
 * A box hanging from a cloth by several attachments: the 0.6 m, 8² cloth of the tests above, 0.1 kg, pinned along its
 * top edge, the three middle particles of its bottom edge tied to the top face of the 1 kg box (10 substeps).
 */
function clothHoldingBox(): Rig {
    const world = new XpbdWorld({ airDensity: 0, substeps: 10 });
    const body = clothBody(SEGMENTS, { size: SIZE, plane: "xy", origin: [0, 1, 0], mass: CLOTH_MASS, allowSleep: false }).body;
    for (let c = 0; c < COLUMNS; c++) {
        body.setPinWeight(c, 1);
    }
    const bottom = 1 - SIZE / 2;
    const box = cube(BOX_MASS, [0, bottom - 0.05, 0]);
    box.acceleration[1] = -G;
    world.addCollider(box);
    const middle = SEGMENTS * COLUMNS + SEGMENTS / 2;
    for (const p of [middle - 1, middle, middle + 1]) {
        body.attachments.attach(p, box, body.positions[3 * p], 0.05, 0);
    }
    return { world, body, box, tied: middle };
}

/** The rope's mass (kg) in {@link towedBox}. */
const TOW_MASS = 0.3;

/**
 * The core test's towing (`test/core/colliderAttachments.test.ts`), without gravity or pins: a free 0.3 kg chain
 * thrown at 2 m/s along x, its first particle tied to a face of a 1 kg box off the box's centre of mass, so that the
 * jerk tows the box and turns it.
 */
function towedBox(): Rig {
    const world = new XpbdWorld({ gravity: [0, 0, 0], airDensity: 0 });
    const body = chain(6, [0, 0, 0], [1, 0, 0], SPACING, TOW_MASS, { damping: 0 });
    const box = cube(BOX_MASS, [-0.05 - 0.02, 0.01, 0]);
    world.addCollider(box);
    body.attachments.attach(0, box, 0.05, -0.01, 0.03);
    body.setLinearVelocity(2, 0.5, 0);
    // The chain does not collide with the box: the GPU's contacts with a dynamic body push it together (Jacobi, with
    // a mass split) where the CPU's push it one after another, which is not rounding (with them the two runs part by
    // 2.6 cm in 60 steps, the box spinning at 4.81 / 4.76 rad/s); this scene is about the attachment.
    body.collideWith = 0;
    return { world, body, box, tied: 0 };
}

/** What a hosted run ends with. */
interface Run {
    /** The particles' positions at the end (stride 3). */
    positions: ArrayLike<number>;
    /** The box's pose and velocities at the end. */
    box: number[];
    /** The impulses on the box, step by step (linear, angular). */
    impulses: number[];
    /** The pins' vertical force over the last {@link WINDOW} steps (N), by momentum balance. */
    pins: number;
    /** The free particles' mass (kg). */
    free: number;
    /** The free particles' momentum at the end (kg·m/s, xyz). */
    momentum: number[];
    /** The tied particle's distance to its anchor at the end (m). */
    gap: number;
}

/** Steps over which the pins' force is measured, at the end of a run. */
const WINDOW = 60;

/**
 * Runs `rig` `steps` steps on either backend with the box hosted (as `gpuHeldContacts.test.ts`: the host gives it
 * the step's impulses and gravity after each step). The pins' vertical force over the window is the free particles'
 * momentum change, their weight and the box's pull: F = ΔP/T − m g + ΣJ/T.
 */
async function hostedRun(device: GPUDevice | null, steps: number, rig: () => Rig): Promise<Run> {
    const { world, body, box, tied } = rig();
    let velocities: () => Promise<ArrayLike<number>>;
    let step: () => Promise<number[]>;
    let positions: () => Promise<ArrayLike<number>>;
    let dispose = (): void => undefined;
    /** The free particles' momentum (kg·m/s) along `axis`. */
    const momentum = (v: ArrayLike<number>, axis: number): number => {
        let sum = 0;
        for (let p = 0; p < body.particleCount; p++) {
            sum += body.inverseMasses[p] > 0 ? body.masses[p] * v[3 * p + axis] : 0;
        }
        return sum;
    };
    if (device === null) {
        world.addBody(body);
        const start = [new Float64Array(3), new Float64Array(4), new Float64Array(3), new Float64Array(3)];
        step = async () => {
            start[0].set(box.position);
            start[1].set(box.rotation);
            start[2].set(box.linearVelocity);
            start[3].set(box.angularVelocity);
            world.step(DT);
            // The world moved the box within the step; the host owns it between steps.
            box.setPose(start[0][0], start[0][1], start[0][2], start[1][0], start[1][1], start[1][2], start[1][3]);
            box.setVelocity(start[2][0], start[2][1], start[2][2], start[3][0], start[3][1], start[3][2]);
            return [...box.impulse, ...box.angularImpulse];
        };
        velocities = async () => body.velocities;
        positions = async () => body.positions;
    } else {
        const solver = await GpuSoftBodySolver.create(device, body, world);
        dispose = () => solver.dispose();
        step = async () => {
            solver.step(DT);
            await solver.colliderImpulsesSettled();
            const j: number[] = [];
            solver.consumeColliderImpulses((impulses) => {
                expect(impulses.overflowed[0]).toBe(0);
                j.push(...impulses.linear, ...impulses.angular);
            });
            return j;
        };
        velocities = () => solver.readVelocities();
        positions = () => solver.readPositions();
    }
    try {
        const impulses: number[] = [];
        let start = 0;
        let support = 0;
        const windowStart = Math.max(steps - WINDOW, 0);
        for (let s = 0; s < steps; s++) {
            if (s === windowStart) {
                start = momentum(await velocities(), 1);
            }
            const j = await step();
            impulses.push(...j);
            if (s >= windowStart) {
                support += j[1];
            }
            hostBox(box, j.slice(0, 3), j.slice(3, 6), DT);
        }
        const T = (steps - windowStart) * DT;
        let free = 0;
        for (let p = 0; p < body.particleCount; p++) {
            free += body.inverseMasses[p] > 0 ? body.masses[p] : 0;
        }
        const x = await positions();
        const v = await velocities();
        const anchor = new Float64Array(3);
        body.attachments.anchorPosition(tied, anchor);
        const i = 3 * tied;
        return {
            positions: Float64Array.from(x),
            box: [...box.position, ...box.rotation, ...box.linearVelocity, ...box.angularVelocity],
            impulses,
            pins: (momentum(v, 1) - start) / T - free * world.gravity[1] + support / T,
            free,
            momentum: [0, 1, 2].map((axis) => momentum(v, axis)),
            gap: Math.hypot(x[i] - anchor[0], x[i + 1] - anchor[1], x[i + 2] - anchor[2]),
        };
    } finally {
        dispose();
    }
}

/** The largest difference between two runs' particles and box poses (m; the rotation's unit quaternion counts as m). */
function largestDifference(a: Run, b: Run): number {
    let worst = 0;
    for (let i = 0; i < a.positions.length; i++) {
        worst = Math.max(worst, Math.abs(a.positions[i] - b.positions[i]));
    }
    for (let i = 0; i < 7; i++) {
        worst = Math.max(worst, Math.abs(a.box[i] - b.box[i]));
    }
    return worst;
}

describeGpu("collider attachments to dynamic colliders on the WebGPU solver", (device) => {
    test("a light chain pinned at its top holds a 1 kg box tied to its end at rest, as on the CPU: its pin carries both weights (± 2%)", async () => {
        const steps = 180;
        const gpu = await hostedRun(device(), steps, () => hangingBox(0, [0, 0, 0, 0, 0, 0]));
        const cpu = await hostedRun(null, steps, () => hangingBox(0, [0, 0, 0, 0, 0, 0]));
        const weight = (BOX_MASS + CHAIN_MASS * (1 - 1 / LINKS)) * G;
        const difference = largestDifference(gpu, cpu);
        console.log(
            `box hanging from a pinned chain after ${steps} steps, GPU / CPU: y ${gpu.box[1].toFixed(6)} / ${cpu.box[1].toFixed(6)} m, ` +
                `pins ${gpu.pins.toFixed(4)} / ${cpu.pins.toFixed(4)} N for ${weight.toFixed(4)} N, tied particle ${gpu.gap.toExponential(2)} m ` +
                `from its anchor; GPU within ${difference.toExponential(2)} m of the CPU`,
        );
        // The pins carry the box and the free links (± 2%), on both backends.
        expect(Math.abs(gpu.pins / weight - 1)).toBeLessThan(0.02);
        expect(Math.abs(cpu.pins / weight - 1)).toBeLessThan(0.02);
        // Where it was tied: the chain stretched less than 1 mm under the box, the particle on its anchor.
        expect(Math.abs(gpu.box[1] - 0.95)).toBeLessThan(1e-3);
        expect(gpu.gap).toBeLessThan(1e-5);
        // At rest the two agree to f32 rounding of the 2 m coordinates, not the free-running bound (nothing moves).
        expect(difference).toBeLessThan(1e-5);
    }, 300_000);

    test("a box hanging from a pinned cloth by three attachments rests as on the CPU: its pins carry both weights (± 2%)", async () => {
        const steps = 180;
        const gpu = await hostedRun(device(), steps, clothHoldingBox);
        const cpu = await hostedRun(null, steps, clothHoldingBox);
        const weight = (BOX_MASS + gpu.free) * G;
        const difference = largestDifference(gpu, cpu);
        console.log(
            `box hanging from a pinned cloth by 3 particles after ${steps} steps, GPU / CPU: y ${gpu.box[1].toFixed(6)} / ${cpu.box[1].toFixed(6)} m, ` +
                `pins ${gpu.pins.toFixed(4)} / ${cpu.pins.toFixed(4)} N for ${weight.toFixed(4)} N, the middle particle ${gpu.gap.toExponential(2)} m ` +
                `from its anchor; GPU within ${difference.toExponential(2)} m of the CPU`,
        );
        expect(Math.abs(gpu.pins / weight - 1)).toBeLessThan(0.02);
        expect(Math.abs(cpu.pins / weight - 1)).toBeLessThan(0.02);
        expect(gpu.gap).toBeLessThan(1e-5);
        // The three push the box together in a pass (Jacobi, with the mass split) where the CPU moves it between
        // them, so the two agree at rest to the tolerance that makes a tether taut (0.1 thickness), not to rounding.
        expect(difference).toBeLessThan(HELD_TOLERANCE * clothHoldingBox().body.thickness);
    }, 300_000);

    test("a box tied off its centre, swinging and spinning on the chain, moves as on the CPU, and two GPU runs give the same bits", async () => {
        // About a quarter of the swing's period (2 s on the 1 m chain).
        const steps = 30;
        const swing = [0.8, 0, 0.2, 0, 1, 0];
        const gpu = await hostedRun(device(), steps, () => hangingBox(0.02, swing));
        const again = await hostedRun(device(), steps, () => hangingBox(0.02, swing));
        const cpu = await hostedRun(null, steps, () => hangingBox(0.02, swing));
        const { world, body } = hangingBox(0.02, swing);
        // The free-running bound of support/agreement.ts, X the largest coordinate (2 m). The one attachment and the
        // held solve run in the core's order (one body per pass, one thread), so what is left is rounding.
        const bound = (F32_ROUNDOFF / 2) * 2 * Math.sqrt(roundingsPerSubstep(body, world)) * (steps * world.substeps) ** 1.5;
        const difference = largestDifference(gpu, cpu);
        const turned = 2 * Math.acos(Math.min(Math.abs(gpu.box[6]), 1));
        console.log(
            `box swinging on the chain after ${steps} steps, GPU / CPU: at (${gpu.box.slice(0, 3).map((c) => c.toFixed(4))}) / ` +
                `(${cpu.box.slice(0, 3).map((c) => c.toFixed(4))}) m, turned ${turned.toFixed(4)} rad, tied particle ${gpu.gap.toExponential(2)} / ${cpu.gap.toExponential(2)} m ` +
                `from its anchor at the host's pose; GPU within ${difference.toExponential(2)} m of the CPU (bound ${bound.toExponential(2)})`,
        );
        // The scene is what it says: the box swung away from under the pin and turned.
        expect(Math.hypot(gpu.box[0], gpu.box[2])).toBeGreaterThan(0.1);
        expect(turned).toBeGreaterThan(0.3);
        expect(difference).toBeLessThan(bound);
        // Fixed order, fixed-point sums: bit-identical.
        expect(Array.from(again.positions)).toEqual(Array.from(gpu.positions));
        expect(again.box).toEqual(gpu.box);
        expect(again.impulses).toEqual(gpu.impulses);
    }, 300_000);

    test("a free chain towing a free box by a point off its centre (no gravity, no pins) turns it as the CPU does and keeps the momentum", async () => {
        const steps = 60;
        const gpu = await hostedRun(device(), steps, towedBox);
        const cpu = await hostedRun(null, steps, towedBox);
        const { world, body } = towedBox();
        // The free-running bound of support/agreement.ts, X the largest coordinate (about 2 m: the chain travels
        // 1.3 m along x and is 0.5 m long).
        const bound = (F32_ROUNDOFF / 2) * 2 * Math.sqrt(roundingsPerSubstep(body, world)) * (steps * world.substeps) ** 1.5;
        const difference = largestDifference(gpu, cpu);
        const before = [2 * TOW_MASS, 0.5 * TOW_MASS, 0];
        // The host gave the box every impulse the chain put on it: the chain's momentum and the box's add up.
        const drift = Math.hypot(...[0, 1, 2].map((a) => gpu.momentum[a] + BOX_MASS * gpu.box[7 + a] - before[a]));
        const spin = Math.hypot(gpu.box[10], gpu.box[11], gpu.box[12]);
        console.log(
            `box towed by a free chain after ${steps} steps, GPU / CPU: its velocity (${gpu.box.slice(7, 10).map((c) => c.toFixed(5))}) / ` +
                `(${cpu.box.slice(7, 10).map((c) => c.toFixed(5))}) m/s, spin ${spin.toFixed(4)} / ${Math.hypot(cpu.box[10], cpu.box[11], cpu.box[12]).toFixed(4)} rad/s; ` +
                `GPU within ${difference.toExponential(2)} m of the CPU (bound ${bound.toExponential(2)}); momentum off by ${drift.toExponential(2)} kg·m/s ` +
                `of ${Math.hypot(...before).toFixed(3)} (CPU ${Math.hypot(...[0, 1, 2].map((a) => cpu.momentum[a] + BOX_MASS * cpu.box[7 + a] - before[a])).toExponential(2)})`,
        );
        // Towed and turned, as on the CPU.
        expect(gpu.box[7]).toBeGreaterThan(0.3);
        expect(spin).toBeGreaterThan(0.01);
        expect(difference).toBeLessThan(bound);
        // The momentum is kept up to rounding: each f32 rounding of a particle's position (u·X/2) is a momentum error
        // m·u·X/(2h) that no partner takes, and they walk as the positions' do (√(R·S) of them), so at most the
        // chain's mass times the free-running position bound over h (the fixed-point impulses, 6e-8 m/s of the box's
        // speed each, are far below it).
        const momentumBound =
            (TOW_MASS * (F32_ROUNDOFF / 2) * 2 * Math.sqrt(roundingsPerSubstep(body, world) * steps * world.substeps)) /
            (DT / world.substeps);
        expect(drift).toBeLessThan(momentumBound);
    }, 300_000);
});
