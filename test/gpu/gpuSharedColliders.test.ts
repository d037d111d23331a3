import { Collider, ColliderMotion } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import type { SoftBody } from "../../src/core/softBody";
import { GpuContactGroup } from "../../src/gpu/gpuContactGroup";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { chain, clothBody, tetBlock } from "../support/coreScenes";
import { describeGpu } from "./support/gpuDevice";
import { hostBox, hostedWorldStep } from "./support/hostedBox";

const dt = 1 / 60;
const g = 9.81;
const STEPS = 180;
/** Steps at the end over which the rest and the support are measured (1 s). */
const WINDOW = 60;
/** The box's half extents (m): 0.6 m long, across the gap between the two soft bodies. */
const HALF: [number, number, number] = [0.3, 0.05, 0.1];
/** Gap (m) between the box and the soft bodies it is dropped onto. */
const DROP = 0.005;

/** Two soft bodies side by side (a gap between them along x), the world around them, a box across both. */
interface Scene {
    bodies: SoftBody[];
    world: XpbdWorld;
    box: Collider;
    /** Height of the soft bodies' tops at rest (m). */
    top: number;
}

/** A dynamic box of `mass` across both bodies, its centre at height `y`. */
function boxAcross(mass: number, y: number): Collider {
    const [a, b, c] = HALF.map((h) => 2 * h);
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: HALF }], {
        motion: ColliderMotion.Dynamic,
        mass,
        inertia: [(mass * (b * b + c * c)) / 12, (mass * (a * a + c * c)) / 12, (mass * (a * a + b * b)) / 12],
    });
    box.setPose(0, y, 0, 0, 0, 0, 1);
    return box;
}

/** Two 0.3 kg 10² cloths of 1 m at y = 1, either side of x = 0 with 10 cm between, each pinned along its edges at z = ±0.5. */
function clothsScene(mass: number): Scene {
    const bodies = [-0.55, 0.55].map((x) => {
        const { body, columns } = clothBody(10, { size: 1, mass: 0.3, plane: "xz", origin: [x, 1, 0], allowSleep: false });
        for (let column = 0; column < columns; column++) {
            body.setPinWeight(column, 1);
            body.setPinWeight((columns - 1) * columns + column, 1);
        }
        return body;
    });
    const world = new XpbdWorld();
    const box = boxAcross(mass, 1 + HALF[1] + bodies[0].thickness + DROP);
    world.addCollider(box);
    return { bodies, world, box, top: 1 };
}

/** Two 1 kg jellies (0.3 m tetrahedral blocks) on the ground, 4 cm apart. */
function jelliesScene(mass: number): Scene {
    const bodies = [-0.17, 0.17].map((x) =>
        tetBlock([0.3, 0.3, 0.3], [x, 0.15 + 0.006, 0], { mass: 1, resolution: 4, damping: 4, allowSleep: false }),
    );
    const world = new XpbdWorld();
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    const box = boxAcross(mass, 0.306 + HALF[1] + bodies[0].thickness + DROP);
    world.addCollider(box);
    return { bodies, world, box, top: 0.306 };
}

/** What a run ends with. */
interface Outcome {
    y: number;
    speed: number;
    /** The highest the box's centre reached after its release (m). */
    peak: number;
    /** Σ J_y of both bodies over the last {@link WINDOW} steps over the box's weight × that time. */
    carried: number;
    /** Each body's share of that support. */
    shares: number[];
    /** The box's pose and the bodies' positions at the end, for bit comparisons. */
    pose: Float64Array;
    positions: Float32Array[];
}

/** Tracks the box over a run. */
class Track {
    private _peak = -Infinity;
    private _support = 0;
    private readonly _shares: number[];

    public constructor(
        private readonly _box: Collider,
        bodies: number,
    ) {
        this._shares = new Array<number>(bodies).fill(0);
    }

    /** After step `s`, once the host moved the box; `jy[b]` is body b's push up (N·s). */
    public after(s: number, jy: readonly number[]): void {
        this._peak = Math.max(this._peak, this._box.position[1]);
        if (s >= STEPS - WINDOW) {
            jy.forEach((j, b) => {
                this._support += j;
                this._shares[b] += j;
            });
        }
    }

    public outcome(positions: Float32Array[]): Outcome {
        const box = this._box;
        const weight = box.mass * g * WINDOW * dt;
        return {
            y: box.position[1],
            speed: Math.hypot(...box.linearVelocity),
            peak: this._peak,
            carried: this._support / weight,
            shares: this._shares.map((j) => j / this._support),
            pose: Float64Array.of(...box.position, ...box.rotation, ...box.linearVelocity, ...box.angularVelocity),
            positions,
        };
    }
}

