/**
 * Shows per-vertex colours on a mesh the way the Inspector's own "Display Vertex Colors" does: an unlit
 * StandardMaterial replaces the mesh's material, and an updatable colour vertex buffer holds the colours.
 * Disposing restores the material and the colour buffer (removed if the mesh had none).
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Material } from "@babylonjs/core/Materials/material";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Nullable } from "@babylonjs/core/types";

/** A colour overlay on one mesh; fill {@link colors} (RGBA per vertex) and call {@link upload}. */
export class VertexColorOverlay {
    /** RGBA per render vertex (a new array after {@link resize}). */
    public colors: Float32Array;
    /** The unlit material shown while the overlay is on. */
    public readonly material: StandardMaterial;

    private readonly _originalMaterial: Nullable<Material>;
    private _originalColors: Nullable<Float32Array>;
    private readonly _originalColorsUpdatable: boolean;
    private readonly _originalUseVertexColors: boolean;
    private readonly _originalHasVertexAlpha: boolean;
    private _disposed = false;

    /** @param mesh - the mesh to colour (its geometry must not be shared with meshes that should stay as they are) */
    public constructor(public readonly mesh: Mesh) {
        const scene = mesh.getScene();
        this._originalMaterial = mesh.material;
        const colors = mesh.getVerticesData(VertexBuffer.ColorKind);
        this._originalColors = colors ? Float32Array.from(colors) : null;
        this._originalColorsUpdatable = mesh.getVertexBuffer(VertexBuffer.ColorKind)?.isUpdatable() ?? false;
        this._originalUseVertexColors = mesh.useVertexColors;
        this._originalHasVertexAlpha = mesh.hasVertexAlpha;

        const material = new StandardMaterial(`${mesh.name} (xpbd overlay)`, scene);
        material.disableLighting = true;
        material.emissiveColor = Color3.White();
        material.backFaceCulling = false;
        if (this._originalMaterial) {
            material.sideOrientation = this._originalMaterial.sideOrientation;
        }
        // Hidden from the Scene Explorer, like the Inspector's own vertex-colour material.
        material.reservedDataStore = { hidden: true, isVertexColorMaterial: true };
        this.material = material;

        this.colors = new Float32Array(4 * mesh.getTotalVertices());
        mesh.setVerticesData(VertexBuffer.ColorKind, this.colors, true, 4);
        mesh.useVertexColors = true;
        mesh.hasVertexAlpha = false;
        mesh.material = material;
    }

    /**
     * Follows a change of the mesh's vertex count (a cloth that tore): new colours, and the colours to restore
     * extended with those of the vertex each new one copies.
     * @param origins - per vertex now, the mesh vertex it descends from (one the overlay knew)
     */
    public resize(origins: ArrayLike<number>): void {
        const count = origins.length;
        this.colors = new Float32Array(4 * count);
        const original = this._originalColors;
        if (original) {
            const known = original.length / 4;
            this._originalColors = new Float32Array(4 * count);
            for (let v = 0; v < count; v++) {
                const from = v < known ? v : origins[v];
                this._originalColors.set(original.subarray(4 * from, 4 * from + 4), 4 * v);
            }
        }
        if (!this._disposed) {
            this.mesh.setVerticesData(VertexBuffer.ColorKind, this.colors, true, 4);
        }
    }

    /** Uploads {@link colors} to the GPU. */
    public upload(): void {
        if (!this._disposed) {
            this.mesh.updateVerticesData(VertexBuffer.ColorKind, this.colors, false, false);
        }
    }

    /** Restores the mesh's material and colours and disposes the overlay material. Idempotent. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        const mesh = this.mesh;
        if (!mesh.isDisposed()) {
            if (mesh.material === this.material) {
                mesh.material = this._originalMaterial;
            }
            if (this._originalColors) {
                mesh.setVerticesData(VertexBuffer.ColorKind, this._originalColors, this._originalColorsUpdatable, 4);
            } else {
                mesh.removeVerticesData(VertexBuffer.ColorKind);
            }
            mesh.useVertexColors = this._originalUseVertexColors;
            mesh.hasVertexAlpha = this._originalHasVertexAlpha;
        }
        this.material.dispose();
    }
}
