import { PIN_WGSL, WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL, PassMode } from "./substepParams.js";
import { IMPULSE_WGSL } from "./colliderImpulses.js";

/** vec4s per collider shape record (the static part, written once per collider list). */
export const SHAPE_VEC4S = 7;

/** vec4s per collider pose record (one per shape and substep, written every step). */
export const POSE_VEC4S = 7;

/**
 * Collider shapes in WGSL: the signed distance and outward normal of a point given in the collider frame, for the
 * kinds the core's `ColliderShape.query` computes in the same way (plane, sphere, box, capsule, cylinder).
 *
 * A shape record: 0 kind and two-sidedness (as u32 bits), 1 `a` and the radius (plane: normal and offset), 2 `b`,
 * 3 the box or sphere centre, 4–6 the box rotation's rows (box → collider).
 */
const SHAPES_WGSL = /* wgsl */ `
const PLANE = 0u;
const SPHERE = 1u;
const BOX = 2u;
const CAPSULE = 3u;

fn sphereDistance(d: vec3<f32>, radius: f32) -> vec4<f32> {
    let len = sqrt(dot(d, d));
    if (len > 1e-12) {
        return vec4<f32>(d / len, len - radius);
    }
    // At the exact centre every direction is out; up is as good as any.
    return vec4<f32>(0.0, 1.0, 0.0, -radius);
}

fn boxDistance(base: u32, q: vec3<f32>) -> vec4<f32> {
    let h = colliders[base + 1u].xyz;
    let r0 = colliders[base + 4u].xyz;
    let r1 = colliders[base + 5u].xyz;
    let r2 = colliders[base + 6u].xyz;
    let d = q - colliders[base + 3u].xyz;
    // Into the box frame: the transposed rotation, as a sum of its rows.
    let l = d.x * r0 + d.y * r1 + d.z * r2;
    let o = abs(l) - h;
    var n: vec3<f32>;
    var dist: f32;
    if (o.x > 0.0 || o.y > 0.0 || o.z > 0.0) {
        let outside = max(o, vec3<f32>(0.0));
        dist = sqrt(dot(outside, outside));
        n = select(outside, -outside, l < vec3<f32>(0.0)) / dist;
    } else if (o.x >= o.y && o.x >= o.z) {
        dist = o.x;
        n = vec3<f32>(select(1.0, -1.0, l.x < 0.0), 0.0, 0.0);
    } else if (o.y >= o.z) {
        dist = o.y;
        n = vec3<f32>(0.0, select(1.0, -1.0, l.y < 0.0), 0.0);
    } else {
        dist = o.z;
        n = vec3<f32>(0.0, 0.0, select(1.0, -1.0, l.z < 0.0));
    }
    return vec4<f32>(dot(r0, n), dot(r1, n), dot(r2, n), dist);
}

fn capsuleDistance(base: u32, q: vec3<f32>) -> vec4<f32> {
    let a = colliders[base + 1u];
    let b = colliders[base + 2u].xyz;
    let ab = b - a.xyz;
    let length2 = dot(ab, ab);
    var t = 0.0;
    if (length2 > 0.0) {
        t = clamp(dot(q - a.xyz, ab) / length2, 0.0, 1.0);
    }
    return sphereDistance(q - (a.xyz + ab * t), a.w);
}

fn cylinderDistance(base: u32, q: vec3<f32>) -> vec4<f32> {
    let a = colliders[base + 1u];
    let radius = a.w;
    var u = colliders[base + 2u].xyz - a.xyz;
    let len = sqrt(dot(u, u));
    u = u / len;
    let r0 = q - a.xyz;
    let along = dot(r0, u);
    let axial = along - len / 2.0;
    var radialDir = r0 - along * u;
    let radial = sqrt(dot(radialDir, radialDir));
    if (radial > 1e-12) {
        radialDir = radialDir / radial;
    } else {
        // On the axis: any direction perpendicular to it will do.
        let ax = select(0.0, 1.0, abs(u.x) < 0.9);
        let ay = 1.0 - ax;
        radialDir = normalize(vec3<f32>(-u.z * ay, u.z * ax, u.x * ay - u.y * ax));
    }
    let side = select(1.0, -1.0, axial < 0.0);
    let dr = radial - radius;
    let da = abs(axial) - len / 2.0;
    if (dr > 0.0 && da > 0.0) {
        let dist = sqrt(dr * dr + da * da);
        return vec4<f32>((dr * radialDir + da * side * u) / dist, dist);
    }
    if (dr >= da) {
        return vec4<f32>(radialDir, dr);
    }
    return vec4<f32>(side * u, da);
}

/** Normal (collider frame) and signed distance of the local point q to shape slot s. */
fn shapeQuery(s: u32, q: vec3<f32>) -> vec4<f32> {
    let base = s * ${SHAPE_VEC4S}u;
    let kind = bitcast<u32>(colliders[base].x);
    if (kind == PLANE) {
        let a = colliders[base + 1u];
        return vec4<f32>(a.xyz, dot(a.xyz, q) - a.w);
    }
    if (kind == SPHERE) {
        return sphereDistance(q - colliders[base + 3u].xyz, colliders[base + 1u].w);
    }
    if (kind == BOX) {
        return boxDistance(base, q);
    }
    if (kind == CAPSULE) {
        return capsuleDistance(base, q);
    }
    return cylinderDistance(base, q);
}
`;

