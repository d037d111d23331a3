import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import { chromium, type Browser, type Page } from "playwright-core";
// Type-only: brings in the page's `window.__playground` declaration for typing `page.evaluate` callbacks.
import type {} from "../../../playground/index";

/** Environment variable through which globalSetup hands the served playground's URL to the tests. */
export const BASE_URL_ENV = "E2E_BASE_URL";

/** Where screenshots go (gitignored). */
export const SCREENSHOT_DIR = path.resolve(__dirname, "../../../test-results/screenshots");

/** URL of the served playground build. */
export function baseUrl(): string {
    const url = process.env[BASE_URL_ENV];
    if (!url) throw new Error(`${BASE_URL_ENV} is unset: run the browser tests with \`npm run test:e2e\``);
    return url;
}

/**
 * Launches Debian's Chromium headless (`CHROMIUM_PATH` overrides `/usr/bin/chromium`). WebGL2 runs on SwiftShader;
 * with `webgpu`, so does WebGPU (SwiftShader's Vulkan: without the two Vulkan switches the adapter appears but the
 * device is lost at the first frame drawn to a canvas, and `--disable-gpu` would remove the adapter).
 * Playwright gives every `launch()` a fresh temporary profile (it refuses a `--user-data-dir` argument).
 */
export function launchBrowser(options: { webgpu?: boolean } = {}): Promise<Browser> {
    const gpu = options.webgpu
        ? [
              "--enable-unsafe-webgpu",
              "--use-webgpu-adapter=swiftshader",
              "--use-angle=swiftshader",
              "--enable-features=Vulkan",
              "--use-vulkan=swiftshader",
          ]
        : ["--disable-gpu"];
    return chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        headless: true,
        args: [
            "--headless",
            "--no-sandbox",
            ...gpu,
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    });
}

/**
 * Stubs that Babylon's own render loop calls as feature checks (`scene.getBoundingBoxRenderer?.()` once render
 * targets such as shadow maps exist, `getOutlineRenderer?.()` in the object renderer): with side-effect warnings
 * enabled they warn although nothing is missing, so they are not errors.
 */
const INTERNAL_FEATURE_PROBES = /\b(Scene\.getBoundingBoxRenderer|Scene\.getOutlineRenderer)\(\)/;

/** A playground page and everything it reported as an error so far. */
export interface DemoPage {
    page: Page;
    /** Console errors, uncaught exceptions, failed requests, missing-side-effect and WebGPU-error warnings, in order. */
    errors: string[];
}

/**
 * Starts recording a page's errors: console errors, uncaught exceptions, failed or 4xx/5xx requests, Babylon's
 * "requires a side-effect import" warnings (a deep import missing its side effect fails silently otherwise) and the
 * WebGPU device's uncaught validation errors, which Babylon logs as warnings.
 */
export function collectErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on("console", (msg) => {
        const text = msg.text();
        const missingSideEffect = /side-effect import/i.test(text) && !INTERNAL_FEATURE_PROBES.test(text);
        // Babylon's WebGPU engine logs the device's uncaptured (validation) errors as warnings.
        const gpuError = /WebGPU uncaptured error/.test(text);
        if (msg.type() === "error" || (msg.type() === "warning" && (missingSideEffect || gpuError))) {
            errors.push(`console.${msg.type()}: ${text}`);
        }
    });
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.stack ?? error.message}`));
    page.on("requestfailed", (req) => errors.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ""}`));
    page.on("response", (res) => {
        if (res.status() >= 400) errors.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    return errors;
}

/**
 * Opens the playground on `#demoId` (the default demo when omitted) in a fresh 1280×720 context and waits until the
 * demo is built and has rendered a few frames. `query` is the URL's query string without `?` (`engine=webgpu`).
 */
export async function openDemo(browser: Browser, demoId?: string, query = ""): Promise<DemoPage> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(baseUrl() + (query ? `?${query}` : "") + (demoId ? `#${demoId}` : ""));
    await page.waitForFunction(() => window.__playground !== undefined);
    await page.evaluate(() => window.__playground.ready);
    await waitForFrames(page, 3);
    return { page, errors };
}

/** Resolves after the current scene has rendered `count` more frames. */
export async function waitForFrames(page: Page, count: number): Promise<void> {
    await page.evaluate(
        (n) =>
            new Promise<void>((resolve) => {
                const scene = window.__playground.scene;
                if (!scene) throw new Error("no scene: is a demo loading?");
                let left = n;
                const observer = scene.onAfterRenderObservable.add(() => {
                    if (--left > 0) return;
                    observer.remove();
                    resolve();
                });
            }),
        count,
    );
}

/** World positions `[x, y, z]` of every dynamic physics body in the current scene, in body order. */
export function dynamicBodyPositions(page: Page): Promise<number[][]> {
    return page.evaluate(() => {
        const engine = window.__playground.scene?.getPhysicsEngine() as PhysicsEngine | null | undefined;
        if (!engine) throw new Error("the current scene has no physics engine");
        const DYNAMIC = 2; // PhysicsMotionType.DYNAMIC; the enum is not reachable from the page
        return engine
            .getBodies()
            .filter((body) => body.getMotionType() === DYNAMIC)
            .map((body) => body.transformNode.getAbsolutePosition().asArray());
    });
}

/** What the canvas shows, as counts that tell a blank or broken frame from a drawn scene. */
export interface PixelStats {
    width: number;
    height: number;
    /** Distinct colours after quantising each channel to 5 bits (so antialiasing noise does not dominate). */
    distinctColours: number;
    /** Fraction of pixels that differ from the most common colour (taken to be the background). */
    nonBackgroundFraction: number;
}

/**
 * Reads the canvas back: directly (works because the WebGL engine is created with `preserveDrawingBuffer: true`), or
 * with `screenshot` from a screenshot of it (a WebGPU canvas cannot be read back once its frame is presented).
 * @param selector - CSS selector of the canvas; the playground's render canvas by default.
 */
export async function canvasPixelStats(page: Page, selector = "#render-canvas", screenshot = false): Promise<PixelStats> {
    const image = screenshot ? `data:image/png;base64,${(await page.locator(selector).screenshot()).toString("base64")}` : null;
    return page.evaluate(
        async ([sel, url]) => {
            let source: CanvasImageSource;
            let width: number;
            let height: number;
            if (url) {
                const picture = new Image();
                picture.src = url;
                await picture.decode();
                [source, width, height] = [picture, picture.naturalWidth, picture.naturalHeight];
            } else {
                const canvas = document.querySelector<HTMLCanvasElement>(sel);
                if (!canvas) throw new Error(`no canvas matches ${sel}`);
                [source, width, height] = [canvas, canvas.width, canvas.height];
            }
            const copy = document.createElement("canvas");
            copy.width = width;
            copy.height = height;
            const ctx = copy.getContext("2d", { willReadFrequently: true });
            if (!ctx) throw new Error("no 2D context");
            ctx.drawImage(source, 0, 0);
            const data = ctx.getImageData(0, 0, width, height).data;
            const counts = new Map<number, number>();
            for (let i = 0; i < data.length; i += 4) {
                const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
                counts.set(key, (counts.get(key) ?? 0) + 1);
            }
            const background = Math.max(...counts.values());
            const pixels = width * height;
            return { width, height, distinctColours: counts.size, nonBackgroundFraction: (pixels - background) / pixels };
        },
        [selector, image] as const,
    );
}

/**
 * Saves a screenshot of the whole page to `test-results/screenshots/<name>.png` and returns its path.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file });
    return file;
}
