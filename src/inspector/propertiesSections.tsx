/**
 * Sections of the Inspector's Properties pane for a simulated mesh (or an impostor picked in the Scene
 * Explorer's "Soft bodies" section): parameters, pin weights, the residual heatmap, the contacts view and the diagnosis.
 */
import { PropertiesServiceIdentity, type IPropertiesService, type IService, type ServiceDefinition } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { ContactsPanel } from "./contactsPanel.js";
import { DiagnosisPanel } from "./diagnosisPanel.js";
import { HeatmapPanel } from "./heatmapPanel.js";
import { impostorOfEntity } from "./inspectorSession.js";
import { paintsVertices, SECTION_TITLES } from "./impostorSections.js";
import { ParametersPanel } from "./parametersPanel.js";
import { PinWeightsPanel } from "./pinWeightsPanel.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";
import { useSession } from "./sessionHooks.js";
import { XpbdSessionServiceIdentity, type XpbdSessionService } from "./sessionService.js";

type Sessions = XpbdSessionService & IService<typeof XpbdSessionServiceIdentity>;

/** An entity the sections apply to: an impostor, or a mesh that has one. */
type Simulated = object;

function isSimulated(entity: unknown): entity is Simulated {
    return impostorOfEntity(entity) !== null;
}

const definition: ServiceDefinition<[], [IPropertiesService, Sessions]> = {
    friendlyName: "XPBD soft body properties",
    consumes: [PropertiesServiceIdentity, XpbdSessionServiceIdentity],
    factory: (properties, sessions) => {
        const panel = (render: (impostor: SoftImpostor, session: NonNullable<XpbdSessionService["session"]>) => ReactElement | null) =>
            function Panel({ context }: { context: Simulated }): ReactElement | null {
                const session = useSession(sessions);
                const impostor = impostorOfEntity(context);
                return session && impostor ? render(impostor, session) : null;
            };
        const registrations = [
            properties.addSection({ identity: SECTION_TITLES.parameters, order: 5 }),
            properties.addSection({ identity: SECTION_TITLES.pins, order: 6, collapseByDefault: true }),
            properties.addSection({ identity: SECTION_TITLES.heatmap, order: 7, collapseByDefault: true }),
            properties.addSection({ identity: SECTION_TITLES.contacts, order: 8, collapseByDefault: true }),
            properties.addSection({ identity: SECTION_TITLES.diagnosis, order: 9 }),
            properties.addSectionContent<Simulated>({
                key: "XpbdImpostorProperties",
                predicate: isSimulated,
                content: [
                    {
                        section: SECTION_TITLES.parameters,
                        component: panel((impostor) => <ParametersPanel key={impostor.mesh.uniqueId} impostor={impostor} />),
                    },
                    {
                        section: SECTION_TITLES.pins,
                        component: panel((impostor, session) =>
                            paintsVertices(impostor) ? (
                                <PinWeightsPanel key={impostor.mesh.uniqueId} impostor={impostor} session={session} />
                            ) : null,
                        ),
                    },
                    {
                        section: SECTION_TITLES.heatmap,
                        component: panel((impostor, session) =>
                            paintsVertices(impostor) ? (
                                <HeatmapPanel key={impostor.mesh.uniqueId} impostor={impostor} session={session} />
                            ) : null,
                        ),
                    },
                    {
                        section: SECTION_TITLES.contacts,
                        component: panel((impostor, session) => (
                            <ContactsPanel key={impostor.mesh.uniqueId} impostor={impostor} session={session} />
                        )),
                    },
                    {
                        section: SECTION_TITLES.diagnosis,
                        component: panel((impostor) => <DiagnosisPanel key={impostor.mesh.uniqueId} impostor={impostor} />),
                    },
                ],
            }),
        ];
        return { dispose: () => registrations.forEach((r) => r.dispose()) };
    },
};

/** Adds the soft-body sections to the Properties pane. */
export const XpbdPropertiesServiceDefinition: XpbdInspectorServiceDefinition = definition;
