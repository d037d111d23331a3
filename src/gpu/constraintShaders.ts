import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";

/**
 * The constraint kernels: one thread per constraint of one batch (see `colourBatches.ts`), each the same XPBD
 * projection as the core's `project()` for that kind, in f32. The constraints of a batch share no particle, so the
 * threads never write the same position.
 *
 * Layout (group 0): 0 Params (dynamic), 1 Dispatch (dynamic), 2 pos, 3 lambdas, 4 the kind's records.
 */
function constraintModule(record: string, body: string): string {
    return /* wgsl */ `
${PARAMS_WGSL}
${record}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> lambdas: array<f32>;
@group(0) @binding(4) var<storage, read> records: array<Record>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= D.count) {
        return;
    }
    let index = D.first + id.x;
    let r = records[index];
    let l = D.lambdaBase + index;
    let alphaTilde = P.alpha[D.setIndex];
${body}
}
`;
}

/** Distance constraints (stretch and shear): `C = |xⱼ − xᵢ| − L`, as `DistanceConstraints.project`. */
export const DISTANCE_WGSL = constraintModule(
    /* wgsl */ `
struct Record {
    i: u32,
    j: u32,
    rest: f32,
    pad: f32,
}`,
    /* wgsl */ `
    let pa = pos[r.i];
    let pb = pos[r.j];
    let wSum = pa.w + pb.w;
    if (wSum == 0.0) {
        return;
    }
    let d = pb.xyz - pa.xyz;
    let dist = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (dist < 1e-12) {
        return;
    }
    let s = (r.rest - dist - alphaTilde * lambdas[l]) / ((wSum + alphaTilde) * dist);
    lambdas[l] += s * dist;
    pos[r.i] = vec4<f32>(pa.xyz - pa.w * s * d, pa.w);
    pos[r.j] = vec4<f32>(pb.xyz + pb.w * s * d, pb.w);`,
);

/** Isometric bending, as `IsometricBendConstraints.project` (the element's compliance scales with |e|²). */
export const ISOMETRIC_BEND_WGSL = constraintModule(
    /* wgsl */ `
struct Record {
    particles: vec4<u32>,   // wings a, b, hinge c, d
    weights: vec4<f32>,     // cotangent weights Kₐ, K_b, K_c, K_d
    hinge2: vec4<f32>,      // x: squared rest hinge length
}`,
    /* wgsl */ `
    let pa = pos[r.particles.x];
    let pb = pos[r.particles.y];
    let pc = pos[r.particles.z];
    let pd = pos[r.particles.w];
    let ac = pa.xyz - pc.xyz;
    let bc = pb.xyz - pc.xyz;
    let dc = pd.xyz - pc.xyz;
    let k = r.weights;
    let s = k.x * ac + k.y * bc + k.w * dc;
    let f = bc - ac;
    let n = cross(dc, f);
    let n2 = dot(n, n);
    if (n2 < 1e-30) {
        return;
    }
    let invLength = 1.0 / sqrt(n2);
    let bendError = dot(s, n) * invLength;
    var g = k;
    // The exact gradient of s·n̂ adds β and γ when s has an in-plane part (see the core's comment).
    if (dot(s, s) - bendError * bendError > 1e-6 * dot(dc, dc)) {
        let invN2 = invLength * invLength;
        let beta = dot(s, cross(dc, n)) * invN2;
        let gamma = dot(s, cross(f, n)) * invN2;
        g = g + vec4<f32>(-beta, beta, gamma, -gamma);
    }
    let w = vec4<f32>(pa.w, pb.w, pc.w, pd.w);
    let aTilde = alphaTilde * r.hinge2.x;
    let denominator = dot(w * g, g) + aTilde;
    if (denominator == 0.0) {
        return;
    }
    let dLambda = (-bendError - aTilde * lambdas[l]) / denominator;
    lambdas[l] += dLambda;
    let m = w * g * (dLambda * invLength);
    pos[r.particles.x] = vec4<f32>(pa.xyz + m.x * n, pa.w);
    pos[r.particles.y] = vec4<f32>(pb.xyz + m.y * n, pb.w);
    pos[r.particles.z] = vec4<f32>(pc.xyz + m.z * n, pc.w);
    pos[r.particles.w] = vec4<f32>(pd.xyz + m.w * n, pd.w);`,
);

