/**
 * The contacts view of one impostor: every contact of its body in the last step (`XpbdWorld.writeContacts`) as a
 * small cross in the contact plane at the contact point and a segment along the normal, coloured by kind, in one
 * line mesh rewritten every frame before rendering. Drawn over the scene (rendering group 1), so that contacts
 * under a cloth or inside a pile show.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { LinesMesh } from "@babylonjs/core/Meshes/linesMesh";
import type { Nullable } from "@babylonjs/core/types";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { ContactKind } from "../core/index.js";

/** RGB (0–1) of each contact kind's lines. */
export const CONTACT_COLORS: Readonly<Record<ContactKind, readonly [number, number, number]>> = {
    [ContactKind.Collider]: [0.1, 0.8, 1],
    [ContactKind.Soft]: [1, 0.55, 0.1],
    [ContactKind.Self]: [1, 0.25, 0.85],
};

/** Contacts by kind at the view's last update. */
export interface ContactCounts {
    /** Against colliders. */
    collider: number;
    /** Against another body's triangles, or another body's particles against this body's triangles. */
    soft: number;
    /** Between the body's particles and its own triangles. */
    self: number;
}

/** Line vertices per contact: the normal segment and the two arms of the cross. */
const VERTICES_PER_CONTACT = 6;
/** The cross's half-width, as a share of the normal's length. */
const CROSS_SCALE = 0.2;

/** One impostor's contacts view; off until {@link setEnabled}. */
export class ContactsOverlay {
    /** Length (m) of each normal segment. */
    public normalLength = 0.05;
    /** The counts of the last update (zero while off). */
    public readonly counts: ContactCounts = { collider: 0, soft: 0, self: 0 };

    private _mesh: Nullable<LinesMesh> = null;
    private _capacity = 0;
    private _points = new Float32Array(0);
    private _normals = new Float32Array(0);
    private _kinds = new Uint8Array(0);
    private _positions = new Float32Array(0);
    private _colors = new Float32Array(0);

    public constructor(public readonly impostor: SoftImpostor) {}

    /** Whether the view is on. */
    public get enabled(): boolean {
        return this._mesh !== null;
    }

    /** The line mesh while on (named after the impostor's mesh, hidden from the Scene Explorer), else null. */
    public get mesh(): Nullable<LinesMesh> {
        return this._mesh;
    }

    /** Turns the view on (creating its line mesh) or off (disposing it). */
    public setEnabled(on: boolean): void {
        if (on === this.enabled) {
            return;
        }
        if (!on) {
            this._mesh?.dispose();
            this._mesh = null;
            this._capacity = 0;
            this.counts.collider = this.counts.soft = this.counts.self = 0;
            return;
        }
        const mesh = new LinesMesh(`${this.impostor.mesh.name} (xpbd contacts)`, this.impostor.mesh.getScene(), null, null, false, true);
        mesh.reservedDataStore = { hidden: true };
        mesh.isPickable = false;
        mesh.doNotSerialize = true;
        // Its bounds change every frame: never culled by stale ones.
        mesh.alwaysSelectAsActiveMesh = true;
        mesh.renderingGroupId = 1;
        mesh.metadata = { xpbdContacts: this.counts };
        this._mesh = mesh;
        this._grow(mesh, 0);
        this.update();
    }

