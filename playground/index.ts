import "@babylonjs/core/Culling/ray"; // scene.pick, used by pointer events
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import { Engine } from "@babylonjs/core/Engines/engine";
import { SetMissingSideEffectWarningsEnabled } from "@babylonjs/core/Misc/devTools";
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent"; // without these two, scene.enablePhysics does nothing
import "@babylonjs/core/Physics/v2/physicsEngineComponent";
import { Scene } from "@babylonjs/core/scene";
import HavokPhysics from "@babylonjs/havok";
import type { Demo, DemoHandle } from "./demos/demo.js";
import { bigCloth } from "./demos/bigCloth.js";
import { cape } from "./demos/cape.js";
import { flag } from "./demos/flag.js";
import { fold } from "./demos/fold.js";
import { hammock } from "./demos/hammock.js";
import { hangingCloth } from "./demos/hangingCloth.js";
import { inspectorShowcase } from "./demos/inspectorShowcase.js";
import { cushions } from "./demos/cushions.js";
import { ropeBridge } from "./demos/ropeBridge.js";
import { jelly } from "./demos/jelly.js";
import { enableParticleDragging } from "./demos/particleDragging.js";
import { stress } from "./demos/stress.js";
import { tear } from "./demos/tear.js";
import { twoWay } from "./demos/twoWay.js";
import { FrameTimes } from "./frameTimes.js";

/** The page's state, exposed as `window.__playground` for the browser tests and the devtools console. */
export interface Playground {
    /** A WebGL2 `Engine`, or a `WebGPUEngine` with `?engine=webgpu` in the URL. */
    readonly engine: AbstractEngine;
    /** Every registered demo, in picker order. */
    readonly demos: readonly Pick<Demo, "id" | "title">[];
    /** The current demo's scene; undefined while a demo is being built. */
    scene: Scene | undefined;
    /** The current demo and its frame-time figures; undefined while a demo is being built. */
    demo: { id: string; title: string; handle: DemoHandle; frameTimes: FrameTimes } | undefined;
    /** Settles when the most recently requested demo is built (or rejects with its error). */
    ready: Promise<void>;
}

declare global {
    interface Window {
        __playground: Playground;
    }
}

const demos: readonly Demo[] = [
    hangingCloth,
    flag,
    cape,
    jelly,
    twoWay,
    stress,
    inspectorShowcase,
    tear,
    fold,
    hammock,
    cushions,
    ropeBridge,
    bigCloth,
];
const defaultDemo = hangingCloth;

// Deep imports fail silently when a side-effect import is missing; make that loud (the e2e tests flag it).
// Scene.getBoundingBoxRenderer / getOutlineRenderer warn anyway: Babylon's render loop probes them, nothing is missing.
SetMissingSideEffectWarningsEnabled(true);

const canvas = document.getElementById("render-canvas") as HTMLCanvasElement;
const picker = document.getElementById("demo-picker") as HTMLSelectElement;
const figuresPanel = document.getElementById("figures") as HTMLElement;
const controlsPanel = document.getElementById("demo-controls") as HTMLElement;
const inspectorButton = document.getElementById("inspector-button") as HTMLButtonElement;

/**
 * The page's engine: WebGL2 by default, `WebGPUEngine` with `?engine=webgpu` (its module is loaded only then).
 * preserveDrawingBuffer lets tests read the canvas back after the frame is presented.
 */
async function createEngine(): Promise<AbstractEngine> {
    if (new URLSearchParams(location.search).get("engine") === "webgpu") {
        const { WebGPUEngine } = await import("@babylonjs/core/Engines/webgpuEngine");
        const webgpu = new WebGPUEngine(canvas, { antialias: true });
        await webgpu.initAsync();
        return webgpu;
    }
    return new Engine(canvas, true, { preserveDrawingBuffer: true });
}

const engine = await createEngine();
const havokReady = HavokPhysics();

const playground: Playground = {
    engine,
    demos: demos.map(({ id, title }) => ({ id, title })),
    scene: undefined,
    demo: undefined,
    ready: Promise.resolve(),
};
window.__playground = playground;

