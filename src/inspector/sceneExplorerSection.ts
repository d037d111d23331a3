/**
 * The "Soft bodies" section of the Scene Explorer: one entry per impostor. Selecting one shows its sections in the
 * Properties pane and its panels in the "Soft bodies" pane.
 */
import {
    SceneExplorerServiceIdentity,
    SceneContextIdentity,
    type ISceneContext,
    type ISceneExplorerService,
    type ServiceDefinition,
} from "@babylonjs/inspector";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { XpbdPlugin } from "../babylon/xpbdPlugin.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";

const definition: ServiceDefinition<[], [ISceneExplorerService, ISceneContext]> = {
    friendlyName: "XPBD soft bodies explorer section",
    consumes: [SceneExplorerServiceIdentity, SceneContextIdentity],
    factory: (explorer, sceneContext) => {
        const plugin = () => {
            const scene = sceneContext.currentScene;
            return scene ? XpbdPlugin.FromScene(scene) : null;
        };
        const registration = explorer.addSection<SoftImpostor>({
            displayName: "Soft bodies",
            order: 150,
            getRootEntities: () => plugin()?.impostors ?? [],
            getEntityDisplayInfo: (impostor) => ({
                name: `${impostor.mesh.name} (${impostor.kind === "softBody" ? "soft body" : impostor.kind})`,
            }),
            getEntityAddedObservables: () => {
                const p = plugin();
                return p ? [p.onImpostorAddedObservable] : [];
            },
            getEntityRemovedObservables: () => {
                const p = plugin();
                return p ? [p.onImpostorRemovedObservable] : [];
            },
        });
        return { dispose: () => registration.dispose() };
    },
};

/** Adds the "Soft bodies" section to the Scene Explorer. */
export const XpbdSceneExplorerServiceDefinition: XpbdInspectorServiceDefinition = definition;
