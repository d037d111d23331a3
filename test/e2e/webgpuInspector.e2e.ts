/**
 * The Inspector's soft-body panes on the WebGPU backend, in real Chromium on SwiftShader: the playground's
 * `?engine=webgpu#hanging-cloth`, whose cloth runs on the GPU and is drawn from GPU buffers. Its figures and heatmaps
 * come from the GPU's figures reduction (read back every 3 steps): the Statistics section must show them live, and
 * the residual heatmap must colour the cloth by them and follow them. The tests run in order on one page.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Browser, Locator, Page } from "playwright-core";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { canvasPixelStats, launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

const PANE = "[data-xpbd-pane]";

/** The property line (label + control) whose label is exactly `label`, inside `root`. */
function propertyLine(root: Locator, label: string, control: string): Locator {
    return root.locator(`xpath=.//span[normalize-space(text())="${label}"]/ancestor::div[.//${control}][1]`);
}

/** The numbers the Statistics section shows for `labels`, and the plugin's own figures of the same lines. */
function statsShown(page: Page, labels: string[]): Promise<{ shown: Record<string, number>; plugin: Record<string, number> }> {
    return page.evaluate((wanted) => {
        const title = Array.from(document.querySelectorAll("*")).find(
            (element) => element.childElementCount === 0 && element.textContent?.trim() === "Soft bodies (XPBD)",
        );
        let section: Element | null | undefined = title;
        while (section && !wanted.every((label) => section!.textContent?.includes(label))) section = section.parentElement;
        const shown: Record<string, number> = {};
        for (const label of wanted) {
            const span = Array.from(section?.querySelectorAll("span") ?? []).find((element) => element.textContent?.trim() === label);
            let line: HTMLElement | null | undefined = span?.parentElement;
            while (line && line.textContent?.trim() === label) line = line.parentElement;
            shown[label] = Number.parseFloat((line?.textContent ?? "").replace(label, "").replace(/,/g, "").trim());
        }
        const s = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd.stats;
        return {
            shown,
            plugin: {
                particles: s.particles,
                kineticEnergy: s.kineticEnergy,
                maxBendResidual: s.maxBendResidual,
                maxEdgeRatio: s.maxEdgeRatio,
            },
        };
    }, labels);
}

/** After the next render: how far the cloth's overlay colours are from the colours of its `kind` residuals, and those. */
function heatmapCheck(
    page: Page,
    kind: "stretch" | "bend",
): Promise<{ worst: number; nonZero: number; vertices: number; colors: number[]; mode: string }> {
    return page.evaluate(
        (which) =>
            new Promise((resolve) => {
                // After a render nothing asynchronous ran since the overlay recoloured (after the step, before the render).
                const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
                xpbd.scene.onAfterRenderObservable.addOnce(() => {
                    const cloth = xpbd.impostors[0] as unknown as {
                        mesh: Mesh;
                        body: Record<string, Float32Array>;
                        vertexToParticle: Int32Array;
                    };
                    const mesh = cloth.mesh;
                    const state = (mesh.material?.metadata as { xpbdOverlay: { mode: string; kind: string; scale: number } }).xpbdOverlay;
                    const colors = mesh.getVerticesData("color")!;
                    const residual = cloth.body[which === "stretch" ? "stretchResidual" : "bendResidual"];
                    let worst = state.kind === which ? 0 : Infinity;
                    let nonZero = 0;
                    for (let v = 0; v < cloth.vertexToParticle.length; v++) {
                        const value = residual[cloth.vertexToParticle[v]];
                        const t = Math.min(1, Math.max(0, value / state.scale));
                        if (value > 0) nonZero++;
                        worst = Math.max(
                            worst,
                            Math.abs(colors[4 * v] - t),
                            Math.abs(colors[4 * v + 1] - 4 * t * (1 - t)),
                            Math.abs(colors[4 * v + 2] - (1 - t)),
                        );
                    }
                    resolve({ worst, nonZero, vertices: cloth.vertexToParticle.length, colors: Array.from(colors), mode: state.mode });
                });
            }),
        kind,
    ) as Promise<{ worst: number; nonZero: number; vertices: number; colors: number[]; mode: string }>;
}

