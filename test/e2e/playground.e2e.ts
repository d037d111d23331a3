import type { Browser } from "playwright-core";
import {
    canvasPixelStats,
    dynamicBodyPositions,
    launchBrowser,
    openDemo,
    saveScreenshot,
    waitForFrames,
    type DemoPage,
} from "./support/browser";

describe("playground, default demo", () => {
    let browser: Browser;
    let demo: DemoPage;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser);
    });
    afterAll(() => browser?.close());

    test("opens #hanging-cloth on WebGL2", async () => {
        const state = await demo.page.evaluate(() => ({
            hash: location.hash,
            demo: window.__playground.demo?.id,
            picker: (document.getElementById("demo-picker") as HTMLSelectElement).value,
            webgl: window.__playground.engine.webGLVersion,
        }));
        expect(state).toEqual({ hash: "#hanging-cloth", demo: "hanging-cloth", picker: "hanging-cloth", webgl: 2 });
    });

    test("simulates: dynamic bodies move and stay finite", async () => {
        const before = await dynamicBodyPositions(demo.page);
        expect(before.length).toBeGreaterThan(0);
        await waitForFrames(demo.page, 10);
        const after = await dynamicBodyPositions(demo.page);
        expect(after.flat().every(Number.isFinite)).toBe(true);
        const moved = after.map((p, i) => Math.hypot(p[0] - before[i][0], p[1] - before[i][1], p[2] - before[i][2]));
        expect(Math.max(...moved)).toBeGreaterThan(0.01);
    });

    test("shows figures", async () => {
        await demo.page.waitForFunction(() => document.querySelectorAll("#figures > *").length > 0);
        expect(await demo.page.textContent("#figures")).toContain("dynamic bodies");
    });

    test("draws the scene", async () => {
        const stats = await canvasPixelStats(demo.page);
        await saveScreenshot(demo.page, "hanging-cloth");
        expect(stats.width * stats.height).toBeGreaterThan(0);
        expect(stats.distinctColours).toBeGreaterThan(20);
        expect(stats.nonBackgroundFraction).toBeGreaterThan(0.2);
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
