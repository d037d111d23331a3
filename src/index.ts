/**
 * babylon-xpbd: cloth and soft bodies for Babylon.js 9 simulated with XPBD beside Havok rigid bodies (physics v2).
 * This entry is what a Babylon scene needs: the plugin, the impostors (cloth, soft bodies, ropes), their options, defaults and events. The engine
 * without Babylon (worlds, bodies, colliders, constraint sets, and the `SoftBody` and `StepStats` types that
 * `impostor.body` and `xpbd.stats` return) is the `babylon-xpbd/core` entry, and the mesh builders (cloth topology,
 * tetrahedralisation, render binding) are `babylon-xpbd/meshing`.
 */
/** The package version, kept equal to `version` in package.json. */
export const VERSION = "0.1.0";

export { XpbdPlugin } from "./babylon/xpbdPlugin.js";
export type { XpbdPluginOptions } from "./babylon/xpbdPluginOptions.js";
export type { XpbdBackend, XpbdBackendOption } from "./babylon/gpuBackend.js";
export type { XpbdCapacityEvent, XpbdCapacityKind } from "./babylon/stepEvents.js";
export type { XpbdPluginTimings } from "./babylon/pluginTimings.js";
export { LOD_DEFAULTS, XpbdLodLevel, type XpbdLodOptions } from "./babylon/levelOfDetail.js";
export { SoftImpostor, type SoftImpostorEvent } from "./babylon/softImpostor.js";
export {
    SOFT_IMPOSTOR_DEFAULTS,
    type ResolvedSoftImpostorOptions,
    type SoftImpostorKind,
    type SoftImpostorOptions,
    type SoftImpostorOptionValues,
} from "./babylon/softImpostorOptions.js";
export { CLOTH_IMPOSTOR_DEFAULTS, ClothImpostor, type ClothImpostorOptions, type ClothTearEvent } from "./babylon/clothImpostor.js";
export {
    SOFT_BODY_IMPOSTOR_DEFAULTS,
    SoftBodyImpostor,
    type SoftBodyImpostorAsyncOptions,
    type SoftBodyImpostorOptions,
} from "./babylon/softBodyImpostor.js";
export { ROPE_IMPOSTOR_DEFAULTS, RopeImpostor, type RopeImpostorOptions } from "./babylon/ropeImpostor.js";
export type { RopeRender } from "./babylon/ropeRenderSync.js";
export type { PinTarget } from "./babylon/pinTargets.js";
export {
    BONE_COLLIDERS_DEFAULTS,
    BoneColliders,
    createBoneColliders,
    type BoneCollider,
    type BoneCollidersOptions,
} from "./babylon/boneColliders.js";
export type { XpbdParticlePick } from "./babylon/particlePicking.js";
export { DEFAULT_GRAB_STIFFNESS } from "./core/particleGrab.js";
export { SoftBodyEventType } from "./core/eventQueue.js";
export { getDefaults, LATEST_DEFAULTS_VERSION } from "./core/defaults.js";
export { XpbdDataError, type XpbdDataErrorReason } from "./core/snapshotError.js";
export type { XpbdSnapshot } from "./core/worldSnapshot.js";
export { parseSnapshot, serializeSnapshot, type ParseSnapshotOptions } from "./core/snapshotFormat.js";
export { parseReplay, serializeReplay, type ParseReplayOptions } from "./core/replayFormat.js";
export { XpbdRecorder, type XpbdRecorderStopReason } from "./babylon/xpbdRecorder.js";
export {
    applyMaterialPreset,
    ClothPresets,
    matchingMaterialPreset,
    SoftBodyPresets,
    type ClothPreset,
    type ClothPresetName,
    type SoftBodyPreset,
    type SoftBodyPresetName,
} from "./babylon/materialPresets.js";
