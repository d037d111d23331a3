import { describeGpu, probeAdapter } from "./support/gpuDevice";

/** The test machinery itself: Dawn finds an adapter (SwiftShader here) and a compute dispatch round-trips. */
describeGpu("WebGPU in Node (Dawn)", (device) => {
    test("the adapter is named and a compute shader doubles 1,000 floats exactly", async () => {
        console.log(`WebGPU adapter: ${probeAdapter().detail}`);
        const n = 1000;
        const input = Float32Array.from({ length: n }, (_, k) => k * 0.5 - 100);
        const storage = device().createBuffer({ size: n * 4, usage: 0x80 | 0x8 | 0x4 }); // STORAGE | COPY_DST | COPY_SRC
        const readBack = device().createBuffer({ size: n * 4, usage: 0x1 | 0x8 }); // MAP_READ | COPY_DST
        device().queue.writeBuffer(storage, 0, input);
        const module = device().createShaderModule({
            code: `@group(0) @binding(0) var<storage, read_write> data: array<f32>;
                   @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
                       if (id.x < arrayLength(&data)) { data[id.x] = data[id.x] * 2.0; }
                   }`,
        });
        const pipeline = device().createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
        const group = device().createBindGroup({
            layout: pipeline.getBindGroupLayout(0),
            entries: [{ binding: 0, resource: { buffer: storage } }],
        });
        const encoder = device().createCommandEncoder();
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(Math.ceil(n / 64));
        pass.end();
        encoder.copyBufferToBuffer(storage, 0, readBack, 0, n * 4);
        device().queue.submit([encoder.finish()]);
        await readBack.mapAsync(0x1);
        const output = new Float32Array(readBack.getMappedRange().slice(0));
        readBack.unmap();
        expect(Array.from(output)).toEqual(Array.from(input, (v) => v * 2));
    });
});
