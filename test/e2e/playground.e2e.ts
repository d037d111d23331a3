import type { Browser } from "playwright-core";
import { launchBrowser, openDemo, waitForFrames, type DemoPage } from "./support/browser";

/** The page around the demos: default demo, URL hash, picker; the demos themselves are in demos.e2e.ts. */
describe("playground page", () => {
    let browser: Browser;
    let demo: DemoPage;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser);
    });
    afterAll(() => browser?.close());

    test("opens #hanging-cloth by default, on WebGL2", async () => {
        const state = await demo.page.evaluate(() => ({
            hash: location.hash,
            demo: window.__playground.demo?.id,
            picker: (document.getElementById("demo-picker") as HTMLSelectElement).value,
            webgl: window.__playground.engine.webGLVersion,
            demos: window.__playground.demos.map((d) => d.id),
        }));
        expect(state).toEqual({
            hash: "#hanging-cloth",
            demo: "hanging-cloth",
            picker: "hanging-cloth",
            webgl: 2,
            demos: expect.arrayContaining(["hanging-cloth", "flag", "cape", "jelly", "two-way", "stress"]),
        });
        expect(state.demos[0]).toBe("hanging-cloth");
    });

    test("the picker switches demos through the URL hash and disposes the previous scene", async () => {
        const first = await demo.page.evaluate(() => window.__playground.scene!.uid);
        await demo.page.selectOption("#demo-picker", "jelly");
        await demo.page.waitForFunction(() => window.__playground.demo?.id === "jelly");
        await waitForFrames(demo.page, 3);
        const state = await demo.page.evaluate(
            (uid) => ({
                hash: location.hash,
                scenes: window.__playground.engine.scenes.length,
                sameScene: window.__playground.scene!.uid === uid,
                controls: Array.from(document.querySelectorAll<HTMLElement>("#demo-controls [data-param]")).map((e) => e.dataset.param),
            }),
            first,
        );
        expect(state.hash).toBe("#jelly");
        expect(state.scenes).toBe(1);
        expect(state.sameScene).toBe(false);
        expect(state.controls).toContain("volume");
    });

    test("an unknown hash shows the default demo", async () => {
        await demo.page.evaluate(() => (location.hash = "#no-such-demo"));
        await demo.page.waitForFunction(() => window.__playground.demo?.id === "hanging-cloth" && location.hash === "#hanging-cloth");
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
