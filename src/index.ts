/**
 * babylon-xpbd: cloth and soft bodies for Babylon.js 9 simulated with XPBD beside Havok rigid bodies (physics v2).
 * The Babylon layer (plugin, impostors) plus the public APIs of the core engine and the mesh builders.
 */
/** The package version, kept equal to `version` in package.json. */
export const VERSION = "0.1.0";

export {
    XpbdPlugin,
    type XpbdCapacityEvent,
    type XpbdCapacityKind,
    type XpbdPluginOptions,
    type XpbdPluginTimings,
} from "./babylon/xpbdPlugin.js";
export {
    SOFT_IMPOSTOR_DEFAULTS,
    SoftImpostor,
    type ResolvedSoftImpostorOptions,
    type SoftImpostorEvent,
    type SoftImpostorKind,
    type SoftImpostorOptions,
    type SoftImpostorOptionValues,
} from "./babylon/softImpostor.js";
export { CLOTH_IMPOSTOR_DEFAULTS, ClothImpostor, type ClothImpostorOptions } from "./babylon/clothImpostor.js";
export { SOFT_BODY_IMPOSTOR_DEFAULTS, SoftBodyImpostor, type SoftBodyImpostorOptions } from "./babylon/softBodyImpostor.js";
export type { PinTarget } from "./babylon/pinTargets.js";
export { readHavokMotion, type HavokMotionState } from "./babylon/havokBodyReader.js";
export { readHavokShape } from "./babylon/havokShapeReader.js";
export * from "./core/index.js";
export * from "./meshing/index.js";
