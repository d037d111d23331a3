/**
 * The overlay of one impostor: off, its pin weights, or a residual heatmap, recoloured each frame after the step.
 * Keeps its settings (residual kind, scale) while off, so switching back shows the same thing.
 */
import { ClothImpostor } from "../babylon/clothImpostor.js";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { heatColor } from "./heatColor.js";
import { RESIDUAL_KINDS, residualValues, type ResidualKind } from "./residualKinds.js";
import { VertexColorOverlay } from "./vertexColorOverlay.js";

/** What an overlay shows. */
export type OverlayMode = "none" | "pins" | "residual";

/**
 * What the overlay shows right now, kept on the overlay material's `metadata.xpbdOverlay` so that tools and tests
 * can read the scale the colours were made with.
 */
export interface OverlayState {
    mode: OverlayMode;
    /** Residual kind (heatmap mode). */
    kind: ResidualKind;
    /** Value shown in red (heatmap: the residual scale; pins: 1). Blue is 0. */
    scale: number;
    /** Smallest and largest value over the render vertices at the last update. */
    min: number;
    max: number;
}

/** One impostor's overlay. */
export class ImpostorOverlay {
    /** Residual kind of the heatmap mode. */
    public kind: ResidualKind = "stretch";
    /** Heatmap scale from the current maximum each frame instead of {@link scales}. */
    public autoScale = false;
    /** Heatmap scale per kind (the value shown in red). */
    public readonly scales: Record<ResidualKind, number> = {
        stretch: RESIDUAL_KINDS.stretch.defaultScale,
        bend: RESIDUAL_KINDS.bend.defaultScale,
        volume: RESIDUAL_KINDS.volume.defaultScale,
        contact: RESIDUAL_KINDS.contact.defaultScale,
        tear: RESIDUAL_KINDS.tear.defaultScale,
    };
    /** The state of the last update. */
    public readonly state: OverlayState = { mode: "none", kind: "stretch", scale: 1, min: 0, max: 0 };

    private _colors: VertexColorOverlay | null = null;

    public constructor(public readonly impostor: SoftImpostor) {}

    /** What the overlay shows. */
    public get mode(): OverlayMode {
        return this.state.mode;
    }

    /** Switches the overlay; "none" restores the mesh's material and colours. */
    public setMode(mode: OverlayMode): void {
        if (mode === this.state.mode) {
            return;
        }
        this.state.mode = mode;
        if (mode === "none") {
            this._colors?.dispose();
            this._colors = null;
            return;
        }
        if (!this._colors) {
            this._colors = new VertexColorOverlay(this.impostor.mesh);
            this._colors.material.metadata = { xpbdOverlay: this.state };
        }
        this.update();
    }

    /** Recolours the mesh from the body's current pin weights or residuals. */
    public update(): void {
        const overlay = this._colors;
        if (!overlay || this.impostor.isDisposed) {
            return;
        }
        const state = this.state;
        const map = this.impostor.vertexToParticle;
        if (overlay.colors.length !== 4 * map.length) {
            // A cloth that tore has more vertices: copies of the mesh's own.
            const impostor = this.impostor;
            overlay.resize((impostor instanceof ClothImpostor && impostor.vertexOrigins) || Int32Array.from(map, (_, v) => v));
        }
        const colors = overlay.colors;
        const values = state.mode === "pins" ? this.impostor.body.pins.weights : residualValues(this.impostor.body, this.kind);
        let min = Infinity;
        let max = -Infinity;
        for (let v = 0; v < map.length; v++) {
            const x = values[map[v]];
            if (x < min) min = x;
            if (x > max) max = x;
        }
        if (map.length === 0) {
            min = max = 0;
        }
        let scale = 1;
        if (state.mode === "residual") {
            scale = this.autoScale ? max : this.scales[this.kind];
            if (!(scale > 0)) {
                scale = RESIDUAL_KINDS[this.kind].defaultScale;
            }
        }
        const inverse = 1 / scale;
        for (let v = 0; v < map.length; v++) {
            heatColor(values[map[v]] * inverse, colors, 4 * v);
        }
        overlay.upload();
        state.kind = this.kind;
        state.scale = scale;
        state.min = min;
        state.max = max;
    }

    /** Turns the overlay off (restoring the mesh). */
    public dispose(): void {
        this.setMode("none");
    }
}
