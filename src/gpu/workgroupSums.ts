/** Threads of the one workgroup that reduces a body-wide sum (the damping's rigid motion, shape matching's fit). */
export const REDUCE_SIZE = 64;

/**
 * Three vec4 sums per thread of a {@link REDUCE_SIZE}-thread workgroup and `reduceSums`, which adds them in a fixed
 * tree into element 0: the same inputs give the same bits whatever order the threads run in.
 */
export const WORKGROUP_SUMS_WGSL = /* wgsl */ `
var<workgroup> sumA: array<vec4<f32>, ${REDUCE_SIZE}>;
var<workgroup> sumB: array<vec4<f32>, ${REDUCE_SIZE}>;
var<workgroup> sumC: array<vec4<f32>, ${REDUCE_SIZE}>;

/** Sums sumA, sumB and sumC over the workgroup into their element 0. */
fn reduceSums(i: u32) {
    workgroupBarrier();
    for (var stride = ${REDUCE_SIZE / 2}u; stride > 0u; stride = stride >> 1u) {
        if (i < stride) {
            sumA[i] += sumA[i + stride];
            sumB[i] += sumB[i + stride];
            sumC[i] += sumC[i + stride];
        }
        workgroupBarrier();
    }
}
`;
