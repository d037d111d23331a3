/**
 * babylon-xpbd/inspector: soft-body panes for the Babylon.js Inspector (v2). A separate entry point, so that an
 * app that never opens the Inspector pays nothing for it.
 *
 * ```ts
 * const { showXpbdInspector } = await import("babylon-xpbd/inspector");
 * showXpbdInspector(scene);                       // the Inspector with the soft-body panes
 * showXpbdInspector(scene, { layoutMode: "inline", serviceDefinitions: [myOwnPane] }); // merged with your options
 * ```
 *
 * Adds: a "Soft bodies" side pane (impostor list, solver quality, parameters, pin-weight painting, residual
 * heatmap, contacts view), the same panels as Properties sections of a simulated mesh, a Statistics section, and a
 * Scene Explorer section. The Inspector cannot be extended once open, hence {@link showXpbdInspector}, which merges
 * {@link XPBD_INSPECTOR_SERVICE_DEFINITIONS} into the options of `ShowInspector`.
 */
import { ShowInspector, type InspectorOptions, type WeaklyTypedServiceDefinition } from "@babylonjs/inspector";
import type { IReadonlyObservable } from "@babylonjs/core/Misc/observable";
// The Inspector's mesh properties read occlusion-query properties, which an app built on deep imports may lack
// (they then warn "requires a side-effect import" and the Properties pane fails to render its Occlusion lines).
import "@babylonjs/core/Engines/AbstractEngine/abstractEngine.query";
import type { Scene } from "@babylonjs/core/scene";
import { XpbdPropertiesServiceDefinition } from "./propertiesSections.js";
import { XpbdSceneExplorerServiceDefinition } from "./sceneExplorerSection.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";
import { XpbdSessionServiceDefinition } from "./sessionService.js";
import { XpbdSoftBodiesPaneServiceDefinition } from "./softBodiesPane.js";
import { XpbdStatsServiceDefinition } from "./statsSection.js";

export type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";
export { XpbdSessionServiceDefinition, XpbdSessionServiceIdentity, type XpbdSessionService } from "./sessionService.js";
export { XpbdSoftBodiesPaneServiceDefinition, SOFT_BODIES_PANE_KEY } from "./softBodiesPane.js";
export { XpbdPropertiesServiceDefinition } from "./propertiesSections.js";
export { XpbdStatsServiceDefinition, STATS_SECTION } from "./statsSection.js";
export { XpbdSceneExplorerServiceDefinition } from "./sceneExplorerSection.js";
export { XpbdInspectorSession, impostorOfEntity } from "./inspectorSession.js";
export { ImpostorOverlay, type OverlayMode, type OverlayState } from "./impostorOverlay.js";
export { CONTACT_COLORS, ContactsOverlay, type ContactCounts } from "./contactsOverlay.js";
export { RESIDUAL_KINDS, residualValues, type ResidualKind, type ResidualKindInfo } from "./residualKinds.js";
export { heatColor } from "./heatColor.js";
export { PinPainter, type PaintSettings, type PaintTool } from "./pinPainter.js";
export { exportPinWeights, importPinWeights, type PinWeightsDocument } from "./pinWeightsJson.js";
export { parametersAsCode, parametersAsJson, parameterTable } from "./parameterSnippet.js";
export { QUALITY_TIERS, type QualityTier } from "./qualityTiers.js";
export { REPLAY_FILE_EXTENSION, STATE_FILE_EXTENSION } from "./statePanel.js";

/**
 * Every soft-body service, in dependency order (the session first). Pass them with the Inspector's own options
 * through {@link showXpbdInspector}.
 */
export const XPBD_INSPECTOR_SERVICE_DEFINITIONS: readonly XpbdInspectorServiceDefinition[] = [
    XpbdSessionServiceDefinition,
    XpbdSoftBodiesPaneServiceDefinition,
    XpbdPropertiesServiceDefinition,
    XpbdStatsServiceDefinition,
    XpbdSceneExplorerServiceDefinition,
];

/**
 * Options of {@link showXpbdInspector}: any option of the Inspector's `ShowInspector` (typed loosely here, because
 * the Inspector's own types cannot appear in this package's declarations). `serviceDefinitions` are added after ours.
 */
export interface XpbdInspectorOptions {
    /** More Inspector services, registered after the soft-body services. */
    serviceDefinitions?: readonly object[];
    /** Any other `ShowInspector` option (`layoutMode`, `containerElement`, `disableTeachingMoments`, …). */
    [option: string]: unknown;
}

/** The open Inspector (the token `ShowInspector` returns). */
export interface XpbdInspectorHandle {
    /** Closes the Inspector; the soft-body overlays and paint mode are turned off and the meshes restored. */
    dispose(): Promise<void>;
    /** Whether it was closed. */
    readonly isDisposed: boolean;
    /** Fired when it closes. */
    readonly onDisposed: IReadonlyObservable<void>;
}

/**
 * Opens the Babylon Inspector on `scene` with the soft-body panes (an Inspector already open on the scene is
 * replaced). Teaching moments are off unless the options say otherwise.
 * @param scene - the scene (its XpbdPlugin may be created before or after)
 * @param options - `ShowInspector` options; their `serviceDefinitions` are appended to ours
 */
export function showXpbdInspector(scene: Scene, options: XpbdInspectorOptions = {}): XpbdInspectorHandle {
    const { serviceDefinitions = [], ...rest } = options;
    const merged = {
        disableTeachingMoments: true,
        ...rest,
        serviceDefinitions: [
            ...XPBD_INSPECTOR_SERVICE_DEFINITIONS,
            ...serviceDefinitions,
        ] as unknown as readonly WeaklyTypedServiceDefinition[],
    } as Partial<InspectorOptions>;
    return ShowInspector(scene, merged);
}
