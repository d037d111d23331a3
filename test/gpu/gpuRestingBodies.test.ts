import { Collider, ColliderMotion } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import type { SoftBody } from "../../src/core/softBody";
import { GpuContactGroup } from "../../src/gpu/gpuContactGroup";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { clothBody, tetBlock } from "../support/coreScenes";
import { describeGpu } from "./support/gpuDevice";
import { hostBox } from "./support/hostedBox";

const dt = 1 / 60;
const g = 9.81;
/** Box edge (m). */
const EDGE = 0.2;
/** Gap (m) between the box and the soft body it is dropped onto. */
const DROP = 0.03;

/** A dynamic cube of edge {@link EDGE} and mass `mass`, its centre at height `y` (its frame's origin is its centre). */
function dynamicBox(mass: number, y: number): Collider {
    const inertia = (mass * 2 * EDGE * EDGE) / 12;
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [EDGE / 2, EDGE / 2, EDGE / 2] }], {
        motion: ColliderMotion.Dynamic,
        mass,
        inertia: [inertia, inertia, inertia],
    });
    box.setPose(0, y, 0, 0, 0, 0, 1);
    return box;
}

/** A scene: the soft body, the world around it (gravity, colliders), the dropped box. */
interface Scene {
    body: SoftBody;
    world: XpbdWorld;
    box: Collider;
    /** Height of the soft body's top at rest (m). */
    top: number;
}

/** A 0.5 kg 8² cloth of 1 m at y = 1, pinned along its two edges at x = ±0.5, and a box of `mass` 3 cm above it. */
function clothScene(mass: number): Scene {
    const { body, columns } = clothBody(8, { size: 1, mass: 0.5, plane: "xz", origin: [0, 1, 0], allowSleep: false });
    for (let row = 0; row < columns; row++) {
        body.setPinWeight(row * columns, 1);
        body.setPinWeight(row * columns + columns - 1, 1);
    }
    const world = new XpbdWorld();
    const box = dynamicBox(mass, 1 + EDGE / 2 + DROP);
    world.addCollider(box);
    return { body, world, box, top: 1 };
}

/** A 1 kg jelly (a 0.3 m tetrahedral block) on the ground, and a box of `mass` 3 cm above it. */
function jellyScene(mass: number): Scene {
    const body = tetBlock([0.3, 0.3, 0.3], [0, 0.15 + 0.006, 0], { mass: 1, resolution: 4, damping: 4, allowSleep: false });
    const world = new XpbdWorld();
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    const box = dynamicBox(mass, 0.306 + EDGE / 2 + DROP);
    world.addCollider(box);
    return { body, world, box, top: 0.306 };
}

/** What a run ends with: the box's height and speed, the lowest particle, the highest box height after landing. */
interface Outcome {
    y: number;
    speed: number;
    /** The highest the box's centre rose above its lowest point after first touching (m): a bounce or a launch. */
    rebound: number;
    /** The highest the box's centre reached over the run after its release (m). */
    peak: number;
    /** Σ J_y over the run (N·s) and the box's weight × time (N·s). */
    support: number;
    weight: number;
    /** The box's mean velocity over the last {@link WINDOW} steps (m/s): its displacement over that time. */
    drift: number;
}

/** Steps at the end over which {@link Outcome.drift} is measured (1 s). */
const WINDOW = 60;

/** Gathers a run's {@link Outcome}, step by step. */
class BoxTrack {
    private _low = Infinity;
    private _rebound = 0;
    private _peak = -Infinity;
    private _support = 0;
    private readonly _windowStart = new Float64Array(3);

    public constructor(
        private readonly _box: Collider,
        private readonly _steps: number,
    ) {}

    /** Before step `s`. */
    public before(s: number): void {
        if (s === this._steps - WINDOW) {
            this._windowStart.set(this._box.position);
        }
    }

    /** After a step that pushed the box up by `jy` (N·s), once the host moved it. */
    public after(jy: number): void {
        const y = this._box.position[1];
        this._support += jy;
        this._low = Math.min(this._low, y);
        this._rebound = Math.max(this._rebound, y - this._low);
        this._peak = Math.max(this._peak, y);
    }

    public outcome(): Outcome {
        const box = this._box;
        return {
            y: box.position[1],
            speed: Math.hypot(...box.linearVelocity),
            rebound: this._rebound,
            peak: this._peak,
            support: this._support,
            weight: box.mass * g * this._steps * dt,
            drift: Math.hypot(...box.position.map((x, a) => x - this._windowStart[a])) / (WINDOW * dt),
        };
    }
}

