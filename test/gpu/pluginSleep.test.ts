/**
 * Sleep and statistics of impostors on the WebGPU backend, through the plugin with real Havok under a NullEngine (Dawn
 * on SwiftShader): a hanging cloth falls asleep after as many steps as on the CPU backend (within the figures'
 * read-back interval), stops being stepped, wakes when its pin moves, and fires the same events; its stats come from
 * the figures the GPU reduced.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { FIGURES_INTERVAL } from "../../src/babylon/gpuBackend";
import { F32_ROUNDOFF } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

/** A 1 m cloth of 6² quads at height 2 m, hung by two corners of an edge, asleep after 0.2 s slower than 2 cm/s. */
function cloth(h: HavokScene, xpbd: XpbdPlugin): { impostor: ClothImpostor; events: string[] } {
    const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 6 }, h.scene);
    mesh.position.y = 2;
    const impostor = new ClothImpostor(mesh, { mass: 0.2, pins: [0, 6], sleepTime: 0.2, damping: 2 }, xpbd);
    const events: string[] = [];
    impostor.onSleepObservable.add(() => events.push("sleep"));
    impostor.onWakeObservable.add(() => events.push("wake"));
    return { impostor, events };
}

/**
 * Lets the GPU finish the work submitted and the read-backs in flight arrive, as a frame's time does in a browser
 * (SwiftShader takes longer over a step than the test's loop).
 */
