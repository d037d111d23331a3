/**
 * GPU time per step from timestamp queries: measured on a device with the `timestamp-query` feature (SwiftShader has
 * it: these are CPU times there, so only their sanity is checked), NaN without it.
 */
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuContactGroup } from "../../src/gpu/gpuContactGroup";
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

/**
 * Steps two 8² cloths, one 5 cm above the other, `steps` times together in a `GpuContactGroup` on `device`, waits for
 * the GPU, and returns the group's figure, the bodies' own and the run's wall time (ms).
 */
async function timedGroupSteps(device: GPUDevice, steps: number): Promise<{ ms: number; bodies: number[]; wallMs: number }> {
    const world = new XpbdWorld();
    const solvers = await Promise.all(
        [0, 0.05].map((y) => GpuSoftBodySolver.create(device, clothBody(8, { size: 0.5, plane: "xz", origin: [0, y, 0] }).body, world)),
    );
    const group = new GpuContactGroup(solvers);
    try {
        const wall = performance.now();
        for (let s = 0; s < steps; s++) {
            group.step(1 / 60);
        }
        await solvers[0].readPositions();
        const wallMs = performance.now() - wall;
        for (let wait = 0; wait < 100 && Number.isNaN(group.gpuStepMs); wait++) {
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
        console.log(
            `GPU step time of a group of two cloths from timestamps: ${group.gpuStepMs.toFixed(3)} ms (wall ${(wallMs / steps).toFixed(3)} ms per step, SwiftShader)`,
        );
        return { ms: group.gpuStepMs, bodies: solvers.map((solver) => solver.gpuStepMs), wallMs };
    } finally {
        group.dispose();
        solvers.forEach((solver) => solver.dispose());
    }
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

    test("a contact group's step with timestamp-query: a positive GPU time for the group, below the wall time of the run", async () => {
        const timed = await createTestDevice(["timestamp-query"]);
        try {
            const { ms, bodies, wallMs } = await timedGroupSteps(timed, 10);
            expect(ms).toBeGreaterThan(0);
            expect(ms).toBeLessThan(wallMs);
            // The bodies, never stepped alone, have no figure of their own: the group's is the one.
            expect(bodies.every((body) => Number.isNaN(body))).toBe(true);
        } finally {
            timed.destroy();
        }
    }, 120_000);

    test("a contact group's figure is NaN without the feature", async () => {
        expect((await timedGroupSteps(device(), 3)).ms).toBeNaN();
    }, 120_000);
});
