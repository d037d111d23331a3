import { ColliderMotion, RESTITUTION_THRESHOLD } from "../core/index.js";
import { MAX_SWEEP_STEPS, SWEEP_TOLERANCE } from "../core/particleSweep.js";
import { ATTACHMENT_VEC4S } from "./attachmentRecords.js";
import { SHAPES_WGSL, SHAPE_VEC4S } from "./colliderShapesShader.js";
import { PIN_WGSL, WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL, PassMode } from "./substepParams.js";
import { IMPULSE_WGSL } from "./colliderImpulses.js";
import { MOTION_RECORD_WGSL } from "./colliderMotionRecords.js";
import { TOUCH_WORDS } from "./multiplierLayout.js";
import { TETHER_WGSL } from "./tetherHoldShader.js";

/** vec4s per collider pose record (one per shape and substep, written every step). */
export const POSE_VEC4S = 7;

/**
 * The per-particle pass between constraint sweeps, one thread per particle: the end of a solver pass (tethers, the
 * soft pin, the contacts with every collider shape, friction included) and the start of the next (tethers), fused
 * because each of them moves only its own particle and reads only weight-1 pins, which none of them moves; and, at
 * the end of the substep, the velocities with restitution (from the touch records, see {@link TOUCH_WORDS}).
 * A particle attached to a collider (`info.w`, its attachment record; see `attachmentRecords.ts`) goes onto its
 * anchor after the contacts, as the core's `ColliderAttachments.project` (a dynamic collider sharing the correction,
 * two-way), and onto the anchor at the step's start in the `Carry` mode, as `carry`.
 * `Dispatch.first` holds the {@link PassMode} bits. The collider shapes' queries are `SHAPES_WGSL`'s.
 *
 * A pose record (per shape and substep): 0 position and μs, 1–3 the rotation's rows with μk, the filter and motion
 * (0: the body does not collide with it, else 1 + its `ColliderMotion`) and the restitution in 1.w, 2.w and 3.w,
 * 4 the centre of mass, 5 the linear velocity, 6 the angular velocity; for a dynamic collider 4.w and 5.w hold the
 * fixed-point scales of its linear and angular impulses and 6.w the first word of its accumulator in the multiplier
 * buffer (−1 for the others; see `colliderImpulses.ts`), and the motion kernel rewrites its poses and velocities
 * within the step (`colliderMotionShader.ts`); a contact with it shares the push by the particle's and the
 * collider's inverse masses ({@link PARTICLE_PASS_WGSL}'s \`colliderInverseMass\`).
 *
 * Layout (group 0): 0 Params (dynamic), 1 Dispatch (dynamic), 2 pos, 3 prev, 4 vel, 5 info, 6 tethers, 7 pins,
 * 8 colliders (shape records, hull and mesh data, then pose records), 9 lambdas (multipliers, touch records, impulse
 * accumulators: see `multiplierLayout.ts`).
 */
