/**
 * The state the soft-body panes share while the Inspector is open, independent of React: which impostor is
 * selected (through the Inspector's selection), each impostor's overlay and contacts view, and the pin painter.
 * Overlays and contacts views are redrawn every frame before rendering (after the step and the render-mesh
 * write-back). Disposing the session (when the Inspector closes) turns every overlay and contacts view off and stops
 * painting, restoring materials and camera controls.
 */
import { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import { Observable, type IObserver, type IReadonlyObservable, type Observer } from "@babylonjs/core/Misc/observable";
import type { Scene } from "@babylonjs/core/scene";
import type { Nullable } from "@babylonjs/core/types";
import { SoftImpostor } from "../babylon/softImpostor.js";
import { XpbdPlugin } from "../babylon/xpbdPlugin.js";
import { XpbdRecorder } from "../babylon/xpbdRecorder.js";
import { ContactsOverlay } from "./contactsOverlay.js";
import { ImpostorOverlay, type OverlayMode } from "./impostorOverlay.js";
import { PinPainter, type PaintSettings } from "./pinPainter.js";

/** How the session reads and changes the Inspector's selection (adapted from its SelectionService). */
export interface SelectionAccess {
    get(): unknown;
    set(entity: Nullable<object>): void;
    readonly onChanged: IReadonlyObservable<void>;
}

/** The impostor an Inspector entity stands for: the impostor itself, or the impostor of a simulated mesh. */
export function impostorOfEntity(entity: unknown): Nullable<SoftImpostor> {
    if (entity instanceof SoftImpostor) {
        return entity.isDisposed ? null : entity;
    }
    if (entity instanceof AbstractMesh) {
        return XpbdPlugin.FromScene(entity.getScene())?.getImpostorForMesh(entity) ?? null;
    }
    return null;
}

/** Shared pane state for one Inspector on one scene. */
export class XpbdInspectorSession {
    /** Fired when anything the panes show changes (selection, impostor list, overlay, paint mode). */
    public readonly onChangedObservable = new Observable<void>();
    /** Bumped on every change notification, so UI state can depend on one number. */
    public version = 0;
    /** Brush settings (edited live by the pin-weight panel). */
    public readonly paintSettings: PaintSettings = { tool: "pin", radius: 0.15, strength: 1 };
    /** The recorder of the Record button (null before the first recording); disposed with the session. */
    public recorder: Nullable<XpbdRecorder> = null;

    private readonly _overlays = new Map<SoftImpostor, ImpostorOverlay>();
    private readonly _contacts = new Map<SoftImpostor, ContactsOverlay>();
    private _painter: Nullable<PinPainter> = null;
    private _plugin: Nullable<XpbdPlugin> = null;
    /** The plugin world's `residuals` before this session turned it on, restored when the session lets go. */
    private _residualsBefore = false;
    private readonly _pluginObservers: Observer<SoftImpostor>[] = [];
    private readonly _renderObserver: Nullable<Observer<Scene>>;
    private readonly _selectionObserver: IObserver;
    private _disposed = false;

    /**
     * Made by the Inspector service for the scene the Inspector shows.
     * @param scene - the scene the Inspector shows
     * @param _selection - the Inspector's selection, read and written by the panes
     * @internal
     */
    public constructor(
        public readonly scene: Scene,
        private readonly _selection: SelectionAccess,
    ) {
        this._renderObserver = scene.onBeforeRenderObservable.add(() => this._beforeRender());
        this._selectionObserver = _selection.onChanged.add(() => this.notifyChanged());
        this._attachPlugin();
    }

    /** The scene's XpbdPlugin (null until one is created). */
    public get plugin(): Nullable<XpbdPlugin> {
        this._attachPlugin();
        return this._plugin;
    }

    /** The scene's impostors. */
    public get impostors(): readonly SoftImpostor[] {
        return this.plugin?.impostors ?? [];
    }

    /** The impostor of the Inspector's selected entity (an impostor, or a simulated mesh), or null. */
    public get selectedImpostor(): Nullable<SoftImpostor> {
        return impostorOfEntity(this._selection.get());
    }

    /** Selects an impostor's mesh in the Inspector (the Scene Explorer and the Properties pane follow). */
    public select(impostor: Nullable<SoftImpostor>): void {
        this._selection.set(impostor ? impostor.mesh : null);
    }

    /** The impostor's overlay controller (created on first use; off until a mode is set). */
    public overlay(impostor: SoftImpostor): ImpostorOverlay {
        let overlay = this._overlays.get(impostor);
        if (!overlay) {
            overlay = new ImpostorOverlay(impostor);
            this._overlays.set(impostor, overlay);
        }
        return overlay;
    }

    /** Switches an impostor's overlay (one at a time per mesh: pins or a residual heatmap). */
    public setOverlayMode(impostor: SoftImpostor, mode: OverlayMode): void {
        this.overlay(impostor).setMode(mode);
        if (mode !== "pins" && this._painter?.impostor === impostor) {
            this._stopPainting();
        }
        this.notifyChanged();
    }

    /** Redraws an impostor's overlay now (after a setting changed). */
    public refreshOverlay(impostor: SoftImpostor): void {
        this._overlays.get(impostor)?.update();
        this.notifyChanged();
    }

    /** The impostor's contacts view (created on first use; off until shown). */
    public contacts(impostor: SoftImpostor): ContactsOverlay {
        let view = this._contacts.get(impostor);
        if (!view) {
            view = new ContactsOverlay(impostor);
            this._contacts.set(impostor, view);
        }
        return view;
    }

    /** Shows or hides an impostor's contacts view. */
    public showContacts(impostor: SoftImpostor, on: boolean): void {
        this.contacts(impostor).setEnabled(on && !impostor.isDisposed);
        this.notifyChanged();
    }

    /** The impostor being painted, or null. */
    public get paintedImpostor(): Nullable<SoftImpostor> {
        return this._painter?.impostor ?? null;
    }

    /** Starts painting pin weights on `impostor` (showing its pin overlay), or stops painting (null). */
    public paint(impostor: Nullable<SoftImpostor>): void {
        this._stopPainting();
        if (impostor && !impostor.isDisposed) {
            this.overlay(impostor).setMode("pins");
            this._painter = new PinPainter(impostor, this.paintSettings, () => this._overlays.get(impostor)?.update());
        }
        this.notifyChanged();
    }

    /** Starts recording the plugin (the Record button); the pane shows it until it stops, by the button or by itself. */
    public startRecording(): void {
        const plugin = this.plugin;
        if (!plugin) {
            return;
        }
        if (this.recorder?.plugin !== plugin) {
            this.recorder?.dispose();
            this.recorder = new XpbdRecorder(plugin);
            this.recorder.onStoppedObservable.add(() => this.notifyChanged());
        }
        this.recorder.start();
        this.notifyChanged();
    }

    /** Turns every overlay and contacts view off, stops painting and removes the session's observers. Idempotent. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this.recorder?.dispose();
        this.recorder = null;
        this._stopPainting();
        for (const overlay of this._overlays.values()) {
            overlay.dispose();
        }
        this._overlays.clear();
        for (const view of this._contacts.values()) {
            view.dispose();
        }
        this._contacts.clear();
        this.scene.onBeforeRenderObservable.remove(this._renderObserver);
        this._selectionObserver.remove();
        this._detachPlugin();
        this.onChangedObservable.clear();
    }

    /** Tells the panes to re-read the session. */
    public notifyChanged(): void {
        this.version++;
        this.onChangedObservable.notifyObservers();
    }

    private _stopPainting(): void {
        this._painter?.dispose();
        this._painter = null;
    }

    private _attachPlugin(): void {
        if (this._disposed) {
            return;
        }
        const plugin = XpbdPlugin.FromScene(this.scene);
        if (plugin === this._plugin) {
            return;
        }
        this._detachPlugin();
        this._plugin = plugin;
        if (plugin) {
            // The stats pane and the heatmaps read residuals, which the solver measures only when asked.
            this._residualsBefore = plugin.world.residuals;
            plugin.world.residuals = true;
            const changed = () => this.notifyChanged();
            this._pluginObservers.push(
                plugin.onImpostorAddedObservable.add(changed),
                plugin.onImpostorRemovedObservable.add((impostor) => {
                    this._overlays.get(impostor)?.dispose();
                    this._overlays.delete(impostor);
                    this._contacts.get(impostor)?.dispose();
                    this._contacts.delete(impostor);
                    if (this._painter?.impostor === impostor) this._stopPainting();
                    changed();
                }),
            );
        }
    }

    private _detachPlugin(): void {
        const plugin = this._plugin;
        if (plugin && !plugin.isDisposed) {
            plugin.onImpostorAddedObservable.remove(this._pluginObservers[0]);
            plugin.onImpostorRemovedObservable.remove(this._pluginObservers[1]);
            plugin.world.residuals = this._residualsBefore;
        }
        this._pluginObservers.length = 0;
        this._plugin = null;
    }

    private _beforeRender(): void {
        // A plugin created or disposed after the Inspector opened.
        if (this._plugin?.isDisposed || !this._plugin) {
            const before = this._plugin;
            this._attachPlugin();
            if (before !== this._plugin) this.notifyChanged();
        }
        for (const overlay of this._overlays.values()) {
            if (overlay.mode !== "none") {
                overlay.update();
            }
        }
        for (const view of this._contacts.values()) {
            view.update();
        }
    }
}
