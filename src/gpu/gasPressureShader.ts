import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { REDUCE_SIZE, WORKGROUP_SUMS_WGSL } from "./workgroupSums.js";

/**
 * Multiplier words of the gas (one constraint, see {@link GAS_PRESSURE_WGSL}): its multiplier λ, the step `sum`
 * hands `push` (sign × Δλ), and the volume the projection found (m³), which the figures read copies out. All three
 * are zeroed with the other multipliers at every substep's start, as the core zeroes λ.
 */
export const GAS_LAMBDA_WORDS = 3;

/**
 * The gas inside a closed cloth, as the core's `GasPressure.project`: one XPBD volume constraint per body, with the
 * isothermal gas law linearised at the volume each projection finds, in two dispatches per projection (layout
 * `gas`: 0 Params, 1 Dispatch, 2 pos, 3 lambdas, 4 triangles, 5 incidence, 6 info (incidence range in y, z),
 * 7 gradients, a vec4 per particle):
 *
 * - `sum`, one workgroup of {@link REDUCE_SIZE} threads: six times the enclosed volume (each triangle's tetrahedron
 *   with the first triangle's first corner, as the core, so a body far from the origin keeps its digits) and the
 *   denominator Σ wᵢ |∂V/∂xᵢ|², each thread summing a fixed stride of triangles and particles and the threads' sums
 *   added in a fixed tree (`reduceSums`: the same state gives the same bits). Each particle's gradient, a third of
 *   its incident triangles' area-weighted normals (in triangle order), is written for `push`. Thread 0 then takes
 *   the Newton step of the core on λ / h² = P V₀ / V and writes λ, the step and the volume;
 * - `push`, one thread per particle: xᵢ += wᵢ ∂V/∂xᵢ × step, from the gradient `sum` wrote (the positions the
 *   gradients were taken at, as the core takes all of them before moving any particle).
 *
 * `Params.gasPressureVolume` is P V₀ (Pa m³, 0: no gas) and `Params.gasOrientation` ±1, the surface's winding
 * (+1 counter-clockwise seen from outside). The multipliers start at `D.lambdaBase + D.first`.
 */
export const GAS_PRESSURE_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> lambdas: array<f32>;
@group(0) @binding(4) var<storage, read> triangles: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> incidence: array<u32>;
@group(0) @binding(6) var<storage, read> info: array<vec4<i32>>;
@group(0) @binding(7) var<storage, read_write> gradients: array<vec4<f32>>;

${WORKGROUP_SUMS_WGSL}

/** Twice the area-weighted normal of triangle \`t\`, (b − a) × (c − a). */
fn doubleNormal(t: u32) -> vec3<f32> {
    let tri = triangles[t];
    let a = pos[tri.x].xyz;
    return cross(pos[tri.y].xyz - a, pos[tri.z].xyz - a);
}

@compute @workgroup_size(${REDUCE_SIZE})
fn sum(@builtin(local_invocation_index) i: u32) {
    let origin = pos[triangles[0].x].xyz;
    var six = 0.0;
    for (var t = i; t < P.triangleCount; t += ${REDUCE_SIZE}u) {
        six += dot(pos[triangles[t].x].xyz - origin, doubleNormal(t));
    }
    var denominator = 0.0;
    for (var k = i; k < P.particleCount; k += ${REDUCE_SIZE}u) {
        let range = info[k];
        var g = vec3<f32>(0.0);
        for (var e = range.y; e < range.z; e++) {
            g += doubleNormal(incidence[e]);
        }
        // ∂V/∂x of a corner is a third of its triangle's area-weighted normal: a sixth of the double normal.
        g = g / 6.0;
        gradients[k] = vec4<f32>(g, 0.0);
        denominator += pos[k].w * dot(g, g);
    }
    sumA[i] = vec4<f32>(six, denominator, 0.0, 0.0);
    sumB[i] = vec4<f32>(0.0);
    sumC[i] = vec4<f32>(0.0);
    reduceSums(i);
    if (i != 0u) {
        return;
    }
    let l = D.lambdaBase + D.first;
    let s = P.gasOrientation;
    let v = s * sumA[0].x / 6.0;
    lambdas[l + 1u] = 0.0;
    lambdas[l + 2u] = v;
    if (!(v > 0.0)) {
        // Turned inside out: no volume to push on (the other constraints must first undo it).
        return;
    }
    let pv = P.gasPressureVolume;
    if (!(pv > 0.0)) {
        // No gas: nothing pushes.
        lambdas[l] = 0.0;
        return;
    }
    // The gas law linearised at this volume: stiffness k = −dp/dV = P V₀ / V², compliance 1 / k.
    let k = pv / (v * v);
    let alphaTilde = P.invH2 / k;
    let lambda = lambdas[l];
    let dLambda = (pv / v / k - alphaTilde * lambda) / (alphaTilde + sumA[0].y);
    lambdas[l] = lambda + dLambda;
    lambdas[l + 1u] = s * dLambda;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn push(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let p = pos[k];
    let step = lambdas[D.lambdaBase + D.first + 1u];
    if (p.w == 0.0 || step == 0.0) {
        return;
    }
    pos[k] = vec4<f32>(p.xyz + p.w * step * gradients[k].xyz, p.w);
}
`;
