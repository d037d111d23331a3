import { waitForFrames, type DemoPage } from "./browser";

/**
 * The `#rope-bridge` demo's physics check, on whichever engine and backend its page runs: 240 frames (4 s) after
 * `demo` opened, when the three crates have landed and the bridge has stopped swinging much, nothing is NaN, every
 * crate's centre is above the lowest plank, the deck hangs within 0.3 m of where it was built (the ropes' middle at
 * 1.70 m, the planks' centres 4.5 cm under it) and the ropes are stretched 5% at most. Logs the figures under `label`
 * and returns them.
 */
export async function checkRopeBridge(demo: DemoPage, label: string): Promise<Record<string, string | number>> {
    await waitForFrames(demo.page, 240);
    const figures = await demo.page.evaluate(() => window.__playground.demo!.handle.figures());
    const finite = await demo.page.evaluate(() =>
        window.__playground.demo!.handle.xpbd.impostors.every((impostor) => Array.from(impostor.body.positions).every(Number.isFinite)),
    );
    console.log(`${label}: ${JSON.stringify(figures)}`);
    const n = (key: string): number => Number(figures[key]);
    expect(finite).toBe(true);
    expect(n("lowest crate m")).toBeGreaterThan(n("lowest plank m"));
    expect(n("lowest plank m")).toBeGreaterThan(1.4);
    expect(n("rope max edge ratio")).toBeLessThan(1.05);
    return figures;
}
