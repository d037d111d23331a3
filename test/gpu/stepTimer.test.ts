/**
 * GPU time per step from timestamp queries: measured on a device with the `timestamp-query` feature (SwiftShader has
 * it: these are CPU times there, so only their sanity is checked), NaN without it.
 */
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { clothBody } from "../support/coreScenes";
import { createTestDevice, describeGpu } from "./support/gpuDevice";

/** Steps a 16² cloth `steps` times on `device`, waits for the GPU, and returns the solver's figure and the run's wall time (ms). */
async function timedSteps(device: GPUDevice, steps: number): Promise<{ ms: number; wallMs: number }> {
    const { body } = clothBody(16);
    const solver = await GpuSoftBodySolver.create(device, body, new XpbdWorld());
    const wall = performance.now();
    for (let s = 0; s < steps; s++) {
        solver.step(1 / 60);
    }
    // A read-back waits for every submitted step; the timestamps' own read settles soon after.
    await solver.readPositions();
    const wallMs = performance.now() - wall;
    for (let wait = 0; wait < 100 && Number.isNaN(solver.gpuStepMs); wait++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = solver.gpuStepMs;
    solver.dispose();
    console.log(`GPU step time from timestamps: ${ms.toFixed(3)} ms (wall ${(wallMs / steps).toFixed(3)} ms per step, SwiftShader)`);
    return { ms, wallMs };
}

describeGpu("GPU step timer", (device) => {
    test("with timestamp-query: a positive GPU time per step, below the wall time of the whole run", async () => {
        const timed = await createTestDevice(["timestamp-query"]);
        try {
            expect(timed.features.has("timestamp-query")).toBe(true);
            const { ms, wallMs } = await timedSteps(timed, 10);
            expect(ms).toBeGreaterThan(0);
            // One step's pass cannot take longer than the ten steps and the read together.
            expect(ms).toBeLessThan(wallMs);
        } finally {
            timed.destroy();
        }
    }, 120_000);

    test("without the feature the figure is NaN and stepping works", async () => {
        expect(device().features.has("timestamp-query")).toBe(false);
        expect((await timedSteps(device(), 3)).ms).toBeNaN();
    }, 120_000);
});
