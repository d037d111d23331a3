import { HELD_PULL_SPEED, HELD_ROUNDS } from "../core/colliderAttachments.js";
import { HELD_ITERATIONS, HELD_PUSH_OUT_SPEED, HELD_SLOP } from "../core/heldContacts.js";
import { ATTACHMENT_VEC4S } from "./attachmentRecords.js";
import { IMPULSE_WGSL } from "./colliderImpulses.js";
import { MOTION_VEC4S } from "./colliderMotionRecords.js";
import { IMPULSE_CHANGE_WGSL, ROTATION_ROWS_WGSL } from "./colliderMotionShader.js";
import { SHAPES_WGSL, SHAPE_VEC4S } from "./colliderShapesShader.js";
import { POSE_VEC4S } from "./particlePassShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { TETHER_WGSL } from "./tetherHoldShader.js";

/** Threads of the held solve's one workgroup. */
const HELD_THREADS = 64;

/**
 * The core's held solve (`HeldContacts`) on the GPU, one workgroup, at the start of each substep, after the dynamic
 * colliders' acceleration and before they move (dispatched just before the motion kernel's `Begin`, which applies
 * what it adds to the accumulators: `colliderMotionShader.ts`). For each dynamic collider in turn:
 *
 * 1. every thread takes a contiguous run of particles and finds those the collider is about to press on (within its
 *    reach over the step) that their taut tethers hold (`tetherHeld`): the first of the collider's shapes that
 *    qualifies, not two-sided, that the body collides with; their contact state (the normal, the gap less the slop,
 *    the velocity of the first anchor: the held particle moves as its pins do, the normal and friction impulses)
 *    goes into the particle's record;
 * 2. the held particles are listed in particle order (each thread's count, summed over the threads before it);
 * 3. one thread runs the sequential impulses over the list, as the core: `HELD_ITERATIONS` rounds, each contact's
 *    normal impulse accumulated and clamped at 0 so that the gap closes within the step (a penetration opens at no
 *    more than `HELD_PUSH_OUT_SPEED`), then its Coulomb friction within μs times it, on the collider's own velocity
 *    (after the acceleration, and the impulses in its accumulator not applied yet: in a `GpuContactGroup`, those of
 *    the held solves of the bodies before this one, `sharedColliderMotion.ts`), its inverse inertia the last
 *    substep's; the particles do not move;
 * 4. the same thread runs the held solve of the collider attachments to it (the core's
 *    `ColliderAttachments.solveHeld`, after the contacts' as there): `HELD_ROUNDS` rounds over the attachment records
 *    in order, each anchor pulled towards the pins of its particle's tethers at velocity level, accumulated per tether
 *    and clamped at 0 (pulling only), a tether's slack closed within the step and a stretch taken back at no more
 *    than `HELD_PULL_SPEED`;
 * 5. it adds the sum of the impulses (and their moments about the centre of mass) to the collider's accumulator, in
 *    fixed point, once.
 *
 * The order is fixed (particles by index, colliders by accumulator) and nothing is summed by atomics in a varying
 * order: two runs give the same bits. Differences from the core: a particle takes at most one held contact per
 * collider (its first shape that qualifies; the core takes one per candidate, so a particle against two shapes of a
 * compound body can take both), and the collider's pose and velocities are f32.
 *
 * A particle attached to the collider is not one of its held contacts (the core's broad phase leaves the pair out).
 *
 * Layout (group 0): 0 Params (dynamic), 1 pos, 2 vel, 3 tethers, 4 colliders (read), 5 lambdas (the accumulators),
 * 6 held (`HELD_VEC4S` of `heldLayout.ts` vec4s per particle: 0 normal and gap, 1 the anchor's velocity and the normal impulse, 2
 * the friction impulse and μs (−1: not held); then from vec4 3n the list, a particle index per vec4's `x` (as f32, exact to 2²⁴);
 * then from vec4 4n one per attachment record, the impulse accumulated on each tether rank), 7 info (the particles'
 * attachment records: `w`).
 */
