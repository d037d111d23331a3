import { WORKGROUP_SIZE } from "./predictShader.js";

/** The kernels that rebuild a particle hash, by entry point (see `particleContactShader.ts`). */
export type ParticleHashKernels = Readonly<
    Record<"clearCells" | "countCells" | "sumChunks" | "scanCells" | "scatterCells", GPUComputePipeline>
>;

/**
 * Encodes the rebuild of a hash of `buckets` buckets over `particles` particles from their predicted positions, for
 * self-collision and for the contacts between a group's bodies alike. The caller has bound the kernels' bind group.
 */
export function encodeParticleHashBuild(
    pass: GPUComputePassEncoder,
    kernels: ParticleHashKernels,
    buckets: number,
    particles: number,
): void {
    pass.setPipeline(kernels.clearCells);
    pass.dispatchWorkgroups(Math.ceil(buckets / WORKGROUP_SIZE));
    pass.setPipeline(kernels.countCells);
    pass.dispatchWorkgroups(Math.ceil(particles / WORKGROUP_SIZE));
    // The scan runs in one workgroup, chunk by chunk (see `sumChunks` and `scanCells`).
    pass.setPipeline(kernels.sumChunks);
    pass.dispatchWorkgroups(1);
    pass.setPipeline(kernels.scanCells);
    pass.dispatchWorkgroups(1);
    pass.setPipeline(kernels.scatterCells);
    pass.dispatchWorkgroups(Math.ceil(particles / WORKGROUP_SIZE));
}
