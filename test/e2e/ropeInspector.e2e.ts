/**
 * The Inspector's soft-body panes on the playground's #rope-bridge demo, in real Chromium: a rope lists, selects and
 * shows its parameters (a Bend slider bound to the solver), without the pin-painting and heatmap sections, which
 * colour render vertices a rope does not have, and nothing logs an error.
 */
import type { Browser, Locator, Page } from "playwright-core";
import type { RopeImpostor } from "../../src/babylon/ropeImpostor";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { launchBrowser, openDemo, waitForFrames, type DemoPage } from "./support/browser";

const PANE = "[data-xpbd-pane]";

describe("Inspector panes with ropes (#rope-bridge)", () => {
    let browser: Browser;
    let demo: DemoPage;
    let page: Page;
    let pane: Locator;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser, "rope-bridge");
        page = demo.page;
        pane = page.locator(PANE);
        await page.click("#inspector-button");
        await pane.waitFor({ timeout: 110_000 });
    }, 180_000);

    afterAll(() => browser?.close());

    test("selecting a rope shows its parameters with a Bend slider, and no pin or heatmap section", async () => {
        await pane.getByRole("button", { name: "near rope (rope)" }).click();
        await pane.getByRole("button", { name: "Soft body parameters", exact: true }).waitFor();
        const bend = pane.locator(`xpath=.//span[normalize-space(text())="Bend"]/ancestor::div[.//input[@type='range']][1]`);
        await bend.waitFor();
        expect(await pane.getByRole("button", { name: "Pin weights", exact: true }).count()).toBe(0);
        expect(await pane.getByRole("button", { name: "Residual heatmap", exact: true }).count()).toBe(0);
        expect(await pane.locator(`xpath=.//span[normalize-space(text())="Volume"]`).count()).toBe(0);
        await waitForFrames(page, 10);
        const state = await page.evaluate(() => {
            const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
            const rope = xpbd.impostors.find((i) => i.mesh.name === "near rope") as RopeImpostor;
            return { bend: rope.bendStiffness, finite: Array.from(rope.body.positions).every(Number.isFinite) };
        });
        expect(state).toEqual({ bend: 0.1, finite: true });
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
