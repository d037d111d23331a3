import { MOTION_VEC4S } from "./colliderMotionRecords.js";
import { POSE_VEC4S } from "./particlePassShader.js";
import { PARAMS_WGSL, PassMode } from "./substepParams.js";

/**
 * The rotation matrix of a unit quaternion `[x, y, z, w]` in WGSL (`rotationRows`), whose columns hold the rows of
 * the core's row-major one: shared by the motion kernel and the held solve.
 */
export const ROTATION_ROWS_WGSL = /* wgsl */ `
fn rotationRows(q: vec4<f32>) -> mat3x3<f32> {
    let x = q.x;
    let y = q.y;
    let z = q.z;
    let w = q.w;
    // Columns of the WGSL matrix hold the rows of the core's row-major one (matrixFromQuaternion).
    return mat3x3<f32>(
        vec3<f32>(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)),
        vec3<f32>(2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)),
        vec3<f32>(2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)),
    );
}
`;

/**
 * A dynamic collider's turn in WGSL, over `colliders` (with {@link ROTATION_ROWS_WGSL}): `turned(q, half)`, the
 * rotation `q` turned by the half rotation vector `half` (the core's `Collider._rotate`), and
 * `worldInverseInertia(r, q)`, the world inverse inertia at rotation `q` of the collider whose motion record starts at
 * `r`. Shared by the motion kernel and the impulses' prediction (`pendingImpulses.ts`).
 */
export const COLLIDER_TURN_WGSL = /* wgsl */ `
// q turned by the half rotation vector half, q += (half, 0) ⊗ q, normalised (the core's Collider._rotate).
fn turned(q: vec4<f32>, half: vec3<f32>) -> vec4<f32> {
    return normalize(vec4<f32>(
        q.x + half.x * q.w + half.y * q.z - half.z * q.y,
        q.y + half.y * q.w + half.z * q.x - half.x * q.z,
        q.z + half.z * q.w + half.x * q.y - half.y * q.x,
        q.w - half.x * q.x - half.y * q.y - half.z * q.z,
    ));
}

// The world inverse inertia of the collider whose motion record starts at r, at rotation q: C diag(1/I) Cᵀ with
// C = world rotation × principal axes (the core's _updateInverseInertia).
fn worldInverseInertia(r: u32, q: vec4<f32>) -> mat3x3<f32> {
    let c = transpose(rotationRows(q)) * transpose(rotationRows(colliders[r + 7u]));
    let d = colliders[r + 6u].xyz;
    return c * mat3x3<f32>(vec3<f32>(d.x, 0.0, 0.0), vec3<f32>(0.0, d.y, 0.0), vec3<f32>(0.0, 0.0, d.z)) * transpose(c);
}
`;

/**
 * The change of a dynamic collider's velocities (`dv`, `dOmega`) from the impulses added to its accumulator since the
 * motion kernel last applied them, as the core's `_applyImpulse`: Δv = J/M with the load's share taken off along its
 * axis, Δω = I⁻¹L (the world inverse inertia of the record: the last substep's, or as the attachments last turned
 * the body). `accumulated(word)` reads three accumulator words; `impulseChange(r, linear, angular)` takes the
 * record's vec4 index and the linear and angular words now (its words already applied are subtracted:
 * two's-complement differences, exact even where a sum wrapped, whatever order the threads added in). Shared by the motion kernel and the held solve, over `colliders` and `lambdas`.
 */
export const IMPULSE_CHANGE_WGSL = /* wgsl */ `
struct Change {
    dv: vec3<f32>,
    dOmega: vec3<f32>,
}

fn accumulated(word: u32) -> vec3<i32> {
    return vec3<i32>(atomicLoad(&lambdas[word]), atomicLoad(&lambdas[word + 1u]), atomicLoad(&lambdas[word + 2u]));
}

fn impulseChange(r: u32, linear: vec3<i32>, angular: vec3<i32>) -> Change {
    let j = vec3<f32>(linear - bitcast<vec4<i32>>(colliders[r + 9u]).xyz) / colliders[r + 6u].w;
    let l = vec3<f32>(angular - bitcast<vec3<i32>>(colliders[r + 10u].xyz)) / colliders[r + 8u].w;
    let axis = colliders[r + 8u].xyz;
    let inertia = mat3x3<f32>(colliders[r + 11u].xyz, colliders[r + 12u].xyz, colliders[r + 13u].xyz);
    // The inverse inertia's rows dotted with L (symmetric).
    return Change(j * colliders[r].w - dot(j, axis) * colliders[r + 2u].w * axis, l * inertia);
}
`;

/**
 * Same-step coupling of dynamic colliders, one thread per dynamic collider, as the core's `Collider` moves one inside
 * `XpbdWorld.step`:
 *
 * - `Begin` (the start of each substep, `_accelerate`, the held solve's impulses, then `_integrate`): the velocity
 *   gains the acceleration over the substep and the impulses the held solve (`heldContactsShader.ts`, dispatched
 *   just before) added to the accumulator, the centre of mass moves by the velocity, the rotation turns by the angular
 *   velocity about it, and the world inverse inertia follows;
 * - after each particle pass that projects contacts (`Tail`, `Settle`) or bounces (`Velocity`), as `_applyImpulse`:
 *   the impulse the pass added to the accumulator (its words now less those already applied: integer sums, so the
 *   difference is exact and does not depend on thread order) changes the velocities, Δv = J/M (the load's share
 *   taken off along its axis) and Δω = I⁻¹L, and after contacts the centre of mass moves by Δv·h, so the next pass
 *   sees the body where its contacts pushed it (a bounce, between substeps on the CPU, changes the velocity only; in
 *   the last pass, whose dispatch bounces as well, both move it), and the collider attachments' share of the angular
 *   impulse (the accumulator's turn words) turns it about its centre of mass by h·I⁻¹L, as the core's `_turn`;
 * - every mode then writes the substep's pose records of the collider's shapes (origin, rotation, centre of mass,
 *   velocities; their `w` words, written by the host, stay).
 *
 * The core's contacts are Gauss–Seidel: each moves the body before the next. Here the particles of one pass push it
 * together (Jacobi), so each contact takes the body's generalised inverse mass times the number of contacts of the
 * last projection (the mass split): their pushes then add up to at most the penetration, where each taking the whole
 * body would move it as many times too far (a light box thrown off a jelly).
 */
