/**
 * The contacts view of one impostor: a switch that draws the body's contacts of the last step (a cross at each
 * contact point, a segment along its normal, coloured by kind), the normals' length, a legend of the colours and the
 * counts by kind. Switching it off disposes the lines.
 */
import { LineContainer, SwitchPropertyLine, SyncedSliderPropertyLine, TextPropertyLine } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { ContactKind } from "../core/index.js";
import { CONTACT_COLORS } from "./contactsOverlay.js";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import { usePolled, useSessionVersion } from "./sessionHooks.js";

/** The kinds in legend order, with their names. */
const LEGEND: readonly (readonly [ContactKind, string])[] = [
    [ContactKind.Collider, "collider"],
    [ContactKind.Soft, "soft–soft"],
    [ContactKind.Self, "self"],
];

function cssColor(kind: ContactKind): string {
    const [r, g, b] = CONTACT_COLORS[kind];
    return `rgb(${Math.round(255 * r)}, ${Math.round(255 * g)}, ${Math.round(255 * b)})`;
}

/** A legend line: a swatch and a name per contact kind. */
function ContactsLegend(): ReactElement {
    return (
        <LineContainer uniqueId="XpbdContactsLegend" label="Colours" staticItem>
            <div style={{ display: "flex", gap: 12, alignItems: "center", fontSize: 12, padding: "4px 0" }} data-xpbd-contacts-legend="">
                <span>Colours:</span>
                {LEGEND.map(([kind, name]) => (
                    <span key={name} style={{ display: "flex", alignItems: "center", gap: 4 }}>
                        <span style={{ width: 10, height: 10, borderRadius: 2, background: cssColor(kind) }} />
                        {name}
                    </span>
                ))}
            </div>
        </LineContainer>
    );
}

/** The contacts lines of `impostor`. */
export function ContactsPanel({ impostor, session }: { impostor: SoftImpostor; session: XpbdInspectorSession }): ReactElement {
    useSessionVersion(session);
    const view = session.contacts(impostor);
    const figures = usePolled(() => `${view.counts.collider}|${view.counts.soft}|${view.counts.self}`);
    const [collider, soft, self] = figures.split("|");
    return (
        <>
            <SwitchPropertyLine
                label="Show contacts"
                value={view.enabled}
                onChange={(on) => session.showContacts(impostor, on)}
                description="Draws the body's contacts of the last step over the scene: a cross at each point, a segment along its normal."
            />
            {view.enabled && (
                <>
                    <SyncedSliderPropertyLine
                        label="Normal length"
                        unit="m"
                        min={0.005}
                        max={0.5}
                        step={0.005}
                        value={view.normalLength}
                        onChange={(value) => {
                            view.normalLength = value;
                            session.notifyChanged();
                        }}
                    />
                    <ContactsLegend />
                    <TextPropertyLine label="Collider contacts" uniqueId="XpbdContactsCollider" value={collider} />
                    <TextPropertyLine label="Soft contacts" uniqueId="XpbdContactsSoft" value={soft} />
                    <TextPropertyLine label="Self contacts" uniqueId="XpbdContactsSelf" value={self} />
                </>
            )}
        </>
    );
}
