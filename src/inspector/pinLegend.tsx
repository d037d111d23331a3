/** The colour scale of the pin-weight overlay. */
import type { ReactElement } from "react";
import { ColorScale } from "./colorScale.js";

/** Blue = free (0) … red = fixed (1). */
export function PinLegend(): ReactElement {
    return <ColorScale uniqueId="XpbdPinLegend" title="Pin weight" low="0 · free" high="1 · fixed" />;
}
