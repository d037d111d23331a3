// The benchmark cloths (benchmarkCloth.mjs: n × n quads, 1 m, 1 kg, two corners pinned) on the WebGPU solver in Node
// (Dawn, the `webgpu` package), 5 substeps: GPU milliseconds per step from timestamp queries, and the wall time per
// step of submitting and waiting. Without a GPU, Dawn runs on SwiftShader, the CPU's Vulkan: then both figures are
// CPU times and say nothing of a GPU's speed. Run `npm run bench:gpu`; env BENCH_STEPS overrides the step counts.
import { existsSync } from "node:fs";
import { XpbdWorld } from "../dist/core/index.js";
import { GpuSoftBodySolver } from "../dist/gpu/index.js";
import { benchmarkCloth } from "./benchmarkCloth.mjs";

// Dawn reads the Vulkan driver list when its instance is created: SwiftShader's, from Debian's chromium, unless set.
const SWIFTSHADER = "/usr/lib/chromium/vk_swiftshader_icd.json";
if (!process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER)) {
    process.env.VK_ICD_FILENAMES = SWIFTSHADER;
}
const { create, globals } = await import("webgpu");
Object.assign(globalThis, globals);
// Kept for the life of the process: Dawn's threads crash it when the instance is collected under a live device.
const instance = create([]);
const adapter = await instance.requestAdapter();
if (!adapter) {
    console.log("no WebGPU adapter (on Debian: apt-get install -y libvulkan1 chromium, for SwiftShader)");
    process.exit(1);
}
const features = adapter.features.has("timestamp-query") ? ["timestamp-query"] : [];
const device = await adapter.requestDevice({ requiredFeatures: features });
const architecture = adapter.info.architecture || adapter.info.vendor || "unnamed";
const envSteps = Number.parseInt(process.env.BENCH_STEPS ?? "", 10);

for (const [n, defaultSteps] of [
    [32, 60],
    [64, 20],
    [128, 5],
]) {
    const steps = envSteps > 0 ? envSteps : defaultSteps;
    const { body } = benchmarkCloth(n);
    const solver = await GpuSoftBodySolver.create(device, body, new XpbdWorld({ substeps: 5, timing: false }));
    solver.step(1 / 60);
    await solver.readPositions();
    let gpuMs = 0;
    let timed = 0;
    const start = performance.now();
    for (let s = 0; s < steps; s++) {
        solver.step(1 / 60);
        // One step at a time, so that each step's timestamps are read (the solver keeps one read in flight).
        await device.queue.onSubmittedWorkDone();
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (Number.isFinite(solver.gpuStepMs)) {
            gpuMs += solver.gpuStepMs;
            timed++;
        }
    }
    const wallMs = (performance.now() - start) / steps;
    solver.dispose();
    const gpu = timed > 0 ? (gpuMs / timed).toFixed(3) : "n/a";
    console.log(
        `scene=cloth${n} solver=babylon-xpbd-webgpu adapter=${architecture} substeps=5 steps=${steps} gpu_ms_per_step=${gpu} wall_ms_per_step=${wallMs.toFixed(3)}`,
    );
}
device.destroy();
// Dawn's threads still hold the instance at exit: leave without tearing it down.
process.exit(0);
