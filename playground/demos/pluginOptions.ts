import type { XpbdPluginOptions } from "../../src/babylon/xpbdPluginOptions.js";
import type { XpbdBackendOption } from "../../src/babylon/gpuBackend.js";

/**
 * A demo's plugin options with the page's `?backend=auto|cpu|webgpu` (default auto: WebGPU on `?engine=webgpu`), so
 * that every demo can run on either backend.
 */
export function pluginOptions(options: XpbdPluginOptions = {}): XpbdPluginOptions {
    // No page in Node (the cape scene is also replayed there): the options as given.
    const backend = new URLSearchParams(globalThis.location?.search ?? "").get("backend");
    return backend === null ? options : { ...options, backend: backend as XpbdBackendOption };
}
