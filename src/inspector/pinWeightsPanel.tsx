/**
 * Pin weights of one impostor: an overlay colouring vertices by weight (blue free → red fixed), a paint mode
 * (brush radius and strength, pin or erase, or a whole border row per click), clear, and JSON export / import.
 */
import {
    ButtonLine,
    MessageBar,
    StringDropdownPropertyLine,
    SwitchPropertyLine,
    SyncedSliderPropertyLine,
    TextAreaPropertyLine,
} from "@babylonjs/inspector";
import { useState, type ReactElement } from "react";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { useCopyWithFallback } from "./copyFallback.js";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import type { PaintTool } from "./pinPainter.js";
import { exportPinWeights, importPinWeights } from "./pinWeightsJson.js";
import { useSessionVersion } from "./sessionHooks.js";
import { PinLegend } from "./pinLegend.js";

const TOOLS: readonly { label: string; value: PaintTool }[] = [
    { label: "Brush: pin", value: "pin" },
    { label: "Brush: erase", value: "erase" },
    { label: "Row: pin a border", value: "rowPin" },
    { label: "Row: unpin a border", value: "rowUnpin" },
];

/** The pin-weight lines of `impostor`. */
export function PinWeightsPanel({ impostor, session }: { impostor: SoftImpostor; session: XpbdInspectorSession }): ReactElement {
    useSessionVersion(session);
    const { copy, element } = useCopyWithFallback("XpbdPins");
    const [importText, setImportText] = useState("");
    const [importMessage, setImportMessage] = useState<{ ok: boolean; text: string } | null>(null);
    const overlay = session.overlay(impostor);
    const showing = overlay.mode === "pins";
    const painting = session.paintedImpostor === impostor;
    const settings = session.paintSettings;
    const set = (change: () => void) => {
        change();
        session.notifyChanged();
    };
    return (
        <>
            <SwitchPropertyLine
                label="Show pin weights"
                value={showing}
                onChange={(on) => session.setOverlayMode(impostor, on ? "pins" : "none")}
                description="Colours vertices by pin weight: blue free, red fixed (replaces the material until switched off)."
            />
            {showing && <PinLegend />}
            <SwitchPropertyLine
                label="Paint pins"
                value={painting}
                onChange={(on) => session.paint(on ? impostor : null)}
                description="Drag on the mesh to paint (the camera's controls are detached meanwhile)."
            />
            <StringDropdownPropertyLine
                label="Paint tool"
                options={TOOLS}
                value={settings.tool}
                onChange={(tool) => set(() => (settings.tool = tool as PaintTool))}
            />
            <SyncedSliderPropertyLine
                label="Brush radius"
                unit="m"
                min={0.01}
                max={1}
                step={0.01}
                value={settings.radius}
                onChange={(radius) => set(() => (settings.radius = radius))}
            />
            <SyncedSliderPropertyLine
                label="Brush strength"
                min={0}
                max={1}
                step={0.05}
                value={settings.strength}
                onChange={(strength) => set(() => (settings.strength = strength))}
            />
            <ButtonLine
                label="Clear all pins"
                onClick={() => {
                    impostor.setPinWeights(new Float32Array(impostor.vertexToParticle.length));
                    session.refreshOverlay(impostor);
                }}
            />
            <ButtonLine label="Copy pin weights (JSON)" onClick={() => copy(exportPinWeights(impostor), "pin weights")} />
            {element}
            <TextAreaPropertyLine
                uniqueId="XpbdPinImport"
                label="Import pin weights"
                description='JSON from "Copy pin weights", or an array with one weight per render vertex.'
                value={importText}
                onChange={setImportText}
            />
            <ButtonLine
                label="Apply imported weights"
                disabled={importText.trim() === ""}
                onClick={() => {
                    try {
                        importPinWeights(impostor, importText);
                        setImportMessage({ ok: true, text: "Pin weights applied." });
                        session.refreshOverlay(impostor);
                    } catch (error) {
                        setImportMessage({ ok: false, text: (error as Error).message });
                    }
                }}
            />
            {importMessage && <MessageBar intent={importMessage.ok ? "success" : "error"} message={importMessage.text} staticItem />}
        </>
    );
}