async function frame(device: GPUDevice): Promise<void> {
    await device.queue.onSubmittedWorkDone();
    await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The private backend, for its read counts. */
interface BackendView {
    _gpu: { stateReadCount: number; figuresReadCount: number };
}

describeGpu("sleep and statistics on the WebGPU backend (plugin, real Havok)", (device) => {
    const scenes: HavokScene[] = [];
    afterEach(() => {
        scenes.splice(0).forEach((h) => h.dispose());
    });

    test("a hanging cloth falls asleep after as many steps as on the CPU (± the figures' interval), and wakes when its pin moves", async () => {
        const limit = 900;
        const hCpu = await createHavokScene();
        const hGpu = await createHavokScene();
        scenes.push(hCpu, hGpu);
        const cpu = cloth(hCpu, new XpbdPlugin(hCpu.scene, { backend: "cpu" }));
        const xpbd = new XpbdPlugin(hGpu.scene, { backend: "webgpu", gpuDevice: device() });
        const gpu = cloth(hGpu, xpbd);
        await xpbd.whenBackendReadyAsync();
        let cpuSteps = 0;
        while (!cpu.impostor.body.sleeping && cpuSteps < limit) {
            hCpu.step();
            cpuSteps++;
        }
        let gpuSteps = 0;
        while (!gpu.impostor.body.sleeping && gpuSteps < limit) {
            hGpu.step();
            gpuSteps++;
            await frame(device());
        }
        const backend = (xpbd as unknown as BackendView)._gpu;
        console.log(
            `asleep after ${cpuSteps} steps on the CPU, ${gpuSteps} on the GPU; ${backend.figuresReadCount} figures reads, ` +
                `${backend.stateReadCount} state reads`,
        );
        expect(gpu.impostor.backend).toBe("webgpu");
        expect(cpu.impostor.body.sleeping).toBe(true);
        expect(gpu.impostor.body.sleeping).toBe(true);
        // The GPU samples the sleep speed every FIGURES_INTERVAL steps (a sample counts for the steps since the last
        // one: up to FIGURES_INTERVAL − 1 early or late) and gets it a frame or two later.
        expect(Math.abs(gpuSteps - cpuSteps)).toBeLessThanOrEqual(FIGURES_INTERVAL + 2);
        expect(gpu.events).toEqual(["sleep"]);
        expect(xpbd.stats.sleepingBodies).toBe(1);
        expect(gpu.impostor.body.stats.kineticEnergy).toBe(0);

        // Asleep, it is not stepped: no state or figures read, not a particle moves.
        await xpbd.readGpuStateAsync();
        const resting = Float64Array.from(gpu.impostor.body.positions);
        const reads = backend.stateReadCount + backend.figuresReadCount;
        for (let s = 0; s < 10; s++) {
            hGpu.step();
            await frame(device());
        }
        await xpbd.readGpuStateAsync();
        expect(backend.stateReadCount + backend.figuresReadCount).toBe(reads + 1);
        expect(Array.from(gpu.impostor.body.positions)).toEqual(Array.from(resting));
        expect(gpu.impostor.body.sleeping).toBe(true);

        // Its pin moves 5 cm: it wakes in that step, as on the CPU, and swings.
        for (const { impostor } of [cpu, gpu]) {
            const x = impostor.body.positions;
            impostor.body.setPinTarget(0, x[0] + 0.05, x[1], x[2]);
        }
        hCpu.step();
        hGpu.step();
        expect(cpu.impostor.body.sleeping).toBe(false);
        expect(gpu.impostor.body.sleeping).toBe(false);
        expect(cpu.events).toEqual(["sleep", "wake"]);
        expect(gpu.events).toEqual(["sleep", "wake"]);
        for (let s = 0; s < 5; s++) {
            hCpu.step();
            hGpu.step();
            await frame(device());
        }
        await xpbd.readGpuStateAsync();
        expect(gpu.impostor.body.stats.sleepingBodies).toBe(0);
        expect(gpu.impostor.body.stats.kineticEnergy).toBeGreaterThan(0);
        // The same swing as the CPU's (both woke in the same step from the same rest, within f32 of each other).
        expect(gpu.impostor.body.stats.kineticEnergy).toBeCloseTo(cpu.impostor.body.stats.kineticEnergy, 4);
    }, 300_000);

    test("a sleeping cloth wakes, as on the CPU, when a kinematic Havok body near it starts moving and when the wind changes", async () => {
        const run = async (backend: "cpu" | "webgpu"): Promise<string[]> => {
            const h = await createHavokScene();
            scenes.push(h);
            const xpbd = new XpbdPlugin(h.scene, { backend, gpuDevice: backend === "webgpu" ? device() : undefined });
            // Every particle pinned: no free particle moves, so it is slow from the start and sleeps after 0.2 s.
            const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 4 }, h.scene);
            mesh.position.y = 2;
            const pins = Array.from({ length: 25 }, (_, k) => k);
            const impostor = new ClothImpostor(mesh, { mass: 0.2, pins, sleepTime: 0.2 }, xpbd);
            // A kinematic sphere through the cloth's middle, still.
            const ball = createBody(
                h.scene,
                { kind: "sphere", radius: 0.2 },
                { motionType: PhysicsMotionType.ANIMATED, position: [0, 2, 0] },
            );
            await xpbd.whenBackendReadyAsync();
            const log: string[] = [];
            let step = 0;
            impostor.onSleepObservable.add(() => log.push(`sleep ${step}`));
            impostor.onWakeObservable.add(() => log.push(`wake ${step}`));
            const steps = async (n: number): Promise<void> => {
                for (let s = 0; s < n; s++) {
                    step++;
                    h.step();
                    if (backend === "webgpu") {
                        expect(impostor.backend).toBe("webgpu");
                        await frame(device());
                    }
                }
            };
            await steps(24);
            log.push("ball moves");
            ball.body.setLinearVelocity(new Vector3(0.5, 0, 0));
            await steps(24);
            ball.body.setLinearVelocity(new Vector3(0, 0, 0));
            await steps(24);
            log.push("wind");
            xpbd.world.wind[0] = 2;
            await steps(4);
            return log;
        };
        const cpu = await run("cpu");
        const gpu = await run("webgpu");
        console.log(`CPU: ${cpu.join(", ")}\nGPU: ${gpu.join(", ")}`);
        // The same events as the CPU's (the moving ball wakes the cloth whenever it is slow for its sleep time until
        // the ball stops; the wind wakes it), the wake-ups in the same steps, the falls asleep within the figures'
        // read-back interval of the CPU's.
        const kinds = (log: string[]): string[] => log.map((e) => e.split(" ")[0]);
        expect(kinds(gpu)).toEqual(kinds(cpu));
        expect(cpu.slice(cpu.indexOf("ball moves"), cpu.indexOf("ball moves") + 2)[1]).toMatch(/^wake/);
        expect(cpu[cpu.indexOf("wind") + 1]).toMatch(/^wake/);
        for (let k = 0; k < cpu.length; k++) {
            const [kind, cpuStep] = cpu[k].split(" ");
            const gpuStep = gpu[k].split(" ")[1];
            const off = Math.abs(Number(gpuStep) - Number(cpuStep));
            if (kind === "wake") {
                expect({ k, off }).toEqual({ k, off: 0 });
            } else if (kind === "sleep") {
                expect(off).toBeLessThanOrEqual(FIGURES_INTERVAL + 2);
            }
        }
    }, 300_000);

    test("xpbd.stats and impostor.body.stats of a GPU cloth come from the GPU's figures, 20 a second", async () => {
        const h = await createHavokScene();
        scenes.push(h);
        const xpbd = new XpbdPlugin(h.scene, { backend: "webgpu", gpuDevice: device() });
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        mesh.position.y = 2;
        const impostor = new ClothImpostor(mesh, { mass: 0.2, pins: [0, 8], allowSleep: false }, xpbd);
        await xpbd.whenBackendReadyAsync();
        h.step();
        const backend = (xpbd as unknown as BackendView)._gpu;
        const readsBefore = backend.figuresReadCount;
        const steps = 30;
        const seen = new Set<number>();
        for (let s = 0; s < steps; s++) {
            h.step();
            // The world's figures of the step add the GPU body's as they stand (figures arrive between steps).
            expect(xpbd.stats.kineticEnergy).toBe(impostor.body.stats.kineticEnergy);
            seen.add(xpbd.stats.kineticEnergy);
            await frame(device());
        }
        expect(impostor.backend).toBe("webgpu");
        // One figures read every FIGURES_INTERVAL steps, and the stats change as they arrive (the cloth swings down).
        expect(backend.figuresReadCount - readsBefore).toBe(steps / FIGURES_INTERVAL);
        expect(seen.size).toBeGreaterThanOrEqual(steps / FIGURES_INTERVAL - 2);
        // After every step submitted, the figures are the state's: ½ Σ m v² of the velocities read back, within f32
        // rounding (6 roundings a term and ceil(n / 64) + 6 additions: see gpuFigures.test.ts).
        await xpbd.readGpuStateAsync();
        const body = impostor.body;
        let energy = 0;
        for (let p = 0; p < body.particleCount; p++) {
            energy +=
                0.5 * body.masses[p] * (body.velocities[3 * p] ** 2 + body.velocities[3 * p + 1] ** 2 + body.velocities[3 * p + 2] ** 2);
        }
        const bound = (6 + Math.ceil(body.particleCount / 64) + 6) * F32_ROUNDOFF * energy;
        console.log(`kinetic energy from the GPU ${body.stats.kineticEnergy} J, of the state read back ${energy} J (bound ${bound})`);
        expect(energy).toBeGreaterThan(0.1);
        expect(Math.abs(body.stats.kineticEnergy - energy)).toBeLessThanOrEqual(bound);
        expect(xpbd.stats.particles).toBe(body.particleCount);
        expect(body.stats.maxEdgeRatio).toBeGreaterThan(1);
        expect(body.stats.maxBendResidual).toBeNaN();

        // With residuals on (as the Inspector turns them on), the next figures bring the stretch heatmap: each
        // particle's largest |length / rest − 1| of the state, within an edge ratio's rounding (8 roundings).
        xpbd.world.residuals = true;
        h.step();
        await xpbd.readGpuStateAsync();
        const { indices, restLengths, count } = body.stretch;
        const expected = new Float64Array(body.particleCount);
        const x = body.positions;
        for (let c = 0; c < count; c++) {
            const [a, b] = [3 * indices[2 * c], 3 * indices[2 * c + 1]];
            const residual = Math.abs(Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]) / restLengths[c] - 1);
            expected[a / 3] = Math.max(expected[a / 3], residual);
            expected[b / 3] = Math.max(expected[b / 3], residual);
        }
        let worst = 0;
        for (let p = 0; p < body.particleCount; p++) {
            worst = Math.max(worst, Math.abs(body.stretchResidual[p] - expected[p]));
        }
        console.log(`stretch heatmap through the plugin: ${worst} off the state's (largest ${Math.max(...expected)})`);
        expect(Math.max(...expected)).toBeGreaterThan(1e-4);
        expect(worst).toBeLessThanOrEqual(8 * F32_ROUNDOFF * body.stats.maxEdgeRatio + F32_ROUNDOFF);
        // And the bend figures, reduced on the GPU too (NaN without residuals, as on the CPU).
        expect(body.stats.maxBendResidual).toBeGreaterThan(0);
    }, 300_000);

    test("a cloth that touched the ground on the CPU reports no contact figures once on the GPU, not stale ones", async () => {
        const h = await createHavokScene();
        scenes.push(h);
        const xpbd = new XpbdPlugin(h.scene, { backend: "webgpu", gpuDevice: device() });
        xpbd.world.residuals = true;
        createBody(h.scene, { kind: "box", extents: [4, 0.2, 4] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 6 }, h.scene);
        mesh.position.y = 0.02;
        const impostor = new ClothImpostor(mesh, { mass: 0.2, allowSleep: false }, xpbd);
        await xpbd.whenBackendReadyAsync();
        // Level of detail (substeps of its own) sends it to the CPU, where it lands on the ground and measures its contacts.
        impostor.body.substeps = 10;
        for (let s = 0; s < 10; s++) h.step();
        const onCpu = { backend: impostor.backend, contacts: impostor.body.stats.contacts };
        const heat = Math.max(...impostor.body.contactResidual.subarray(0, impostor.body.particleCount));
        impostor.body.substeps = 0;
        for (let s = 0; s < 2 * FIGURES_INTERVAL; s++) {
            h.step();
            await frame(device());
        }
        await xpbd.readGpuStateAsync();
        const stats = impostor.body.stats;
        console.log(`on the CPU: ${onCpu.contacts} contacts, contact heatmap up to ${heat} m; on the GPU: ${stats.contacts}`);
        expect(onCpu).toMatchObject({ backend: "cpu" });
        expect(onCpu.contacts).toBeGreaterThan(0);
        expect(heat).toBeGreaterThan(0);
        expect(impostor.backend).toBe("webgpu");
        expect([stats.contacts, stats.contactCandidates, stats.maxContactCorrection, xpbd.stats.contacts]).toEqual([0, 0, 0, 0]);
        expect(impostor.body.contactResidual.every((r) => r === 0)).toBe(true);
    }, 300_000);
});
