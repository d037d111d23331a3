/**
 * The Inspector's "Tear edges" heatmap in real Chromium, on the playground's #tear banner: chosen in the residual
 * drop-down with the mouse, it shows where a thrown ball tore the banner, red on the particles along the tear, and
 * follows the render mesh as tearing adds vertices.
 */
import type { Browser, Locator, Page } from "playwright-core";
import type { ClothImpostor } from "../../src/babylon/clothImpostor";
import { launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

/** The property line (label + control) whose label is exactly `label`, inside `root`. */
function propertyLine(root: Locator, label: string, control: string): Locator {
    return root.locator(`xpath=.//span[normalize-space(text())="${label}"]/ancestor::div[.//${control}][1]`);
}

/** The banner's overlay colours against its tear map: vertices, red ones, torn particles and the worst mismatch. */
function heatmap(page: Page): Promise<{ kind: string; vertices: number; red: number; split: number; worst: number }> {
    return page.evaluate(() => {
        const cloth = window.__playground.demo!.handle.xpbd.impostors[0] as ClothImpostor;
        const mesh = cloth.mesh;
        const state = (mesh.material?.metadata as { xpbdOverlay: { kind: string } } | undefined)?.xpbdOverlay;
        const colors = mesh.getVerticesData("color") ?? [];
        const torn = cloth.body.tearing!.torn;
        let red = 0;
        let worst = 0;
        for (let v = 0; v < cloth.vertexToParticle.length; v++) {
            const t = torn[cloth.vertexToParticle[v]];
            red += colors[4 * v] === 1 ? 1 : 0;
            worst = Math.max(worst, Math.abs(colors[4 * v] - t), Math.abs(colors[4 * v + 2] - (1 - t)));
        }
        return { kind: state?.kind ?? "none", vertices: mesh.getTotalVertices(), red, split: cloth.body.tearing!.tornParticles, worst };
    });
}

describe("Inspector tear heatmap (#tear)", () => {
    let browser: Browser;
    let demo: DemoPage;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser, "tear");
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(2));
        await demo.page.click("#inspector-button");
        await demo.page.locator("[data-xpbd-pane]").waitFor({ timeout: 110_000 });
    }, 180_000);
    afterAll(() => browser?.close());

    test("shows where a thrown ball tore the banner, red along the tear", async () => {
        const page = demo.page;
        const pane = page.locator("[data-xpbd-pane]");
        await pane.getByRole("button", { name: "banner (cloth)" }).click();
        await propertyLine(pane, "Residual", "button").getByRole("combobox").click();
        await page.getByRole("option", { name: "Tear edges" }).click();
        await propertyLine(pane, "Show heatmap", "input").locator("input").click();
        await waitForFrames(page, 3);
        const before = await heatmap(page);
        expect(before.kind).toBe("tear");
        expect(before.red).toBe(0);

        await page.click('#demo-controls button:text-is("Throw ball")');
        let after = before;
        for (let frames = 0; frames < 150 && after.split === 0; frames += 10) {
            await waitForFrames(page, 10);
            after = await heatmap(page);
        }
        await waitForFrames(page, 3);
        after = await heatmap(page);
        console.log(`#tear heatmap: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
        await saveScreenshot(page, "inspector-tear-heatmap");
        expect(after.split).toBeGreaterThan(0);
        // Every vertex coloured by its particle's tear mark, the added ones too; both sides of each split are red (a
        // particle split twice counts once, so more red vertices than splits, not twice as many).
        expect(after.vertices).toBe(before.vertices + after.split);
        expect(after.worst).toBe(0);
        expect(after.red).toBeGreaterThan(after.split);
        expect(demo.errors).toEqual([]);
    });
});
