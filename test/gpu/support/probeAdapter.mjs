// Prints the WebGPU adapter Dawn finds (its architecture, e.g. "swiftshader") or, on the last line, why there is none.
// Run as its own process by gpuDevice.ts: jest cannot load the `webgpu` package (an ES module) itself, and a test
// must know before it is declared whether it will run.
import { create } from "webgpu";

try {
    const adapter = await create([]).requestAdapter();
    console.log(
        adapter ? `adapter ${adapter.info.architecture || adapter.info.vendor || "unnamed"}` : "no adapter: requestAdapter() returned null",
    );
} catch (error) {
    console.log(`no adapter: ${error instanceof Error ? error.message : String(error)}`);
}
