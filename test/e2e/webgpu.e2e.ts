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

/**
 * The playground on Babylon's WebGPUEngine (`?engine=webgpu`), in Chromium on SwiftShader: every demo runs there, on
 * the WebGPU backend where its impostors allow it (the others fall back to the CPU with a warning) and with
 * `&backend=cpu` on the CPU, drawing a non-blank frame with no console error.
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
            const demo = await openDemo(browser, "hanging-cloth", backend === "auto" ? "engine=webgpu" : "engine=webgpu&backend=cpu");
            ids = await demo.page.evaluate(() => window.__playground.demos.map((d) => d.id));
            expect(await demo.page.evaluate(() => window.__playground.engine.isWebGPU)).toBe(true);
            const rows: string[] = [];
            for (const id of ids) {
                await show(demo, id);
                const row = (await figures(demo)).backend;
                const pixels = await canvasPixelStats(demo.page, "#render-canvas", true);
                rows.push(`${id}: ${row}; ${pixels.distinctColours} colours`);
                if (backend === "cpu") {
                    expect(row).toBe("cpu");
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

    test("the hanging cloth runs on the GPU: it falls onto the sphere, and the render mesh follows without CPU solver steps", async () => {
        const demo = await openDemo(browser, "hanging-cloth", "engine=webgpu");
        await waitForFrames(demo.page, 10);
        const read = (): Promise<{ backend: string; inWorld: boolean; lowest: number }> =>
            demo.page.evaluate(() => {
                const xpbd = window.__playground.demo!.handle.xpbd;
                const impostor = xpbd.impostors[0];
                const positions = impostor.mesh.getVerticesData("position")!;
                const world = impostor.mesh.getWorldMatrix();
                let lowest = Infinity;
                for (let i = 1; i < positions.length; i += 3) {
                    // Render positions are in the mesh's frame; its world matrix is a translation here.
                    lowest = Math.min(lowest, positions[i] + world.m[13]);
                }
                return { backend: impostor.backend, inWorld: xpbd.world.bodies.includes(impostor.body), lowest };
            });
        const before = await read();
        await waitForFrames(demo.page, 40);
        const after = await read();
        await saveScreenshot(demo.page, "webgpu-hanging-cloth");
        console.log(`hanging cloth on the GPU: lowest render vertex ${before.lowest.toFixed(3)} → ${after.lowest.toFixed(3)} m`);
        expect(after.backend).toBe("webgpu");
        expect(after.inWorld).toBe(false);
        // The cloth drapes: its lowest vertex moved down by more than 5 cm in 40 frames.
        expect(after.lowest).toBeLessThan(before.lowest - 0.05);
        expect(demo.errors).toEqual([]);
        await demo.page.context().close();
    });
});
