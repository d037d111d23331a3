/**
 * A cloth's render mesh drawn straight from GPU buffers on a `WebGPUEngine`: its position and normal vertex buffers are
 * Babylon `StorageBuffer`s that the render kernel (`GpuRenderMeshWriter`) writes from the body's particles on the
 * engine's own device, so no position is read back to draw a frame.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { StorageBuffer } from "@babylonjs/core/Buffers/storageBuffer";
import { Constants } from "@babylonjs/core/Engines/constants";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine";
import { GpuRenderMeshWriter, type GpuSoftBodySolver } from "../gpu/index.js";
import type { RenderMeshSync } from "./renderMeshSync.js";

/** Hands a {@link RenderMeshSync}'s drawing to the GPU while it lives; {@link dispose} hands it back to the CPU. */
export class GpuDrawnMesh {
    private readonly _positions: StorageBuffer;
    private readonly _normals: StorageBuffer;
    private readonly _writer: GpuRenderMeshWriter;

    /**
     * @param engine - the engine drawing the mesh; its device must be the solver's
     * @param _sync - the mesh's writer (see `ClothImpostor`)
     * @param vertexToParticle - render vertex → particle
     * @param solver - the body's GPU solver
     * @throws Error when a buffer cannot be made (the caller then keeps drawing from read-backs)
     */
    public constructor(
        engine: WebGPUEngine,
        private readonly _sync: RenderMeshSync,
        vertexToParticle: Int32Array,
        solver: GpuSoftBodySolver,
    ) {
        const n = vertexToParticle.length;
        // Vertex usage to draw from; storage (added by StorageBuffer) for the kernel to write; copy source for tests.
        const flags = Constants.BUFFER_CREATIONFLAG_VERTEX | Constants.BUFFER_CREATIONFLAG_READ;
        this._positions = new StorageBuffer(engine, 12 * n, flags, "xpbd render positions");
        this._normals = new StorageBuffer(engine, 12 * n, flags, "xpbd render normals");
        try {
            this._writer = new GpuRenderMeshWriter(
                solver.device,
                solver.particlePositions,
                solver.body.particleCount,
                _sync.gpuMapping(vertexToParticle),
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
        _sync.drawFromGpu(
            this._writer,
            vertexBuffer(this._positions, VertexBuffer.PositionKind),
            vertexBuffer(this._normals, VertexBuffer.NormalKind),
        );
    }

    /** The storage buffer of the render positions (xyz f32 per vertex, the mesh's local frame), for tests and tools. */
    public get positions(): StorageBuffer {
        return this._positions;
    }

    /** See {@link RenderMeshSync.refreshGpuBounds}. */
    public refreshBounds(margin: number): void {
        this._sync.refreshGpuBounds(margin);
    }

    /** Gives the mesh back ordinary vertex buffers (see {@link RenderMeshSync.drawFromCpu}) and releases the GPU ones. */
    public dispose(): void {
        this._sync.drawFromCpu();
        this._writer.dispose();
        this._positions.dispose();
        this._normals.dispose();
    }
}
