/**
 * The colour ramp of the overlays: t in [0, 1] → blue (0) → pale green (0.5) → red (1). The red channel equals t,
 * so a colour can be read back as the value it shows (the browser tests do that).
 */

/** Writes the ramp's colour for `t` (clamped to [0, 1]) as RGBA into `out` at `offset` (4 floats, alpha 1). */
export function heatColor(t: number, out: Float32Array, offset: number): void {
    const c = t > 0 ? (t < 1 ? t : 1) : 0;
    out[offset] = c;
    out[offset + 1] = 4 * c * (1 - c);
    out[offset + 2] = 1 - c;
    out[offset + 3] = 1;
}

/** The ramp as a CSS `linear-gradient` (left = 0, right = 1), for legends. */
export function heatGradientCss(steps = 8): string {
    const rgba = new Float32Array(4);
    const stops: string[] = [];
    for (let i = 0; i <= steps; i++) {
        heatColor(i / steps, rgba, 0);
        const [r, g, b] = [rgba[0], rgba[1], rgba[2]].map((v) => Math.round(v * 255));
        stops.push(`rgb(${r}, ${g}, ${b}) ${((100 * i) / steps).toFixed(1)}%`);
    }
    return `linear-gradient(to right, ${stops.join(", ")})`;
}
