/**
 * Residual heatmap of one impostor: vertices coloured by the residual of a chosen kind (stretch ratio, bend angle
 * error, volume error, contact correction) from blue (0) to red (the scale), with a legend showing the scale and the
 * current min / max. Switching it off restores the mesh's material.
 */
import { StringDropdownPropertyLine, SwitchPropertyLine, SyncedSliderPropertyLine, TextPropertyLine } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { ColorScale } from "./colorScale.js";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import { RESIDUAL_KINDS, type ResidualKind } from "./residualKinds.js";
import { usePolled, useSessionVersion } from "./sessionHooks.js";

const KIND_OPTIONS = (Object.keys(RESIDUAL_KINDS) as ResidualKind[]).map((value) => ({ label: RESIDUAL_KINDS[value].label, value }));

/** Formats a residual for the legend. */
function format(value: number, unit: string): string {
    // Below a micro-unit is rounding noise of a value at rest (e.g. 4e-16): show it as 0.
    const text = Math.abs(value) >= 0.01 || Math.abs(value) < 1e-6 ? value.toFixed(3) : value.toExponential(2);
    return unit ? `${text} ${unit}` : text;
}

/** The heatmap lines of `impostor`. */
export function HeatmapPanel({ impostor, session }: { impostor: SoftImpostor; session: XpbdInspectorSession }): ReactElement {
    useSessionVersion(session);
    const overlay = session.overlay(impostor);
    const on = overlay.mode === "residual";
    const info = RESIDUAL_KINDS[overlay.kind];
    const figures = usePolled(() => `${overlay.state.min}|${overlay.state.max}|${overlay.state.scale}`);
    const [min, max, scale] = figures.split("|").map(Number);
    const change = (edit: () => void) => {
        edit();
        session.refreshOverlay(impostor);
    };
    return (
        <>
            <SwitchPropertyLine
                label="Show heatmap"
                value={on}
                onChange={(value) => session.setOverlayMode(impostor, value ? "residual" : "none")}
                description="Colours vertices by the chosen residual (replaces the material until switched off)."
            />
            <StringDropdownPropertyLine
                label="Residual"
                options={KIND_OPTIONS}
                value={overlay.kind}
                onChange={(kind) => change(() => (overlay.kind = kind as ResidualKind))}
                description={info.description}
            />
            <SwitchPropertyLine
                label="Auto scale"
                value={overlay.autoScale}
                onChange={(value) => change(() => (overlay.autoScale = value))}
                description="Red is the current maximum."
            />
            {!overlay.autoScale && (
                <SyncedSliderPropertyLine
                    label="Scale (red at)"
                    unit={info.unit || undefined}
                    min={0}
                    max={info.maxScale}
                    step={info.maxScale / 1000}
                    value={overlay.scales[overlay.kind]}
                    onChange={(value) => change(() => (overlay.scales[overlay.kind] = value))}
                />
            )}
            {on && (
                <>
                    <ColorScale
                        uniqueId="XpbdHeatmapLegend"
                        title={`${info.label} scale`}
                        low={format(0, info.unit)}
                        high={format(scale, info.unit)}
                    />
                    <TextPropertyLine label="Current min" uniqueId="XpbdHeatmapMin" value={format(min, info.unit)} />
                    <TextPropertyLine label="Current max" uniqueId="XpbdHeatmapMax" value={format(max, info.unit)} />
                </>
            )}
        </>
    );
}