export const HELD_CONTACTS_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> tethers: array<Tether>;
@group(0) @binding(4) var<storage, read> colliders: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> lambdas: array<atomic<i32>>;
@group(0) @binding(6) var<storage, read_write> held: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> info: array<vec4<i32>>;
${TETHER_WGSL}
${SHAPES_WGSL}
${IMPULSE_WGSL}
${ROTATION_ROWS_WGSL}
${IMPULSE_CHANGE_WGSL}

var<workgroup> counts: array<u32, ${HELD_THREADS}>;
var<workgroup> colliderCount: u32;

/** A dynamic collider's state for the held solve: its motion record's, after this substep's acceleration. */
struct Body {
    record: u32,
    com: vec3<f32>,
    origin: vec3<f32>,
    rows: mat3x3<f32>,
    v: vec3<f32>,
    omega: vec3<f32>,
}

/**
 * Whether particle k is held against the collider: writes its record (see the layout above) when it is, else marks
 * it not held.
 */
fn findHeld(k: u32, b: Body) -> bool {
    held[3u * k + 2u] = vec4<f32>(0.0, 0.0, 0.0, -1.0);
    let p = pos[k];
    if (p.w == 0.0) {
        return false;
    }
    let x = p.xyz;
    let first = u32(colliders[b.record + 3u].w);
    let last = first + u32(colliders[b.record + 4u].w);
    let attachment = info[k].w;
    if (attachment >= 0 && u32(colliders[P.attachmentBase + ${ATTACHMENT_VEC4S}u * u32(attachment)].w) == first) {
        return false;
    }
    for (var s = first; s < last; s++) {
        let base = P.poseBase + s * ${POSE_VEC4S}u;
        if (colliders[base + 2u].w == 0.0 || bitcast<u32>(colliders[s * ${SHAPE_VEC4S}u].y) == 1u) {
            continue;
        }
        // The world query of the particle pass, at the collider's pose now (its motion record's).
        let d = x - b.origin;
        let local = shapeQuery(s, d.x * b.rows[0] + d.y * b.rows[1] + d.z * b.rows[2], 4.0 * P.thickness);
        let n = vec3<f32>(dot(b.rows[0], local.xyz), dot(b.rows[1], local.xyz), dot(b.rows[2], local.xyz));
        let gap = local.w - P.thickness;
        let separation = dot(vel[k].xyz - (b.v + cross(b.omega, x - b.com)), n);
        // Only contacts the body can reach within this step.
        if (gap + min(separation, 0.0) * P.dt > 0.0 || !tetherHeld(k, x, n)) {
            continue;
        }
        // A penetration under the slop is left alone: pushing out every fraction of a millimetre spins the body.
        var kept = gap;
        if (gap < 0.0) {
            kept = min(gap + P.thickness * ${HELD_SLOP}, 0.0);
        }
        held[3u * k] = vec4<f32>(n, kept);
        // The held particle moves as the pins behind it do (its first anchor: held, it has one).
        held[3u * k + 1u] = vec4<f32>(vel[tethers[k].anchors[0]].xyz, 0.0);
        held[3u * k + 2u] = vec4<f32>(0.0, 0.0, 0.0, colliders[base].w);
        return true;
    }
    return false;
}

/** The collider's generalised inverse mass along unit n at lever arm r (the core's \`Collider._inverseMassAt\`). */
fn inverseMassAt(b: Body, r: vec3<f32>, n: vec3<f32>) -> f32 {
    let c = cross(r, n);
    let along = dot(n, colliders[b.record + 8u].xyz);
    let turn = vec3<f32>(
        dot(colliders[b.record + 11u].xyz, c),
        dot(colliders[b.record + 12u].xyz, c),
        dot(colliders[b.record + 13u].xyz, c),
    );
    return colliders[b.record].w - along * along * colliders[b.record + 2u].w + dot(c, turn);
}

