import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";

/** What the adapter probe found: the adapter's name, or why there is none. */
export interface AdapterProbe {
    /** Whether Dawn found an adapter. */
    available: boolean;
    /** The adapter's architecture (e.g. "swiftshader"), or the reason there is none. */
    detail: string;
}

let probe: AdapterProbe | null = null;

/**
 * Whether Dawn finds a WebGPU adapter here, asked once per test file in a child process (synchronously, so the
 * answer is known while the tests are declared). Vulkan goes to SwiftShader (see `vulkanSetup.ts`).
 */
export function probeAdapter(): AdapterProbe {
    if (probe) {
        return probe;
    }
    let output: string;
    try {
        output = execFileSync(process.execPath, [join(__dirname, "probeAdapter.mjs")], {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
            timeout: 60_000,
        });
    } catch (error) {
        output = `no adapter: the probe failed (${error instanceof Error ? error.message : String(error)})`;
    }
    const last = output.trim().split("\n").pop() ?? "";
    probe = last.startsWith("adapter ")
        ? { available: true, detail: last.slice("adapter ".length) }
        : { available: false, detail: last || "no adapter: the probe printed nothing" };
    return probe;
}

/**
 * `describe` for tests that need a WebGPU device: the block gets the device (created before its tests, destroyed
 * after them) through `device()`. Without an adapter the block is skipped with the reason printed, except under CI
 * (`CI` set), where a missing adapter is a broken machine: the block runs and fails on the reason.
 */
export function describeGpu(name: string, body: (device: () => GPUDevice) => void): void {
    const found = probeAdapter();
    if (!found.available && process.env.CI) {
        describe(name, () => {
            test("a WebGPU adapter exists (required under CI)", () => {
                throw new Error(`${found.detail} (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? "unset"})`);
            });
        });
        return;
    }
    if (!found.available) {
        console.warn(`skipping "${name}": ${found.detail}. Install libvulkan1 and chromium (SwiftShader) to run it.`);
    }
    (found.available ? describe : describe.skip)(name, () => {
        let device: GPUDevice | null = null;
        beforeAll(async () => {
            device = await createTestDevice();
        });
        afterAll(() => device?.destroy());
        body(() => {
            if (!device) {
                throw new Error("the test device is not created yet");
            }
            return device;
        });
    });
}

/** Dawn's entry points, loaded from the `webgpu` package's native module (jest cannot load the package's ES module). */
interface Dawn {
    create(flags: string[]): GPU;
    globals: Record<string, unknown>;
}

/**
 * Dawn's instance, kept for the life of the process: when the garbage collector frees it under a live device,
 * Dawn's threads crash the process (seen as an abort or a segmentation fault at random points of a test run).
 */
let instance: GPU | null = null;

/**
 * A fresh device on Dawn's adapter with `features` (those the adapter has; the caller destroys it). Throws when there
 * is no adapter.
 */
export async function createTestDevice(features: readonly GPUFeatureName[] = []): Promise<GPUDevice> {
    if (!instance) {
        const platform = process.platform === "darwin" ? "darwin-universal" : `${process.platform}-${process.arch}`;
        const dawn = createRequire(__filename)(`webgpu/dist/${platform}/dawn.node`) as Dawn;
        instance = dawn.create([]);
    }
    const adapter = await instance.requestAdapter();
    if (!adapter) {
        throw new Error("no WebGPU adapter");
    }
    const device = await adapter.requestDevice({ requiredFeatures: features.filter((f) => adapter.features.has(f)) });
    device.addEventListener("uncapturederror", (event) => {
        console.error(`WebGPU error: ${(event as GPUUncapturedErrorEvent).error.message}`);
    });
    return device;
}
