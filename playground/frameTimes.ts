import type { Scene } from "@babylonjs/core/scene";
import type { XpbdPlugin } from "../src/babylon/xpbdPlugin.js";

/** Frames in each mean: long enough to steady the figure, short enough to follow a change of settings. */
const WINDOW = 30;

/**
 * The page's frame-time figures, shown above every demo's own: the mean frame time and the mean XPBD step time
 * (`xpbd.stats.stepMs`) over the last {@link WINDOW} rendered frames. Observes the scene, and goes with it.
 */
export class FrameTimes {
    private readonly _frameMs = new Float64Array(WINDOW);
    private readonly _stepMs = new Float64Array(WINDOW);
    private _frames = 0;

    public constructor(scene: Scene, xpbd: XpbdPlugin) {
        const engine = scene.getEngine();
        scene.onAfterRenderObservable.add(() => {
            const k = this._frames++ % WINDOW;
            this._frameMs[k] = engine.getDeltaTime();
            this._stepMs[k] = xpbd.stats.stepMs;
        });
    }

    /** `frame ms` and `ms / step`, each the mean over the frames timed so far (at most {@link WINDOW}). */
    public figures(): Record<string, string> {
        const n = Math.max(1, Math.min(this._frames, WINDOW));
        const mean = (a: Float64Array): number => a.reduce((sum, v) => sum + v, 0) / n;
        return { "frame ms": mean(this._frameMs).toFixed(1), "ms / step": mean(this._stepMs).toFixed(2) };
    }
}
