import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { REDUCE_SIZE, WORKGROUP_SUMS_WGSL } from "./workgroupSums.js";

/**
 * Damping of deformation after the substeps, as the core's `dampDeformation`: `rigidMotion` (one workgroup) sums the
 * reference particles' mass, momentum, angular momentum and inertia about their centre of mass and solves for the
 * angular velocity; `dampDeformation` (one thread per particle) removes the fraction `1 − e^(−damping·dt)` of each
 * free particle's velocity relative to that rigid motion. The reference particles are the weight-1 pins when there
 * are any, else the free ones. One workgroup keeps the sums in a fixed order and needs no second pass; it loops over
 * `n / 64` particles per thread, which is cheap next to a substep.
 *
 * Layout (group 0): 0 Params (dynamic), 1 pos, 2 vel, 3 masses, 4 rigid motion (centre and damping factor, linear
 * velocity, angular velocity).
 */
export const DAMPING_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> masses: array<f32>;
@group(0) @binding(4) var<storage, read_write> rigid: array<vec4<f32>>;

${WORKGROUP_SUMS_WGSL}

fn isReference(w: f32) -> bool {
    return (w == 0.0) == (P.dampPinned != 0u);
}

@compute @workgroup_size(${REDUCE_SIZE})
fn rigidMotion(@builtin(local_invocation_index) i: u32) {
    // Mass-weighted centre and velocity.
    var mx = vec4<f32>(0.0);
    var mv = vec4<f32>(0.0);
    for (var k = i; k < P.particleCount; k += ${REDUCE_SIZE}u) {
        let p = pos[k];
        if (isReference(p.w)) {
            let m = masses[k];
            mx += vec4<f32>(p.xyz * m, m);
            mv += vec4<f32>(vel[k].xyz * m, 0.0);
        }
    }
    sumA[i] = mx;
    sumB[i] = mv;
    sumC[i] = vec4<f32>(0.0);
    reduceSums(i);
    let mass = sumA[0].w;
    let invMass = select(0.0, 1.0 / mass, mass > 0.0);
    let c = sumA[0].xyz * invMass;
    let vc = sumB[0].xyz * invMass;
    workgroupBarrier();
    // Angular momentum and inertia tensor about the centre.
    var l = vec4<f32>(0.0);
    var diagonal = vec4<f32>(0.0);
    var offDiagonal = vec4<f32>(0.0);
    for (var k = i; k < P.particleCount; k += ${REDUCE_SIZE}u) {
        let p = pos[k];
        if (isReference(p.w)) {
            let m = masses[k];
            let r = p.xyz - c;
            l += vec4<f32>(m * cross(r, vel[k].xyz - vc), 0.0);
            diagonal += vec4<f32>(m * (r.y * r.y + r.z * r.z), m * (r.x * r.x + r.z * r.z), m * (r.x * r.x + r.y * r.y), 0.0);
            offDiagonal -= vec4<f32>(m * r.x * r.y, m * r.x * r.z, m * r.y * r.z, 0.0);
        }
    }
    sumA[i] = l;
    sumB[i] = diagonal;
    sumC[i] = offDiagonal;
    reduceSums(i);
    if (i != 0u) {
        return;
    }
    let L = sumA[0].xyz;
    let ixx = sumB[0].x;
    let iyy = sumB[0].y;
    let izz = sumB[0].z;
    let ixy = sumC[0].x;
    let ixz = sumC[0].y;
    let iyz = sumC[0].z;
    // ω = I⁻¹ L by cofactors. A degenerate inertia (particles on a line, a single pin) gives no rotation; f32 leaves a
    // determinant of about 1e-7 of scale³ for an exactly degenerate one, so the threshold is 1e-5 (the core's: 1e-12).
    let c00 = iyy * izz - iyz * iyz;
    let c01 = ixz * iyz - ixy * izz;
    let c02 = ixy * iyz - ixz * iyy;
    let det = ixx * c00 + ixy * c01 + ixz * c02;
    let scale = ixx + iyy + izz;
    var omega = vec3<f32>(0.0);
    if (abs(det) > 1e-5 * scale * scale * scale) {
        let c11 = ixx * izz - ixz * ixz;
        let c12 = ixy * ixz - ixx * iyz;
        let c22 = ixx * iyy - ixy * ixy;
        omega = vec3<f32>(c00 * L.x + c01 * L.y + c02 * L.z, c01 * L.x + c11 * L.y + c12 * L.z, c02 * L.x + c12 * L.y + c22 * L.z) / det;
    }
    rigid[0] = vec4<f32>(c, select(0.0, P.dampingFactor, mass > 0.0));
    rigid[1] = vec4<f32>(vc, 0.0);
    rigid[2] = vec4<f32>(omega, 0.0);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn dampDeformation(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let p = pos[k];
    let factor = rigid[0].w;
    if (p.w == 0.0 || factor == 0.0) {
        return;
    }
    let v = vel[k].xyz;
    let rigidVelocity = rigid[1].xyz + cross(rigid[2].xyz, p.xyz - rigid[0].xyz);
    vel[k] = vec4<f32>(v - factor * (v - rigidVelocity), 0.0);
}
`;
