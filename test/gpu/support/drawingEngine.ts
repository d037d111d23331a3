/**
 * A NullEngine made to draw from GPU buffers on a test's Dawn device, as the WebGPU backend asks of a `WebGPUEngine`
 * (`createStorageBuffer`), for the tests of meshes drawn from GPU buffers.
 */
import { DataBuffer } from "@babylonjs/core/Buffers/dataBuffer";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine";
import type { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { COPY_SRC, STORAGE } from "../../../src/gpu/bodyBuffers";

/** WebGPU's `GPUBufferUsage.VERTEX`. */
const VERTEX = 0x20;

/** A Babylon data buffer over a GPU buffer of the test's device. */
class DeviceBuffer extends DataBuffer {
    public constructor(public readonly buffer: GPUBuffer) {
        super();
        this.references = 1;
        this.capacity = buffer.size;
    }

    public override get underlyingResource(): GPUBuffer {
        return this.buffer;
    }
}

/** `engine` made to create storage buffers on `device` (counting those released), as a `WebGPUEngine` does. */
export function drawingEngine(engine: NullEngine, device: GPUDevice): { engine: WebGPUEngine; released: () => number } {
    let released = 0;
    const patched = engine as unknown as {
        createStorageBuffer(size: number, flags: number, label?: string): DataBuffer;
        _releaseBuffer(buffer: DataBuffer): boolean;
    };
    const release = patched._releaseBuffer.bind(engine);
    patched.createStorageBuffer = (size, _flags, label) =>
        new DeviceBuffer(device.createBuffer({ size, usage: STORAGE | VERTEX | COPY_SRC, label }));
    patched._releaseBuffer = (buffer) => {
        if (!(buffer instanceof DeviceBuffer)) {
            return release(buffer);
        }
        // As the WebGPU engine's buffer manager: destroyed when the count reaches 0 (the storage buffer and the
        // vertex buffer over it both release it).
        if (--buffer.references !== 0) {
            return false;
        }
        buffer.buffer.destroy();
        released++;
        return true;
    };
    return { engine: engine as unknown as WebGPUEngine, released: () => released };
}

/** Lets the read-backs in flight arrive (their promise chains run after the queue's work and a macrotask). */
export async function settle(device: GPUDevice): Promise<void> {
    await device.queue.onSubmittedWorkDone();
    await new Promise((resolve) => setTimeout(resolve, 0));
}