export const PARTICLE_PASS_WGSL = /* wgsl */ `
${PARAMS_WGSL}
${PIN_WGSL}
${TETHER_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> info: array<vec4<i32>>;
@group(0) @binding(6) var<storage, read> tethers: array<Tether>;
@group(0) @binding(7) var<storage, read> pins: array<Pin>;
@group(0) @binding(8) var<storage, read> colliders: array<vec4<f32>>;
// Atomic words (layout: \`multiplierLayout.ts\`): the soft-pin multipliers (f32 bits, one thread each), the touch
// records (one thread each) and the impulse accumulators of the dynamic colliders (see \`colliderImpulses.ts\`):
// the pass is at WebGPU's default limit of 8 storage buffers, so they share the multiplier buffer rather than take
// a ninth and a tenth.
@group(0) @binding(9) var<storage, read_write> lambdas: array<atomic<i32>>;
${SHAPES_WGSL}
${IMPULSE_WGSL}
${MOTION_RECORD_WGSL}

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

/** Word of the multiplier buffer where particle k's touch record starts (see \`multiplierLayout.ts\`). */
fn touchWord(k: u32) -> u32 {
    return P.lambdaCount + ${TOUCH_WORDS}u * k;
}

/** Notes that particle k touched slot s along n in this substep (the last touch of the substep counts). */
fn recordTouch(k: u32, s: u32, n: vec3<f32>) {
    let t = touchWord(k);
    atomicStore(&lambdas[t], bitcast<i32>(n.x));
    atomicStore(&lambdas[t + 1u], bitcast<i32>(n.y));
    atomicStore(&lambdas[t + 2u], bitcast<i32>(n.z));
    atomicStore(&lambdas[t + 3u], i32(s + 1u));
}

/**
 * Two-way coupling: adds impulse j (N·s, on the collider, at world point x) to the accumulator of the collider whose
 * pose record starts at base, when it is dynamic; its moment is taken about the collider's centre of mass.
 */
fn pushCollider(base: u32, x: vec3<f32>, j: vec3<f32>) {
    let accumulator = colliders[base + 6u].w;
    if (accumulator >= 0.0) {
        let com = colliders[base + 4u];
        accumulateImpulse(u32(accumulator), j * com.w, cross(x - com.xyz, j) * colliders[base + 5u].w);
    }
}

/**
 * The share of a push along unit n at world point x that the collider whose pose record starts at base takes: 0 for a
 * static or kinematic one; for a dynamic one its generalised inverse mass (the core's \`Collider._inverseMassAt\`:
 * 1/M, less the load's share along its axis, plus (r × n)·I⁻¹(r × n)) times the mass split of its motion record (the
 * contacts of its last projection: see \`colliderMotionShader.ts\`).
 */
fn colliderInverseMass(base: u32, x: vec3<f32>, n: vec3<f32>) -> f32 {
    let accumulator = colliders[base + 6u].w;
    if (accumulator < 0.0) {
        return 0.0;
    }
    let r = motionRecord(u32(accumulator));
    let c = cross(x - colliders[base + 4u].xyz, n);
    let along = dot(n, colliders[r + 8u].xyz);
    let turn = vec3<f32>(dot(colliders[r + 11u].xyz, c), dot(colliders[r + 12u].xyz, c), dot(colliders[r + 13u].xyz, c));
    return colliders[r + 10u].w * (colliders[r].w - along * along * colliders[r + 2u].w + dot(c, turn));
}

/**
 * Restitution at the end of the substep (the core's recordApproach and applyRestitution): a particle (inverse mass
 * w) that touched a bouncing collider and approached it faster than the threshold leaves at e times its approach
 * speed, relative to the surface, and a dynamic collider gets the opposite of that change of momentum, as the
 * contacts give it theirs. v0 is the substep's velocity before the update, v the one from the positions. Clears the
 * record.
 */
fn bounce(k: u32, x: vec3<f32>, w: f32, v0: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = touchWord(k);
    let slot = atomicLoad(&lambdas[t + 3u]);
    if (slot == 0) {
        return v;
    }
    atomicStore(&lambdas[t + 3u], 0);
    let n = bitcast<vec3<f32>>(vec3<i32>(atomicLoad(&lambdas[t]), atomicLoad(&lambdas[t + 1u]), atomicLoad(&lambdas[t + 2u])));
    let base = P.poseBase + u32(slot - 1) * ${POSE_VEC4S}u;
    let surface = surfaceVelocity(base, x);
    let approach = dot(v0 - surface, n);
    if (approach > -${RESTITUTION_THRESHOLD}) {
        return v;
    }
    let dv = -colliders[base + 3u].w * approach - dot(v - surface, n);
    if (dv <= 0.0) {
        return v;
    }
    pushCollider(base, x, (-dv / w) * n);
    return v + dv * n;
}

/** The velocity of the surface of the collider at pose record base at world point x. */
fn surfaceVelocity(base: u32, x: vec3<f32>) -> vec3<f32> {
    return colliders[base + 5u].xyz + cross(colliders[base + 6u].xyz, x - colliders[base + 4u].xyz);
}

/**
 * Positional friction: the slip relative to the surface over the substep, removed within the static cone, shared with
 * a dynamic collider as the normal push is.
 */
fn applyFriction(base: u32, us: f32, uk: f32, x: vec3<f32>, before: vec3<f32>, n: vec3<f32>, depth: f32, w: f32) -> vec3<f32> {
    if (us == 0.0 && uk == 0.0) {
        return x;
    }
    let surface = surfaceVelocity(base, x);
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
    let direction = slip / slipLength;
    return x - (w * (removed / (w + colliderInverseMass(base, x, direction)))) * direction;
}

/** The pose record of the collider particle k is attached to (its first shape's), or -1 when it is not attached. */
fn attachedPose(k: u32) -> i32 {
    let record = info[k].w;
    if (record < 0) {
        return -1;
    }
    return i32(P.poseBase + u32(colliders[P.attachmentBase + ${ATTACHMENT_VEC4S}u * u32(record)].w) * ${POSE_VEC4S}u);
}

/**
 * The collider attachment of particle k (inverse mass w), as the core's \`ColliderAttachments.project\`: the particle
 * goes onto its anchor at its collider's pose in this substep; a dynamic collider takes its share of the correction
 * by the two inverse masses (its generalised one at the anchor, with the mass split of its motion record, as a
 * contact's), and the impulse of it at the anchor, whose moment also goes to the accumulator's turn words (the
 * motion kernel turns the body by it at once, as the core's \`_turn\`).
 */
fn projectAttachment(k: u32, x: vec3<f32>, w: f32) -> vec3<f32> {
    let pose = attachedPose(k);
    if (pose < 0) {
        return x;
    }
    let base = u32(pose);
    let a = colliders[P.attachmentBase + ${ATTACHMENT_VEC4S}u * u32(info[k].w)];
    let anchor = colliders[base].xyz + vec3<f32>(
        dot(colliders[base + 1u].xyz, a.xyz),
        dot(colliders[base + 2u].xyz, a.xyz),
        dot(colliders[base + 3u].xyz, a.xyz),
    );
    let accumulator = colliders[base + 6u].w;
    if (accumulator < 0.0) {
        return anchor;
    }
    let gap = anchor - x;
    let distance = sqrt(dot(gap, gap));
    if (distance < 1e-12) {
        return x;
    }
    let n = gap / distance;
    let wBody = colliderInverseMass(base, anchor, n);
    // Rigid (zero compliance): the particle moves w·s, the body wBody·s back.
    let s = distance / (w + wBody);
    // The particle (or the pins behind it) gained momentum s·n/h; the body gets the opposite.
    let j = (-s * P.invH) * n;
    let com = colliders[base + 4u];
    let turn = cross(anchor - com.xyz, j) * colliders[base + 5u].w;
    accumulateImpulse(u32(accumulator), j * com.w, turn);
    accumulateTurn(u32(accumulator), turn);
    countContact(u32(accumulator));
    return x + (w * s) * n;
}

/**
 * World normal and signed distance of world point x to shape slot s at its pose record base (the core's
 * \`_query3\`: into the collider frame with the transposed rotation, the normal back), a mesh's within reach.
 */
fn worldQuery(s: u32, base: u32, x: vec3<f32>, reach: f32) -> vec4<f32> {
    let m0 = colliders[base + 1u].xyz;
    let m1 = colliders[base + 2u].xyz;
    let m2 = colliders[base + 3u].xyz;
    let d = x - colliders[base].xyz;
    let local = shapeQuery(s, d.x * m0 + d.y * m1 + d.z * m2, reach);
    return vec4<f32>(dot(m0, local.xyz), dot(m1, local.xyz), dot(m2, local.xyz), local.w);
}

/** Where a fast particle's path entered a shape: the face's world normal and offset (n·x − offset is the distance). */
struct Entry {
    plane: vec4<f32>,
    entered: bool,
}

/**
 * The core's \`ParticleSweep\` for a particle's path over the substep, from where it started (\`before\`, carried with
 * a moving collider to where that is now) to x, against slot s at pose record base: only for shapes with an inside
 * (not planes nor two-sided sheets) and colliders that are not dynamic, and only when the path is longer than the
 * thickness. Steps along the path by the distance to the surface (never past it) until the path comes within
 * ${1 + SWEEP_TOLERANCE} thicknesses of it, at most ${MAX_SWEEP_STEPS} times, and returns the plane of the feature found there.
 */
fn sweep(s: u32, base: u32, before: vec3<f32>, x: vec3<f32>) -> Entry {
    let none = Entry(vec4<f32>(0.0), false);
    let motion = colliders[base + 2u].w - 1.0;
    let record = colliders[s * ${SHAPE_VEC4S}u];
    if (motion == ${ColliderMotion.Dynamic}.0 || bitcast<u32>(record.x) == PLANE || bitcast<u32>(record.y) == 1u) {
        return none;
    }
    var start = before;
    if (motion != ${ColliderMotion.Static}.0) {
        // The collider has already moved this substep: the path is the particle's motion relative to it.
        start = before + surfaceVelocity(base, before) * P.h;
    }
    let e = x - start;
    let length2 = dot(e, e);
    // A particle that moved less than its thickness cannot have got past the near face unnoticed.
    if (!(length2 > P.thickness * P.thickness)) {
        return none;
    }
    let len = sqrt(length2);
    // A mesh must answer along the whole path, not only near the end point.
    let reach = len + 4.0 * P.thickness;
    let enter = P.thickness * ${1 + SWEEP_TOLERANCE};
    var point = start;
    var n: vec4<f32>;
    var t = 0.0;
    for (var step = 0u; step < ${MAX_SWEEP_STEPS}u; step++) {
        point = start + e * t;
        n = worldQuery(s, base, point, reach);
        let gap = n.w - enter;
        if (gap <= 0.0) {
            break;
        }
        // A lower bound of the way to the surface: the step never jumps over it (a mesh beyond reach: a miss).
        t += gap / len;
        if (!(t < 1.0)) {
            return none;
        }
    }
    // Entered (or out of steps: the plane of the feature nearest the last point, which keeps it outside).
    return Entry(vec4<f32>(n.xyz, dot(n.xyz, point) - n.w), true);
}

fn projectContacts(k: u32, x0: vec3<f32>, w: f32) -> vec3<f32> {
    var x = x0;
    let before = prev[k].xyz;
    // An attached particle does not collide with its dynamic collider (the core's broad phase leaves the pair out):
    // the contact would push the body against the attachment. A static or kinematic one's anchor overrides it anyway.
    var attachedTo = -1.0;
    let pose = attachedPose(k);
    if (pose >= 0) {
        attachedTo = colliders[u32(pose) + 6u].w;
    }
    for (var s = 0u; s < P.slotCount; s++) {
        let base = P.poseBase + s * ${POSE_VEC4S}u;
        if (colliders[base + 2u].w == 0.0 || (attachedTo >= 0.0 && colliders[base + 6u].w == attachedTo)) {
            continue;
        }
        let origin = colliders[base];
        let m0 = colliders[base + 1u];
        let q = worldQuery(s, base, x, 4.0 * P.thickness);
        var n = q.xyz;
        var distance = q.w;
        // A fast particle that crossed the near face within the substep goes back before it where the closest
        // feature would push it on (see the core's \`ParticleContacts.project\`). Swept from x0, where the pass
        // found the particle, as the core sweeps every candidate before it projects any.
        let entry = sweep(s, base, before, x0);
        if (entry.entered) {
            let onPlane = dot(entry.plane.xyz, x) - entry.plane.w;
            if ((dot(entry.plane.xyz, n) <= 0.0 || distance >= NO_SURFACE) && onPlane < distance) {
                n = entry.plane.xyz;
                distance = onPlane;
            }
        }
        var depth = P.thickness - distance;
        // A sheet has no inside: a particle that crossed it within the substep goes back to its side.
        if (bitcast<u32>(colliders[s * ${SHAPE_VEC4S}u].y) == 1u && dot(before - x, n) + distance < 0.0) {
            n = -n;
            depth = P.thickness + distance;
        }
        if (!(depth > 0.0)) {
            continue;
        }
        // A particle whose taut tethers take the push is as firm as the pins: the body rests on it, stopped by the
        // held solve at the substep's start (\`heldContactsShader.ts\`), and this contact neither moves it nor
        // pushes the body (the core's \`ParticleContacts.project\`).
        if (colliders[base + 6u].w >= 0.0 && P.tethers != 0u && tetherHeld(k, x, n)) {
            continue;
        }
        let touched = x;
        x = x + (w * (depth / (w + colliderInverseMass(base, x, n)))) * n;
        if (colliders[base + 3u].w > 0.0) {
            recordTouch(k, s, n);
        }
        x = applyFriction(base, origin.w, m0.w, x, before, n, depth, w);
        // The collider gets the opposite of the particle's momentum change m·Δx/h (normal and friction), at the
        // particle: as the CPU's contacts record it.
        pushCollider(base, x, (touched - x) * (P.invH / w));
        let accumulator = colliders[base + 6u].w;
        if (accumulator >= 0.0) {
            countContact(u32(accumulator));
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
        if ((mode & (${PassMode.Tail}u | ${PassMode.Settle}u)) != 0u) {
            if ((mode & ${PassMode.Tail}u) != 0u && P.tethers != 0u) {
                x = projectTethers(k, x);
            }
            x = projectSoftPin(k, x, p.w);
            x = projectContacts(k, x, p.w);
            x = projectAttachment(k, x, p.w);
        }
        if ((mode & ${PassMode.Carry}u) != 0u && info[k].w >= 0) {
            x = colliders[P.attachmentBase + ${ATTACHMENT_VEC4S}u * u32(info[k].w) + 1u].xyz;
        }
        if ((mode & ${PassMode.Head}u) != 0u && P.tethers != 0u) {
            x = projectTethers(k, x);
        }
        p = vec4<f32>(x, p.w);
        pos[k] = p;
    }
    if ((mode & ${PassMode.Velocity}u) != 0u) {
        var v = (p.xyz - prev[k].xyz) * P.invH;
        if (p.w != 0.0) {
            v = bounce(k, p.xyz, p.w, vel[k].xyz, v);
        }
        vel[k] = vec4<f32>(v, 0.0);
    }
}
`;
