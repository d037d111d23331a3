/**
 * Held contacts on the GPU (`heldContactsShader.ts`): a box many times heavier than a pinned hammock rests on it, the
 * tethers holding the touched particles and the pins taking the load, as on the CPU (`test/core/heldContacts.test.ts`).
 */
import type { Collider } from "../../src/core/collider";
import { HELD_TOLERANCE } from "../../src/core/heldContacts";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import type { SoftBody } from "../../src/core/softBody";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { boxOnHammock, clearanceUnder } from "../support/coreScenes";
import { describeGpu } from "./support/gpuDevice";
import { hostBox } from "./support/hostedBox";

const dt = 1 / 60;
const G = 9.81;
/** Steps of a run (3 s), and the last ones over which the pins' force and the drift are measured (1 s). */
const STEPS = 180;
const WINDOW = 60;

/** The CPU test's scene ({@link boxOnHammock}), the cloth awake throughout. */
function hammock(mass: number): { world: XpbdWorld; body: SoftBody; box: Collider } {
    return boxOnHammock(mass, { allowSleep: false });
}

/** What a run ends with. */
interface Outcome {
    y: number;
    speed: number;
    spin: number;
    /** The box's mean velocity over the last {@link WINDOW} steps (m/s). */
    drift: number;
    /** The pins' vertical force averaged over the window (N), by momentum balance. */
    pins: number;
    /** The free particles' weight (N). */
    freeWeight: number;
    clearance: number;
    maxEdgeRatio: number;
}

/** One step of either backend: steps, and returns the step's impulse on the box (linear, angular). */
interface Stepper {
    step(): Promise<{ linear: ArrayLike<number>; angular: ArrayLike<number> }>;
    /** The free particles' momentum (kg·m/s, y) after the last step, and the particles' positions (stride 3). */
    state(): Promise<{ momentum: number; positions: ArrayLike<number> }>;
    /** The largest edge ratio since the last call. */
    edgeRatio(): Promise<number>;
}

/**
 * Runs the hammock with the box hosted (its impulses applied after each step, as the Havok bridge). The pins' force
 * over the window is the free particles' momentum change, their weight and the box's push: F = ΔP/T + m g + ΣJ/T.
 */
async function run(body: SoftBody, box: Collider, stepper: Stepper): Promise<Outcome> {
    const windowStart = new Float64Array(3);
    let momentumStart = 0;
    let support = 0;
    let maxEdgeRatio = 0;
    for (let s = 0; s < STEPS; s++) {
        if (s === STEPS - WINDOW) {
            windowStart.set(box.position);
            momentumStart = (await stepper.state()).momentum;
        }
        const { linear, angular } = await stepper.step();
        if (s >= STEPS - WINDOW) {
            support += linear[1];
        }
        hostBox(box, linear, angular, dt);
        if (s % 6 === 5) {
            maxEdgeRatio = Math.max(maxEdgeRatio, await stepper.edgeRatio());
        }
    }
    const end = await stepper.state();
    let free = 0;
    for (let p = 0; p < body.particleCount; p++) {
        free += body.inverseMasses[p] > 0 ? body.masses[p] : 0;
    }
    const T = WINDOW * dt;
    return {
        y: box.position[1],
        speed: Math.hypot(...box.linearVelocity),
        spin: Math.hypot(...box.angularVelocity),
        drift: Math.hypot(...box.position.map((x, a) => x - windowStart[a])) / T,
        pins: (end.momentum - momentumStart) / T + free * G + support / T,
        freeWeight: free * G,
        clearance: clearanceUnder(end.positions, 3, body.particleCount, box),
        maxEdgeRatio,
    };
}

/** The free particles' vertical momentum (kg·m/s) from velocities `v` with stride 3. */
function momentumY(body: SoftBody, v: ArrayLike<number>): number {
    let sum = 0;
    for (let p = 0; p < body.particleCount; p++) {
        sum += body.inverseMasses[p] > 0 ? body.masses[p] * v[3 * p + 1] : 0;
    }
    return sum;
}

/** The CPU world moves the box within the step; the host owns it between steps (as `gpuRestingBodies.test.ts`). */
function runCpu(mass: number): Promise<Outcome> {
    const { world, body, box } = hammock(mass);
    world.addBody(body);
    const start = { position: new Float64Array(3), rotation: new Float64Array(4), v: new Float64Array(3), w: new Float64Array(3) };
    let ratio = 0;
    return run(body, box, {
        step: async () => {
            start.position.set(box.position);
            start.rotation.set(box.rotation);
            start.v.set(box.linearVelocity);
            start.w.set(box.angularVelocity);
            world.step(dt);
            ratio = Math.max(ratio, world.stats.maxEdgeRatio);
            const [x, y, z] = start.position;
            const [qx, qy, qz, qw] = start.rotation;
            box.setPose(x, y, z, qx, qy, qz, qw);
            box.setVelocity(start.v[0], start.v[1], start.v[2], start.w[0], start.w[1], start.w[2]);
            return { linear: Float64Array.from(box.impulse), angular: Float64Array.from(box.angularImpulse) };
        },
        state: async () => ({ momentum: momentumY(body, body.velocities), positions: body.positions }),
        edgeRatio: async () => {
            const r = ratio;
            ratio = 0;
            return r;
        },
    });
}

