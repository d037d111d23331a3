/**
 * SoftBodyImpostor.CreateAsync in real headless Chromium, on the playground's jelly demo: the large jelly (a
 * 10k-triangle sphere at resolution 16) is meshed in a Web Worker while the scene keeps rendering, and the body is
 * bit for bit the one the blocking constructor builds. Frame gaps are measured in the page around each build.
 */
import type { Browser } from "playwright-core";
import { launchBrowser, openDemo, type DemoPage } from "./support/browser";

/** What the page measured around one build of the large jelly. */
interface BuildFigures {
    /** Wall-clock time from the call to the impostor (ms). */
    buildMs: number;
    /** Longest time between two rendered frames during the build, counting the last frame before it and its end (ms). */
    maxGapMs: number;
    /** Frames rendered during the build. */
    frames: number;
}

describe("large jelly built with CreateAsync", () => {
    let browser: Browser;
    let demo: DemoPage;

    beforeAll(async () => {
        browser = await launchBrowser();
        demo = await openDemo(browser, "jelly");
        // SwiftShader draws on the CPU: a small canvas keeps frames short, so that a stall shows against them.
        await demo.page.setViewportSize({ width: 320, height: 240 });
    });
    afterAll(() => browser?.close());

    test("frames keep coming while it is built in a worker, and the body equals the blocking build's", async () => {
        const r = await demo.page.evaluate(async () => {
            const scene = window.__playground.scene!;
            const handle = window.__playground.demo!.handle;
            const nextFrame = () => new Promise<void>((resolve) => scene.onAfterRenderObservable.addOnce(() => resolve()));
            /**
             * Runs `action`; the longest gap between the last frame before it, the frames during it and its end. The
             * frame after the build is left out: it is the first step of a 25,000-tet body, not part of the build.
             */
            const measure = async (action: () => Promise<void>): Promise<BuildFigures> => {
                await nextFrame();
                const times = [performance.now()];
                const observer = scene.onAfterRenderObservable.add(() => times.push(performance.now()));
                await action();
                observer.remove();
                times.push(performance.now());
                let maxGapMs = 0;
                for (let i = 1; i < times.length; i++) maxGapMs = Math.max(maxGapMs, times[i] - times[i - 1]);
                return { buildMs: times[times.length - 1] - times[0], maxGapMs, frames: times.length - 2 };
            };
            /** Copies of every array the large jelly's body and render binding are made of, by name. */
            const snapshot = (): Record<string, ArrayBufferView> => {
                const impostor = handle.xpbd.impostors[0] as (typeof handle.xpbd.impostors)[0] & {
                    binding: { tetIndex: Int32Array; weights: Float64Array };
                };
                const b = impostor.body;
                return {
                    positions: b.positions.slice(),
                    restPositions: b.restPositions.slice(),
                    inverseMasses: b.inverseMasses.slice(),
                    triangles: b.triangles.slice(),
                    stretch: b.stretch.indices.slice(),
                    stretchRest: b.stretch.restLengths.slice(),
                    tets: b.volume.indices.slice(),
                    tetRest: b.volume.restVolumes.slice(),
                    tetIndex: impostor.binding.tetIndex.slice(),
                    weights: impostor.binding.weights.slice(),
                };
            };
            // Frame gaps of the demo as it is (its small jelly), for comparison.
            const idle = await measure(() => new Promise((resolve) => setTimeout(resolve, 1500)));
            // The page's first meshing on the main thread would also compile the meshing code: warm it with a
            // blocking build first, so that the blocking figure below is the meshing itself.
            await handle.actions!.largeJellyBlocking();
            // Count the workers the build starts (webpack's runtime looks `Worker` up when it starts one).
            let workers = 0;
            const PageWorker = window.Worker;
            window.Worker = class extends PageWorker {
                public constructor(...args: ConstructorParameters<typeof Worker>) {
                    super(...args);
                    workers++;
                }
            };
            const asyncBuild = await measure(handle.actions!.largeJelly);
            const asyncBody = snapshot();
            // Twice: other jobs on this 2-core machine stall single frames now and then; the better build counts.
            const asyncAgain = await measure(handle.actions!.largeJelly);
            window.Worker = PageWorker;
            const blocking = await measure(handle.actions!.largeJellyBlocking);
            const blockingBody = snapshot();
            const differing = Object.keys(asyncBody).filter((k) => {
                const a = new Uint8Array(asyncBody[k].buffer, asyncBody[k].byteOffset, asyncBody[k].byteLength);
                const b = new Uint8Array(blockingBody[k].buffer, blockingBody[k].byteOffset, blockingBody[k].byteLength);
                return a.length === 0 || a.length !== b.length || a.some((x, i) => x !== b[i]);
            });
            return {
                idle,
                asyncBuild,
                asyncAgain,
                blocking,
                differing,
                tets: (asyncBody.tets as Int32Array).length / 4,
                particles: (asyncBody.restPositions as Float64Array).length / 3,
                workers,
            };
        });
        console.log(JSON.stringify(r));
        expect(r.differing).toEqual([]);
        expect(r.tets).toBeGreaterThan(10_000);
        // The meshing ran in a worker (the time-sliced fallback would show as long frame gaps below).
        expect(r.workers).toBe(2);
        // The blocking build stalls the page for the whole meshing: 284–1320 ms on a 2-core machine (the low end when
        // it is quiet, the high end when other jobs share it). Its bound is relative to the idle frame gap of the same
        // run (20–60 ms): it asks the stall to be plainly visible, not the machine to be slow. During a worker build
        // frames keep coming, slower than idle ones (30–60 ms at this canvas size) because the worker takes one of the
        // two cores SwiftShader draws with: the longest gap measured 63–460 ms, of which the main thread's own work at
        // the end (receiving the result, making the body) is 45–80 ms. Bound: the better of two builds under 60% of the
        // blocking stall measured in the same run, under the same load. On a machine with spare cores the worker costs
        // the page only the build's start and end.
        expect(r.blocking.maxGapMs).toBeGreaterThan(4 * r.idle.maxGapMs);
        const best = Math.min(r.asyncBuild.maxGapMs, r.asyncAgain.maxGapMs);
        expect(Math.min(r.asyncBuild.frames, r.asyncAgain.frames)).toBeGreaterThanOrEqual(4);
        expect(best).toBeLessThan(0.6 * r.blocking.maxGapMs);
        expect(demo.errors).toEqual([]);
    });

    test("falls back to time slices when the worker cannot start, with the same body", async () => {
        const r = await demo.page.evaluate(async () => {
            const handle = window.__playground.demo!.handle;
            const body = () => handle.xpbd.impostors[0].body;
            // A worker whose script does not parse: it reports an error event, as one a bundler did not emit would.
            const PageWorker = window.Worker;
            let workers = 0;
            window.Worker = class extends PageWorker {
                public constructor() {
                    super(URL.createObjectURL(new Blob(["("], { type: "text/javascript" })));
                    workers++;
                }
            };
            try {
                await handle.actions!.largeJelly();
            } finally {
                window.Worker = PageWorker;
            }
            const sliced = [body().restPositions.slice(), body().volume.indices.slice()];
            await handle.actions!.largeJellyBlocking();
            const blocking = [body().restPositions, body().volume.indices];
            const same = sliced.every(
                (a, k) => a.length > 0 && a.length === blocking[k].length && a.every((x, i) => Object.is(x, blocking[k][i])),
            );
            return { workers, same };
        });
        expect(r).toEqual({ workers: 1, same: true });
        expect(demo.errors).toEqual([]);
    });
});