export const COLLIDER_MOTION_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> D: Dispatch;
@group(0) @binding(2) var<storage, read_write> colliders: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> lambdas: array<atomic<i32>>;

${ROTATION_ROWS_WGSL}
${COLLIDER_TURN_WGSL}
${IMPULSE_CHANGE_WGSL}

fn keepW(index: u32, xyz: vec3<f32>) {
    colliders[index] = vec4<f32>(xyz, colliders[index].w);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= u32(colliders[P.motionBase].x)) {
        return;
    }
    let r = P.motionBase + 1u + k * ${MOTION_VEC4S}u;
    let mode = D.first;
    var com = colliders[r].xyz;
    let invMass = colliders[r].w;
    var q = colliders[r + 1u];
    var v = colliders[r + 2u].xyz;
    let loadShare = colliders[r + 2u].w;
    var omega = colliders[r + 3u].xyz;
    // Rows of the world inverse inertia (symmetric, so rows and columns alike): the last substep's until it turns.
    var inertia = mat3x3<f32>(colliders[r + 11u].xyz, colliders[r + 12u].xyz, colliders[r + 13u].xyz);
    // The impulses added to the accumulator since the last mode (see IMPULSE_CHANGE_WGSL).
    let word = u32(colliders[r + 5u].w);
    let linear = accumulated(word);
    let angular = accumulated(word + 3u);
    let contacts = atomicLoad(&lambdas[word + 8u]);
    // The attachments' share of the angular impulse, to turn the body by (see below).
    let turn = accumulated(word + 9u);
    let seenTurn = bitcast<vec3<i32>>(vec3<f32>(colliders[r + 11u].w, colliders[r + 12u].w, colliders[r + 13u].w));
    let seenContacts = bitcast<vec4<i32>>(colliders[r + 9u]).w;
    let change = impulseChange(r, linear, angular);
    let dv = change.dv;
    var split = colliders[r + 10u].w;
    if ((mode & ${PassMode.Begin}u) != 0u) {
        // Accelerated, then stopped by the held solve's impulses (heldContactsShader.ts), then moved: the core's
        // _accelerate, solveHeld and _integrate. The inverse inertia is still the last substep's, as the core's.
        v = v + colliders[r + 4u].xyz * P.h + dv;
        omega = omega + change.dOmega;
        com = com + v * P.h;
        q = turned(q, 0.5 * P.h * omega);
        inertia = worldInverseInertia(r, q);
        colliders[r + 1u] = q;
    } else {
        v = v + dv;
        omega = omega + change.dOmega;
        if ((mode & ${PassMode.Tail | PassMode.Settle}u) != 0u) {
            com = com + dv * P.h;
            split = max(f32(contacts - seenContacts), 1.0);
            // The attachments' angular impulse turns the body at once (the core's Collider._turn after each
            // attachment's push): the next pass must see it turned, or it would push the same correction into the
            // angular velocity again. The contacts' share only spins it, as the core's.
            let attached = vec3<f32>(turn - seenTurn) / colliders[r + 8u].w;
            if (any(attached != vec3<f32>(0.0))) {
                q = turned(q, 0.5 * P.h * (attached * inertia));
                inertia = worldInverseInertia(r, q);
                colliders[r + 1u] = q;
            }
        }
    }
    colliders[r + 9u] = bitcast<vec4<f32>>(vec4<i32>(linear, contacts));
    colliders[r + 10u] = vec4<f32>(bitcast<vec3<f32>>(angular), split);
    colliders[r + 11u] = vec4<f32>(inertia[0], bitcast<f32>(turn.x));
    colliders[r + 12u] = vec4<f32>(inertia[1], bitcast<f32>(turn.y));
    colliders[r + 13u] = vec4<f32>(inertia[2], bitcast<f32>(turn.z));
    colliders[r] = vec4<f32>(com, invMass);
    colliders[r + 2u] = vec4<f32>(v, loadShare);
    colliders[r + 3u] = vec4<f32>(omega, colliders[r + 3u].w);
    let rows = rotationRows(q);
    let origin = com - colliders[r + 5u].xyz * rows;
    let first = u32(colliders[r + 3u].w);
    let shapes = u32(colliders[r + 4u].w);
    for (var s = 0u; s < shapes; s++) {
        let base = P.poseBase + (first + s) * ${POSE_VEC4S}u;
        keepW(base, origin);
        keepW(base + 1u, rows[0]);
        keepW(base + 2u, rows[1]);
        keepW(base + 3u, rows[2]);
        keepW(base + 4u, com);
        keepW(base + 5u, v);
        keepW(base + 6u, omega);
    }
}
`;