/** The GPU run: both bodies in one `GpuContactGroup`, the box hosted (each body's impulses applied before the next step). */
async function runGpu(device: GPUDevice, scene: Scene): Promise<Outcome> {
    const { bodies, world, box } = scene;
    box.acceleration.set(world.gravity);
    const solvers = await Promise.all(bodies.map((body) => GpuSoftBodySolver.create(device, body, world)));
    const group = new GpuContactGroup(solvers);
    const track = new Track(box, bodies.length);
    const linear = new Float64Array(3);
    const angular = new Float64Array(3);
    const jy = bodies.map(() => 0);
    for (let s = 0; s < STEPS; s++) {
        group.step(dt);
        await Promise.all(solvers.map((solver) => solver.colliderImpulsesSettled()));
        linear.fill(0);
        angular.fill(0);
        solvers.forEach((solver, b) =>
            solver.consumeColliderImpulses((impulses) => {
                expect(impulses.overflowed[0]).toBe(0);
                jy[b] = impulses.linear[1];
                for (let a = 0; a < 3; a++) {
                    linear[a] += impulses.linear[a];
                    angular[a] += impulses.angular[a];
                }
            }),
        );
        hostBox(box, linear, angular, dt);
        track.after(s, jy);
    }
    const positions = await Promise.all(solvers.map((solver) => solver.readPositions()));
    group.dispose();
    solvers.forEach((solver) => solver.dispose());
    return track.outcome(positions);
}

/** The CPU run: the world steps both bodies and moves the box once per substep from both; the host does the rest. */
function runCpu(scene: Scene): Outcome {
    const { bodies, world, box } = scene;
    bodies.forEach((body) => world.addBody(body));
    box.acceleration.set(world.gravity);
    const track = new Track(box, 1);
    for (let s = 0; s < STEPS; s++) {
        hostedWorldStep(world, box, dt);
        track.after(s, [box.impulse[1]]);
    }
    return track.outcome([]);
}

describeGpu("WebGPU: one motion per dynamic collider across the bodies of a contact group", (device) => {
    for (const [name, scene] of [
        ["two cloths", clothsScene],
        ["two jellies", jelliesScene],
    ] as const) {
        test(`a 0.5 kg box dropped across ${name} comes to rest where the CPU rests it, both carrying it, bit-identical twice`, async () => {
            const cpuScene = scene(0.5);
            const start = cpuScene.box.position[1];
            const cpu = runCpu(cpuScene);
            const gpu = await runGpu(device(), scene(0.5));
            const again = await runGpu(device(), scene(0.5));
            const thickness = cpuScene.bodies[0].thickness;
            const deflection = (o: Outcome): number => cpuScene.top + thickness + HALF[1] - o.y;
            console.log(
                `0.5 kg box across ${name} after ${STEPS} steps: y GPU ${gpu.y.toFixed(4)} / CPU ${cpu.y.toFixed(4)} m ` +
                    `(deflection ${deflection(gpu).toFixed(4)} / ${deflection(cpu).toFixed(4)}), speed ${gpu.speed.toExponential(2)} / ` +
                    `${cpu.speed.toExponential(2)} m/s, peak ${gpu.peak.toFixed(4)} (released at ${start.toFixed(4)}), carried over ` +
                    `the last second ${gpu.carried.toFixed(4)} / ${cpu.carried.toFixed(4)} of its weight, shares ` +
                    `${gpu.shares.map((f) => f.toFixed(3)).join(" / ")}`,
            );
            // Not launched: released at rest, it never rises above its release height (each body holding its own
            // copy of the box up would hand it twice its weight and throw it).
            expect(gpu.peak).toBeLessThanOrEqual(start);
            // At rest: under 5 mm/s, and the two bodies carry its weight over the last second within 2%.
            expect(gpu.speed).toBeLessThan(0.005);
            expect(Math.abs(gpu.carried - 1)).toBeLessThan(0.02);
            // Both carry it (the scene is symmetric about x = 0): each between a quarter and three quarters.
            for (const share of gpu.shares) {
                expect(share).toBeGreaterThan(0.25);
                expect(share).toBeLessThan(0.75);
            }
            // Where the CPU rests it: as `gpuRestingBodies.test.ts`, a quarter of the CPU's deflection (Jacobi passes
            // against Gauss–Seidel contacts converge differently) plus the contact's thickness.
            expect(Math.abs(gpu.y - cpu.y)).toBeLessThan(0.25 * Math.abs(deflection(cpu)) + thickness);
            // Deterministic: the second run hands on the same bits.
            expect(Array.from(again.pose)).toEqual(Array.from(gpu.pose));
            gpu.positions.forEach((x, b) => expect(Buffer.from(again.positions[b].buffer).equals(Buffer.from(x.buffer))).toBe(true));
        }, 600_000);
    }
});

/** Links, spacing (m) and mass (kg) of each chain of {@link swingingBar}. */
const LINKS = 11;
const SPACING = 0.1;
const CHAIN_MASS = 0.05;

