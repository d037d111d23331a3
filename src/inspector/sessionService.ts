/**
 * The service that owns the {@link XpbdInspectorSession} of the inspected scene, shared by the soft-body pane, the
 * Properties sections, the stats and the Scene Explorer section. It follows the Inspector's scene context (a new
 * session when the scene changes) and disposes the session, restoring every mesh, when the Inspector closes.
 */
import {
    SceneContextIdentity,
    SelectionServiceIdentity,
    type ISceneContext,
    type ISelectionService,
    type IService,
    type ServiceDefinition,
} from "@babylonjs/inspector";
import { Observable, type IReadonlyObservable } from "@babylonjs/core/Misc/observable";
import type { Nullable } from "@babylonjs/core/types";
import { XpbdInspectorSession } from "./inspectorSession.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";

/** Identity of the session service (consume it to build more soft-body panes). */
export const XpbdSessionServiceIdentity = Symbol("XpbdInspectorSession");

/** What the session service offers. */
export interface XpbdSessionService {
    /** The session of the Inspector's current scene (null without a scene). */
    readonly session: Nullable<XpbdInspectorSession>;
    /** Fired when {@link session} is replaced. */
    readonly onSessionChanged: IReadonlyObservable<void>;
}

/** The session service as the Inspector's service container types it (kept out of the .d.ts). */
type XpbdSessionServiceContract = XpbdSessionService & IService<typeof XpbdSessionServiceIdentity>;

const definition: ServiceDefinition<[XpbdSessionServiceContract], [ISceneContext, ISelectionService]> = {
    friendlyName: "XPBD soft-body session",
    produces: [XpbdSessionServiceIdentity],
    consumes: [SceneContextIdentity, SelectionServiceIdentity],
    factory: (sceneContext, selectionService) => {
        const onSessionChanged = new Observable<void>();
        const selection = {
            get: () => selectionService.selectedEntity,
            set: (entity: Nullable<object>) => {
                selectionService.selectedEntity = entity;
            },
            onChanged: selectionService.onSelectedEntityChanged,
        };
        let session: Nullable<XpbdInspectorSession> = null;
        const open = () => {
            session?.dispose();
            const scene = sceneContext.currentScene;
            session = scene ? new XpbdInspectorSession(scene, selection) : null;
            onSessionChanged.notifyObservers();
        };
        open();
        const sceneObserver = sceneContext.currentSceneObservable.add(open);
        return {
            get session() {
                return session;
            },
            onSessionChanged,
            dispose: () => {
                sceneObserver.remove();
                session?.dispose();
                session = null;
                onSessionChanged.clear();
            },
        };
    },
};

/** Produces the shared soft-body session; every other soft-body service consumes it. */
export const XpbdSessionServiceDefinition: XpbdInspectorServiceDefinition = definition;
