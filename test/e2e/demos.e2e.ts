/**
 * Every playground demo in real headless Chromium (WebGL2 on SwiftShader): it loads without console errors, its
 * soft bodies move and stay finite, settling demos come to rest (kinetic energy from `xpbd.stats`), and the canvas
 * shows a drawn scene. A screenshot of each goes to test-results/screenshots/<demo>.png.
 *
 * The demos step Havok by a fixed 1/60 s per frame, so on this slow GPU they run in slow motion: the waits below
 * count rendered frames (simulated time), bounded by wall-clock timeouts.
 */
import type { Browser } from "playwright-core";
import { canvasPixelStats, launchBrowser, openDemo, saveScreenshot, waitForFrames, type DemoPage } from "./support/browser";
import { checkRopeBridge } from "./support/ropeBridge";

interface DemoCase {
    id: string;
    /** Frames to run between the two position samples. */
    frames: number;
    /**
     * For settling demos: the kinetic energy (J) it must fall below, awake (sleep is switched off for them: a
     * sleeping body has no kinetic energy whether or not it came to rest), and the most frames it may take.
     */
    settle?: { energy: number; maxFrames: number };
}

const cases: DemoCase[] = [
    // 0.4 kg: 1e-6 J is an rms speed of 2 mm/s, against ~2 J in the first swing (measured there at ~420 frames).
    { id: "hanging-cloth", frames: 20, settle: { energy: 1e-6, maxFrames: 600 } },
    { id: "flag", frames: 20 },
    { id: "cape", frames: 20 },
    // 2 kg: 1e-5 J is an rms speed of 3 mm/s, against ~10 J when it lands (measured there at ~420 frames).
    { id: "jelly", frames: 20, settle: { energy: 1e-5, maxFrames: 600 } },
    { id: "two-way", frames: 20 },
    { id: "stress", frames: 10 },
    { id: "tear", frames: 20 },
    { id: "fold", frames: 20 },
    { id: "hammock", frames: 20 },
    { id: "cushions", frames: 20 },
    { id: "rope-bridge", frames: 20 },
    // On this page's CPU backend the big cloth is 64²; it swings down from horizontal.
    { id: "big-cloth", frames: 20 },
];

/** Positions of every particle of every impostor of the current demo, concatenated. */
function softPositions(demo: DemoPage): Promise<number[]> {
    return demo.page.evaluate(() => {
        const xpbd = window.__playground.demo?.handle.xpbd;
        if (!xpbd) throw new Error("no demo");
        return xpbd.impostors.flatMap((impostor) => Array.from(impostor.body.positions));
    });
}

/** Renders frames until the soft world's kinetic energy is below `energy`; returns [energy, frames used]. */
async function settle(demo: DemoPage, energy: number, maxFrames: number): Promise<[number, number]> {
    const batch = 30;
    let frames = 0;
    let kinetic = Infinity;
    while (frames < maxFrames) {
        await waitForFrames(demo.page, batch);
        frames += batch;
        kinetic = await demo.page.evaluate(() => window.__playground.demo!.handle.xpbd.stats.kineticEnergy);
        if (kinetic < energy) break;
    }
    return [kinetic, frames];
}

