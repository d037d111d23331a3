import { COPY_DST, MAP_READ, createBuffer } from "../../../src/gpu/bodyBuffers";

/** Reads the first `bytes` of `buffer` (copy-source usage) back as floats. */
export async function readFloats(device: GPUDevice, buffer: GPUBuffer, bytes: number): Promise<Float32Array> {
    const staging = createBuffer(device, bytes, MAP_READ | COPY_DST, "test read-back");
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return out;
}
