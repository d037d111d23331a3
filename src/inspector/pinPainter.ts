/**
 * Paints pin weights on an impostor's render mesh with the mouse: a brush (radius, strength; pin or erase) dabbed
 * where `scene.pick` hits the mesh while the button is down, or a whole straight border row pinned / unpinned per
 * click. Weights go through the impostor's render-vertex API (`vertexToParticle`) and apply at the next step. The
 * camera's controls are detached while the painter is active.
 */
import type { Camera } from "@babylonjs/core/Cameras/camera";
import "@babylonjs/core/Culling/ray"; // scene.pick
import { PointerEventTypes, type PointerInfo } from "@babylonjs/core/Events/pointerEvents";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Nullable } from "@babylonjs/core/types";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { boundaryNeighbours, edgeRowAt } from "./edgeRow.js";

/** What a click or drag does. */
export type PaintTool = "pin" | "erase" | "rowPin" | "rowUnpin";

/** Brush settings, read at every dab (the panel edits them live). */
export interface PaintSettings {
    tool: PaintTool;
    /** Brush radius (m, world). */
    radius: number;
    /** How far one dab moves a weight towards 1 (pin) or 0 (erase) at the brush centre, in [0, 1]. */
    strength: number;
}

/** Weights below this are snapped to 0 (free). */
const ZERO_WEIGHT = 1e-3;

/** An active paint mode on one impostor; dispose to stop painting and give the camera its controls back. */
export class PinPainter {
    private readonly _pointerObserver: Nullable<Observer<PointerInfo>>;
    private readonly _camera: Nullable<Camera>;
    private readonly _cameraWasAttached: boolean;
    /** One render vertex per surface particle (the first that maps to it). */
    private readonly _vertexOfParticle = new Map<number, number>();
    private _boundary: Map<number, number[]> | null = null;
    private _painting = false;
    private _disposed = false;

    /**
     * @param impostor - the impostor to paint
     * @param _settings - brush settings (kept by reference)
     * @param _onPainted - called after each dab or row that changed weights
     */
    public constructor(
        public readonly impostor: SoftImpostor,
        private readonly _settings: PaintSettings,
        private readonly _onPainted: () => void,
    ) {
        const map = impostor.vertexToParticle;
        for (let v = 0; v < map.length; v++) {
            if (!this._vertexOfParticle.has(map[v])) {
                this._vertexOfParticle.set(map[v], v);
            }
        }
        const scene = impostor.mesh.getScene();
        this._camera = scene.activeCamera;
        this._cameraWasAttached = !!this._camera?.inputs?.attachedToElement;
        this._camera?.detachControl();
        this._pointerObserver = scene.onPointerObservable.add((info) => this._onPointer(info));
    }

    /** Stops painting and re-attaches the camera's controls if they were attached. Idempotent. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this.impostor.mesh.getScene().onPointerObservable.remove(this._pointerObserver);
        if (this._cameraWasAttached && this._camera && !this._camera.isDisposed()) {
            this._camera.attachControl(true);
        }
    }

    private _onPointer(info: PointerInfo): void {
        const event = info.event as PointerEvent;
        switch (info.type) {
            case PointerEventTypes.POINTERDOWN:
                if (event.button === 0) {
                    const hit = this._pick();
                    if (hit) {
                        this._painting = this._settings.tool === "pin" || this._settings.tool === "erase";
                        this._apply(hit);
                    }
                }
                break;
            case PointerEventTypes.POINTERMOVE:
                if (this._painting) {
                    const hit = this._pick();
                    if (hit) this._apply(hit);
                }
                break;
            case PointerEventTypes.POINTERUP:
                this._painting = false;
                break;
        }
    }

    private _pick(): [number, number, number] | null {
        const mesh = this.impostor.mesh;
        const scene = mesh.getScene();
        const pick = scene.pick(scene.pointerX, scene.pointerY, (m) => m === mesh);
        const p = pick?.hit ? pick.pickedPoint : null;
        return p ? [p.x, p.y, p.z] : null;
    }

    private _apply(point: [number, number, number]): void {
        if (this.impostor.isDisposed) {
            return;
        }
        const changed = this._settings.tool === "pin" || this._settings.tool === "erase" ? this._dab(point) : this._row(point);
        if (changed) {
            this._onPainted();
        }
    }

    /** One brush dab: full effect inside half the radius, fading to none at the radius. */
    private _dab(point: [number, number, number]): boolean {
        const { radius, strength, tool } = this._settings;
        const x = this.impostor.body.positions;
        const r = Math.max(radius, 1e-6);
        let changed = false;
        for (const [p, v] of this._vertexOfParticle) {
            const d = Math.hypot(x[3 * p] - point[0], x[3 * p + 1] - point[1], x[3 * p + 2] - point[2]);
            if (d >= r) continue;
            const falloff = d <= 0.5 * r ? 1 : 2 * (1 - d / r);
            const amount = Math.min(1, Math.max(0, strength)) * falloff;
            const w = this.impostor.getPinWeight(v);
            let next = tool === "pin" ? w + (1 - w) * amount : w * (1 - amount);
            next = next < ZERO_WEIGHT ? 0 : next > 1 - ZERO_WEIGHT ? 1 : next;
            if (next !== w) {
                this.impostor.setPinWeight(v, next);
                changed = true;
            }
        }
        return changed;
    }

    /** Pins or unpins the straight border row nearest to the point. */
    private _row(point: [number, number, number]): boolean {
        if (!this._boundary) {
            const indices = this.impostor.mesh.getIndices() ?? [];
            this._boundary = boundaryNeighbours(indices, this.impostor.vertexToParticle);
        }
        const body = this.impostor.body;
        const row = edgeRowAt(this._boundary, body.positions, body.restPositions, point);
        const weight = this._settings.tool === "rowPin" ? 1 : 0;
        let changed = false;
        for (const p of row) {
            const v = this._vertexOfParticle.get(p);
            if (v !== undefined && this.impostor.getPinWeight(v) !== weight) {
                this.impostor.setPinWeight(v, weight);
                changed = true;
            }
        }
        return changed;
    }
}