async function runGpu(device: GPUDevice, mass: number): Promise<Outcome> {
    const { world, body, box } = hammock(mass);
    const solver = await GpuSoftBodySolver.create(device, body, world);
    const linear = new Float64Array(3);
    const angular = new Float64Array(3);
    try {
        return await run(body, box, {
            step: async () => {
                solver.step(dt);
                await solver.colliderImpulsesSettled();
                linear.fill(0);
                angular.fill(0);
                solver.consumeColliderImpulses((impulses) => {
                    expect(impulses.overflowed[0]).toBe(0);
                    for (let a = 0; a < 3; a++) {
                        linear[a] += impulses.linear[a];
                        angular[a] += impulses.angular[a];
                    }
                });
                return { linear, angular };
            },
            state: async () => {
                const v = await solver.readVelocities();
                return { momentum: momentumY(body, v), positions: await solver.readPositions() };
            },
            edgeRatio: async () => (await solver.readFigures()).maxEdgeRatio,
        });
    } finally {
        solver.dispose();
    }
}

describeGpu("WebGPU held contacts: heavy boxes resting on a pinned hammock", (device) => {
    test.each([20, 100])(
        "a %p kg box placed on a 0.5 kg hammock rests on it on the GPU, its pins carrying the weight",
        async (mass) => {
            const cpu = await runCpu(mass);
            const gpu = await runGpu(device(), mass);
            const weight = mass * G;
            for (const [name, o] of [
                ["GPU", gpu],
                ["CPU", cpu],
            ] as const) {
                console.log(
                    `${mass} kg on the hammock, ${name}: y ${o.y.toFixed(5)} m, clearance ${(1000 * o.clearance).toFixed(2)} mm, ` +
                        `speed ${o.speed.toExponential(2)} m/s, spin ${o.spin.toExponential(2)} rad/s, drift ${o.drift.toExponential(2)} m/s, ` +
                        `pins ${o.pins.toFixed(2)} N for ${(weight + o.freeWeight).toFixed(2)} N, max edge ratio ×${o.maxEdgeRatio.toFixed(4)}`,
                );
            }
            // Above the cloth: on the particles' thickness shell (1 cm), not sunk into it.
            expect(gpu.clearance).toBeGreaterThan(0);
            // At rest after 3 s, not turning (the CPU's bound on its spin).
            expect(gpu.speed).toBeLessThan(0.005);
            expect(gpu.drift).toBeLessThan(0.005);
            expect(gpu.spin).toBeLessThan(1e-3);
            // The pins carry the box and the cloth (± 2%).
            expect(Math.abs(gpu.pins / (weight + gpu.freeWeight) - 1)).toBeLessThan(0.02);
            // The tethers hold the cloth: it barely stretches.
            expect(gpu.maxEdgeRatio).toBeLessThanOrEqual(1.15);
            // Where the CPU rests it: both rest the box on held particles, each placed by its taut tethers to within
            // the tolerance that makes a tether taut (0.1 thickness, 1 mm).
            expect(Math.abs(gpu.y - cpu.y)).toBeLessThan(HELD_TOLERANCE * 0.01);
        },
        600_000,
    );

    test("a box thrown onto the hammock gives bit-identical results run after run (the held solve sums in a fixed order)", async () => {
        const once = async (): Promise<number[]> => {
            const { world, body, box } = hammock(50);
            box.setVelocity(0.3, -2, 0.1, 0.5, 0, -0.2);
            const solver = await GpuSoftBodySolver.create(device(), body, world);
            const impulses: number[] = [];
            for (let s = 0; s < 30; s++) {
                solver.step(dt);
                await solver.colliderImpulsesSettled();
                solver.consumeColliderImpulses((step) => impulses.push(...step.linear, ...step.angular));
                hostBox(box, impulses.slice(-6, -3), impulses.slice(-3), dt);
            }
            const positions = await solver.readPositions();
            solver.dispose();
            return [...positions, ...impulses];
        };
        const first = await once();
        const second = await once();
        expect(first.every(Number.isFinite)).toBe(true);
        expect(second).toEqual(first);
    }, 300_000);
});
