/**
 * The Inspector's soft-body panes in real Chromium, on the playground's #inspector demo (a square of cloth held
 * horizontally by its four corners, a jelly cube on the ground): the "Inspector" button lazily loads `src/inspector` and calls
 * `showXpbdInspector(scene)`. The tests drive the panes with the mouse and read the solver back through
 * `page.evaluate`. They run in order on one page (each step builds on the previous one).
 */
import type { Locator, Page } from "playwright-core";
import type { Browser } from "playwright-core";
import type { ClothImpostor } from "../../src/babylon/clothImpostor";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { complianceFromStiffness } from "../../src/core/stiffness";
import { readFileSync } from "node:fs";
import type { Download } from "playwright-core";
import { ClothPresets } from "../../src/babylon/materialPresets";
import { parseReplay, parseSnapshot, XpbdReplayer } from "../../src/core/index";
import { launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";

declare global {
    interface Window {
        /** Set by {@link stubClipboard}: what the page copied. */
        __copied?: string[];
    }
}

const PANE = "[data-xpbd-pane]";

/** The property line (label + control) whose label is exactly `label`, inside `root`. */
function propertyLine(root: Locator, label: string, control: string): Locator {
    return root.locator(`xpath=.//span[normalize-space(text())="${label}"]/ancestor::div[.//${control}][1]`);
}

/** Runs `fn(cloth, plugin, arg)` in the page, on the demo's cloth. */
function onCloth<T, A = undefined>(page: Page, fn: (cloth: ClothImpostor, xpbd: XpbdPlugin, arg: A) => T, arg?: A): Promise<T> {
    return page.evaluate(
        ([source, a]) => {
            const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
            const cloth = xpbd.impostors.find((i) => i.kind === "cloth") as ClothImpostor;
            return (0, eval)(`(${source})`)(cloth, xpbd, a) as T;
        },
        [fn.toString(), arg] as const,
    );
}

/** Replaces `navigator.clipboard.writeText`: records the text, or rejects (to exercise the fallback). */
async function stubClipboard(page: Page, mode: "record" | "reject"): Promise<void> {
    await page.evaluate((m) => {
        window.__copied = [];
        const writeText = (text: string) => {
            if (m === "reject") return Promise.reject(new Error("denied"));
            window.__copied!.push(text);
            return Promise.resolve();
        };
        Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    }, mode);
}

describe("Inspector soft-body panes (#inspector)", () => {
    let browser: Browser;
    let demo: DemoPage;
    let page: Page;
    let pane: Locator;
    const timings: Record<string, number> = {};

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser, "inspector");
        page = demo.page;
        pane = page.locator(PANE);
        const started = Date.now();
        await page.click("#inspector-button");
        await pane.waitFor({ timeout: 110_000 });
        timings["inspector open (lazy chunk + first render) ms"] = Date.now() - started;
    }, 180_000);

    afterAll(async () => {
        console.log("inspector e2e timings", timings);
        await browser?.close();
    });

    test("the Soft bodies pane appears with the scene's impostors; the Scene Explorer has a Soft bodies section", async () => {
        await pane.getByRole("button", { name: "trampoline (cloth)" }).waitFor();
        await pane.getByRole("button", { name: "jelly (soft body)" }).waitFor();
        await page.locator('[data-fui-tree-item-value$="/Soft bodies"]').waitFor();
        // One button per impostor of the plugin, named after its mesh and kind, and no other.
        const listed = await pane.getByRole("button", { name: /\((cloth|soft body)\)$/ }).allTextContents();
        const expected = await page.evaluate(() =>
            (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd.impostors.map(
                (impostor) => `${impostor.mesh.name} (${impostor.kind === "cloth" ? "cloth" : "soft body"})`,
            ),
        );
        expect(listed.map((text) => text.trim()).sort()).toEqual([...expected].sort());
        expect(expected).toHaveLength(2);
    });

    test("selecting the cloth shows its panels", async () => {
        await pane.getByRole("button", { name: "trampoline (cloth)" }).click();
        for (const title of ["Soft body parameters", "Pin weights", "Residual heatmap"]) {
            await pane.getByRole("button", { name: title, exact: true }).waitFor();
        }
        await propertyLine(pane, "Stretch", "input[@type='range']").waitFor();
        const selected = await page.evaluate(() => (globalThis as { debugNode?: { name?: string } }).debugNode?.name);
        expect(selected).toBe("trampoline");
        await saveScreenshot(page, "inspector-pane");
    });

    test("dragging the stretch slider changes the solver's compliance", async () => {
        const before = await onCloth(page, (cloth) => ({ stiffness: cloth.stretchStiffness, compliance: cloth.body.stretch.compliance }));
        expect(before.stiffness).toBe(0.95);
        expect(before.compliance).toBeCloseTo(complianceFromStiffness(0.95, "distance"), 12);
        const slider = propertyLine(pane, "Stretch", "input[@type='range']").locator("input[type=range]");
        const box = (await slider.boundingBox())!;
        await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
        await waitForFrames(page, 2);
        const after = await onCloth(page, (cloth) => ({ stiffness: cloth.stretchStiffness, compliance: cloth.body.stretch.compliance }));
        expect(after.stiffness).toBeGreaterThan(0.2);
        expect(after.stiffness).toBeLessThan(0.8);
        expect(after.compliance).toBeCloseTo(complianceFromStiffness(after.stiffness, "distance"), 12);
        expect(after.compliance).toBeGreaterThan(0);
        // Put it back for the following tests.
        await onCloth(page, (cloth) => {
            cloth.stretchStiffness = 0.95;
        });
    });

    test("copies the parameter table as code, or shows it in a text area when the clipboard refuses", async () => {
        await stubClipboard(page, "record");
        await pane.getByRole("button", { name: "Copy parameters as code" }).click();
        await page.waitForFunction(() => (window.__copied?.length ?? 0) > 0);
        const code = await page.evaluate(() => window.__copied![0]);
        expect(code).toContain("new ClothImpostor(mesh, {");
        expect(code).toMatch(/stretchStiffness: 0\.95,/);
        expect(code).toMatch(/bendStiffness: 0\.3,/);
        expect(code).toContain("substeps: 5, iterations: 1");

        await stubClipboard(page, "reject");
        await pane.getByRole("button", { name: "Copy parameters as JSON" }).click();
        const fallback = pane.locator("textarea").filter({ hasText: '"kind": "cloth"' });
        await fallback.waitFor();
        const json = JSON.parse(await fallback.inputValue()) as { kind: string; options: Record<string, number> };
        expect(json.kind).toBe("cloth");
        expect(json.options.mass).toBeCloseTo(0.4, 6);
    });

    test("the stretch heatmap colours each vertex by the solver's residual; switching it off restores the material", async () => {
        const original = await onCloth(page, (cloth) => ({
            material: cloth.mesh.material?.uniqueId,
            hasColors: cloth.mesh.isVerticesDataPresent("color"),
        }));
        expect(original.hasColors).toBe(false);
        await propertyLine(pane, "Show heatmap", "input").locator("input").click();
        await pane.getByText("Current max").waitFor();
        await waitForFrames(page, 3);
        // Colours and residuals read in one evaluate, between frames: the colours were made after the last step.
        const check = await onCloth(page, (cloth) => {
            const mesh = cloth.mesh;
            const state = (
                mesh.material?.metadata as { xpbdOverlay: { mode: string; kind: string; scale: number; min: number; max: number } }
            ).xpbdOverlay;
            const colors = mesh.getVerticesData("color")!;
            const residual = cloth.body.stretchResidual;
            let worst = 0;
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
            return { state, worst, nonZero, vertices: cloth.vertexToParticle.length, material: mesh.material?.name };
        });
        expect(check.state.mode).toBe("residual");
        expect(check.state.kind).toBe("stretch");
        expect(check.nonZero).toBeGreaterThan(check.vertices / 2);
        expect(check.worst).toBeLessThan(1e-5);
        expect(check.material).toContain("xpbd overlay");
        await pane.getByText("Current max").scrollIntoViewIfNeeded();
        await saveScreenshot(page, "inspector-heatmap");

        await propertyLine(pane, "Show heatmap", "input").locator("input").click();
        await waitForFrames(page, 2);
        const restored = await onCloth(page, (cloth) => ({
            material: cloth.mesh.material?.uniqueId,
            hasColors: cloth.mesh.isVerticesDataPresent("color"),
        }));
        expect(restored).toEqual(original);
    });

    test("painting pins with the mouse raises those vertices' weights, and they stop falling", async () => {
        await propertyLine(pane, "Paint pins", "input").locator("input").click();
        await pane.getByText("0 · free").waitFor();
        expect(await page.evaluate(() => window.__playground.scene!.activeCamera!.inputs.attachedToElement)).toBe(false);

        // Screen position of the particle in the middle of the cloth (row 8, column 8 of the 17×17 grid).
        const target = 8 * 17 + 8;
        const point = await onCloth(
            page,
            (cloth, _xpbd, particle) => {
                const scene = cloth.mesh.getScene();
                const x = cloth.body.positions;
                const [px, py, pz] = [x[3 * particle], x[3 * particle + 1], x[3 * particle + 2]];
                const m = scene.getTransformMatrix().m;
                const cx = px * m[0] + py * m[4] + pz * m[8] + m[12];
                const cy = px * m[1] + py * m[5] + pz * m[9] + m[13];
                const cw = px * m[3] + py * m[7] + pz * m[11] + m[15];
                const canvas = scene.getEngine().getRenderingCanvas()!;
                const rect = canvas.getBoundingClientRect();
                return { x: rect.left + ((cx / cw + 1) / 2) * rect.width, y: rect.top + ((1 - cy / cw) / 2) * rect.height };
            },
            target,
        );
        await page.mouse.move(point.x - 15, point.y);
        await page.mouse.down();
        await page.mouse.move(point.x + 15, point.y, { steps: 6 });
        await page.mouse.up();
        await waitForFrames(page, 2);

        const painted = await onCloth(page, (cloth) => {
            const w = cloth.getPinWeights();
            const pinned: number[] = [];
            w.forEach((value, v) => {
                if (value > 0.999) pinned.push(v);
            });
            return { pinned, any: Array.from(w).filter((value) => value > 0).length };
        });
        expect(painted.pinned).toContain(target);
        await saveScreenshot(page, "inspector-pins");

        // Release the four corners: the cloth falls, except where pins were painted (it drapes from them).
        const corners = [0, 16, 272, 288];
        const heights = (vertices: number[]) =>
            onCloth(page, (cloth, _xpbd, vs) => vs.map((v) => cloth.body.positions[3 * cloth.vertexToParticle[v] + 1]), vertices);
        const patch = painted.pinned.filter((v) => !corners.includes(v)); // the demo's own corner pins are weight 1 too
        expect(patch.length).toBeGreaterThan(3);
        const paintedBefore = await heights(patch);
        const cornersBefore = await heights(corners);
        await onCloth(page, (cloth, _xpbd, cs) => cs.forEach((v) => cloth.setPinWeight(v, 0)), corners);
        await waitForFrames(page, 25);
        const paintedAfter = await heights(patch);
        const cornersAfter = await heights(corners);
        const paintedMoved = Math.max(...paintedBefore.map((y, i) => Math.abs(y - paintedAfter[i])));
        const cornerDrop = Math.min(...cornersBefore.map((y, i) => y - cornersAfter[i]));
        expect(paintedMoved).toBeLessThan(1e-4);
        expect(cornerDrop).toBeGreaterThan(0.03);
        await saveScreenshot(page, "inspector-pins-released");

        await propertyLine(pane, "Paint pins", "input").locator("input").click();
        expect(await page.evaluate(() => window.__playground.scene!.activeCamera!.inputs.attachedToElement)).toBe(true);
    });

    test("the preset dropdown gives the cloth a material's values, and the mass its density gives", async () => {
        const dropdown = propertyLine(pane, "Material preset", "*[@role='combobox']").getByRole("combobox");
        await dropdown.click();
        await page.getByRole("option", { name: "Denim", exact: true }).click();
        await waitForFrames(page, 2);
        const values = await onCloth(page, (cloth) => {
            const x = cloth.body.restPositions;
            const t = cloth.body.triangles;
            let area = 0;
            for (let k = 0; k < t.length; k += 3) {
                const [a, b, c] = [3 * t[k], 3 * t[k + 1], 3 * t[k + 2]];
                const u = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
                const v = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
                area += Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]) / 2;
            }
            return {
                area,
                mass: cloth.mass,
                stretch: cloth.stretchStiffness,
                shear: cloth.shearStiffness,
                bend: cloth.bendStiffness,
                damping: cloth.damping,
                friction: cloth.friction,
                drag: cloth.dragCoefficient,
                lift: cloth.liftCoefficient,
                bendCompliance: cloth.body.bend.compliance,
            };
        });
        const denim = ClothPresets.denim;
        expect(values).toMatchObject({
            stretch: denim.stretchStiffness,
            shear: denim.shearStiffness,
            bend: denim.bendStiffness,
            damping: denim.damping,
            friction: denim.friction,
            drag: denim.dragCoefficient,
            lift: denim.liftCoefficient,
        });
        expect(values.bendCompliance).toBeCloseTo(complianceFromStiffness(denim.bendStiffness, "bend"), 12);
        // The trampoline is 1.4 m square: 1.96 m² (its vertices are 32-bit floats) × 0.45 kg/m².
        expect(values.area).toBeCloseTo(1.96, 6);
        expect(values.mass).toBeCloseTo(denim.density * values.area, 9);
        await expect(dropdown.textContent()).resolves.toContain("Denim");
        // A slider moved by hand: the line says "Custom" again.
        await onCloth(page, (cloth) => {
            cloth.bendStiffness = 0.33;
        });
        await waitForFrames(page, 2);
        await expect(dropdown.textContent()).resolves.toContain("Custom");
        await saveScreenshot(page, "inspector-preset");
    });

    /** Clicks the button named `name` and returns the bytes of the download it starts. */
    async function download(name: string | RegExp): Promise<{ bytes: Buffer; fileName: string }> {
        const [file] = await Promise.all([page.waitForEvent("download") as Promise<Download>, pane.getByRole("button", { name }).click()]);
        return { bytes: readFileSync((await file.path())!), fileName: file.suggestedFilename() };
    }

    test("Save state downloads a snapshot; Restore state uploads it back, bit for bit; a damaged file is refused", async () => {
        await pane.getByRole("button", { name: "State and replay", exact: true }).scrollIntoViewIfNeeded();
        const saved = await download("Save state");
        expect(saved.fileName).toMatch(/\.xpbdstate$/);
        const snapshot = parseSnapshot(saved.bytes);
        expect(snapshot.bodies).toHaveLength(2);
        await pane.getByText(/^State saved at t = /).waitFor();
        // Let the simulation move on, and note what restoreState puts back the moment it returns.
        await waitForFrames(page, 10);
        await page.evaluate(() => {
            const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
            const restore = xpbd.restoreState.bind(xpbd);
            const w = window as unknown as { __restored: { time: number; positions: number[][] }[] };
            w.__restored = [];
            xpbd.restoreState = (s) => {
                restore(s);
                w.__restored.push({ time: xpbd.world.time, positions: xpbd.impostors.map((i) => Array.from(i.body.positions)) });
            };
        });
        const upload = async (bytes: Buffer) => {
            const [chooser] = await Promise.all([
                page.waitForEvent("filechooser"),
                pane.getByRole("button", { name: "Restore state" }).click(),
            ]);
            await chooser.setFiles({ name: "scene.xpbdstate", mimeType: "application/octet-stream", buffer: bytes });
        };
        await upload(saved.bytes);
        await pane.getByText(/^Restored "scene.xpbdstate": t = /).waitFor();
        const restored = await page.evaluate(
            () => (window as unknown as { __restored: { time: number; positions: number[][] }[] }).__restored,
        );
        expect(restored).toHaveLength(1);
        expect(restored[0].time).toBe(snapshot.time);
        restored[0].positions.forEach((positions, b) =>
            expect(positions.every((x, k) => Object.is(x, snapshot.bodies[b].positions[k]))).toBe(true),
        );

        const damaged = Buffer.from(saved.bytes);
        damaged[damaged.length >> 1] ^= 0x40;
        await upload(damaged);
        await pane
            .getByText(
                /^"scene.xpbdstate" was not restored: XpbdPlugin.restoreState: snapshot is corrupted|^"scene.xpbdstate" was not restored: snapshot is corrupted/,
            )
            .waitFor();
        expect(await page.evaluate(() => (window as unknown as { __restored: unknown[] }).__restored.length)).toBe(1);
    });

    test("Record replay, then Stop downloads a replay that plays back in Node bit for bit", async () => {
        await pane.getByRole("button", { name: "Record replay" }).click();
        await pane.getByRole("button", { name: /^Stop and download replay \(\d+ steps\)$/ }).waitFor();
        await waitForFrames(page, 10);
        // Inputs besides the pins and colliders: a push on the jelly, a gust, a slider.
        await onCloth(page, (cloth, xpbd) => {
            const jelly = xpbd.impostors.find((i) => i.kind === "softBody")!;
            jelly.setLinearVelocity(jelly.getLinearVelocity().set(0.5, 1.5, 0));
            xpbd.wind = xpbd.wind.set(2, 0, 1);
            cloth.damping = 2.5;
        });
        await waitForFrames(page, 20);
        const recorded = await download(/^Stop and download replay/);
        expect(recorded.fileName).toMatch(/\.xpbdreplay$/);
        await pane.getByText(/^Replay of \d+ steps downloaded/).waitFor();
        const replay = parseReplay(recorded.bytes);
        const report = new XpbdReplayer(replay).run();
        console.log(`replay recorded in Chromium (${recorded.bytes.length} bytes), played in Node: ${report.summary}`);
        expect(replay.steps.length).toBeGreaterThanOrEqual(30);
        expect(report.divergedAtStep).toBeNull();
        expect(report.finalPositionsMatch).toBe(true);
        await pane.getByRole("button", { name: "Record replay" }).waitFor();
    });

    test("the Diagnosis section names what looks wrong: a rubbery trampoline is stringy at its pins, a stiff one is not", async () => {
        const pinRow = pane.locator('[data-diagnosis="pinStretch"]');
        const section = pane.getByRole("button", { name: "Diagnosis", exact: true });
        await section.waitFor();
        if ((await pane.getByText(/No symptom|Try:/).count()) === 0) await section.click();
        // Stiff, with its tethers: no edge at a corner pin is 10% long (the section polls at 2 Hz).
        await onCloth(page, (cloth) => {
            cloth.stretchStiffness = 1;
            cloth.body.tethers.enabled = true;
        });
        await waitForFrames(page, 30);
        await page.waitForTimeout(600);
        expect(await pinRow.count()).toBe(0);
        // Rubbery and without tethers, held by its four corners: the load pulls the edges at the corners out.
        await onCloth(page, (cloth) => {
            cloth.stretchStiffness = 0.05;
            cloth.body.tethers.enabled = false;
        });
        await pinRow.waitFor({ timeout: 60_000 });
        const shown = (await pinRow.textContent()) ?? "";
        console.log(`Diagnosis row: ${shown}`);
        expect(shown).toContain("Stringy cloth next to a pin");
        expect(shown).toContain("grade the pin weights");
        // The figure shown is above the threshold it names.
        const [figure, threshold] = [...shown.matchAll(/(\d+\.\d+)/g)].map((m) => Number(m[1]));
        expect(figure).toBeGreaterThan(threshold);
        await saveScreenshot(page, "inspector-diagnosis");
        await onCloth(page, (cloth) => {
            cloth.stretchStiffness = 0.95;
            cloth.body.tethers.enabled = true;
        });
        await waitForFrames(page, 60);
    });

    test("the jelly's parameters have a Shape matching slider, bound to the solver and copied as code", async () => {
        await pane.getByRole("button", { name: "jelly (soft body)" }).click();
        const line = propertyLine(pane, "Shape matching", "input[@type='range']");
        await line.waitFor();
        const jelly = (): Promise<{ stiffness: number | undefined; compliance: number | undefined }> =>
            page.evaluate(() => {
                const xpbd = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd;
                const impostor = xpbd.impostors.find((i) => i.kind === "softBody")!;
                return { stiffness: impostor.shapeMatching, compliance: impostor.body.shapeMatching?.compliance };
            });
        expect((await jelly()).stiffness).toBe(0.5);
        // Dragged to about four fifths of the way, the slider's value reaches the solver.
        const slider = line.locator("input[type=range]");
        await slider.scrollIntoViewIfNeeded();
        const box = (await slider.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
        await waitForFrames(page, 2);
        const after = await jelly();
        expect(after.stiffness).toBeGreaterThan(0.6);
        expect(after.stiffness).toBeLessThan(0.95);
        expect(after.compliance).toBeCloseTo(complianceFromStiffness(after.stiffness!, "shape"), 12);
        await stubClipboard(page, "record");
        await pane.getByRole("button", { name: "Copy parameters as code" }).click();
        await page.waitForFunction(() => (window.__copied ?? []).some((text) => text.includes("SoftBodyImpostor")));
        const code = await page.evaluate(() => window.__copied!.find((text) => text.includes("SoftBodyImpostor"))!);
        expect(code).toContain(`shapeMatching: ${Number(after.stiffness!.toPrecision(6))},`);
    });

    test("the Statistics pane has a soft-body section", async () => {
        await page.locator('button[name="selectedTab"][value="Statistics"]').click();
        const section = page.getByText("Soft bodies (XPBD)");
        await section.waitFor();
        for (const label of [
            "Step time",
            "Particles",
            "Stretch constraints",
            "Contacts",
            "Max edge ratio",
            "Sleeping bodies",
            "Over-stretched edges",
        ]) {
            await page.getByText(label, { exact: true }).filter({ visible: true }).first().waitFor();
        }
        // The figures shown are the solver's: the counts that do not change while it runs are exactly the plugin's
        // (the section polls every 500 ms, so wait a poll), and the sleeping bodies are some of the bodies.
        await page.waitForTimeout(600);
        const figures = await page.evaluate(
            (labels) => {
                // The section: the nearest ancestor of its title that holds all its lines.
                const title = Array.from(document.querySelectorAll("*")).find(
                    (element) => element.childElementCount === 0 && element.textContent?.trim() === "Soft bodies (XPBD)",
                );
                let section: Element | null | undefined = title;
                while (section && !labels.every((label) => section!.textContent?.includes(label))) section = section.parentElement;
                const shown: Record<string, number> = {};
                const lines: string[] = [];
                for (const label of labels) {
                    const span = Array.from(section?.querySelectorAll("span") ?? []).find(
                        (element) => element.textContent?.trim() === label,
                    );
                    // The label's line: the nearest ancestor holding more text than the label; its value is the rest.
                    let line: HTMLElement | null | undefined = span?.parentElement;
                    while (line && line.textContent?.trim() === label) line = line.parentElement;
                    lines.push(line?.textContent ?? "");
                    // Thousands are grouped with commas ("1,983").
                    shown[label] = Number.parseFloat((line?.textContent ?? "").replace(label, "").replace(/,/g, "").trim());
                }
                const s = (window.__playground.demo?.handle as { xpbd: XpbdPlugin }).xpbd.stats;
                return { shown, lines, particles: s.particles, stretch: s.stretchConstraints, bodies: s.bodies };
            },
            ["Particles", "Stretch constraints", "Bodies", "Sleeping bodies", "Max edge ratio"],
        );
        console.log(`Statistics pane: ${JSON.stringify(figures)}`);
        expect(figures.shown["Particles"]).toBe(figures.particles);
        expect(figures.shown["Stretch constraints"]).toBe(figures.stretch);
        expect(figures.shown["Bodies"]).toBe(2);
        expect(figures.bodies).toBe(2);
        expect(figures.shown["Sleeping bodies"]).toBeGreaterThanOrEqual(0);
        expect(figures.shown["Sleeping bodies"]).toBeLessThanOrEqual(2);
        // Edge ratio: a real stretch, between the rest length and the over-stretch ratio.
        expect(figures.shown["Max edge ratio"]).toBeGreaterThan(0.99);
        expect(figures.shown["Max edge ratio"]).toBeLessThan(1.5);
        await section.scrollIntoViewIfNeeded();
        await saveScreenshot(page, "inspector-stats");
    });

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