/**
 * Runs `steps` steps on the GPU with the box hosted (its impulses applied before the next step); `grouped`: the body
 * steps in a `GpuContactGroup` with a small cloth far from it (the group's phases must move the box as the solver's
 * own step does).
 */
async function runGpu(device: GPUDevice, scene: Scene, steps: number, grouped = false): Promise<Outcome> {
    const { body, world, box } = scene;
    box.acceleration.set(world.gravity);
    const own = await GpuSoftBodySolver.create(device, body, world);
    const solvers = [own];
    if (grouped) {
        const far = clothBody(2, { size: 0.2, mass: 0.1, plane: "xz", origin: [5, 1, 0], allowSleep: false }).body;
        solvers.push(await GpuSoftBodySolver.create(device, far, world));
    }
    const group = grouped ? new GpuContactGroup(solvers) : null;
    const solver = {
        step: (h: number) => (group ? group.step(h) : own.step(h)),
        colliderImpulsesSettled: () => Promise.all(solvers.map((each) => each.colliderImpulsesSettled())),
        consumeColliderImpulses: (visit: Parameters<GpuSoftBodySolver["consumeColliderImpulses"]>[0]) =>
            solvers.forEach((each) => each.consumeColliderImpulses(visit)),
        dispose: () => {
            group?.dispose();
            solvers.forEach((each) => each.dispose());
        },
    };
    const track = new BoxTrack(box, steps);
    const linear = new Float64Array(3);
    const angular = new Float64Array(3);
    for (let s = 0; s < steps; s++) {
        track.before(s);
        solver.step(dt);
        await solver.colliderImpulsesSettled();
        linear.fill(0);
        angular.fill(0);
        solver.consumeColliderImpulses((impulses) => {
            for (let a = 0; a < 3; a++) {
                linear[a] += impulses.linear[a];
                angular[a] += impulses.angular[a];
            }
            expect(impulses.overflowed[0]).toBe(0);
        });
        hostBox(box, linear, angular, dt);
        track.after(linear[1]);
    }
    solver.dispose();
    return track.outcome();
}

/** The same on the CPU: the world steps the body and moves the box within the step; the host does the rest. */
function runCpu(scene: Scene, steps: number): Outcome {
    const { body, world, box } = scene;
    world.addBody(body);
    box.acceleration.set(world.gravity);
    const start = { position: new Float64Array(3), rotation: new Float64Array(4), v: new Float64Array(3), w: new Float64Array(3) };
    const track = new BoxTrack(box, steps);
    for (let s = 0; s < steps; s++) {
        track.before(s);
        start.position.set(box.position);
        start.rotation.set(box.rotation);
        start.v.set(box.linearVelocity);
        start.w.set(box.angularVelocity);
        world.step(dt);
        // The host owns the box: it starts from its pose and velocities before the step and applies the impulse.
        box.setPose(
            start.position[0],
            start.position[1],
            start.position[2],
            start.rotation[0],
            start.rotation[1],
            start.rotation[2],
            start.rotation[3],
        );
        box.setVelocity(start.v[0], start.v[1], start.v[2], start.w[0], start.w[1], start.w[2]);
        hostBox(box, box.impulse, box.angularImpulse, dt);
        track.after(box.impulse[1]);
    }
    return track.outcome();
}