function demoFromHash(): Demo {
    const id = decodeURIComponent(location.hash.slice(1));
    return demos.find((d) => d.id === id) ?? defaultDemo;
}

/** Removes the current demo's pointer dragging (every demo gets it: press on a cloth or jelly to drag it). */
let stopDragging = (): void => undefined;

async function load(demo: Demo): Promise<void> {
    const { scene: previous, demo: previousDemo } = playground;
    playground.scene = undefined;
    playground.demo = undefined;
    stopDragging();
    previousDemo?.handle.dispose();
    previous?.dispose();
    controlsPanel.replaceChildren();
    figuresPanel.replaceChildren();

    const scene = new Scene(engine);
    const handle = await demo.create(scene, await havokReady);
    stopDragging = enableParticleDragging(scene, handle.xpbd);
    playground.scene = scene;
    playground.demo = { id: demo.id, title: demo.title, handle, frameTimes: new FrameTimes(scene, handle.xpbd) };
    picker.value = demo.id;
    // Unknown or empty hashes show the default demo; make the URL say so (replaceState fires no hashchange).
    if (location.hash !== `#${demo.id}`) history.replaceState(null, "", `#${demo.id}`);
    document.title = `${demo.title} · babylon-xpbd`;
}

/** Loads are chained so a quick series of hash changes never builds two scenes at once. */
function requestDemo(demo: Demo): void {
    playground.ready = playground.ready.catch(() => undefined).then(() => load(demo));
    playground.ready.catch((error: unknown) => console.error(`Demo "${demo.id}" failed to load:`, error));
}

/** The figures panel: frame rate and frame times first, in every demo, then the demo's own figures. */
function showFigures(): void {
    const current = playground.demo;
    if (!current) return;
    const { xpbd } = current.handle;
    const onGpu = xpbd.impostors.filter((impostor) => impostor.backend === "webgpu").length;
    const figures = {
        fps: engine.getFps().toFixed(0),
        ...current.frameTimes.figures(),
        // Which solver runs the impostors: the plugin's backend, and on WebGPU how many run there (the rest fell back).
        backend: xpbd.backend === "webgpu" ? `webgpu (${onGpu} of ${xpbd.impostors.length} on the GPU)` : "cpu",
        // Timestamp queries: shown where the device measures them.
        ...(Number.isFinite(xpbd.gpuStepMs) ? { "GPU ms / step": xpbd.gpuStepMs.toFixed(2) } : {}),
        // Steps the GPU's impulses on Havok bodies arrive late beyond one (predicted on the GPU meanwhile).
        ...(Number.isFinite(xpbd.gpuReadBackLag) ? { "GPU read-back lag (steps)": xpbd.gpuReadBackLag } : {}),
        ...current.handle.figures(),
    };
    figuresPanel.replaceChildren(
        ...Object.entries(figures).flatMap(([label, value]) => {
            const key = document.createElement("span");
            key.textContent = label;
            const val = document.createElement("span");
            val.textContent = String(value);
            return [key, val];
        }),
    );
}

/**
 * Opens the Babylon Inspector with the XPBD panes on the current scene. The inspector entry (React, Fluent UI and
 * the Inspector itself: several MB) is a separate chunk, fetched the first time the button is pressed.
 */
async function openInspector(): Promise<void> {
    await playground.ready;
    const scene = playground.scene;
    if (!scene) return;
    const { showXpbdInspector } = await import("../src/inspector/index.js");
    showXpbdInspector(scene);
}

inspectorButton.addEventListener("click", () => {
    openInspector().catch((error: unknown) => console.error("The Inspector failed to open:", error));
});

picker.replaceChildren(...demos.map(({ id, title }) => new Option(title, id)));
picker.addEventListener("change", () => {
    location.hash = picker.value;
});
window.addEventListener("hashchange", () => requestDemo(demoFromHash()));
window.addEventListener("resize", () => engine.resize());

requestDemo(demoFromHash());
engine.runRenderLoop(() => playground.scene?.render());
setInterval(showFigures, 250);
