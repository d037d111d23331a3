/**
 * Every playground demo in real headless Chromium (WebGL2 on SwiftShader): it loads without console errors, its
 * soft bodies move and stay finite, settling demos come to rest (kinetic energy from `xpbd.stats`), and the canvas
 * shows a drawn scene. A screenshot of each goes to test-results/screenshots/<demo>.png.
 *
 * The demos step Havok by a fixed 1/60 s per frame, so on this slow GPU they run in slow motion: the waits below
 * count rendered frames (simulated time), bounded by wall-clock timeouts.
 */
import type { Browser } from "playwright-core";
import { canvasPixelStats, launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

interface DemoCase {
    id: string;
    /** Frames to run between the two position samples. */
    frames: number;
    /** For settling demos: the kinetic energy (J) it must fall below, and the most frames it may take. */
    settle?: { energy: number; maxFrames: number };
}

const cases: DemoCase[] = [
    { id: "hanging-cloth", frames: 20, settle: { energy: 1e-3, maxFrames: 420 } },
    { id: "flag", frames: 20 },
    { id: "cape", frames: 20 },
    { id: "jelly", frames: 20, settle: { energy: 1e-2, maxFrames: 420 } },
    { id: "two-way", frames: 20 },
    { id: "stress", frames: 10 },
];

/** Positions of every particle of every impostor of the current demo, concatenated. */
function softPositions(demo: DemoPage): Promise<number[]> {
    return demo.page.evaluate(() => {
        const xpbd = window.__playground.demo?.handle.xpbd;
        if (!xpbd) throw new Error("no demo");
        return xpbd.impostors.flatMap((impostor) => Array.from(impostor.body.positions));
    });
}

/** Renders frames until the soft world's kinetic energy is below `energy`; returns [energy, frames used]. */
async function settle(demo: DemoPage, energy: number, maxFrames: number): Promise<[number, number]> {
    const batch = 30;
    let frames = 0;
    let kinetic = Infinity;
    while (frames < maxFrames) {
        await waitForFrames(demo.page, batch);
        frames += batch;
        kinetic = await demo.page.evaluate(() => window.__playground.demo!.handle.xpbd.stats.kineticEnergy);
        if (kinetic < energy) break;
    }
    return [kinetic, frames];
}

let browser: Browser;
beforeAll(async () => {
    browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe.each(cases)("demo #$id", ({ id, frames, settle: settling }) => {
    let demo: DemoPage;
    let started = 0;

    beforeAll(async () => {
        started = Date.now();
        demo = await openDemo(browser, id);
        // SwiftShader's cost is per pixel: simulate at a quarter of the pixels, draw the checked frame at full size.
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(2));
    });
    afterAll(async () => {
        await demo?.page.context().close();
        console.log(`#${id}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });

    test("loads from its URL hash with the picker, controls and Inspector button", async () => {
        const state = await demo.page.evaluate(() => ({
            hash: location.hash,
            demo: window.__playground.demo?.id,
            picker: (document.getElementById("demo-picker") as HTMLSelectElement).value,
            options: Array.from((document.getElementById("demo-picker") as HTMLSelectElement).options).map((o) => o.value),
            controls: document.querySelectorAll("#demo-controls input, #demo-controls select, #demo-controls button").length,
            inspectorButton: document.getElementById("inspector-button")?.textContent,
            impostors: window.__playground.demo?.handle.xpbd.impostors.length ?? 0,
        }));
        expect(state).toMatchObject({ hash: `#${id}`, demo: id, picker: id, inspectorButton: "Inspector" });
        expect(state.options).toEqual(expect.arrayContaining(["hanging-cloth", "flag", "cape", "jelly", "two-way", "stress"]));
        expect(state.controls).toBeGreaterThan(0);
        expect(state.impostors).toBeGreaterThan(0);
    });

    test("simulates: soft-body positions change and stay finite", async () => {
        const before = await softPositions(demo);
        await waitForFrames(demo.page, frames);
        const after = await softPositions(demo);
        expect(after.length).toBe(before.length);
        expect(after.every(Number.isFinite)).toBe(true);
        let moved = 0;
        for (let i = 0; i < after.length; i++) moved = Math.max(moved, Math.abs(after[i] - before[i]));
        expect(moved).toBeGreaterThan(1e-3);
    });

    if (id === "two-way") {
        test("holds heavy bodies: the 20 kg crates stay above the 0.5 kg net, the 70 kg player above the trampoline", async () => {
            await waitForFrames(demo.page, 240);
            const figures = await demo.page.evaluate(() => window.__playground.demo!.handle.figures());
            console.log(`#two-way after 240 more frames: ${JSON.stringify(figures)}`);
            // Bottoms rest on the particles' 15 mm thickness shell: above the cloth, not far above it.
            expect(figures["crates above net mm"]).toBeGreaterThan(0);
            expect(figures["crates above net mm"]).toBeLessThan(30);
            expect(figures["player above trampoline mm"]).toBeGreaterThan(0);
            expect(figures["player above trampoline mm"]).toBeLessThan(30);
        });
    }

    if (settling) {
        test(`settles: kinetic energy falls below ${settling.energy} J`, async () => {
            const [kinetic, used] = await settle(demo, settling.energy, settling.maxFrames);
            const stats = await demo.page.evaluate(() => {
                const s = window.__playground.demo!.handle.xpbd.stats;
                return {
                    maxEdgeRatio: s.maxEdgeRatio,
                    meanEdgeRatio: s.meanEdgeRatio,
                    contacts: s.contacts,
                    maxContactCorrection: s.maxContactCorrection,
                    stepMs: s.stepMs,
                };
            });
            console.log(`#${id}: kinetic energy ${kinetic.toExponential(2)} J after ${used} frames; ${JSON.stringify(stats)}`);
            expect(kinetic).toBeLessThan(settling.energy);
            expect(Number.isFinite(stats.maxEdgeRatio)).toBe(true);
        });
    }

    test("shows its figures", async () => {
        await demo.page.waitForFunction(() => document.querySelectorAll("#figures > *").length > 0);
        const text = await demo.page.textContent("#figures");
        expect(text).toContain("ms / step");
        expect(text).toContain("kinetic energy J");
        if (id === "hanging-cloth") {
            for (const label of ["max edge ratio", "mean edge ratio", "max contact corr. mm", "contacts"]) expect(text).toContain(label);
        }
    });

    test("draws the scene (screenshot saved)", async () => {
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(1));
        await waitForFrames(demo.page, 2);
        const stats = await canvasPixelStats(demo.page);
        await saveScreenshot(demo.page, id);
        expect(stats.width * stats.height).toBeGreaterThan(0);
        expect(stats.distinctColours).toBeGreaterThan(20);
        expect(stats.nonBackgroundFraction).toBeGreaterThan(0.2);
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
