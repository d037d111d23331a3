import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";

/** A running demo, as the playground page and the browser tests see it. */
export interface DemoHandle {
    /** Live numbers for the figures panel (and for tests), keyed by a human-readable label. */
    figures(): Record<string, number | string>;
    /** Releases what disposing the scene does not: DOM elements, timers, listeners outside the scene. */
    dispose(): void;
    /** What some of the demo's buttons do, awaitable by name (for the browser tests and the console). */
    readonly actions?: Readonly<Record<string, () => Promise<void>>>;
    /** The demo's XPBD plugin (its impostors, stats and world), for the Inspector, the tests and the console. */
    readonly xpbd: XpbdPlugin;
}

/** One entry of the playground's demo picker, selected by `#id` in the URL. */
export interface Demo {
    /** URL-hash key, kebab-case. */
    readonly id: string;
    /** Label in the demo picker. */
    readonly title: string;
    /**
     * Fills a fresh, empty scene (camera, lights, physics and content) and resolves once it can be rendered.
     * @param scene - The scene to fill; the page disposes it when another demo is picked.
     * @param havok - The page's one Havok instance, shared by all scenes.
     */
    create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle>;
}
