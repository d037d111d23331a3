/**
 * Writes a rope's particle positions into its render mesh: a tube rebuilt in place by Babylon's `CreateTube` with
 * `instance`, or a line strip by `CreateLines` with `instance`. Same frame convention as `RenderMeshSync`: the
 * simulation is in world space, the mesh keeps its transform, and each write goes through the inverse of its current
 * world matrix.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateTube } from "@babylonjs/core/Meshes/Builders/tubeBuilder";
import { CreateLines } from "@babylonjs/core/Meshes/Builders/linesBuilder";
import { worldMatrixChanged } from "./renderMeshSync.js";
import type { RenderWriter } from "./softImpostor.js";

/** How a rope is drawn: a tube of its radius, or a line through its particles. */
export type RopeRender = "tube" | "lines";

/** The render write-back of a rope (see the module comment). */
export class RopeRenderSync implements RenderWriter {
    /** World positions per particle (= per path point of the mesh), written by the impostor before {@link update}. */
    public worldPositions: Float64Array;

    /** The path handed to the builder, in the mesh's local frame (reused). */
    private readonly _path: Vector3[];
    private readonly _inverseWorld = new Matrix();
    private readonly _lastWorld = new Matrix();

    /**
     * Makes the mesh's vertex buffers updatable (the builders update them in place).
     * @param _mesh - a tube made by `CreateTube` or lines made by `CreateLines`, with one path point per particle
     * @param _render - which of the two it is
     * @param worldPositions - the particles' positions now
     */
    public constructor(
        private readonly _mesh: Mesh,
        private readonly _render: RopeRender,
        worldPositions: Float64Array,
    ) {
        this.worldPositions = new Float64Array(worldPositions);
        this._path = Array.from({ length: worldPositions.length / 3 }, () => new Vector3());
        const kinds = _render === "tube" ? [VertexBuffer.PositionKind, VertexBuffer.NormalKind] : [VertexBuffer.PositionKind];
        for (const kind of kinds) {
            const data = _mesh.getVerticesData(kind);
            if (data && !_mesh.isVertexBufferUpdatable(kind)) {
                _mesh.setVerticesData(kind, data, true);
            }
        }
    }

    /** Whether the mesh's world matrix changed since the last {@link update}. */
    public get meshMoved(): boolean {
        return worldMatrixChanged(this._mesh, this._lastWorld);
    }

    /** Always true: every update rebuilds the rope from {@link worldPositions}. */
    public readonly needsWorldPositions = true;

    /** Rebuilds the tube (or the lines) along {@link worldPositions}, in the mesh's local frame. */
    public update(): void {
        const world = this._mesh.computeWorldMatrix(true);
        this._lastWorld.copyFrom(world);
        world.invertToRef(this._inverseWorld);
        const src = this.worldPositions;
        for (let p = 0; p < this._path.length; p++) {
            Vector3.TransformCoordinatesFromFloatsToRef(src[3 * p], src[3 * p + 1], src[3 * p + 2], this._inverseWorld, this._path[p]);
        }
        if (this._render === "tube") {
            CreateTube(this._mesh.name, { path: this._path, instance: this._mesh });
        } else {
            CreateLines(this._mesh.name, { points: this._path, instance: this._mesh as LinesMesh });
        }
    }
}