/** Dihedral-angle bending, as `BendConstraints.project` (hinge as `writeHinge`). */
export const DIHEDRAL_BEND_WGSL = constraintModule(
    /* wgsl */ `
struct Record {
    particles: vec4<u32>,   // wings a, b, hinge c, d
    rest: vec4<f32>,        // x: rest dihedral angle (radians)
}
const PI = 3.141592653589793;`,
    /* wgsl */ `
    let pa = pos[r.particles.x];
    let pb = pos[r.particles.y];
    let pc = pos[r.particles.z];
    let pd = pos[r.particles.w];
    if (pa.w + pb.w + pc.w + pd.w == 0.0) {
        return;
    }
    let e = pd.xyz - pc.xyz;
    let n1 = cross(pc.xyz - pa.xyz, pd.xyz - pa.xyz);
    let n2 = cross(pd.xyz - pb.xyz, pc.xyz - pb.xyz);
    let eLen2 = dot(e, e);
    let n1Len2 = dot(n1, n1);
    let n2Len2 = dot(n2, n2);
    if (eLen2 < 1e-20 || n1Len2 < 1e-24 * eLen2 * eLen2 || n2Len2 < 1e-24 * eLen2 * eLen2) {
        return;
    }
    let eLen = sqrt(eLen2);
    // WGSL lets an implementation ignore the sign of zero, and SwiftShader's atan2(−0, x > 0) is π: a flat hinge,
    // whose sine is often −0, must read +0.
    let sine = dot(cross(n1, n2), e) / eLen;
    let angle = atan2(select(sine, 0.0, sine == 0.0), dot(n1, n2));
    var error = angle - r.rest.x;
    if (error > PI) {
        error -= 2.0 * PI;
    } else if (error < -PI) {
        error += 2.0 * PI;
    }
    let ga = -(eLen / n1Len2) * n1;
    let gb = -(eLen / n2Len2) * n2;
    let s1 = dot(pa.xyz - pc.xyz, e) / eLen2;
    let s2 = dot(pb.xyz - pc.xyz, e) / eLen2;
    let gd = -(s1 * ga + s2 * gb);
    let gc = -(ga + gb + gd);
    let denominator = pa.w * dot(ga, ga) + pb.w * dot(gb, gb) + pc.w * dot(gc, gc) + pd.w * dot(gd, gd) + alphaTilde;
    if (denominator < 1e-30) {
        return;
    }
    let dLambda = (-error - alphaTilde * lambdas[l]) / denominator;
    lambdas[l] += dLambda;
    pos[r.particles.x] = vec4<f32>(pa.xyz + pa.w * dLambda * ga, pa.w);
    pos[r.particles.y] = vec4<f32>(pb.xyz + pb.w * dLambda * gb, pb.w);
    pos[r.particles.z] = vec4<f32>(pc.xyz + pc.w * dLambda * gc, pc.w);
    pos[r.particles.w] = vec4<f32>(pd.xyz + pd.w * dLambda * gd, pd.w);`,
);

/** Tetrahedral volume, as `VolumeConstraints.project`. */
export const VOLUME_WGSL = constraintModule(
    /* wgsl */ `
struct Record {
    particles: vec4<u32>,
    rest: vec4<f32>,        // x: rest volume (m³)
}`,
    /* wgsl */ `
    let pa = pos[r.particles.x];
    let pb = pos[r.particles.y];
    let pc = pos[r.particles.z];
    let pd = pos[r.particles.w];
    if (pa.w + pb.w + pc.w + pd.w == 0.0) {
        return;
    }
    let ab = pb.xyz - pa.xyz;
    let ac = pc.xyz - pa.xyz;
    let ad = pd.xyz - pa.xyz;
    let gb = cross(ac, ad) / 6.0;
    let gc = cross(ad, ab) / 6.0;
    let gd = cross(ab, ac) / 6.0;
    let ga = -(gb + gc + gd);
    let volume = dot(ab, gb);
    let denominator = pa.w * dot(ga, ga) + pb.w * dot(gb, gb) + pc.w * dot(gc, gc) + pd.w * dot(gd, gd) + alphaTilde;
    if (denominator < 1e-30) {
        return;
    }
    let dLambda = (r.rest.x - volume - alphaTilde * lambdas[l]) / denominator;
    lambdas[l] += dLambda;
    pos[r.particles.x] = vec4<f32>(pa.xyz + pa.w * dLambda * ga, pa.w);
    pos[r.particles.y] = vec4<f32>(pb.xyz + pb.w * dLambda * gb, pb.w);
    pos[r.particles.z] = vec4<f32>(pc.xyz + pc.w * dLambda * gc, pc.w);
    pos[r.particles.w] = vec4<f32>(pd.xyz + pd.w * dLambda * gd, pd.w);`,
);

/**
 * Strain limiting, as `StrainLimit.project`: an edge longer than `P.strainLimit` × its rest length is shortened to it,
 * moving only its far end from the pins (`side` 1: i stays, 2: j stays) or both by their inverse masses (0). No
 * multiplier: a plain projection. The records are the stretch edges in the core's sweep order (see
 * `strainLimitPass.ts`).
 */
export const STRAIN_LIMIT_WGSL = constraintModule(
    /* wgsl */ `
struct Record {
    i: u32,
    j: u32,
    rest: f32,
    side: u32,
}`,
    /* wgsl */ `
    let pa = pos[r.i];
    let pb = pos[r.j];
    let d = pb.xyz - pa.xyz;
    let length2 = d.x * d.x + d.y * d.y + d.z * d.z;
    let limit = P.strainLimit * r.rest;
    if (length2 <= limit * limit) {
        return;
    }
    let wa = select(pa.w, 0.0, r.side == 1u);
    let wb = select(pb.w, 0.0, r.side == 2u);
    let weights = wa + wb;
    if (weights == 0.0) {
        return;
    }
    let length = sqrt(length2);
    let scale = (length - limit) / (length * weights);
    pos[r.i] = vec4<f32>(pa.xyz + wa * scale * d, pa.w);
    pos[r.j] = vec4<f32>(pb.xyz - wb * scale * d, pb.w);`,
);
