import { COPY_DST, COPY_SRC, createBuffer, type BodyBuffers } from "./bodyBuffers.js";

/**
 * The GPU's side of the CPU world's invalid-state containment (`XpbdWorld`'s `_containInvalid`): the body's last
 * positions known valid, to restore when a figures read finds a particle's position or velocity not finite or
 * beyond `MAX_COORDINATE`. Validity is only known when a figures read arrives, so each read also copies the
 * positions it measures into a candidate buffer, and a read that finds them valid promotes the candidate to the
 * valid copy. Both are GPU-to-GPU copies, in queue order: one read in flight at a time means the candidate is not
 * overwritten before it is promoted. The valid copy starts as the state the body was built with.
 */
export class ValidState {
    private readonly _candidate: GPUBuffer;
    private readonly _valid: GPUBuffer;

    public constructor(
        private readonly _device: GPUDevice,
        private readonly _buffers: BodyBuffers,
    ) {
        const bytes = _buffers.positions.size;
        this._candidate = createBuffer(_device, bytes, COPY_SRC | COPY_DST, "candidate valid positions");
        this._valid = createBuffer(_device, bytes, COPY_SRC | COPY_DST, "valid positions");
        const encoder = _device.createCommandEncoder({ label: "xpbd valid state" });
        encoder.copyBufferToBuffer(_buffers.positions, 0, this._valid, 0, bytes);
        _device.queue.submit([encoder.finish()]);
    }

    /** Copies the positions into the candidate, in the figures read's command buffer (the state it measures). */
    public encodeCandidate(encoder: GPUCommandEncoder): void {
        encoder.copyBufferToBuffer(this._buffers.positions, 0, this._candidate, 0, this._candidate.size);
    }

    /** The figures read found the candidate valid: it becomes the state {@link restore} goes back to. */
    public promote(): void {
        const encoder = this._device.createCommandEncoder({ label: "xpbd valid state" });
        encoder.copyBufferToBuffer(this._candidate, 0, this._valid, 0, this._valid.size);
        this._device.queue.submit([encoder.finish()]);
    }

    /**
     * Puts the body back on its last valid positions, at rest (previous positions there too, velocities zero), after
     * the steps submitted so far, as the CPU world does. The positions' `w` (inverse masses) comes back with them:
     * the caller rewrites it from the current pin weights before the next step.
     */
    public restore(): void {
        const buffers = this._buffers;
        const encoder = this._device.createCommandEncoder({ label: "xpbd restore valid state" });
        encoder.copyBufferToBuffer(this._valid, 0, buffers.positions, 0, this._valid.size);
        encoder.copyBufferToBuffer(this._valid, 0, buffers.previous, 0, this._valid.size);
        encoder.clearBuffer(buffers.velocities);
        this._device.queue.submit([encoder.finish()]);
    }

    /** The candidate and the valid copy, for a tear to give its new particles their parents' entries. @internal */
    public get _copies(): readonly GPUBuffer[] {
        return [this._candidate, this._valid];
    }

    /** Releases the two buffers. */
    public dispose(): void {
        this._candidate.destroy();
        this._valid.destroy();
    }
}
