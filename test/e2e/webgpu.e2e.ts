import type { Browser } from "playwright-core";
import { canvasPixelStats, launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

/** The figures panel as label → value. */
function figures(demo: DemoPage): Promise<Record<string, string>> {
    return demo.page.evaluate(() => {
        const cells = Array.from(document.querySelectorAll("#figures span")).map((span) => span.textContent ?? "");
        const out: Record<string, string> = {};
        for (let i = 0; i + 1 < cells.length; i += 2) out[cells[i]] = cells[i + 1];
        return out;
    });
}

/**
 * The fraction of the canvas's pixels whose colour changed by more than 8 levels in a channel between two screenshots
 * (PNG buffers of the canvas).
 */
function changedPixels(demo: DemoPage, before: Buffer, after: Buffer): Promise<number> {
    const urls = [before, after].map((png) => `data:image/png;base64,${png.toString("base64")}`);
    return demo.page.evaluate(async (sources) => {
        const pixels = await Promise.all(
            sources.map(async (url) => {
                const picture = new Image();
                picture.src = url;
                await picture.decode();
                const canvas = document.createElement("canvas");
                [canvas.width, canvas.height] = [picture.naturalWidth, picture.naturalHeight];
                const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
                ctx.drawImage(picture, 0, 0);
                return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
            }),
        );
        let changed = 0;
        for (let i = 0; i < pixels[0].length; i += 4) {
            const d = Math.max(...[0, 1, 2].map((k) => Math.abs(pixels[0][i + k] - pixels[1][i + k])));
            if (d > 8) changed++;
        }
        return changed / (pixels[0].length / 4);
    }, urls);
}

/** Switches the open page to `#id` (the engine stays) and waits for a few frames of it. */
async function show(demo: DemoPage, id: string): Promise<void> {
    await demo.page.evaluate((hash) => {
        location.hash = hash;
    }, id);
    await demo.page.waitForFunction((hash) => window.__playground.demo?.id === hash, id);
    await demo.page.evaluate(() => window.__playground.ready);
    await waitForFrames(demo.page, 5);
    // The figures panel refreshes every 250 ms.
    await demo.page.waitForTimeout(300);
}

/** What {@link drawingReader} reports about the open demo's first impostor. */
interface DrawingState {
    /** Its `backend`. */
    backend: string;
    /** Whether its body is in the CPU world. */
    inWorld: boolean;
    /** The lowest render vertex (m, world), as drawn. */
    lowest: number;
    /** Whether its position vertex buffer has a CPU copy (false when it is drawn from a GPU buffer). */
    cpuData: boolean;
    /** Whether the WebGPU backend draws it from GPU buffers. */
    drawn: boolean;
    /** State read-backs of the WebGPU backend so far (all bodies). */
    reads: number;
    /** Plugin steps since {@link drawingReader}'s `countSteps`. */
    steps: number;
}

/**
 * Reads how the open demo's first impostor is drawn (call it to read; `countSteps` first starts counting the
 * plugin's steps in the page). The lowest vertex comes from the render positions the kernel wrote (read back here by
 * the test only) or from the CPU's, through the mesh's world matrix.
 */
function drawingReader(demo: DemoPage): (() => Promise<DrawingState>) & { countSteps(): Promise<void> } {
    const read = (): Promise<DrawingState> =>
        demo.page.evaluate(async () => {
            type GpuBackendView = {
                stateReadCount: number;
                drawnMesh(impostor: unknown): { positions: { read(): Promise<ArrayBufferView> } } | null;
            };
            const xpbd = window.__playground.demo!.handle.xpbd;
            const impostor = xpbd.impostors[0];
            const gpu = (xpbd as unknown as { _gpu: GpuBackendView })._gpu;
            const drawn = gpu.drawnMesh(impostor);
            const world = impostor.mesh.getWorldMatrix().m;
            let lowest = Infinity;
            const bytes = drawn ? await drawn.positions.read() : null;
            const positions = bytes
                ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
                : impostor.mesh.getVerticesData("position")!;
            for (let i = 0; i < positions.length; i += 3) {
                lowest = Math.min(lowest, world[1] * positions[i] + world[5] * positions[i + 1] + world[9] * positions[i + 2] + world[13]);
            }
            return {
                backend: impostor.backend,
                inWorld: xpbd.world.bodies.includes(impostor.body),
                lowest,
                // A vertex buffer over a GPU buffer has no CPU copy of its data.
                cpuData: impostor.mesh.getVertexBuffer("position")?.getData() != null,
                drawn: drawn !== null,
                reads: gpu.stateReadCount,
                steps: (window as unknown as { __steps: number }).__steps,
            };
        });
    return Object.assign(read, {
        countSteps: () =>
            demo.page.evaluate(() => {
                const counter = window as unknown as { __steps: number };
                counter.__steps = 0;
                window.__playground.demo!.handle.xpbd.onAfterStepObservable.add(() => counter.__steps++);
            }),
    });
}

/**
 * The demos whose impostors all run on the GPU from their first steps: features the GPU has (self-collision for the
 * cape and the fold, tearing for the banner), impostors out of each other's reach (the Inspector showcase's trampoline
 * and jelly) or stepped together on the GPU when within it (the hammock's jelly and cloth), dynamic bodies resting on
 * two at once moved once by the two stepped together (the stress test's boxes, the cushions' crate), ropes tied to
 * dynamic bodies with the read-back frames late (the rope bridge's planks).
 */
const ALL_ON_GPU = [
    "hanging-cloth",
    "flag",
    "cape",
    "jelly",
    "inspector",
    "fold",
    "tear",
    "hammock",
    "big-cloth",
    "stress",
    "cushions",
    "rope-bridge",
];

/**
 * The playground on Babylon's WebGPUEngine (`?engine=webgpu`), in Chromium on SwiftShader: every demo runs there, on
 * the WebGPU backend where its impostors allow it (the others fall back to the CPU with a warning) and with
 * `&backend=cpu` on the CPU, drawing a non-blank frame with no console error. `&cloth=24` makes `#big-cloth` 24×24
 * (SwiftShader takes seconds for a step of its 256² cloth); the other demos do not read it.
 */
describe("playground on WebGPU", () => {
    let browser: Browser;
    let ids: string[];

    beforeAll(async () => {
        browser = await launchBrowser({ webgpu: true });
    });
    afterAll(() => browser?.close());

    for (const backend of ["auto", "cpu"]) {
        test(`every demo runs on WebGPUEngine with the ${backend === "auto" ? "WebGPU" : "CPU"} backend`, async () => {
            const demo = await openDemo(browser, "hanging-cloth", `engine=webgpu&cloth=24${backend === "auto" ? "" : "&backend=cpu"}`);
            ids = await demo.page.evaluate(() => window.__playground.demos.map((d) => d.id));
            expect(await demo.page.evaluate(() => window.__playground.engine.isWebGPU)).toBe(true);
            const rows: string[] = [];
            for (const id of ids) {
                await show(demo, id);
                if (backend === "auto" && ALL_ON_GPU.includes(id)) {
                    // An impostor starts on the CPU until its GPU solver is built (a tearing cloth's from its first
                    // figures read); the panel refreshes every 250 ms. Ten seconds is many frames on SwiftShader.
                    await demo.page
                        .waitForFunction(
                            () => {
                                const cells = Array.from(document.querySelectorAll("#figures span")).map((span) => span.textContent ?? "");
                                const row = cells[cells.indexOf("backend") + 1] ?? "";
                                return /^webgpu \((\d+) of \1 on the GPU\)$/.test(row);
                            },
                            undefined,
                            { timeout: 10_000 },
                        )
                        .catch(() => undefined);
                }
                const shown = await figures(demo);
                const row = shown.backend;
                const lag = shown["GPU read-back lag (steps)"];
                const pixels = await canvasPixelStats(demo.page, "#render-canvas", true);
                rows.push(`${id}: ${row}; read-back lag ${lag}; ${pixels.distinctColours} colours`);
                // The lag of the GPU's impulses on Havok bodies: a whole number of steps on WebGPU, no row on the CPU.
                expect(lag ?? "").toMatch(backend === "cpu" ? /^$/ : /^\d+$/);
                if (backend === "cpu") {
                    expect(row).toBe("cpu");
                } else if (ALL_ON_GPU.includes(id)) {
                    expect(row).toMatch(/^webgpu \((\d+) of \1 on the GPU\)$/);
                } else {
                    expect(row).toMatch(/^webgpu \(\d+ of \d+ on the GPU\)$/);
                }
                expect(pixels.distinctColours).toBeGreaterThan(20);
                expect(pixels.nonBackgroundFraction).toBeGreaterThan(0.2);
            }
            console.log(`backend ${backend}:\n${rows.join("\n")}`);
            expect(demo.errors).toEqual([]);
            await demo.page.context().close();
        }, 600_000);
    }

    test("the hanging cloth runs on the GPU and is drawn from GPU buffers: it falls onto the sphere, with no read-back per frame", async () => {
        const demo = await openDemo(browser, "hanging-cloth", "engine=webgpu");
        await waitForFrames(demo.page, 10);
        const read = drawingReader(demo);
        await read.countSteps();
        const canvas = demo.page.locator("#render-canvas");
        const before = await read();
        const firstPicture = await canvas.screenshot();
        await waitForFrames(demo.page, 40);
        const after = await read();
        const secondPicture = await canvas.screenshot();
        const changed = await changedPixels(demo, firstPicture, secondPicture);
        const pixels = await canvasPixelStats(demo.page, "#render-canvas", true);
        await saveScreenshot(demo.page, "webgpu-hanging-cloth");
        const steps = after.steps - before.steps;
        const reads = after.reads - before.reads;
        console.log(
            `hanging cloth drawn from GPU buffers: lowest render vertex ${before.lowest.toFixed(3)} → ${after.lowest.toFixed(3)} m; ` +
                `${reads} state read-backs in ${steps} steps; ${(100 * changed).toFixed(1)}% of the pixels changed`,
        );
        expect(after.backend).toBe("webgpu");
        expect(after.inWorld).toBe(false);
        expect(after.drawn).toBe(true);
        expect(after.cpuData).toBe(false);
        // The cloth drapes: its lowest vertex, as drawn, moved down by more than 5 cm in 40 frames.
        expect(after.lowest).toBeLessThan(before.lowest - 0.05);
        // The picture moves with it (only the cloth moves in this scene) and is not blank.
        expect(changed).toBeGreaterThan(0.002);
        expect(pixels.nonBackgroundFraction).toBeGreaterThan(0.2);
        // State read-backs only every DRAWN_READ_INTERVAL (6) steps, for the figures and the bounds: not one per frame.
        expect(steps).toBeGreaterThanOrEqual(40);
        expect(reads).toBeLessThanOrEqual(Math.ceil(steps / 6) + 1);

        // A feature the GPU lacks (level of detail: a body held asleep) sends the cloth to the CPU: ordinary vertex buffers again, drawn from
        // where the GPU left it; without it the cloth goes back to the GPU and to GPU buffers.
        const holdAsleep = (on: boolean): Promise<void> =>
            demo.page.evaluate((value) => void (window.__playground.demo!.handle.xpbd.impostors[0].body.holdAsleep = value), on);
        await holdAsleep(true);
        await waitForFrames(demo.page, 3);
        const onCpu = await read();
        await holdAsleep(false);
        await waitForFrames(demo.page, 3);
        const back = await read();
        console.log(`on the CPU: lowest vertex ${onCpu.lowest.toFixed(3)} m; back on the GPU: ${back.lowest.toFixed(3)} m`);
        expect(onCpu).toMatchObject({ backend: "cpu", inWorld: true, drawn: false, cpuData: true });
        // It carries on from the state read back last (at most 6 steps old): close to where it was drawn.
        expect(Math.abs(onCpu.lowest - after.lowest)).toBeLessThan(0.2);
        expect(back).toMatchObject({ backend: "webgpu", inWorld: false, drawn: true, cpuData: false });
        expect(Math.abs(back.lowest - onCpu.lowest)).toBeLessThan(0.2);
        expect(demo.errors).toEqual([]);
        await demo.page.context().close();
    });
    test("#stress and #cushions keep every impostor on the GPU through their landings: a body resting on two steps them together", async () => {
        for (const id of ["stress", "cushions"]) {
            const demo = await openDemo(browser, id, "engine=webgpu");
            // Every impostor runs on the CPU until the page's kernels are compiled (seconds on SwiftShader on a cold
            // page): count the frames from then. Read at 5, 30 and 60 frames (their crates and boxes land by 30).
            await demo.page.evaluate(() => window.__playground.demo!.handle.xpbd.whenBackendReadyAsync());
            const rows: string[] = [];
            for (const frames of [5, 25, 30]) {
                await waitForFrames(demo.page, frames);
                const backends = await demo.page.evaluate(() => window.__playground.demo!.handle.xpbd.impostors.map((i) => i.backend));
                rows.push(`${backends.filter((b) => b === "webgpu").length} of ${backends.length}`);
                expect(backends.length).toBeGreaterThan(0);
                expect(backends.every((b) => b === "webgpu")).toBe(true);
            }
            console.log(`#${id} on the GPU at 5, 30, 60 frames: ${rows.join(", ")}`);
            expect(demo.errors).toEqual([]);
            await demo.page.context().close();
        }
    }, 600_000);

    // The demo's two models: tetrahedra, and the lattice's surface held by shape matching (its render vertices tied
    // to surface triangles).
    test.each(["tetrahedra", "surface + shape matching"])(
        "the jelly (%s) runs on the GPU and is drawn from GPU buffers: it falls onto the slope, with no read-back per frame",
        async (model) => {
            const demo = await openDemo(browser, "jelly", "engine=webgpu");
            if (model !== "tetrahedra") {
                // The switch drops a jelly of that model from the start.
                await demo.page.selectOption('#demo-controls select[data-param="model"]', model);
            }
            await waitForFrames(demo.page, 10);
            const read = drawingReader(demo);
            await read.countSteps();
            const before = await read();
            await waitForFrames(demo.page, 40);
            const after = await read();
            const pixels = await canvasPixelStats(demo.page, "#render-canvas", true);
            await saveScreenshot(demo.page, model === "tetrahedra" ? "webgpu-jelly" : "webgpu-jelly-surface");
            const steps = after.steps - before.steps;
            const reads = after.reads - before.reads;
            console.log(
                `jelly (${model}) drawn from GPU buffers: lowest render vertex ${before.lowest.toFixed(3)} → ${after.lowest.toFixed(3)} m; ` +
                    `${reads} state read-backs in ${steps} steps; ${pixels.distinctColours} colours`,
            );
            expect(after).toMatchObject({ backend: "webgpu", inWorld: false, drawn: true, cpuData: false });
            // Dropped from 2.9 m onto the slope: its lowest vertex, as drawn, came down (it starts in free fall).
            expect(after.lowest).toBeLessThan(before.lowest - 0.05);
            expect(pixels.distinctColours).toBeGreaterThan(20);
            expect(pixels.nonBackgroundFraction).toBeGreaterThan(0.2);
            // State read-backs only every DRAWN_READ_INTERVAL (6) steps, not one per frame.
            expect(steps).toBeGreaterThanOrEqual(40);
            expect(reads).toBeLessThanOrEqual(Math.ceil(steps / 6) + 1);
            expect(demo.errors).toEqual([]);
            await demo.page.context().close();
        },
    );
});
