import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { REDUCE_SIZE, WORKGROUP_SUMS_WGSL } from "./workgroupSums.js";

/**
 * Multiplier words of the shape-matching set of `count` particles: three per particle (its pull's xyz), then the
 * fitted rotation (3 rows, row-major) and centre of mass that `fit` writes for `apply` (see {@link SHAPE_MATCHING_WGSL}).
 */
export function shapeMatchingLambdaWords(count: number): number {
    return 3 * count + 12;
}

/**
 * Shape matching, as the core's `ShapeMatching.project`, in two dispatches per projection (layout: the constraint
 * kernels', `constraintShaders.ts`; records: per particle its rest offset `qᵢ` and mass, vec4 each):
 *
 * - `fit`, one workgroup of {@link REDUCE_SIZE} threads: the mass-weighted centre `c` of the particles, then the
 *   correlation `S = Σ mᵢ qᵢ (xᵢ − c)ᵀ`, each thread summing a fixed stride of particles and the threads' sums added
 *   in a fixed tree (as the damping reduction: the same state gives the same bits); then thread 0 finds the best-fit
 *   rotation by the core's `RotationFit` (Horn's quaternion, the eigenvector of the largest eigenvalue of a symmetric
 *   4×4 matrix, by cyclic Jacobi sweeps; its convergence test at f32's precision), and writes it with `c` after the
 *   set's multipliers;
 * - `apply`, one thread per particle: the XPBD pull towards the goal `R qᵢ + c` with compliance `α / mᵢ` and the
 *   particle's three multipliers, weight-1 pins left alone.
 *
 * The multipliers of the set start at `D.lambdaBase + D.first`: three per particle, then the 12 words of the fit.
 */
export const SHAPE_MATCHING_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> lambdas: array<f32>;
@group(0) @binding(4) var<storage, read> records: array<vec4<f32>>;

${WORKGROUP_SUMS_WGSL}
/** Horn's matrix (row-major 4×4) and the accumulated Jacobi rotations, for thread 0. */
var<private> n: array<f32, 16>;
var<private> v: array<f32, 16>;

/** The compliance / h² of set \`i\` (the fifth set's is \`alpha4\`). */
fn alphaOf(i: u32) -> f32 {
    if (i < 4u) {
        return P.alpha[i];
    }
    return P.alpha4;
}

fn setSymmetric(i: u32, j: u32, value: f32) {
    n[4u * i + j] = value;
    n[4u * j + i] = value;
}

/** One Jacobi rotation zeroing n[p][q] (p < q), as \`RotationFit._rotate\`. */
fn rotate(p: u32, q: u32) {
    let apq = n[4u * p + q];
    if (apq == 0.0) {
        return;
    }
    let theta = (n[4u * q + q] - n[4u * p + p]) / (2.0 * apq);
    let t = select(-1.0, 1.0, theta >= 0.0) / (abs(theta) + sqrt(theta * theta + 1.0));
    let c = 1.0 / sqrt(t * t + 1.0);
    let sn = t * c;
    for (var k = 0u; k < 4u; k++) {
        let akp = n[4u * k + p];
        let akq = n[4u * k + q];
        n[4u * k + p] = c * akp - sn * akq;
        n[4u * k + q] = sn * akp + c * akq;
    }
    for (var k = 0u; k < 4u; k++) {
        let apk = n[4u * p + k];
        let aqk = n[4u * q + k];
        n[4u * p + k] = c * apk - sn * aqk;
        n[4u * q + k] = sn * apk + c * aqk;
    }
    for (var k = 0u; k < 4u; k++) {
        let vkp = v[4u * k + p];
        let vkq = v[4u * k + q];
        v[4u * k + p] = c * vkp - sn * vkq;
        v[4u * k + q] = sn * vkp + c * vkq;
    }
}

