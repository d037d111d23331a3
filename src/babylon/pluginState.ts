/**
 * `XpbdPlugin.saveState` and `restoreState`: the core world's snapshot (`worldSnapshot.ts`) without the colliders,
 * which are Havok's, with the options of the plugin and its impostors as JSON, and errors that name the impostor.
 */
import { captureWorldState, checkBodyFits, restoreWorldState, XpbdDataError, type XpbdSnapshot } from "../core/index.js";
import type { XpbdPlugin } from "./xpbdPlugin.js";

/** The plugin's options and every impostor's, as a JSON-ready object. */
export function pluginOptions(plugin: XpbdPlugin): object {
    return {
        plugin: {
            defaultsVersion: plugin.defaultsVersion,
            substeps: plugin.substeps,
            iterations: plugin.iterations,
            airDensity: plugin.airDensity,
            wind: Array.from(plugin.world.wind),
        },
        impostors: plugin.impostors.map((impostor) => ({
            className: impostor.getClassName(),
            mesh: impostor.mesh.name,
            options: impostor.getOptions(),
        })),
    };
}

/** See `XpbdPlugin.saveState`. */
export function savePluginState(plugin: XpbdPlugin): XpbdSnapshot {
    return captureWorldState(plugin.world, { colliders: false, options: JSON.stringify(pluginOptions(plugin)) });
}

/** See `XpbdPlugin.restoreState`. */
export function restorePluginState(plugin: XpbdPlugin, snapshot: XpbdSnapshot): void {
    const impostors = plugin.impostors;
    const states = (snapshot as Partial<XpbdSnapshot> | null)?.bodies;
    try {
        // The impostors are checked first so that the error can name the mesh; the core checks everything again.
        if (Array.isArray(states)) {
            if (states.length !== impostors.length) {
                throw new XpbdDataError(
                    "mismatch",
                    `the snapshot holds ${states.length} bodies, this plugin has ${impostors.length} impostors`,
                );
            }
            impostors.forEach((impostor, i) => {
                const state = states[i];
                if (typeof state === "object" && state !== null) {
                    const name = `impostor ${i} (${impostor.getClassName()} of mesh "${impostor.mesh.name}")`;
                    checkBodyFits(state, impostor.body, `snapshot body ${i}`, name);
                }
            });
        }
        restoreWorldState(plugin.world, snapshot, { colliders: false });
    } catch (error) {
        if (error instanceof XpbdDataError) {
            throw new XpbdDataError(error.reason, `XpbdPlugin.restoreState: ${error.message}`);
        }
        throw error;
    }
    for (const impostor of impostors) {
        impostor._afterRestore();
    }
}