/**
 * A 1 kg box hanging from two chains pinned 0.4 m apart, each tied by its last link to the box 0.2 m off its centre
 * (the anchors outside its shape, as a bar's ends), thrown sideways and spun about y: both chains pull it and turn it
 * within every substep (the attachments' turn words of the accumulators).
 */
function swingingBar(): { bodies: SoftBody[]; world: XpbdWorld; box: Collider } {
    const world = new XpbdWorld({ airDensity: 0, substeps: 10 });
    const low = 2 - (LINKS - 1) * SPACING;
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.05, 0.05, 0.05] }], {
        motion: ColliderMotion.Dynamic,
        mass: 1,
        inertia: [(0.1 * 0.1 + 0.1 * 0.1) / 12, (0.1 * 0.1 + 0.1 * 0.1) / 12, (0.1 * 0.1 + 0.1 * 0.1) / 12],
    });
    box.setPose(0, low - 0.05, 0, 0, 0, 0, 1);
    box.setVelocity(0.3, 0, 0.6, 0, 1, 0);
    world.addCollider(box);
    const bodies = [-0.2, 0.2].map((x) => {
        const body = chain(LINKS, [x, 2, 0], [0, -1, 0], SPACING, CHAIN_MASS, { allowSleep: false });
        body.setPinWeight(0, 1);
        body.attachments.attach(LINKS - 1, box, x, 0.05, 0);
        return body;
    });
    return { bodies, world, box };
}

/** The box's pose and velocities after `steps` steps of {@link swingingBar}, on the GPU in one group or on the CPU. */
async function swing(device: GPUDevice | null, steps: number): Promise<Float64Array> {
    const { bodies, world, box } = swingingBar();
    box.acceleration.set(world.gravity);
    if (device === null) {
        bodies.forEach((body) => world.addBody(body));
        for (let s = 0; s < steps; s++) {
            hostedWorldStep(world, box, dt);
        }
    } else {
        const solvers = await Promise.all(bodies.map((body) => GpuSoftBodySolver.create(device, body, world)));
        const group = new GpuContactGroup(solvers);
        const linear = new Float64Array(3);
        const angular = new Float64Array(3);
        for (let s = 0; s < steps; s++) {
            group.step(dt);
            await Promise.all(solvers.map((solver) => solver.colliderImpulsesSettled()));
            linear.fill(0);
            angular.fill(0);
            for (const solver of solvers) {
                solver.consumeColliderImpulses((impulses) => {
                    for (let a = 0; a < 3; a++) {
                        linear[a] += impulses.linear[a];
                        angular[a] += impulses.angular[a];
                    }
                });
            }
            hostBox(box, linear, angular, dt);
        }
        group.dispose();
        solvers.forEach((solver) => solver.dispose());
    }
    return Float64Array.of(...box.position, ...box.rotation, ...box.linearVelocity, ...box.angularVelocity);
}

describeGpu("WebGPU: one motion per dynamic collider tied to the bodies of a contact group", (device) => {
    test("a box tied to two chains, swinging and spinning, moves once from both pulls and turns, as the CPU world moves it", async () => {
        // A quarter of the swing's period (2 s on the 1 m chains).
        const steps = 30;
        const cpu = await swing(null, steps);
        const gpu = await swing(device(), steps);
        const again = await swing(device(), steps);
        const turned = (pose: Float64Array): number => 2 * Math.acos(Math.min(Math.abs(pose[6]), 1));
        const apart = Math.hypot(gpu[0] - cpu[0], gpu[1] - cpu[1], gpu[2] - cpu[2]);
        console.log(
            `box tied to two chains after ${steps} steps, GPU group / CPU: at (${[0, 1, 2].map((a) => gpu[a].toFixed(4))}) / ` +
                `(${[0, 1, 2].map((a) => cpu[a].toFixed(4))}) m, ${apart.toExponential(2)} m apart; turned ${turned(gpu).toFixed(4)} / ` +
                `${turned(cpu).toFixed(4)} rad; spin y ${gpu[11].toFixed(4)} / ${cpu[11].toFixed(4)} rad/s`,
        );
        // The scene is what it says: the box swung away from under the pins and turned.
        expect(Math.hypot(cpu[0], cpu[2])).toBeGreaterThan(0.1);
        expect(turned(cpu)).toBeGreaterThan(0.1);
        // Where the CPU world moves it, which moves it once per substep from both chains (each pull turning it at
        // once): the group's pulls of one pass add up at once (Jacobi) where the CPU's come one after the other.
        expect(apart).toBeLessThan(1e-3);
        expect(Math.abs(turned(gpu) - turned(cpu))).toBeLessThan(5e-3);
        // Deterministic: fixed order, fixed-point sums.
        expect(Array.from(again)).toEqual(Array.from(gpu));
    }, 300_000);
});