/** Edges of impostor `index` of the current demo that pierce one of its own triangles (an exact segment test). */
function selfCrossings(demo: DemoPage, index: number): Promise<number> {
    return demo.page.evaluate((k) => {
        const body = window.__playground.demo!.handle.xpbd.impostors[k].body;
        const x = body.positions;
        const tri = body.triangles;
        const sub = (a: number, b: number): number[] => [x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]];
        const cross = (u: number[], v: number[]): number[] => [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        const edges = new Set<string>();
        for (let t = 0; t < tri.length; t += 3) {
            for (let e = 0; e < 3; e++) {
                const a = tri[t + e];
                const b = tri[t + ((e + 1) % 3)];
                edges.add(`${Math.min(a, b)} ${Math.max(a, b)}`);
            }
        }
        let crossings = 0;
        for (const edge of edges) {
            const [p, q] = edge.split(" ").map(Number);
            for (let t = 0; t < tri.length; t += 3) {
                const [a, b, c] = [tri[t], tri[t + 1], tri[t + 2]];
                if (p === a || p === b || p === c || q === a || q === b || q === c) continue;
                // Möller–Trumbore on the segment p → q, strictly inside both.
                const d = sub(q, p);
                const e1 = sub(b, a);
                const e2 = sub(c, a);
                const h = cross(d, e2);
                const det = dot(e1, h);
                if (Math.abs(det) < 1e-18) continue;
                const s = sub(p, a);
                const u = dot(s, h) / det;
                if (u <= 0 || u >= 1) continue;
                const r = cross(s, e1);
                const v = dot(d, r) / det;
                if (v <= 0 || u + v >= 1) continue;
                const along = dot(e2, r) / det;
                if (along > 0 && along < 1) crossings++;
            }
        }
        return crossings;
    }, index);
}

/** The tear demo's banner: particles split so far, its particles and render vertices, and whether it is finite. */
function tearState(demo: DemoPage): Promise<{ split: number; particles: number; vertices: number; finite: boolean }> {
    return demo.page.evaluate(() => {
        const cloth = window.__playground.demo!.handle.xpbd.impostors[0];
        const body = cloth.body;
        return {
            split: body.tearing?.tornParticles ?? 0,
            particles: body.particleCount,
            vertices: cloth.mesh.getTotalVertices(),
            finite: Array.from(body.positions.subarray(0, 3 * body.particleCount)).every(Number.isFinite),
        };
    });
}

/** Renders frames (10 at a time, at most `maxFrames`) until more than `split` particles are split; returns the state. */
async function waitForTear(demo: DemoPage, split: number, maxFrames: number): ReturnType<typeof tearState> {
    let state = await tearState(demo);
    for (let frames = 0; frames < maxFrames && state.split <= split; frames += 10) {
        await waitForFrames(demo.page, 10);
        state = await tearState(demo);
    }
    // A few frames more: a tear runs on over several steps; the counts must agree whenever they are read.
    await waitForFrames(demo.page, 10);
    return tearState(demo);
}

/** Where a world point shows on the page (CSS pixels), from the camera's view and projection. */
function toScreen(demo: DemoPage, point: number[]): Promise<[number, number]> {
    return demo.page.evaluate(([x, y, z]) => {
        const scene = window.__playground.scene!;
        const m = scene.getTransformMatrix().m;
        const w = x * m[3] + y * m[7] + z * m[11] + m[15];
        const ndcX = (x * m[0] + y * m[4] + z * m[8] + m[12]) / w;
        const ndcY = (x * m[1] + y * m[5] + z * m[9] + m[13]) / w;
        const rect = scene.getEngine().getRenderingCanvas()!.getBoundingClientRect();
        return [rect.left + ((ndcX + 1) / 2) * rect.width, rect.top + ((1 - ndcY) / 2) * rect.height] as [number, number];
    }, point);
}

/** The first impostor's grabbed particle (−1 when none) and that particle's position (or the given particle's). */
function grabState(demo: DemoPage, particle = -1): Promise<{ grabbed: number; position: number[] }> {
    return demo.page.evaluate((asked) => {
        const impostor = window.__playground.demo!.handle.xpbd.impostors[0];
        const p = asked >= 0 ? asked : impostor.grabbedParticle;
        return { grabbed: impostor.grabbedParticle, position: p < 0 ? [] : Array.from(impostor.body.positions.subarray(3 * p, 3 * p + 3)) };
    }, particle);
}