/**
 * The per-particle pass between constraint sweeps, one thread per particle: the end of a solver pass (tethers, the
 * soft pin, the contacts with every collider shape, friction included) and the start of the next (tethers), fused
 * because each of them moves only its own particle and reads only weight-1 pins, which none of them moves; and, at
 * the end of the substep, the velocities. `Dispatch.first` holds the {@link PassMode} bits.
 *
 * A pose record (per shape and substep): 0 position and μs, 1–3 the rotation's rows with μk and the filter flag in
 * 1.w and 2.w, 4 the centre of mass, 5 the linear velocity, 6 the angular velocity; for a dynamic collider 4.w and
 * 5.w hold the fixed-point scales of its linear and angular impulses and 6.w the first word of its accumulator in
 * the multiplier buffer (−1 for the others; see `colliderImpulses.ts`).
 *
 * Layout (group 0): 0 Params (dynamic), 1 Dispatch (dynamic), 2 pos, 3 prev, 4 vel, 5 info, 6 tethers, 7 pins,
 * 8 colliders (shape records, then pose records), 9 lambdas.
 */
export const PARTICLE_PASS_WGSL = /* wgsl */ `
${PARAMS_WGSL}
${PIN_WGSL}
struct Tether {
    anchors: vec4<i32>,     // anchor particle per rank, −1 past the last
    lengths: vec4<f32>,     // rest distance per rank (m)
}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> info: array<vec4<i32>>;
@group(0) @binding(6) var<storage, read> tethers: array<Tether>;
@group(0) @binding(7) var<storage, read> pins: array<Pin>;
@group(0) @binding(8) var<storage, read> colliders: array<vec4<f32>>;
// Atomic words: the soft-pin multipliers (f32 bits, one thread each) and, past the multipliers, the impulse
// accumulators of the dynamic colliders (see \`colliderImpulses.ts\`): the pass is at WebGPU's default limit of
// 8 storage buffers, so the accumulators share the multiplier buffer rather than take a ninth.
@group(0) @binding(9) var<storage, read_write> lambdas: array<atomic<i32>>;
${SHAPES_WGSL}
${IMPULSE_WGSL}

fn projectTethers(k: u32, x: vec3<f32>) -> vec3<f32> {
    var y = x;
    let t = tethers[k];
    for (var rank = 0u; rank < 4u; rank++) {
        let anchor = t.anchors[rank];
        if (anchor < 0) {
            break;
        }
        let a = pos[anchor].xyz;
        let d = y - a;
        let d2 = dot(d, d);
        let limit = t.lengths[rank] * P.tetherSlack;
        if (d2 > limit * limit) {
            y = a + d * (limit / sqrt(d2));
        }
    }
    return y;
}

fn projectSoftPin(k: u32, x: vec3<f32>, w: f32) -> vec3<f32> {
    let slot = info[k].x;
    if (slot < 0) {
        return x;
    }
    let pin = pins[slot];
    if (pin.start.w < 0.0) {
        return x;
    }
    let d = x - (pin.start.xyz + (pin.end.xyz - pin.start.xyz) * P.t);
    let dist = sqrt(dot(d, d));
    if (dist < 1e-12) {
        return x;
    }
    // Capped where f32 would overflow (a weight of ~0 has a compliance of up to 1e30 m/N: free in all but name).
    let alphaTilde = min(pin.start.w * P.invH2, 1e36);
    let l = P.pinLambdaBase + u32(slot);
    let lambda = bitcast<f32>(atomicLoad(&lambdas[l]));
    let dLambda = (-dist - alphaTilde * lambda) / (w + alphaTilde);
    atomicStore(&lambdas[l], bitcast<i32>(lambda + dLambda));
    return x + ((w * dLambda) / dist) * d;
}

/** Positional friction: the slip relative to the surface over the substep, removed within the static cone. */
fn applyFriction(base: u32, us: f32, uk: f32, x: vec3<f32>, before: vec3<f32>, n: vec3<f32>, depth: f32, w: f32) -> vec3<f32> {
    if (us == 0.0 && uk == 0.0) {
        return x;
    }
    let surface = colliders[base + 5u].xyz + cross(colliders[base + 6u].xyz, x - colliders[base + 4u].xyz);
    var slip = x - before - surface * P.h;
    slip = slip - dot(slip, n) * n;
    let slipLength = sqrt(dot(slip, slip));
    if (slipLength < 1e-12) {
        return x;
    }
    var removed = min(uk * depth, slipLength);
    if (slipLength < us * depth) {
        removed = slipLength;
    }
    return x - (w * (removed / w)) * (slip / slipLength);
}

fn projectContacts(k: u32, x0: vec3<f32>, w: f32) -> vec3<f32> {
    var x = x0;
    let before = prev[k].xyz;
    for (var s = 0u; s < P.slotCount; s++) {
        let base = P.poseBase + s * ${POSE_VEC4S}u;
        let m1 = colliders[base + 2u];
        if (m1.w == 0.0) {
            continue;
        }
        let origin = colliders[base];
        let m0 = colliders[base + 1u];
        let m2 = colliders[base + 3u].xyz;
        let d = x - origin.xyz;
        let local = shapeQuery(s, d.x * m0.xyz + d.y * m1.xyz + d.z * m2);
        var n = vec3<f32>(dot(m0.xyz, local.xyz), dot(m1.xyz, local.xyz), dot(m2, local.xyz));
        var depth = P.thickness - local.w;
        // A sheet has no inside: a particle that crossed it within the substep goes back to its side.
        if (bitcast<u32>(colliders[s * ${SHAPE_VEC4S}u].y) == 1u && dot(before - x, n) + local.w < 0.0) {
            n = -n;
            depth = P.thickness + local.w;
        }
        if (!(depth > 0.0)) {
            continue;
        }
        let touched = x;
        x = x + (w * (depth / w)) * n;
        x = applyFriction(base, origin.w, m0.w, x, before, n, depth, w);
        let accumulator = colliders[base + 6u].w;
        if (accumulator >= 0.0) {
            // The collider gets the opposite of the particle's momentum change m·Δx/h (normal and friction),
            // at the particle, about the collider's centre of mass: as the CPU's contacts record it.
            let j = (touched - x) * (P.invH / w);
            let com = colliders[base + 4u];
            accumulateImpulse(u32(accumulator), j * com.w, cross(x - com.xyz, j) * colliders[base + 5u].w);
        }
    }
    return x;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let mode = D.first;
    var p = pos[k];
    if (p.w != 0.0) {
        var x = p.xyz;
        if ((mode & ${PassMode.Tail}u) != 0u) {
            if (P.tethers != 0u) {
                x = projectTethers(k, x);
            }
            x = projectSoftPin(k, x, p.w);
            x = projectContacts(k, x, p.w);
        }
        if ((mode & ${PassMode.Head}u) != 0u && P.tethers != 0u) {
            x = projectTethers(k, x);
        }
        p = vec4<f32>(x, p.w);
        pos[k] = p;
    }
    if ((mode & ${PassMode.Velocity}u) != 0u) {
        vel[k] = vec4<f32>((p.xyz - prev[k].xyz) * P.invH, 0.0);
    }
}
`;