    /** Redraws the view from the body's contacts of the last step. */
    public update(): void {
        const mesh = this._mesh;
        if (!mesh || this.impostor.isDisposed) {
            return;
        }
        const world = this.impostor.plugin.world;
        const body = this.impostor.body;
        // A body on the WebGPU backend is out of the CPU world, and the GPU keeps no contacts: none to draw.
        const onCpu = this.impostor.backend === "cpu";
        const needed = onCpu ? world.contactCount(body) : 0;
        if (needed > this._capacity) {
            this._grow(mesh, needed);
        }
        const count = onCpu ? world.writeContacts(this._points, this._normals, this._kinds, this._capacity, body) : 0;
        const counts = this.counts;
        counts.collider = counts.soft = counts.self = 0;
        for (let c = 0; c < count; c++) {
            const kind = this._kinds[c] as ContactKind;
            if (kind === ContactKind.Collider) counts.collider++;
            else if (kind === ContactKind.Soft) counts.soft++;
            else counts.self++;
            this._writeLines(c, kind);
        }
        mesh.updateVerticesData(VertexBuffer.PositionKind, this._positions, false, false);
        mesh.updateVerticesData(VertexBuffer.ColorKind, this._colors, false, false);
        // The buffers hold room for more: only this frame's contacts are drawn.
        mesh.subMeshes[0].indexCount = VERTICES_PER_CONTACT * count;
        mesh.isVisible = count > 0;
    }

    /** Turns the view off. */
    public dispose(): void {
        this.setEnabled(false);
    }

    /** The six vertices of contact `c`: normal segment, then the cross's two arms across the normal. */
    private _writeLines(c: number, kind: ContactKind): void {
        const p = this._points;
        const n = this._normals;
        const nx = n[3 * c];
        const ny = n[3 * c + 1];
        const nz = n[3 * c + 2];
        // An arm across the normal, n × (the world axis least along it), and the other one, n × u.
        const ax = Math.abs(nx);
        const ay = Math.abs(ny);
        const az = Math.abs(nz);
        let ux = ax <= ay && ax <= az ? 0 : ay <= az ? -nz : ny;
        let uy = ax <= ay && ax <= az ? nz : ay <= az ? 0 : -nx;
        let uz = ax <= ay && ax <= az ? -ny : ay <= az ? nx : 0;
        const arm = (CROSS_SCALE * this.normalLength) / Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux *= arm;
        uy *= arm;
        uz *= arm;
        const vx = ny * uz - nz * uy;
        const vy = nz * ux - nx * uz;
        const vz = nx * uy - ny * ux;
        const length = this.normalLength;
        const first = VERTICES_PER_CONTACT * c;
        for (let a = 0; a < 3; a++) {
            const x = p[3 * c + a];
            const normal = a === 0 ? nx : a === 1 ? ny : nz;
            const u = a === 0 ? ux : a === 1 ? uy : uz;
            const v = a === 0 ? vx : a === 1 ? vy : vz;
            const positions = this._positions;
            positions[3 * first + a] = x;
            positions[3 * (first + 1) + a] = x + length * normal;
            positions[3 * (first + 2) + a] = x - u;
            positions[3 * (first + 3) + a] = x + u;
            positions[3 * (first + 4) + a] = x - v;
            positions[3 * (first + 5) + a] = x + v;
        }
        const color = CONTACT_COLORS[kind];
        for (let k = 4 * first; k < 4 * (first + VERTICES_PER_CONTACT); k += 4) {
            this._colors[k] = color[0];
            this._colors[k + 1] = color[1];
            this._colors[k + 2] = color[2];
            this._colors[k + 3] = 1;
        }
    }

    /** Room for at least `needed` contacts, with some to spare so that a growing pile does not reallocate each frame. */
    private _grow(mesh: LinesMesh, needed: number): void {
        const capacity = Math.max(64, Math.ceil(1.5 * needed));
        const vertices = VERTICES_PER_CONTACT * capacity;
        this._capacity = capacity;
        this._points = new Float32Array(3 * capacity);
        this._normals = new Float32Array(3 * capacity);
        this._kinds = new Uint8Array(capacity);
        this._positions = new Float32Array(3 * vertices);
        this._colors = new Float32Array(4 * vertices);
        mesh.setVerticesData(VertexBuffer.PositionKind, this._positions, true);
        mesh.setVerticesData(VertexBuffer.ColorKind, this._colors, true, 4);
        mesh.setIndices(
            Uint32Array.from({ length: vertices }, (_, i) => i),
            vertices,
        );
    }
}