describeGpu("WebGPU same-step coupling: rigid bodies resting on soft bodies", (device) => {
    for (const [name, scene] of [
        ["cloth", clothScene],
        ["jelly", jellyScene],
    ] as const) {
        for (const mass of [0.05, 0.5, 5]) {
            // The pinned cloth under a box ten times its mass is where the held contacts act (the tethers hold the
            // touched particles, the pins take the load), on both backends. This coarse cloth (12.5 cm between
            // particles under a 20 cm box) does not let the box rest there on either: hosted as here, the CPU's box
            // creeps up by about 6 mm/s and lurches 3 to 4 cm down every few seconds (at steps 30, 276 and 396 of a
            // 600-step run), the GPU's alike (at steps 30 and 126), so its rest is not asked; a heavy box's rest on
            // a finer hammock is `gpuHeldContacts.test.ts`'s.
            const held = name === "cloth" && mass > 0.5;
            const outcome = held ? "is held up by it on the GPU, as on the CPU" : "comes to rest on it on the GPU, where the CPU rests it";
            test(`a ${mass} kg box dropped ${100 * DROP} cm onto the ${name} ${outcome}`, async () => {
                const steps = 180;
                const cpuScene = scene(mass);
                const start = cpuScene.box.position[1];
                const cpu = runCpu(cpuScene, steps);
                const gpuScene = scene(mass);
                const gpu = await runGpu(device(), gpuScene, steps);
                const thickness = gpuScene.body.thickness;
                // How far the box sank into the soft body from touching it undeformed.
                const deflection = (o: Outcome): number => gpuScene.top + thickness + EDGE / 2 - o.y;
                console.log(
                    `${mass} kg box on the ${name} after ${steps} steps: y GPU ${gpu.y.toFixed(4)} / CPU ${cpu.y.toFixed(4)} m ` +
                        `(deflection ${deflection(gpu).toFixed(4)} / ${deflection(cpu).toFixed(4)}), drift over the last second ` +
                        `${gpu.drift.toExponential(2)} / ${cpu.drift.toExponential(2)} m/s, speed ${gpu.speed.toExponential(2)} / ` +
                        `${cpu.speed.toExponential(2)} m/s, rebound ${gpu.rebound.toFixed(4)} / ${cpu.rebound.toFixed(4)} m, ` +
                        `peak ${gpu.peak.toFixed(4)} (released at ${start.toFixed(4)}), support/weight ${(gpu.support / gpu.weight).toFixed(4)} / ${(cpu.support / cpu.weight).toFixed(4)}`,
                );
                // Not launched: released at rest, it can never rise above its release height (no contact adds energy).
                expect(gpu.peak).toBeLessThanOrEqual(start);
                // At rest: its mean velocity over the last second (its displacement over that time; a sinking or
                // rising box drifts, a box rocking on a soft support does not) under 5 mm/s.
                if (!held) {
                    expect(gpu.drift).toBeLessThan(0.005);
                }
                // The boxes up to 0.5 kg are still at the end too (speed under 5 mm/s); the 5 kg ones rock on the soft
                // support (the CPU's as well: 6 and 21 mm/s), so their rest is the drift above.
                if (mass <= 0.5) {
                    expect(gpu.speed).toBeLessThan(0.005);
                }
                // Where the CPU rests it: both solve the same constraints under the same load; the coupling's order
                // (Jacobi passes on the GPU, Gauss–Seidel contacts on the CPU) changes how far each pass converges,
                // taken as a quarter of the deflection, plus the contact's thickness. Under the held load (above), no
                // deeper than twice the CPU's deflection (held up, not sunk through).
                if (held) {
                    expect(deflection(gpu)).toBeLessThan(2 * deflection(cpu));
                } else {
                    expect(Math.abs(gpu.y - cpu.y)).toBeLessThan(0.25 * Math.abs(deflection(cpu)) + thickness);
                }
                // Momentum over the run: the box starts and ends near rest, so the soft body's pushes add up to its
                // weight over the run, less its fall into the support (M·v at landing, ≤ M·√(2g·DROP) over M·g·T).
                const landing = Math.sqrt(2 * g * DROP) / (g * steps * dt);
                expect(Math.abs(gpu.support / gpu.weight - 1)).toBeLessThan(landing + gpu.speed / (g * steps * dt));
            }, 300_000);
        }
    }

    test("a 0.5 kg box on the cloth rests where it does alone when the cloth steps in a GpuContactGroup (the group's phases move it)", async () => {
        const steps = 180;
        const alone = await runGpu(device(), clothScene(0.5), steps);
        const scene = clothScene(0.5);
        const start = scene.box.position[1];
        const grouped = await runGpu(device(), scene, steps, true);
        console.log(
            `0.5 kg box on the cloth after ${steps} steps: y grouped ${grouped.y.toFixed(4)} / alone ${alone.y.toFixed(4)} m, ` +
                `drift ${grouped.drift.toExponential(2)} m/s, support/weight ${(grouped.support / grouped.weight).toFixed(4)}`,
        );
        expect(grouped.peak).toBeLessThanOrEqual(start);
        expect(grouped.drift).toBeLessThan(0.005);
        // The group splits each pass's end from the next pass's tethers (contacts between bodies come between), so
        // the passes converge a little differently: within the contact's thickness of the box alone.
        expect(Math.abs(grouped.y - alone.y)).toBeLessThan(scene.body.thickness);
    }, 300_000);
});
