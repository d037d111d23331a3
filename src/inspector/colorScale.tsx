/** A legend line: the overlay colour ramp as a full-width bar with a title and its end labels. */
import { LineContainer } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import { heatGradientCss } from "./heatColor.js";

const GRADIENT = heatGradientCss();

/** The ramp from `low` (blue) to `high` (red), titled `title`. */
export function ColorScale({ uniqueId, title, low, high }: { uniqueId: string; title: string; low: string; high: string }): ReactElement {
    return (
        <LineContainer uniqueId={uniqueId} label={title} staticItem>
            <div style={{ display: "flex", flexDirection: "column", gap: 3, width: "100%", padding: "4px 0" }} data-xpbd-legend="">
                <div style={{ fontSize: 12 }}>{title}</div>
                <div style={{ height: 12, borderRadius: 3, background: GRADIENT }} />
                <div style={{ display: "flex", justifyContent: "space-between", fontSize: 11, opacity: 0.85 }}>
                    <span>{low}</span>
                    <span>{high}</span>
                </div>
            </div>
        </LineContainer>
    );
}
