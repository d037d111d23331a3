/**
 * The "Soft bodies" side pane: the scene's impostors (select one, or its mesh in the Scene Explorer, to show its
 * panels), the plugin's solver quality, and the selected impostor's parameters, pin weights and heatmap.
 */
import {
    Accordion,
    AccordionSection,
    ButtonLine,
    MessageBar,
    ShellServiceIdentity,
    SidePaneContainer,
    type IService,
    type IShellService,
    type ServiceDefinition,
} from "@babylonjs/inspector";
import { FlagRegular } from "@fluentui/react-icons";
import type { ReactElement } from "react";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import { impostorSections } from "./impostorSections.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";
import { useSession, useSessionVersion } from "./sessionHooks.js";
import { XpbdSessionServiceIdentity, type XpbdSessionService } from "./sessionService.js";
import { SolverPanel } from "./solverPanel.js";
import { StatePanel } from "./statePanel.js";

type Sessions = XpbdSessionService & IService<typeof XpbdSessionServiceIdentity>;

/** The pane's key in the Inspector's shell. */
export const SOFT_BODIES_PANE_KEY = "XpbdSoftBodies";

/**
 * @param session - the shared state
 * @param reveal - brings this pane to the front (the Inspector switches to Properties whenever the selection changes)
 */
function SoftBodiesPaneContent({ session, reveal }: { session: XpbdInspectorSession; reveal: () => void }): ReactElement {
    useSessionVersion(session);
    const plugin = session.plugin;
    const impostors = session.impostors;
    const selected = session.selectedImpostor;
    return (
        <SidePaneContainer data-xpbd-pane="">
            <Accordion uniqueId={SOFT_BODIES_PANE_KEY}>
                <AccordionSection title="Bodies">
                    {!plugin && <MessageBar intent="info" message="This scene has no XpbdPlugin (yet)." staticItem />}
                    {plugin && impostors.length === 0 && (
                        <MessageBar intent="info" message="No cloth or soft body in this scene." staticItem />
                    )}
                    {impostors.map((impostor) => (
                        <ButtonLine
                            key={impostor.mesh.uniqueId}
                            uniqueId={`XpbdBody${impostor.mesh.uniqueId}`}
                            label={`${impostor.mesh.name} (${impostor.kind === "softBody" ? "soft body" : impostor.kind})`}
                            appearance={impostor === selected ? "primary" : "subtle"}
                            onClick={() => {
                                session.select(impostor);
                                reveal();
                            }}
                        />
                    ))}
                </AccordionSection>
                {plugin ? (
                    <AccordionSection title="Solver">
                        <SolverPanel plugin={plugin} />
                    </AccordionSection>
                ) : null}
                {plugin ? (
                    <AccordionSection title="State and replay">
                        <StatePanel plugin={plugin} session={session} />
                    </AccordionSection>
                ) : null}
                {selected ? impostorSections(selected, session) : null}
            </Accordion>
        </SidePaneContainer>
    );
}

const definition: ServiceDefinition<[], [IShellService, Sessions]> = {
    friendlyName: "XPBD soft bodies pane",
    consumes: [ShellServiceIdentity, XpbdSessionServiceIdentity],
    factory: (shell, sessions) => {
        const reveal = () => shell.sidePanes.find((pane) => pane.key === SOFT_BODIES_PANE_KEY)?.select();
        const Content = (): ReactElement | null => {
            const session = useSession(sessions);
            return session ? <SoftBodiesPaneContent session={session} reveal={reveal} /> : null;
        };
        const registration = shell.addSidePane({
            key: SOFT_BODIES_PANE_KEY,
            title: "Soft bodies",
            icon: FlagRegular,
            horizontalLocation: "right",
            verticalLocation: "top",
            order: 250,
            teachingMoment: false,
            content: Content,
        });
        // Open on this pane (once the shell has rendered): whoever adds it came for the soft bodies.
        const timer = setTimeout(reveal, 0);
        return {
            dispose: () => {
                clearTimeout(timer);
                registration.dispose();
            },
        };
    },
};

/** Adds the "Soft bodies" side pane (right). */
export const XpbdSoftBodiesPaneServiceDefinition: XpbdInspectorServiceDefinition = definition;
