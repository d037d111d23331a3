/**
 * The Inspector's contacts view in real Chromium, on the playground's #hammock (a jelly falling into a cloth hammock):
 * switched on with the mouse for the hammock, it draws a line mesh with the body's contacts of the last step, as many
 * by kind as the solver counts, and switching it off disposes the mesh.
 */
import type { Browser, Locator, Page } from "playwright-core";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import type { ContactCounts } from "../../src/inspector/contactsOverlay";
import { launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

/** The property line (label + control) whose label is exactly `label`, inside `root`. */
function propertyLine(root: Locator, label: string, control: string): Locator {
    return root.locator(`xpath=.//span[normalize-space(text())="${label}"]/ancestor::div[.//${control}][1]`);
}

/** The hammock's contacts view as the scene holds it, beside the solver's own counts, read between two frames. */
function contactsView(page: Page): Promise<{
    meshes: number;
    counts: ContactCounts | null;
    indexCount: number;
    worldCount: number;
    colliderStats: number;
    softStats: number;
}> {
    return page.evaluate(() => {
        const scene = window.__playground.scene!;
        const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
        const cloth = xpbd.impostors.find((impostor) => impostor.kind === "cloth")!;
        const lines = scene.meshes.filter((mesh) => mesh.name === "hammock (xpbd contacts)");
        const mesh = lines[0];
        return {
            meshes: lines.length,
            counts: mesh ? { ...(mesh.metadata as { xpbdContacts: ContactCounts }).xpbdContacts } : null,
            indexCount: mesh ? (mesh.subMeshes[0]?.indexCount ?? -1) : -1,
            worldCount: xpbd.world.contactCount(cloth.body),
            colliderStats: cloth.body.stats.contacts,
            softStats: xpbd.stats.softContacts,
        };
    });
}

describe("Inspector contacts view (#hammock)", () => {
    let browser: Browser;
    let demo: DemoPage;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser, "hammock");
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(2));
        await demo.page.click("#inspector-button");
        await demo.page.locator("[data-xpbd-pane]").waitFor({ timeout: 110_000 });
    }, 180_000);
    afterAll(() => browser?.close());

    test("Show contacts draws the hammock's contacts, as many by kind as the solver counts; off disposes the lines", async () => {
        const page = demo.page;
        const pane = page.locator("[data-xpbd-pane]");
        await pane.getByRole("button", { name: "hammock (cloth)" }).click();
        // The jelly falls 0.5 m into the hammock: soft contacts from its landing on.
        await page.waitForFunction(() => (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd.stats.softContacts > 0, null, {
            timeout: 60_000,
        });
        await propertyLine(pane, "Show contacts", "input").locator("input").click();
        await pane.locator("[data-xpbd-contacts-legend]").waitFor();
        await waitForFrames(page, 3);
        const on = await contactsView(page);
        console.log(`#hammock contacts view: ${JSON.stringify(on)}`);
        expect(on.meshes).toBe(1);
        const counts = on.counts!;
        // Every soft contact of the scene has the hammock in it (one jelly, no self-collision).
        expect(counts.soft).toBeGreaterThan(0);
        expect(counts.soft).toBe(on.softStats);
        expect(counts.collider).toBe(on.colliderStats);
        expect(counts.self).toBe(0);
        expect(counts.collider + counts.soft).toBe(on.worldCount);
        // Three line segments per contact: the normal and the cross's two arms.
        expect(on.indexCount).toBe(6 * on.worldCount);
        // The pane shows the legend and the counts by kind (polled, so a few frames late).
        const text = await pane.getByRole("button", { name: "Contacts", exact: true }).locator("xpath=ancestor::*[3]").textContent();
        expect(text).toMatch(/Colours:\s*collider\s*soft–soft\s*self/);
        const [, collider, soft, self] = text!
            .match(/Collider contacts\s*(\d+)\s*Soft contacts\s*(\d+)\s*Self contacts\s*(\d+)/)!
            .map(Number);
        expect([collider, self]).toEqual([0, 0]);
        expect(soft).toBeGreaterThan(0);
        await pane.locator("[data-xpbd-contacts-legend]").scrollIntoViewIfNeeded();
        await saveScreenshot(page, "inspector-contacts");

        await propertyLine(pane, "Show contacts", "input").locator("input").click();
        await waitForFrames(page, 2);
        const off = await contactsView(page);
        expect(off.meshes).toBe(0);
        await expect(pane.locator("[data-xpbd-contacts-legend]").count()).resolves.toBe(0);
        expect(demo.errors).toEqual([]);
    });
});
