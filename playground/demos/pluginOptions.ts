import type { XpbdPluginOptions } from "../../src/babylon/xpbdPluginOptions.js";
import type { XpbdBackendOption } from "../../src/babylon/gpuBackend.js";

/**
 * A demo's plugin options with the page's `?backend=auto|cpu|webgpu` (default auto: WebGPU on `?engine=webgpu`), so
 * that every demo can run on either backend.
 */
export function pluginOptions(options: XpbdPluginOptions = {}): XpbdPluginOptions {
    const backend = new URLSearchParams(location.search).get("backend");
    return backend === null ? options : { ...options, backend: backend as XpbdBackendOption };
}
