import type { XpbdPluginOptions } from "../../src/babylon/xpbdPluginOptions.js";
import type { XpbdBackendOption } from "../../src/babylon/gpuBackend.js";

/**
 * A demo's plugin options with the page's `?backend=auto|cpu|webgpu` (default auto: WebGPU on `?engine=webgpu`), so
 * that every demo can run on either backend.
 */
export function pluginOptions(options: XpbdPluginOptions = {}): XpbdPluginOptions {
    // No location in Node (the replay test builds the cape scene there): the default backend.
    const backend = typeof location === "undefined" ? null : new URLSearchParams(location.search).get("backend");
    return backend === null ? options : { ...options, backend: backend as XpbdBackendOption };
}
