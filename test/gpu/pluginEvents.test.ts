/**
 * The `OverStretch` and `InvalidState` events of impostors on the WebGPU backend, through the plugin with real Havok
 * under a NullEngine (Dawn on SwiftShader), against the same scene on the CPU backend: the GPU raises them from its
 * figures, read every FIGURES_INTERVAL steps, so fewer and later, but of the same kind and for the same edge.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { FIGURES_INTERVAL } from "../../src/babylon/gpuBackend";
import { describeGpu } from "./support/gpuDevice";

/** Lets the GPU finish the work submitted and the read-backs in flight arrive, as a frame's time does in a browser. */
async function frame(device: GPUDevice): Promise<void> {
    await device.queue.onSubmittedWorkDone();
    await new Promise((resolve) => setTimeout(resolve, 0));
}

/** One event as the impostor's observables deliver it, with the plugin step it came after. */
interface Seen {
    kind: "overStretch" | "invalidState";
    step: number;
    element: number;
    value: number;
}

describeGpu("over-stretch and invalid-state events on the WebGPU backend (plugin, real Havok)", (device) => {
    const scenes: HavokScene[] = [];
    afterEach(() => {
        scenes.splice(0).forEach((h) => h.dispose());
    });

    /**
     * A soft 1 m cloth of 6² quads hung from one vertex next to a corner (no mirror symmetry, so one edge is the most
     * stretched), without tethers or strain limiting (which the GPU lacks), so that it stretches past 1.03 × its edges'
     * rest lengths, the over-stretch ratio set. Steps
     * `steps` times; before step `poison` its pin's target is made NaN for one step.
     */
    async function run(backend: "cpu" | "webgpu", steps: number, poison: number): Promise<{ seen: Seen[]; impostor: ClothImpostor }> {
        const h = await createHavokScene();
        scenes.push(h);
        const xpbd = new XpbdPlugin(h.scene, { backend, gpuDevice: backend === "webgpu" ? device() : undefined });
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 6 }, h.scene);
        mesh.position.y = 2;
        const impostor = new ClothImpostor(mesh, { mass: 0.3, pins: [1], stretchStiffness: 0.1, strainLimit: 0, allowSleep: false }, xpbd);
        impostor.body.tethers.enabled = false;
        impostor.body.overStretchRatio = 1.03;
        await xpbd.whenBackendReadyAsync();
        const seen: Seen[] = [];
        let step = 0;
        impostor.onOverStretchObservable.add((e) => seen.push({ kind: "overStretch", step, element: e.element, value: e.value }));
        impostor.onInvalidStateObservable.add((e) => seen.push({ kind: "invalidState", step, element: e.element, value: e.value }));
        const pinned = 1;
        for (step = 1; step <= steps; step++) {
            const t = impostor.body.pins.targetsEnd;
            const target = [t[3 * pinned], t[3 * pinned + 1], t[3 * pinned + 2]];
            if (step === poison) {
                impostor.body.setPinTarget(pinned, NaN, target[1], target[2]);
            }
            h.step();
            if (step === poison) {
                impostor.body.setPinTarget(pinned, target[0], target[1], target[2]);
            }
            if (backend === "webgpu") {
                await frame(device());
            }
        }
        if (backend === "webgpu") {
            expect(impostor.backend).toBe("webgpu");
            await xpbd.readGpuStateAsync();
        }
        return { seen, impostor };
    }

    test("the same events for the same edge as on the CPU: over-stretch while it swings, invalid state when a pin goes NaN", async () => {
        const steps = 60;
        const poison = 40;
        const cpu = await run("cpu", steps, poison);
        const gpu = await run("webgpu", steps, poison);
        const summary = (seen: Seen[]): string => {
            const counts = new Map<string, number>();
            for (const e of seen) {
                const key = e.kind === "overStretch" ? `over-stretch edge ${e.element}` : "invalid state";
                counts.set(key, (counts.get(key) ?? 0) + 1);
            }
            return Array.from(counts, ([key, count]) => `${key} ×${count}`).join(", ");
        };
        const before = (seen: Seen[], kind: Seen["kind"]): Seen[] => seen.filter((e) => e.kind === kind && e.step < poison);
        const invalid = (seen: Seen[]): Seen[] => seen.filter((e) => e.kind === "invalidState");
        console.log(`CPU: ${summary(cpu.seen)}\nGPU: ${summary(gpu.seen)}`);
        console.log(
            `invalid state after steps: CPU ${invalid(cpu.seen).map((e) => e.step)}, GPU ${invalid(gpu.seen).map((e) => e.step)}; ` +
                `largest ratio before: CPU ${Math.max(...before(cpu.seen, "overStretch").map((e) => e.value))}, ` +
                `GPU ${Math.max(...before(gpu.seen, "overStretch").map((e) => e.value))}`,
        );
        // Over-stretch: the GPU reports at most one step in FIGURES_INTERVAL, and names the same edges as the CPU.
        const cpuOver = before(cpu.seen, "overStretch");
        const gpuOver = before(gpu.seen, "overStretch");
        expect(cpuOver.length).toBeGreaterThan(10);
        expect(gpuOver.length).toBeGreaterThanOrEqual(Math.floor(cpuOver.length / FIGURES_INTERVAL) - 2);
        expect(gpuOver.length).toBeLessThanOrEqual(Math.ceil(cpuOver.length / FIGURES_INTERVAL) + 2);
        const cpuEdges = new Set(cpuOver.map((e) => e.element));
        for (const e of gpuOver) {
            expect(cpuEdges.has(e.element)).toBe(true);
            expect(e.value).toBeGreaterThan(1.03);
        }
        // Invalid state: reported by both, once the pin's NaN reached the state, and contained: the cloth is finite,
        // at its pin and moving again by the end.
        expect(invalid(cpu.seen).length).toBeGreaterThanOrEqual(1);
        expect(invalid(gpu.seen).length).toBeGreaterThanOrEqual(1);
        expect(invalid(cpu.seen)[0].step).toBe(poison);
        // The GPU's figures of the poisoned step are read within FIGURES_INTERVAL steps, and arrive a frame later.
        expect(invalid(gpu.seen)[0].step).toBeGreaterThanOrEqual(poison);
        expect(invalid(gpu.seen)[0].step).toBeLessThanOrEqual(poison + FIGURES_INTERVAL + 1);
        for (const { impostor } of [cpu, gpu]) {
            expect(impostor.body.positions.every(Number.isFinite)).toBe(true);
            expect(impostor.body.stats.kineticEnergy).toBeGreaterThan(0);
        }
    }, 300_000);
});