/** The sums of the impulses the solve gave one collider (N·s, and N·m·s about its centre of mass). */
struct Sums {
    linear: vec3<f32>,
    angular: vec3<f32>,
}

/** Impulse j at lever arm r on the collider (the core's \`_applyImpulse\` outside the projections: velocities only). */
fn push(b: ptr<function, Body>, sums: ptr<function, Sums>, r: vec3<f32>, j: vec3<f32>) {
    let record = (*b).record;
    let axis = colliders[record + 8u].xyz;
    (*b).v += j * colliders[record].w - dot(j, axis) * colliders[record + 2u].w * axis;
    let l = cross(r, j);
    (*b).omega += vec3<f32>(dot(colliders[record + 11u].xyz, l), dot(colliders[record + 12u].xyz, l), dot(colliders[record + 13u].xyz, l));
    (*sums).linear += j;
    (*sums).angular += l;
}

/** The sequential impulses over the \`count\` held contacts listed, then their sums into the accumulator. */
fn solve(start: Body, count: u32) {
    var b = start;
    var sums = Sums(vec3<f32>(0.0), vec3<f32>(0.0));
    let list = 3u * P.particleCount;
    // Gaps close over a whole step, not a substep: the host moves the body by its end velocity times the step.
    let invDt = 1.0 / P.dt;
    let axis = colliders[b.record + 8u].xyz;
    let loaded = colliders[b.record + 2u].w > 0.0;
    for (var iteration = 0u; iteration < ${HELD_ITERATIONS}u; iteration++) {
        for (var i = 0u; i < count; i++) {
            let k = u32(held[list + i].x);
            let r = pos[k].xyz - b.com;
            let contact = held[3u * k];
            let n = contact.xyz;
            let gap = contact.w;
            let support = held[3u * k + 1u];
            let separation = dot(support.xyz - (b.v + cross(b.omega, r)), n);
            // The gap may close within the step; a penetration opens at a bounded speed.
            var goal = -gap * invDt;
            if (gap < 0.0) {
                goal = min(goal, ${HELD_PUSH_OUT_SPEED});
            }
            let previous = support.w;
            let accumulated = max(previous + (goal - separation) / inverseMassAt(b, r, n), 0.0);
            held[3u * k + 1u].w = accumulated;
            // The body is pushed along −n; the particle's share goes through its tethers to the pins.
            push(&b, &sums, r, -(accumulated - previous) * n);
            let friction = held[3u * k + 2u];
            let us = friction.w;
            if (us == 0.0) {
                continue;
            }
            // A body carrying a load slides and turns about the load axis only (see the core's _frictionRound).
            var surface = b.v + cross(b.omega, r);
            if (loaded) {
                surface = b.v + dot(b.omega, axis) * cross(axis, r);
            }
            var slip = surface - support.xyz;
            slip -= dot(slip, n) * n;
            let slipLength = sqrt(dot(slip, slip));
            if (slipLength < 1e-9) {
                continue;
            }
            let direction = slip / slipLength;
            var f = friction.xyz - (slipLength / inverseMassAt(b, r, direction)) * direction;
            let limit = us * accumulated;
            let size = sqrt(dot(f, f));
            if (size > limit) {
                f *= select(0.0, limit / size, size > 0.0);
            }
            held[3u * k + 2u] = vec4<f32>(f, us);
            push(&b, &sums, r, f - friction.xyz);
        }
    }
    solveAttachments(&b, &sums);
    let word = u32(colliders[b.record + 5u].w);
    accumulateImpulse(word, sums.linear * colliders[b.record + 6u].w, sums.angular * colliders[b.record + 8u].w);
}

/**
 * The held solve of the collider attachments to the body (see the shader's comment): each anchor gets its particle's
 * tethers, solved on the body alone; the particles do not move.
 */
