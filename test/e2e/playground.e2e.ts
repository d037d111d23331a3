import type { Browser } from "playwright-core";
import { launchBrowser, openDemo, waitForFrames, type DemoPage } from "./support/browser";
import type { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import type { Engine } from "@babylonjs/core/Engines/engine";

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
            webgl: (window.__playground.engine as Engine).webGLVersion,
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

    test("the jelly demo's model switch rebuilds the jelly from its surface alone, held by shape matching", async () => {
        await demo.page.selectOption('#demo-controls select[data-param="model"]', "surface + shape matching");
        await waitForFrames(demo.page, 60);
        const jelly = await demo.page.evaluate(() => {
            const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
            const impostor = xpbd.impostors[0] as SoftBodyImpostor;
            return {
                count: xpbd.impostors.length,
                tetrahedra: impostor.tetrahedra,
                tets: impostor.body.volume.count,
                shapeMatching: impostor.shapeMatching,
                finite: Array.from(impostor.body.positions.subarray(0, 3 * impostor.body.particleCount)).every(Number.isFinite),
            };
        });
        expect(jelly).toEqual({ count: 1, tetrahedra: false, tets: 0, shapeMatching: 0.6, finite: true });
    });

    test("an unknown hash shows the default demo", async () => {
        await demo.page.evaluate(() => (location.hash = "#no-such-demo"));
        await demo.page.waitForFunction(() => window.__playground.demo?.id === "hanging-cloth" && location.hash === "#hanging-cloth");
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
