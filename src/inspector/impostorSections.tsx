/** The panels of a selected impostor, as used by the side pane (the Properties pane lists them as sections). */
import { AccordionSection } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { ContactsPanel } from "./contactsPanel.js";
import { DiagnosisPanel } from "./diagnosisPanel.js";
import { HeatmapPanel } from "./heatmapPanel.js";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import { ParametersPanel } from "./parametersPanel.js";
import { PinWeightsPanel } from "./pinWeightsPanel.js";

/** Section titles, shared with the Properties pane's sections. */
export const SECTION_TITLES = {
    parameters: "Soft body parameters",
    pins: "Pin weights",
    heatmap: "Residual heatmap",
    contacts: "Contacts",
    diagnosis: "Diagnosis",
} as const;

/** The impostor's panels as accordion sections (keyed by the impostor, so switching bodies starts fresh). */
export function impostorSections(impostor: SoftImpostor, session: XpbdInspectorSession): ReactElement[] {
    const key = impostor.mesh.uniqueId;
    return [
        <AccordionSection key={`parameters-${key}`} title={SECTION_TITLES.parameters}>
            <ParametersPanel impostor={impostor} />
        </AccordionSection>,
        <AccordionSection key={`pins-${key}`} title={SECTION_TITLES.pins}>
            <PinWeightsPanel impostor={impostor} session={session} />
        </AccordionSection>,
        <AccordionSection key={`heatmap-${key}`} title={SECTION_TITLES.heatmap}>
            <HeatmapPanel impostor={impostor} session={session} />
        </AccordionSection>,
        <AccordionSection key={`contacts-${key}`} title={SECTION_TITLES.contacts}>
            <ContactsPanel impostor={impostor} session={session} />
        </AccordionSection>,
        <AccordionSection key={`diagnosis-${key}`} title={SECTION_TITLES.diagnosis}>
            <DiagnosisPanel impostor={impostor} />
        </AccordionSection>,
    ];
}
