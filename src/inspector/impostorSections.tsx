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

/**
 * Whether the pin painting and the heatmap apply to the impostor: they colour and pick its render vertices, which a
 * rope's are not (its tube's rings, or its lines, follow the particles without being them).
 */
export function paintsVertices(impostor: SoftImpostor): boolean {
    return impostor.kind !== "rope";
}

/** The impostor's panels as accordion sections (keyed by the impostor, so switching bodies starts fresh). */
export function impostorSections(impostor: SoftImpostor, session: XpbdInspectorSession): ReactElement[] {
    const key = impostor.mesh.uniqueId;
    const painted = paintsVertices(impostor)
        ? [
              <AccordionSection key={`pins-${key}`} title={SECTION_TITLES.pins}>
                  <PinWeightsPanel impostor={impostor} session={session} />
              </AccordionSection>,
              <AccordionSection key={`heatmap-${key}`} title={SECTION_TITLES.heatmap}>
                  <HeatmapPanel impostor={impostor} session={session} />
              </AccordionSection>,
          ]
        : [];
    return [
        <AccordionSection key={`parameters-${key}`} title={SECTION_TITLES.parameters}>
            <ParametersPanel impostor={impostor} />
        </AccordionSection>,
        ...painted,
        <AccordionSection key={`contacts-${key}`} title={SECTION_TITLES.contacts}>
            <ContactsPanel impostor={impostor} session={session} />
        </AccordionSection>,
        <AccordionSection key={`diagnosis-${key}`} title={SECTION_TITLES.diagnosis}>
            <DiagnosisPanel impostor={impostor} />
        </AccordionSection>,
    ];
}
