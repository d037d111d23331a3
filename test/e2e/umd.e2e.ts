/**
 * The UMD bundle as the Babylon Playground would use it: a plain HTML page with Babylon's own UMD build
 * (`babylonjs/babylon.js`, global `BABYLON`), Havok's UMD build (`@babylonjs/havok/lib/umd/HavokPhysics_umd.js`,
 * global `HavokPhysics`, its wasm beside it) and `babylon-xpbd.umd.js` (global `BABYLONXPBD`) as three script tags,
 * then a cloth simulated there. Also checks that the bundle holds only our code (Babylon and Havok are external).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { collectErrors, launchBrowser } from "./support/browser";
import { serveStatic, type StaticServer } from "./support/staticServer";

const ROOT = path.resolve(__dirname, "../..");
const OUT = path.join(ROOT, "test-results/umd");
const BUNDLE = path.join(OUT, "babylon-xpbd.umd.js");

/** The page: what a Babylon Playground snippet does, with the three scripts it would load. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>babylon-xpbd UMD</title>
<script src="babylon.js"></script>
<script src="HavokPhysics_umd.js"></script>
<script src="babylon-xpbd.umd.js"></script>
</head><body style="margin:0"><canvas id="c" style="width:640px;height:360px"></canvas>
<script>
window.result = (async () => {
    const canvas = document.getElementById("c");
    const engine = new BABYLON.Engine(canvas, true);
    const scene = new BABYLON.Scene(engine);
    const camera = new BABYLON.ArcRotateCamera("camera", -Math.PI / 2, 1.1, 4, new BABYLON.Vector3(0, 1, 0), scene);
    new BABYLON.HemisphericLight("light", new BABYLON.Vector3(0, 1, 0), scene);
    scene.enablePhysics(new BABYLON.Vector3(0, -9.81, 0), new BABYLON.HavokPlugin(false, await HavokPhysics()));
    const ball = BABYLON.MeshBuilder.CreateSphere("ball", { diameter: 0.8 }, scene);
    ball.position.y = 0.4;
    new BABYLON.PhysicsAggregate(ball, BABYLON.PhysicsShapeType.SPHERE, { mass: 0 }, scene);

    const xpbd = new BABYLONXPBD.XpbdPlugin(scene, { substeps: 10, wind: new BABYLON.Vector3(1, 0, 0) });
    const sheet = BABYLON.MeshBuilder.CreateGround("sheet", { width: 1.2, height: 1.2, subdivisions: 12 }, scene);
    sheet.position.y = 1.4;
    const cloth = new BABYLONXPBD.ClothImpostor(sheet, { mass: 0.3, bendStiffness: 0.3, pins: [0] }, xpbd);
    const before = Array.from(cloth.body.positions);
    let frames = 0;
    await new Promise((resolve) => {
        engine.runRenderLoop(() => {
            scene.render();
            if (++frames === 40) resolve();
        });
    });
    engine.stopRenderLoop();
    const after = Array.from(cloth.body.positions);
    return {
        version: BABYLONXPBD.VERSION,
        babylonVersion: BABYLON.Engine.Version,
        frames,
        before,
        after,
        vertices: sheet.getVerticesData("position").length / 3,
        wind: Array.from(xpbd.world.wind),
        contacts: xpbd.stats.contacts,
    };
})().catch((error) => ({ error: String(error && error.stack || error) }));
</script></body></html>`;

describe("UMD bundle with Babylon's UMD build", () => {
    let browser: Browser;
    let server: StaticServer;

    beforeAll(async () => {
        mkdirSync(OUT, { recursive: true });
        execFileSync(
            process.execPath,
            [require.resolve("webpack-cli/bin/cli.js"), "--env", "umd", "--env", `outDir=${OUT}`, "--stats", "errors-warnings"],
            { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] },
        );
        copyFileSync(path.join(ROOT, "node_modules/babylonjs/babylon.js"), path.join(OUT, "babylon.js"));
        const havokUmd = path.join(ROOT, "node_modules/@babylonjs/havok/lib/umd");
        copyFileSync(path.join(havokUmd, "HavokPhysics_umd.js"), path.join(OUT, "HavokPhysics_umd.js"));
        copyFileSync(path.join(havokUmd, "HavokPhysics.wasm"), path.join(OUT, "HavokPhysics.wasm"));
        writeFileSync(path.join(OUT, "index.html"), PAGE);
        server = await serveStatic(OUT);
        browser = await launchBrowser();
    }, 180_000);
    afterAll(async () => {
        await browser?.close();
        server?.server.closeAllConnections();
        await new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve()));
    });

    test("holds only babylon-xpbd's own code: Babylon and Havok stay external", () => {
        const size = statSync(BUNDLE).size;
        const map = JSON.parse(readFileSync(`${BUNDLE}.map`, "utf8")) as { sources: string[] };
        // Every module is ours (src/), webpack's runtime, or an external reference; nothing from node_modules.
        const own = /^webpack:\/\/BABYLONXPBD\/(\.\/src\/|webpack\/)/;
        const externals = map.sources.filter((s) => /^webpack:\/\/BABYLONXPBD\/external /.test(s));
        const foreign = map.sources.filter((s) => !own.test(s) && !externals.includes(s));
        console.log(`UMD bundle: ${(size / 1024).toFixed(1)} KB, ${map.sources.length} sources, externals: ${externals.join(", ")}`);
        expect(foreign).toEqual([]);
        expect(map.sources.some((s) => s.includes("src/babylon/xpbdPlugin.ts"))).toBe(true);
        // Babylon's core is megabytes; ours (412 KB with the WebGPU backend's kernels) is under half a megabyte.
        expect(size).toBeLessThan(512 * 1024);
        const code = readFileSync(BUNDLE, "utf8");
        // The UMD wrapper hands the factory the global BABYLON (or require("babylonjs")), never a bundled copy.
        expect(code).toMatch(/\.BABYLONXPBD=\w+\(\w+\.BABYLON\)/);
        expect(code).toContain('require("babylonjs")');
        expect(code).not.toMatch(/HavokPhysics\.wasm/);
    });

    test("runs a cloth on Babylon's UMD build and Havok's UMD build: positions change and stay finite", async () => {
        const context = await browser.newContext({ viewport: { width: 800, height: 450 } });
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto(server.url);
        const result = await page.evaluate(() => (window as unknown as { result: Promise<Record<string, unknown>> }).result);
        expect(result.error).toBeUndefined();
        const before = result.before as number[];
        const after = result.after as number[];
        let moved = 0;
        for (let i = 0; i < after.length; i++) moved = Math.max(moved, Math.abs(after[i] - before[i]));
        console.log(
            `UMD page: babylon-xpbd ${String(result.version)} on Babylon ${String(result.babylonVersion)}, ${String(result.frames)} frames, max particle displacement ${moved.toFixed(3)} m, contacts ${String(result.contacts)}`,
        );
        expect(after.length).toBe(before.length);
        expect(after.every(Number.isFinite)).toBe(true);
        expect(moved).toBeGreaterThan(0.05);
        expect(result.wind).toEqual([1, 0, 0]);
        expect(errors).toEqual([]);
        await context.close();
    });
});