let browser: Browser;
beforeAll(async () => {
    browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe.each(cases)("demo #$id", ({ id, frames, settle: settling }) => {
    let demo: DemoPage;
    let started = 0;

    beforeAll(async () => {
        started = Date.now();
        demo = await openDemo(browser, id);
        if (settling) {
            await demo.page.evaluate(() =>
                window.__playground.demo!.handle.xpbd.impostors.forEach((impostor) => (impostor.allowSleep = false)),
            );
        }
        // SwiftShader's cost is per pixel: simulate at a quarter of the pixels, draw the checked frame at full size.
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(2));
    });
    afterAll(async () => {
        await demo?.page.context().close();
        console.log(`#${id}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });

    test("loads from its URL hash with the picker, controls and Inspector button", async () => {
        const state = await demo.page.evaluate(() => ({
            hash: location.hash,
            demo: window.__playground.demo?.id,
            picker: (document.getElementById("demo-picker") as HTMLSelectElement).value,
            options: Array.from((document.getElementById("demo-picker") as HTMLSelectElement).options).map((o) => o.value),
            controls: document.querySelectorAll("#demo-controls input, #demo-controls select, #demo-controls button").length,
            inspectorButton: document.getElementById("inspector-button")?.textContent,
            impostors: window.__playground.demo?.handle.xpbd.impostors.length ?? 0,
        }));
        expect(state).toMatchObject({ hash: `#${id}`, demo: id, picker: id, inspectorButton: "Inspector" });
        expect(state.options).toEqual(expect.arrayContaining(["hanging-cloth", "flag", "cape", "jelly", "two-way", "stress"]));
        expect(state.controls).toBeGreaterThan(0);
        expect(state.impostors).toBeGreaterThan(0);
    });

    test("simulates: soft-body positions change and stay finite", async () => {
        const before = await softPositions(demo);
        await waitForFrames(demo.page, frames);
        const after = await softPositions(demo);
        expect(after.length).toBe(before.length);
        expect(after.every(Number.isFinite)).toBe(true);
        let moved = 0;
        for (let i = 0; i < after.length; i++) moved = Math.max(moved, Math.abs(after[i] - before[i]));
        // Every demo has something falling, or swung by gravity or an animation, from its first frame: its fastest
        // particle covers at least half of what free fall from rest covers in that time, ½·g·t² (0.545 m in 20
        // frames, 0.136 m in 10; measured 0.36–1.45 m). A frozen, slowed or gravity-less solver does not.
        const freeFall = 0.5 * 9.81 * (frames / 60) ** 2;
        console.log(
            `#${id}: fastest particle moved ${moved.toFixed(3)} m in ${frames} frames (free fall from rest: ${freeFall.toFixed(3)} m)`,
        );
        expect(moved).toBeGreaterThan(0.5 * freeFall);
    });

    if (id === "stress") {
        test("level of detail: the fly-through takes every impostor from full detail to asleep and back", async () => {
            // Levels and solved substeps of every rendered frame, recorded in the page.
            await demo.page.evaluate(() => {
                const { scene, demo: current } = window.__playground;
                const xpbd = current!.handle.xpbd;
                const seen: { levels: number[]; least: number } = { levels: [], least: Infinity };
                (window as unknown as { __lod: typeof seen }).__lod = seen;
                scene!.onAfterRenderObservable.add(() => {
                    xpbd.impostors.forEach((impostor) => seen.levels.includes(impostor.lodLevel) || seen.levels.push(impostor.lodLevel));
                    seen.least = Math.min(seen.least, xpbd.stats.solvedSubsteps);
                });
            });
            await demo.page.click('#demo-controls button:text-is("Fly away and back")');
            // Out at 40 m, everything sleeps; back home (11 m), every station is at full detail again.
            await demo.page.waitForFunction(() => (window as unknown as { __lod: { least: number } }).__lod.least === 0, undefined, {
                timeout: 120_000,
            });
            await demo.page.waitForFunction(
                () => {
                    const xpbd = window.__playground.demo!.handle.xpbd;
                    return (
                        Number(window.__playground.demo!.handle.figures()["camera m"]) < 11.5 &&
                        xpbd.impostors.every((i) => i.lodLevel === 0)
                    );
                },
                undefined,
                { timeout: 120_000 },
            );
            await waitForFrames(demo.page, 2);
            const result = await demo.page.evaluate(() => ({
                seen: (window as unknown as { __lod: { levels: number[] } }).__lod.levels.sort(),
                solved: window.__playground.demo!.handle.xpbd.stats.solvedSubsteps,
                substeps: window.__playground.demo!.handle.xpbd.substeps,
                impostors: window.__playground.demo!.handle.xpbd.impostors.length,
            }));
            console.log(`#stress fly-through: ${JSON.stringify(result)}`);
            expect(result.seen).toEqual([0, 1, 2]);
            expect(result.solved).toBe(result.substeps * result.impostors);
        });
    }

    if (id === "two-way") {
        test("holds heavy bodies: the 20 kg crates stay above the 0.5 kg net, the 70 kg player above the trampoline", async () => {
            await waitForFrames(demo.page, 240);
            const figures = await demo.page.evaluate(() => window.__playground.demo!.handle.figures());
            console.log(`#two-way after 240 more frames: ${JSON.stringify(figures)}`);
            // Bottoms rest on the particles' 15 mm thickness shell: above the cloth, not far above it.
            expect(figures["crates above net mm"]).toBeGreaterThan(0);
            expect(figures["crates above net mm"]).toBeLessThan(30);
            expect(figures["player above trampoline mm"]).toBeGreaterThan(0);
            expect(figures["player above trampoline mm"]).toBeLessThan(30);
            // The net's pins carry the net and the crates resting on it: (3 × 20 + 0.5) kg × g = 593.5 N. Within 2%:
            // the carried-load estimate settles at 98.9–99.2% in the stack tests (measured here 590 N).
            expect(Math.abs(Number(figures["net pins carry N"]) - 60.5 * 9.81) / (60.5 * 9.81)).toBeLessThan(0.02);
        });
    }

    if (settling) {
        test(`settles: kinetic energy falls below ${settling.energy} J`, async () => {
            const [kinetic, used] = await settle(demo, settling.energy, settling.maxFrames);
            const stats = await demo.page.evaluate(() => {
                const s = window.__playground.demo!.handle.xpbd.stats;
                return {
                    maxEdgeRatio: s.maxEdgeRatio,
                    meanEdgeRatio: s.meanEdgeRatio,
                    contacts: s.contacts,
                    maxContactCorrection: s.maxContactCorrection,
                    stepMs: s.stepMs,
                    sleepingBodies: s.sleepingBodies,
                };
            });
            console.log(`#${id}: kinetic energy ${kinetic.toExponential(2)} J after ${used} frames; ${JSON.stringify(stats)}`);
            expect(stats.sleepingBodies).toBe(0);
            expect(kinetic).toBeLessThan(settling.energy);
            // At rest it rests on something, inextensible edges within 1% of their length (1 + overshoot of the
            // solver's one pass per substep; the core 16×16 test measures 1.046 max, 1.0005 mean).
            expect(stats.contacts).toBeGreaterThan(0);
            expect(stats.maxEdgeRatio).toBeLessThan(1.1);
            expect(Math.abs(stats.meanEdgeRatio - 1)).toBeLessThan(0.01);
        });
    }

    test("shows its figures, and they are the solver's", async () => {
        await demo.page.waitForFunction(() => document.querySelectorAll("#figures > *").length > 0);
        // The panel alternates label and value spans; read it with the solver's own counts in one evaluate.
        const { shown, particles, substeps } = await demo.page.evaluate(() => {
            const spans = Array.from(document.querySelectorAll("#figures > *")).map((e) => e.textContent ?? "");
            const pairs: Record<string, string> = {};
            for (let i = 0; i + 1 < spans.length; i += 2) pairs[spans[i]] = spans[i + 1];
            const xpbd = window.__playground.demo!.handle.xpbd;
            return {
                shown: pairs,
                particles: xpbd.impostors.reduce((sum, impostor) => sum + impostor.body.particleCount, 0),
                substeps: xpbd.substeps,
            };
        });
        console.log(`#${id} figures: ${JSON.stringify(shown)}`);
        const number = (label: string): number => {
            expect(shown).toHaveProperty([label]);
            return Number(shown[label]);
        };
        // Counts match the scene; times and energies are real, non-negative figures.
        expect(number("particles")).toBe(particles);
        expect(number("substeps")).toBe(substeps);
        // The page's frame and step times (30-frame means), shown in every demo.
        expect(number("frame ms")).toBeGreaterThan(0);
        expect(number("frame ms")).toBeLessThan(5000);
        expect(number("ms / step")).toBeGreaterThan(0);
        expect(number("ms / step")).toBeLessThan(1000);
        expect(number("kinetic energy J")).toBeGreaterThanOrEqual(0);
        expect(Number.isFinite(number("kinetic energy J"))).toBe(true);
        expect(Number.isInteger(number("contacts"))).toBe(true);
        // Edges: at most the over-stretch ratio (1.5), the mean within 5% of the rest length, whatever the demo does.
        expect(number("max edge ratio")).toBeGreaterThanOrEqual(number("mean edge ratio"));
        expect(number("max edge ratio")).toBeLessThan(1.5);
        expect(Math.abs(number("mean edge ratio") - 1)).toBeLessThan(0.05);
        if (id === "hanging-cloth") {
            // After the settle test: awake, resting on the sphere, its contact correction a few millimetres at most.
            expect(shown.sleeping).toBe("no");
            expect(number("contacts")).toBeGreaterThan(0);
            expect(number("max contact corr. mm")).toBeLessThan(10);
        }
        if (id === "jelly") {
            // At rest under its own weight, with volume stiffness 1: it keeps its volume within 2% (measured 0.999).
            expect(Math.abs(number("volume ratio") - 1)).toBeLessThan(0.02);
        }
    });

    if (id === "fold") {
        test("the tablecloth lands in folds and crosses itself nowhere; a second one dropped on top lies on it", async () => {
            await waitForFrames(demo.page, 180);
            expect(await selfCrossings(demo, 0)).toBe(0);
            await demo.page.click('#demo-controls button:text-is("Drop another")');
            await waitForFrames(demo.page, 240);
            const gap = await demo.page.evaluate(() => {
                const [a, b] = window.__playground.demo!.handle.xpbd.impostors.map((impostor) => impostor.body);
                let least = Infinity;
                for (let i = 0; i < a.particleCount; i++) {
                    for (let j = 0; j < b.particleCount; j++) {
                        const d = Math.hypot(
                            a.positions[3 * i] - b.positions[3 * j],
                            a.positions[3 * i + 1] - b.positions[3 * j + 1],
                            a.positions[3 * i + 2] - b.positions[3 * j + 2],
                        );
                        least = Math.min(least, d);
                    }
                }
                return least;
            });
            console.log(`#fold: second tablecloth's closest particle ${(gap * 1000).toFixed(1)} mm from the first's`);
            // Their thicknesses are 8 mm: the particles stay at least half of that apart, and the upper one lies on the lower.
            expect(gap).toBeGreaterThan(0.004);
            expect(gap).toBeLessThan(0.05);
            expect(await selfCrossings(demo, 1)).toBe(0);
        });
    }

    if (id === "hammock") {
        test("the jelly comes to rest in the hammock, its pins carrying it; an added jelly lands on the pile", async () => {
            const G = 9.81;
            const read = () => demo.page.evaluate(() => window.__playground.demo!.handle.figures());
            /** The pin force averaged over a second (12 samples), and the least height of the jellies over the hammock. */
            const measure = async (): Promise<[number, number]> => {
                let carried = 0;
                let above = Infinity;
                for (let k = 0; k < 12; k++) {
                    await waitForFrames(demo.page, 5);
                    const figures = await read();
                    carried += Number(figures["pins carry N"]) / 12;
                    above = Math.min(above, Number(figures["jellies above hammock mm"]));
                }
                return [carried, above];
            };
            // The same scene in Node (test/babylon/hammockScene.test.ts) is asleep after 345 frames, the pins carrying
            // 14.7 N; 300 frames after the second jelly is laid, the pins carry 24.5 N (the pile still creeps).
            await waitForFrames(demo.page, 360);
            const [carriedOne, aboveOne] = await measure();
            console.log(`#hammock, one jelly: ${JSON.stringify(await read())}; pins carry ${carriedOne.toFixed(2)} N over a second`);
            // In the hammock, not through it or off its side; the pins carry the hammock and the jelly (1.5 kg).
            expect(aboveOne).toBeGreaterThan(0);
            expect(Math.abs(carriedOne / (1.5 * G) - 1)).toBeLessThan(0.05);
            await demo.page.click('#demo-controls button:text-is("Add a jelly")');
            await waitForFrames(demo.page, 300);
            const [carriedTwo, aboveTwo] = await measure();
            const two = await read();
            console.log(`#hammock, two jellies: ${JSON.stringify(two)}; pins carry ${carriedTwo.toFixed(2)} N over a second`);
            expect(two.jellies).toBe(2);
            expect(aboveTwo).toBeGreaterThan(0);
            expect(Math.abs(carriedTwo / (2.5 * G) - 1)).toBeLessThan(0.05);
        });
    }

    if (id === "cushions") {
        test("the crate rests on the cushions, which flatten and carry it at a higher pressure", async () => {
            // 800 Pa of gas at the rest volume, no air outside; the crate is damped, so it settles within 240 frames.
            await waitForFrames(demo.page, 240);
            const figures = await demo.page.evaluate(() => window.__playground.demo!.handle.figures());
            console.log(`#cushions: ${JSON.stringify(figures)}`);
            const n = (key: string): number => Number(figures[key]);
            // On the cushions, not through them: the crate's bottom stays well above the bench.
            expect(n("crate above bench mm")).toBeGreaterThan(50);
            // The crate may lean on two of them: at least two are squeezed below their rest volume, so by p·V =
            // pressure·V₀ above 800 Pa (measured: all three ×0.917 at 869 Pa, the crate 192 mm above the bench).
            const volumes = [1, 2, 3].map((k) => n(`cushion ${k} V/V0`)).sort((a, b) => a - b);
            const pressures = [1, 2, 3].map((k) => n(`cushion ${k} Pa`)).sort((a, b) => b - a);
            expect(volumes[1]).toBeLessThan(1);
            expect(pressures[1]).toBeGreaterThan(800);
        });
    }

    if (id === "rope-bridge") {
        test("the bridge holds the crates: none below the deck, nothing NaN, the ropes stretched 5% at most", async () => {
            await checkRopeBridge(demo, "#rope-bridge");
        });
    }

    if (id === "tear") {
        test("a thrown ball tears the banner: as many more particles and render vertices as it split", async () => {
            const before = await tearState(demo);
            await demo.page.click('#demo-controls button:text-is("Throw ball")');
            const after = await waitForTear(demo, before.split, 150);
            console.log(`#tear ball: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
            expect(after.split).toBeGreaterThan(before.split);
            expect(after.particles - before.particles).toBe(after.split - before.split);
            // A seamless grid mesh: one more render vertex for each particle split.
            expect(after.vertices - before.vertices).toBe(after.split - before.split);
            expect(after.finite).toBe(true);
        });

        test("dragging a corner away tears it", async () => {
            const before = await tearState(demo);
            // The bottom-right handle.
            const corner = await demo.page.evaluate(() =>
                window.__playground.scene!.getMeshByName("corner3")!.getAbsolutePosition().asArray(),
            );
            const [x, y] = await toScreen(demo, corner);
            const mouse = demo.page.mouse;
            await mouse.move(x, y);
            await mouse.down();
            // Out to the right and down, a little more every frame, then held there.
            for (let k = 1; k <= 12; k++) {
                await mouse.move(x + 30 * k, y + 12 * k);
                await waitForFrames(demo.page, 2);
            }
            const after = await waitForTear(demo, before.split, 120);
            await mouse.up();
            console.log(`#tear drag from (${x.toFixed(0)}, ${y.toFixed(0)}): ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
            expect(after.split).toBeGreaterThan(before.split);
            expect(after.vertices - before.vertices).toBe(after.split - before.split);
            expect(after.finite).toBe(true);
        });
    }

    if (id === "hanging-cloth") {
        test("the pointer drags the cloth: the particle under it follows, and falls when let go", async () => {
            // At rest (it is, after the test above; run alone, it waits), the middle of the cloth, draped on top of
            // the sphere in full view.
            await settle(demo, 1e-5, 600);
            const aimed = await demo.page.evaluate(() => {
                const body = window.__playground.demo!.handle.xpbd.impostors[0].body;
                const middle = 8 * 17 + 8;
                return Array.from(body.positions.subarray(3 * middle, 3 * middle + 3));
            });
            const [x, y] = await toScreen(demo, aimed);
            const mouse = demo.page.mouse;
            await mouse.move(x, y);
            await mouse.down();
            const grabbed = (await grabState(demo)).grabbed;
            expect(grabbed).toBeGreaterThanOrEqual(0);
            // Up and to the side, a little more every frame, then held there for a second of simulated time.
            const [dx, dy] = [60, -90];
            for (let k = 1; k <= 10; k++) {
                await mouse.move(x + (dx * k) / 10, y + (dy * k) / 10);
                await waitForFrames(demo.page, 2);
            }
            await waitForFrames(demo.page, 60);
            const held = await grabState(demo);
            const [hx, hy] = await toScreen(demo, held.position);
            const offset = Math.hypot(hx - (x + dx), hy - (y + dy));
            const [ax, ay] = await toScreen(demo, (await grabState(demo, grabbed)).position);
            await mouse.up();
            const released = await grabState(demo, grabbed);
            await waitForFrames(demo.page, 30);
            const fallen = await grabState(demo, grabbed);
            console.log(
                `#hanging-cloth drag: particle ${grabbed} grabbed at (${x.toFixed(0)}, ${y.toFixed(0)}), pointer moved by (${dx}, ${dy}) px; ` +
                    `the particle shows ${offset.toFixed(1)} px from the pointer; released at y ${released.position[1].toFixed(3)} m, ` +
                    `${fallen.position[1].toFixed(3)} m 30 frames later`,
            );
            expect(held.grabbed).toBe(grabbed);
            // The particle is where the pointer is, to within the pick's offset (the corner nearest the pointer, at
            // most half a 10 cm quad away: ~15 px at this distance) and the soft pin's sag.
            expect(offset).toBeLessThan(20);
            expect(Math.hypot(ax - x, ay - y)).toBeGreaterThan(60);
            // Let go, the particle is free again and falls.
            expect(released.grabbed).toBe(-1);
            expect(fallen.position[1]).toBeLessThan(released.position[1] - 0.05);
        });
    }

    test("draws the scene (screenshot saved)", async () => {
        await demo.page.evaluate(() => window.__playground.engine.setHardwareScalingLevel(1));
        await waitForFrames(demo.page, 2);
        const stats = await canvasPixelStats(demo.page);
        await saveScreenshot(demo.page, id);
        expect(stats.width * stats.height).toBeGreaterThan(0);
        expect(stats.distinctColours).toBeGreaterThan(20);
        expect(stats.nonBackgroundFraction).toBeGreaterThan(0.2);
    });

    if (id === "cape") {
        test("the cape is lit on both faces: its back, turned from the sun, is at least 60% as bright as its front (screenshots saved)", async () => {
            /**
             * Mean luminance (0–255) of the cape's pixels, their count and share of the frame, with the camera 3 m out
             * along its mean normal turned towards the sun (`side` 1, the front) or away from it (−1, the back).
             */
            const view = (side: number) =>
                demo.page.evaluate(async (sign) => {
                    const scene = window.__playground.scene!;
                    const cape = window.__playground.demo!.handle.xpbd.impostors[0];
                    const x = cape.body.positions;
                    const t = cape.body.triangles;
                    // The cape alone, on black: every lit pixel is the cape's.
                    scene.meshes.forEach((mesh) => (mesh.isVisible = mesh === cape.mesh));
                    scene.clearColor.set(0, 0, 0, 1);
                    const centre = cape.getCenterOfMass();
                    const normal = centre.scale(0);
                    for (let k = 0; k < t.length; k += 3) {
                        const [a, b, c] = [3 * t[k], 3 * t[k + 1], 3 * t[k + 2]];
                        const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
                        const e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
                        normal.x += e1[1] * e2[2] - e1[2] * e2[1];
                        normal.y += e1[2] * e2[0] - e1[0] * e2[2];
                        normal.z += e1[0] * e2[1] - e1[1] * e2[0];
                    }
                    normal.normalize();
                    const sun = scene.getLightByName("sun") as unknown as { direction: typeof normal };
                    if (normal.x * sun.direction.x + normal.y * sun.direction.y + normal.z * sun.direction.z > 0) normal.scaleInPlace(-1);
                    const camera = scene.activeCamera as unknown as { setPosition(p: unknown): void; setTarget(p: unknown): void };
                    camera.setTarget(centre);
                    camera.setPosition(centre.add(normal.scale(3 * sign)));
                    await new Promise<void>((resolve) => {
                        let frames = 0;
                        const observer = scene.onAfterRenderObservable.add(() => {
                            if (++frames === 3) {
                                scene.onAfterRenderObservable.remove(observer);
                                resolve();
                            }
                        });
                    });
                    const source = scene.getEngine().getRenderingCanvas()!;
                    const copy = document.createElement("canvas");
                    [copy.width, copy.height] = [source.width, source.height];
                    const ctx = copy.getContext("2d", { willReadFrequently: true })!;
                    ctx.drawImage(source, 0, 0);
                    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
                    let sum = 0;
                    let count = 0;
                    for (let i = 0; i < data.length; i += 4) {
                        const luminance = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
                        if (data[i] + data[i + 1] + data[i + 2] > 0) {
                            sum += luminance;
                            count++;
                        }
                    }
                    return { mean: count > 0 ? sum / count : 0, pixels: count, share: count / (copy.width * copy.height) };
                }, side);
            const front = await view(1);
            await saveScreenshot(demo.page, "cape-front");
            const back = await view(-1);
            await saveScreenshot(demo.page, "cape-back");
            const ratio = back.mean / front.mean;
            console.log(`#cape faces: front ${JSON.stringify(front)}, back ${JSON.stringify(back)}; back / front ${ratio.toFixed(2)}`);
            // The cape fills a real part of each view (a culled face draws nothing).
            expect(front.share).toBeGreaterThan(0.02);
            expect(back.share).toBeGreaterThan(0.02);
            // With fill F (sky) and direct light D on the front, the back gets F plus what the thin fabric lets through
            // (FABRIC_TRANSMISSION, 0.4 of D): back / front = (F + 0.4·D) / (F + D), at least 0.4 in any pose and
            // 0.7–0.9 with this stage's fill (measured 0.88 here; 0.69 with the fill alone, no transmission). A back
            // face culled draws nothing (0), and the former dimmer sky without transmission measured 0.56: 0.6 fails
            // a dark back and leaves room for the cape's changing pose.
            expect(ratio).toBeGreaterThan(0.6);
        });
    }

    test("reports no console errors, failed requests or missing side-effect imports", () => {
        expect(demo.errors).toEqual([]);
    });
});
