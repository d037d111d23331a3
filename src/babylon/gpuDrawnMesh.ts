/**
 * A cloth's or a soft body's render mesh drawn straight from GPU buffers on a `WebGPUEngine`: its position and normal
 * vertex buffers are Babylon `StorageBuffer`s that the render kernels (`GpuRenderMeshWriter`) write from the body's
 * particles on the engine's own device, so no position is read back to draw a frame.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { StorageBuffer } from "@babylonjs/core/Buffers/storageBuffer";
import { Constants } from "@babylonjs/core/Engines/constants";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine";
import { GpuRenderMeshWriter, type GpuSoftBodySolver, type RenderVertexBinding } from "../gpu/index.js";
import type { RenderMeshSync } from "./renderMeshSync.js";

/** A render mesh the GPU can draw: its writer, and where its vertices are relative to the particles. */
export interface GpuDrawable {
    /** The mesh's writer. */
    readonly sync: RenderMeshSync;
    /** Its vertices: a cloth's weld map, or a soft body's tet or surface binding. */
    readonly vertices: RenderVertexBinding;
}

/** Hands a {@link RenderMeshSync}'s drawing to the GPU while it lives; {@link dispose} hands it back to the CPU. */
export class GpuDrawnMesh {
    private readonly _positions: StorageBuffer;
    private readonly _normals: StorageBuffer;
    private readonly _writer: GpuRenderMeshWriter;
    private readonly _sync: RenderMeshSync;

    /**
     * @param engine - the engine drawing the mesh; its device must be the solver's
     * @param drawable - the mesh's writer and vertices (`SoftImpostor._gpuDrawableMesh`)
     * @param solver - the body's GPU solver
     * @throws Error when a buffer cannot be made or the vertices cannot be drawn (the caller then keeps drawing from
     *   read-backs)
     */
    public constructor(engine: WebGPUEngine, drawable: GpuDrawable, solver: GpuSoftBodySolver) {
        const sync = drawable.sync;
        this._sync = sync;
        const mapping = sync.gpuMapping(drawable.vertices);
        const n = mapping.normalSource.length;
        // Vertex usage to draw from; storage (added by StorageBuffer) for the kernel to write; copy source for tests;
        // copy destination because Babylon's WebGPU engine writes zeros into a storage buffer made from a size.
        const flags = Constants.BUFFER_CREATIONFLAG_VERTEX | Constants.BUFFER_CREATIONFLAG_READ | Constants.BUFFER_CREATIONFLAG_WRITE;
        this._positions = new StorageBuffer(engine, 12 * n, flags, "xpbd render positions");
        this._normals = new StorageBuffer(engine, 12 * n, flags, "xpbd render normals");
        try {
            this._writer = new GpuRenderMeshWriter(
                solver.device,
                solver.particlePositions,
                solver.body.particleCount,
                mapping,
                this._positions.getBuffer().underlyingResource as GPUBuffer,
                this._normals.getBuffer().underlyingResource as GPUBuffer,
            );
        } catch (error) {
            this._positions.dispose();
            this._normals.dispose();
            throw error;
        }
        const vertexBuffer = (buffer: StorageBuffer, kind: string): VertexBuffer =>
            new VertexBuffer(engine, buffer.getBuffer(), kind, { updatable: false, stride: 3, size: 3, label: `xpbd ${kind}` });
        sync.drawFromGpu(
            this._writer,
            vertexBuffer(this._positions, VertexBuffer.PositionKind),
            vertexBuffer(this._normals, VertexBuffer.NormalKind),
        );
    }

    /** The storage buffer of the render positions (xyz f32 per vertex, the mesh's local frame), for tests and tools. */
    public get positions(): StorageBuffer {
        return this._positions;
    }

    /**
     * See {@link RenderMeshSync.refreshGpuBounds}; `margin` (m) is how far a particle may move, which a render vertex
     * extrapolated from its tet exceeds (`GpuRenderMeshWriter.motionScale`), and one offset along a turning triangle's
     * frame may add to (`GpuRenderMeshWriter.turnReach`).
     */
    public refreshBounds(margin: number): void {
        this._sync.refreshGpuBounds(margin * this._writer.motionScale + this._writer.turnReach);
    }

    /** Gives the mesh back ordinary vertex buffers (see {@link RenderMeshSync.drawFromCpu}) and releases the GPU ones. */
    public dispose(): void {
        this._sync.drawFromCpu();
        this._writer.dispose();
        this._positions.dispose();
        this._normals.dispose();
    }
}