/** The rotation best mapping the rest offsets onto the current ones, from S's rows, as \`RotationFit.fitToRef\`. */
fn bestRotation(sx: vec3<f32>, sy: vec3<f32>, sz: vec3<f32>) -> mat3x3<f32> {
    setSymmetric(0u, 0u, sx.x + sy.y + sz.z);
    setSymmetric(0u, 1u, sy.z - sz.y);
    setSymmetric(0u, 2u, sz.x - sx.z);
    setSymmetric(0u, 3u, sx.y - sy.x);
    setSymmetric(1u, 1u, sx.x - sy.y - sz.z);
    setSymmetric(1u, 2u, sx.y + sy.x);
    setSymmetric(1u, 3u, sz.x + sx.z);
    setSymmetric(2u, 2u, -sx.x + sy.y - sz.z);
    setSymmetric(2u, 3u, sy.z + sz.y);
    setSymmetric(3u, 3u, -sx.x - sy.y + sz.z);
    for (var k = 0u; k < 16u; k++) {
        v[k] = select(0.0, 1.0, k % 5u == 0u);
    }
    for (var sweep = 0u; sweep < 12u; sweep++) {
        var off = 0.0;
        var scale = 0.0;
        for (var k = 0u; k < 16u; k++) {
            if (k % 5u == 0u) {
                scale += n[k] * n[k];
            } else {
                off += n[k] * n[k];
            }
        }
        // The core stops at a relative off-diagonal size of 1e-15 (f64); f32 gets to about its own precision.
        if (!(off > 1e-14 * (scale + off))) {
            break;
        }
        for (var p = 0u; p < 3u; p++) {
            for (var q = p + 1u; q < 4u; q++) {
                rotate(p, q);
            }
        }
    }
    var best = 0u;
    for (var k = 1u; k < 4u; k++) {
        if (n[5u * k] > n[5u * best]) {
            best = k;
        }
    }
    // Horn's quaternion (w, x, y, z), as matrixFromQuaternion.
    let quaternion = normalize(vec4<f32>(v[best], v[4u + best], v[8u + best], v[12u + best]));
    let w = quaternion.x;
    let x = quaternion.y;
    let y = quaternion.z;
    let z = quaternion.w;
    // Columns of the row-major matrix the core writes.
    return mat3x3<f32>(
        vec3<f32>(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)),
        vec3<f32>(2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)),
        vec3<f32>(2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)),
    );
}

@compute @workgroup_size(${REDUCE_SIZE})
fn fit(@builtin(local_invocation_index) i: u32) {
    var mx = vec4<f32>(0.0);
    for (var k = i; k < D.count; k += ${REDUCE_SIZE}u) {
        let m = records[D.first + k].w;
        mx += vec4<f32>(pos[k].xyz * m, m);
    }
    sumA[i] = mx;
    sumB[i] = vec4<f32>(0.0);
    sumC[i] = vec4<f32>(0.0);
    reduceSums(i);
    let c = sumA[0].xyz / sumA[0].w;
    workgroupBarrier();
    // Rows of S: S[a][b] = Σ mᵢ qᵢ[a] (xᵢ − c)[b].
    var sx = vec3<f32>(0.0);
    var sy = vec3<f32>(0.0);
    var sz = vec3<f32>(0.0);
    for (var k = i; k < D.count; k += ${REDUCE_SIZE}u) {
        let r = records[D.first + k];
        let p = r.w * (pos[k].xyz - c);
        sx += r.x * p;
        sy += r.y * p;
        sz += r.z * p;
    }
    sumA[i] = vec4<f32>(sx, 0.0);
    sumB[i] = vec4<f32>(sy, 0.0);
    sumC[i] = vec4<f32>(sz, 0.0);
    reduceSums(i);
    if (i == 0u) {
        let rotation = bestRotation(sumA[0].xyz, sumB[0].xyz, sumC[0].xyz);
        let base = D.lambdaBase + D.first + 3u * D.count;
        for (var row = 0u; row < 3u; row++) {
            lambdas[base + 4u * row] = rotation[0][row];
            lambdas[base + 4u * row + 1u] = rotation[1][row];
            lambdas[base + 4u * row + 2u] = rotation[2][row];
            lambdas[base + 4u * row + 3u] = c[row];
        }
    }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn apply(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= D.count) {
        return;
    }
    let p = pos[k];
    if (p.w == 0.0) {
        return;
    }
    let lambda0 = D.lambdaBase + D.first;
    let base = lambda0 + 3u * D.count;
    let q = records[D.first + k].xyz;
    let rowX = vec4<f32>(lambdas[base], lambdas[base + 1u], lambdas[base + 2u], lambdas[base + 3u]);
    let rowY = vec4<f32>(lambdas[base + 4u], lambdas[base + 5u], lambdas[base + 6u], lambdas[base + 7u]);
    let rowZ = vec4<f32>(lambdas[base + 8u], lambdas[base + 9u], lambdas[base + 10u], lambdas[base + 11u]);
    let goal = vec3<f32>(dot(rowX.xyz, q) + rowX.w, dot(rowY.xyz, q) + rowY.w, dot(rowZ.xyz, q) + rowZ.w);
    let at = alphaOf(D.setIndex) * p.w;
    // Δλ = (−C − α̃ᵢ λ) / (wᵢ + α̃ᵢ) with α̃ᵢ = α̃ wᵢ; the particle moves by wᵢ Δλ.
    let l = lambda0 + 3u * k;
    let lambda = vec3<f32>(lambdas[l], lambdas[l + 1u], lambdas[l + 2u]);
    let d = (-(p.xyz - goal) - at * lambda) / (p.w + at);
    lambdas[l] = lambda.x + d.x;
    lambdas[l + 1u] = lambda.y + d.y;
    lambdas[l + 2u] = lambda.z + d.z;
    pos[k] = vec4<f32>(p.xyz + p.w * d, p.w);
}
`;