fn solveAttachments(b: ptr<function, Body>, sums: ptr<function, Sums>) {
    let first = colliders[(*b).record + 3u].w;
    let impulses = 4u * P.particleCount;
    for (var a = 0u; a < P.attachmentCount; a++) {
        held[impulses + a] = vec4<f32>(0.0);
    }
    let invDt = 1.0 / P.dt;
    for (var round = 0u; round < ${HELD_ROUNDS}u; round++) {
        for (var a = 0u; a < P.attachmentCount; a++) {
            let record = P.attachmentBase + ${ATTACHMENT_VEC4S}u * a;
            let local = colliders[record];
            let k = u32(colliders[record + 1u].w);
            if (local.w != first || pos[k].w == 0.0) {
                continue;
            }
            // The anchor at the body's pose now (the held solve runs before the body moves).
            let anchor = (*b).origin + local.xyz * (*b).rows;
            let r = anchor - (*b).com;
            let t = tethers[k];
            var accumulated = held[impulses + a];
            for (var rank = 0u; rank < 4u; rank++) {
                let pin = t.anchors[rank];
                if (pin < 0) {
                    break;
                }
                let d = anchor - pos[pin].xyz;
                let distance = sqrt(dot(d, d));
                if (distance < 1e-12) {
                    continue;
                }
                let n = d / distance;
                let gap = distance - t.lengths[rank] * P.tetherSlack;
                // Speed of the anchor away from the pin (whose velocity the pinned particle carries).
                let away = dot((*b).v + cross((*b).omega, r) - vel[pin].xyz, n);
                // Slack may close within the step; a stretch is taken back at a bounded speed.
                var goal = -gap * invDt;
                if (gap > 0.0) {
                    goal = -min(gap * invDt, ${HELD_PULL_SPEED});
                }
                let previous = accumulated[rank];
                let total = max(previous + (away - goal) / inverseMassAt(*b, r, n), 0.0);
                accumulated[rank] = total;
                push(b, sums, r, -(total - previous) * n);
            }
            held[impulses + a] = accumulated;
        }
    }
}

@compute @workgroup_size(${HELD_THREADS})
fn main(@builtin(local_invocation_index) lid: u32) {
    if (lid == 0u) {
        colliderCount = u32(colliders[P.motionBase].x);
    }
    let dynamicCount = workgroupUniformLoad(&colliderCount);
    let n = P.particleCount;
    let chunk = (n + ${HELD_THREADS - 1}u) / ${HELD_THREADS}u;
    let first = min(lid * chunk, n);
    let end = min(first + chunk, n);
    for (var c = 0u; c < dynamicCount; c++) {
        let record = P.motionBase + 1u + c * ${MOTION_VEC4S}u;
        let q = colliders[record + 1u];
        let rows = rotationRows(q);
        let com = colliders[record].xyz;
        // After the acceleration over this substep (the core's _accelerate) and the impulses not applied yet (in a
        // group, the held solves of the bodies before this one), before the motion.
        let word = u32(colliders[record + 5u].w);
        let change = impulseChange(record, accumulated(word), accumulated(word + 3u));
        let body = Body(
            record,
            com,
            com - colliders[record + 5u].xyz * rows,
            rows,
            colliders[record + 2u].xyz + colliders[record + 4u].xyz * P.h + change.dv,
            colliders[record + 3u].xyz + change.dOmega,
        );
        var count = 0u;
        for (var k = first; k < end; k++) {
            if (findHeld(k, body)) {
                count++;
            }
        }
        counts[lid] = count;
        workgroupBarrier();
        var slot = 3u * n;
        for (var t = 0u; t < lid; t++) {
            slot += counts[t];
        }
        for (var k = first; k < end; k++) {
            if (held[3u * k + 2u].w >= 0.0) {
                held[slot] = vec4<f32>(f32(k), 0.0, 0.0, 0.0);
                slot++;
            }
        }
        storageBarrier();
        workgroupBarrier();
        if (lid == ${HELD_THREADS - 1}u && (slot > 3u * n || P.attachmentCount > 0u)) {
            // The last thread's end of the list is the total.
            solve(body, slot - 3u * n);
        }
        storageBarrier();
        workgroupBarrier();
    }
}
`;