describe("Inspector panes on the WebGPU backend (?engine=webgpu#hanging-cloth)", () => {
    let browser: Browser;
    let demo: DemoPage;
    let page: Page;
    let pane: Locator;

    beforeAll(async () => {
        browser = await launchBrowser({ webgpu: true });
        demo = await openDemo(browser, "hanging-cloth", "engine=webgpu");
        page = demo.page;
        pane = page.locator(PANE);
        await page.waitForFunction(() => window.__playground.demo?.handle.xpbd.impostors[0].backend === "webgpu", undefined, {
            timeout: 60_000,
        });
        await page.click("#inspector-button");
        await pane.waitFor({ timeout: 110_000 });
    }, 240_000);

    afterAll(async () => {
        await browser?.close();
    });

    test("the residual heatmap colours the GPU-drawn cloth by the GPU's residuals and follows them", async () => {
        await pane.getByRole("button", { name: "cloth (cloth)" }).click();
        await propertyLine(pane, "Show heatmap", "input").locator("input").click();
        await pane.getByText("Current max").waitFor();
        await waitForFrames(page, 6);
        const canvas = page.locator("#render-canvas");
        const stretch = await heatmapCheck(page, "stretch");
        const firstPicture = await canvas.screenshot();
        await waitForFrames(page, 12);
        const later = await heatmapCheck(page, "stretch");
        const secondPicture = await canvas.screenshot();
        await propertyLine(pane, "Residual", "button").getByRole("combobox").click();
        await page.getByRole("option", { name: "Bend angle error" }).click();
        await waitForFrames(page, 6);
        const bend = await heatmapCheck(page, "bend");
        const pixels = await canvasPixelStats(page, "#render-canvas", true);
        await saveScreenshot(page, "webgpu-inspector-heatmap");
        let recoloured = 0;
        for (let k = 0; k < stretch.colors.length; k++) recoloured = Math.max(recoloured, Math.abs(stretch.colors[k] - later.colors[k]));
        const changed = firstPicture.equals(secondPicture) ? 0 : 1;
        console.log(
            `heatmap on the GPU backend: stretch ${stretch.nonZero}/${stretch.vertices} non-zero, colour error ${stretch.worst}; ` +
                `12 frames later the colours moved by up to ${recoloured.toFixed(3)}; bend ${bend.nonZero} non-zero, error ${bend.worst}; ` +
                `${pixels.distinctColours} colours on the canvas`,
        );
        for (const check of [stretch, later, bend]) {
            expect(check.mode).toBe("residual");
            expect(check.nonZero).toBeGreaterThan(check.vertices / 2);
            expect(check.worst).toBeLessThan(1e-5);
        }
        // It follows the cloth: the colours of the residuals read back later differ, and so does the picture.
        expect(recoloured).toBeGreaterThan(0.01);
        expect(changed).toBe(1);
        expect(pixels.distinctColours).toBeGreaterThan(20);
        expect(pixels.nonBackgroundFraction).toBeGreaterThan(0.2);
    });

    test("Show contacts on the GPU cloth draws none (the GPU keeps no contact list) and throws nothing", async () => {
        await propertyLine(pane, "Show contacts", "input").locator("input").click();
        await pane.locator("[data-xpbd-contacts-legend]").waitFor();
        await waitForFrames(page, 5);
        const view = await page.evaluate(() => {
            const lines = window.__playground.scene!.meshes.filter((mesh) => mesh.name === "cloth (xpbd contacts)");
            const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
            return {
                meshes: lines.length,
                counts: lines[0] ? { ...(lines[0].metadata as { xpbdContacts: Record<string, number> }).xpbdContacts } : null,
                backend: xpbd.impostors[0].backend,
                contacts: xpbd.impostors[0].body.stats.contacts,
            };
        });
        console.log(`contacts view on the GPU backend: ${JSON.stringify(view)}`);
        expect(view).toEqual({ meshes: 1, counts: { collider: 0, soft: 0, self: 0 }, backend: "webgpu", contacts: 0 });
        await propertyLine(pane, "Show contacts", "input").locator("input").click();
        await waitForFrames(page, 2);
        expect(demo.errors).toEqual([]);
    });

    test("the Statistics section shows the GPU body's figures, live: energy, edge ratio and bend residual", async () => {
        await page.locator('button[name="selectedTab"][value="Statistics"]').click();
        await page.getByText("Soft bodies (XPBD)").waitFor();
        const labels = ["Particles", "Kinetic energy", "Max edge ratio", "Max bend residual"];
        await page.waitForTimeout(600);
        const first = await statsShown(page, labels);
        await waitForFrames(page, 20);
        await page.waitForTimeout(600);
        const second = await statsShown(page, labels);
        console.log(`Statistics on the GPU backend: ${JSON.stringify(first)} then ${JSON.stringify(second)}`);
        const backend = await page.evaluate(() => window.__playground.demo?.handle.xpbd.impostors[0].backend);
        expect(backend).toBe("webgpu");
        expect(second.shown["Particles"]).toBe(second.plugin.particles);
        // The cloth swings onto the sphere: it moves, stretches a little, bends; the figures change from poll to poll.
        for (const shown of [first.shown, second.shown]) {
            expect(shown["Kinetic energy"]).toBeGreaterThan(0);
            expect(shown["Max edge ratio"]).toBeGreaterThan(0.99);
            expect(shown["Max edge ratio"]).toBeLessThan(1.5);
            expect(shown["Max bend residual"]).toBeGreaterThan(0);
            expect(shown["Max bend residual"]).toBeLessThan(Math.PI);
        }
        expect(second.shown["Kinetic energy"]).not.toBe(first.shown["Kinetic energy"]);
        expect(second.shown["Max bend residual"]).not.toBe(first.shown["Max bend residual"]);
        await saveScreenshot(page, "webgpu-inspector-stats");
    });

    test("reports no console errors", () => {
        expect(demo.errors).toEqual([]);
    });
});
