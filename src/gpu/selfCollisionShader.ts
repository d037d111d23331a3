import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { TRIANGLE_CLOSEST_WGSL } from "./triangleClosestShader.js";

/** Threads of the one workgroup that turns the cell counts into starts (`scanCells`). */
export const SCAN_SIZE = 64;

/**
 * Fixed-point units per metre of the correction sums: 2²⁴, a resolution of 6·10⁻⁸ m; each contribution is clamped to
 * ±1 m, so 127 contributions to one particle (a few are usual) cannot leave the i32 range.
 */
export const CORRECTION_SCALE = 2 ** 24;

/** Widest query box of one triangle, in cells per axis (the core's): a wider one is skipped for the substep. */
export const MAX_CELL_SPAN = 16;

/**
 * Self-collision of one body on the GPU: the core's `SoftContacts` for a body with itself, as WGSL kernels.
 *
 * Once per substep, after the prediction (the core's `find`): `clearCells`, `countCells` (one thread per particle:
 * keeps its predicted position, counts it in the hash bucket of its cell, the cell of the middle of its motion, with
 * an integer atomic, and raises the substep's largest motion, an atomic max on the f32 bits, which order as
 * integers for non-negative floats), `sumChunks` and `scanCells` (the exclusive prefix sum of the counts in
 * {@link SCAN_SIZE} chunks, in a fixed order, without workgroup barriers: SwiftShader ran a one-workgroup scan with
 * barriers at 20 ms a substep) and `scatterCells` (each particle into its bucket's range). The order within a bucket
 * depends on the threads; nothing below depends on it.
 *
 * After every solver pass (the core's `project`): `projectContacts`, one thread per triangle, walks the cells of its
 * box (start and predicted corners, grown by half the largest motion and 1.5 thicknesses, as the core's query) and
 * tests each particle there whose swept box comes within 1.5 thicknesses of it, but for its corners and particles
 * within a thickness of it at rest; the side a particle belongs on is computed from the substep's start positions
 * (`prev`, which the passes do not move), so no candidate list is kept. Every contact is the core's (normal, depth,
 * moves by inverse mass and barycentric weight, positional friction), computed from the positions at the start of
 * the projection, and its moves are added in fixed point ({@link CORRECTION_SCALE}) with a count per particle: the
 * integer sums do not depend on the order the threads add in. `applyCorrections` (one thread per particle) then
 * moves each particle by the mean of its contacts' moves (Jacobi with averaging: a particle pushed by two triangles
 * of the layer below moves once, not twice) and clears its sums.
 *
 * Layout (group 0): 0 Params (dynamic), 1 SelfParams, 2 pos, 3 prev, 4 triangle records (corners, interior-edge
 * bits), 5 counts (per bucket, atomic), 6 table (u32: bucket starts [0, buckets], the sorted particles, then the
 * scan's chunk sums), 7 frozen (predicted positions, then rest positions with w 1 for a triangle's corner), 8 sums
 * (4 i32 per particle: the move in fixed point and the count; then the largest motion's f32 bits).
 */
export const SELF_COLLISION_WGSL = /* wgsl */ `
${PARAMS_WGSL}
${TRIANGLE_CLOSEST_WGSL}
struct SelfParams {
    invCell: f32,           // 1 / cell edge (1/m)
    bucketMask: u32,        // buckets − 1 (a power of two)
    buckets: u32,
    staticFriction: f32,
    kineticFriction: f32,
}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> S: SelfParams;
@group(0) @binding(2) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> tris: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> table: array<u32>;
@group(0) @binding(7) var<storage, read_write> frozen: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> sums: array<atomic<i32>>;

/** The hash cell of particle k: where the middle of its motion over the substep lies. */
fn cellOf(k: u32) -> vec3<i32> {
    return vec3<i32>(floor((0.5 * (frozen[k].xyz + prev[k].xyz)) * S.invCell));
}

/** The core's ParticleHash.bucketOf. */
fn bucketOf(c: vec3<i32>) -> u32 {
    let u = bitcast<vec3<u32>>(c);
    return ((u.x * 92837111u) ^ (u.y * 689287499u) ^ (u.z * 283923481u)) & S.bucketMask;
}

/** Word of the table where the scan's chunk sums lie (after the starts and the sorted particles). */
fn chunkWord() -> u32 {
    return S.buckets + 1u + P.particleCount;
}

/** Word of the largest motion of the substep (after the particles' sums). */
fn moveWord() -> u32 {
    return 4u * P.particleCount;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn clearCells(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < S.buckets) {
        atomicStore(&counts[id.x], 0u);
    }
    if (id.x == 0u) {
        atomicStore(&sums[moveWord()], 0);
    }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn countCells(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let x = pos[k];
    frozen[k] = x;
    let d = x.xyz - prev[k].xyz;
    atomicMax(&sums[moveWord()], bitcast<i32>(sqrt(dot(d, d))));
    atomicAdd(&counts[bucketOf(cellOf(k))], 1u);
}

/** Buckets of scan chunk i: [first, end). */
fn chunkOf(i: u32) -> vec2<u32> {
    let size = (S.buckets + ${SCAN_SIZE - 1}u) / ${SCAN_SIZE}u;
    let first = min(i * size, S.buckets);
    return vec2<u32>(first, min(first + size, S.buckets));
}

/** The prefix sum's first half: chunk i's count, into the table after the sorted particles. */
@compute @workgroup_size(${SCAN_SIZE})
fn sumChunks(@builtin(local_invocation_index) i: u32) {
    let chunk = chunkOf(i);
    var sum = 0u;
    for (var h = chunk.x; h < chunk.y; h++) {
        sum += atomicLoad(&counts[h]);
    }
    table[chunkWord() + i] = sum;
}

/**
 * The second half: each chunk's start (the chunks before it, added in order), then its buckets' starts (table words
 * [0, buckets]); the counts become the scatter's cursors, from 0. No barrier: one thread per chunk, fixed order.
 */
@compute @workgroup_size(${SCAN_SIZE})
fn scanCells(@builtin(local_invocation_index) i: u32) {
    var run = 0u;
    for (var j = 0u; j < i; j++) {
        run += table[chunkWord() + j];
    }
    let chunk = chunkOf(i);
    for (var h = chunk.x; h < chunk.y; h++) {
        let count = atomicLoad(&counts[h]);
        table[h] = run;
        atomicStore(&counts[h], 0u);
        run += count;
    }
    if (i == ${SCAN_SIZE - 1}u) {
        table[S.buckets] = run;
    }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn scatterCells(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let h = bucketOf(cellOf(k));
    table[S.buckets + 1u + table[h] + atomicAdd(&counts[h], 1u)] = k;
}

/** Adds move d to particle k's sum, in fixed point, and counts it. */
fn addMove(k: u32, d: vec3<f32>) {
    let q = vec3<i32>(round(clamp(d, vec3<f32>(-1.0), vec3<f32>(1.0)) * ${CORRECTION_SCALE}.0));
    atomicAdd(&sums[4u * k], q.x);
    atomicAdd(&sums[4u * k + 1u], q.y);
    atomicAdd(&sums[4u * k + 2u], q.z);
    atomicAdd(&sums[4u * k + 3u], 1);
}

/**
 * The side of triangle (a0, b0, c0) that q0 starts on (the core's _startSide): ±1 along (b − a) × (c − a) when it
 * starts within two contact distances or over the face, else 0 (unknown).
 */
fn startSide(q0: vec3<f32>, a0: vec3<f32>, b0: vec3<f32>, c0: vec3<f32>) -> f32 {
    let near = 2.0 * P.thickness;
    let r = closestWeights(q0, a0, b0, c0);
    if (!(r.d2 < near * near) && !(r.weights.x > 0.0 && r.weights.y > 0.0 && r.weights.z > 0.0)) {
        return 0.0;
    }
    return select(-1.0, 1.0, dot(q0 - a0, cross(b0 - a0, c0 - a0)) >= 0.0);
}

/**
 * One contact of particle e with triangle t (the core's SoftContacts.project for a body with itself): its moves of
 * the particle and the corners (by inverse mass and weight), normal then friction, into the sums.
 */
fn contact(e: u32, t: vec4<u32>, side: f32) {
    let p = pos[e];
    let A = pos[t.x];
    let B = pos[t.y];
    let C = pos[t.z];
    let q = p.xyz;
    let a = A.xyz;
    let b = B.xyz;
    let c = C.xyz;
    let r = closestWeights(q, a, b, c);
    let raw = cross(b - a, c - a);
    let area2 = sqrt(dot(raw, raw));
    if (!(area2 > 1e-24)) {
        return;
    }
    let cd = P.thickness;
    let dq = q - r.point;
    let u = r.weights;
    let known = side != 0.0;
    let s = select(select(-1.0, 1.0, dot(dq, raw) >= 0.0), side, known) / area2;
    var n = raw * s;
    if (u.x > 0.0 && u.y > 0.0 && u.z > 0.0) {
        if (!known && !(r.d2 < cd * cd)) {
            return;
        }
    } else {
        if (!(r.d2 > 1e-24)) {
            return;
        }
        // Edge k (a–b, b–c, c–a) is interior when bit k is set; a corner when both its edges are. A particle on the
        // wrong side of an interior one crossed the surface there (at any distance), and goes back across the plane.
        var mask = 4u;
        if (u.z == 0.0) {
            mask = select(select(1u, 5u, u.y == 0.0), 3u, u.x == 0.0);
        } else if (u.x == 0.0) {
            mask = select(2u, 6u, u.y == 0.0);
        }
        let crossed = (t.w & mask) == mask && known && dot(dq, raw) * s < 0.0;
        if (!crossed) {
            if (!(r.d2 < cd * cd)) {
                return;
            }
            n = dq / sqrt(r.d2);
        }
    }
    let depth = cd - dot(n, dq);
    if (!(depth > 0.0)) {
        return;
    }
    let wp = p.w;
    let k = vec3<f32>(A.w, B.w, C.w) * u;
    let denominator = wp + dot(k, u);
    if (denominator == 0.0) {
        return;
    }
    let lambda = depth / denominator;
    var dp = (wp * lambda) * n;
    var dc = lambda * n;
    // Friction: the slip relative to the closest point over the substep, removed within the static cone. The normal
    // moves leave the tangential slip as it is, so it is measured before them.
    let us = S.staticFriction;
    let uk = S.kineticFriction;
    if (us != 0.0 || uk != 0.0) {
        var slip = (q - prev[e].xyz) - u.x * (a - prev[t.x].xyz) - u.y * (b - prev[t.y].xyz) - u.z * (c - prev[t.z].xyz);
        slip = slip - dot(slip, n) * n;
        let slipLength = sqrt(dot(slip, slip));
        if (slipLength >= 1e-12) {
            var removed = min(uk * depth, slipLength);
            if (slipLength < us * depth) {
                removed = slipLength;
            }
            let friction = (-removed / (denominator * slipLength)) * slip;
            dp += wp * friction;
            dc += friction;
        }
    }
    if (wp > 0.0) {
        addMove(e, dp);
    }
    if (k.x > 0.0) {
        addMove(t.x, -k.x * dc);
    }
    if (k.y > 0.0) {
        addMove(t.y, -k.y * dc);
    }
    if (k.z > 0.0) {
        addMove(t.z, -k.z * dc);
    }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn projectContacts(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= P.triangleCount) {
        return;
    }
    let t = tris[id.x];
    let a0 = prev[t.x].xyz;
    let b0 = prev[t.y].xyz;
    let c0 = prev[t.z].xyz;
    let lo = min(min(min(a0, b0), min(c0, frozen[t.x].xyz)), min(frozen[t.y].xyz, frozen[t.z].xyz));
    let hi = max(max(max(a0, b0), max(c0, frozen[t.x].xyz)), max(frozen[t.y].xyz, frozen[t.z].xyz));
    // A particle is hashed at the middle of its motion: the box reaches half the largest motion further, and a
    // contact distance and a half more (the half for the motion the solve adds to the prediction).
    let reach = 0.5 * bitcast<f32>(atomicLoad(&sums[moveWord()])) + 1.5 * P.thickness;
    let c0Cell = vec3<i32>(floor((lo - reach) * S.invCell));
    let c1Cell = vec3<i32>(floor((hi + reach) * S.invCell));
    if (any(c1Cell - c0Cell >= vec3<i32>(${MAX_CELL_SPAN}))) {
        return;
    }
    let margin = 1.5 * P.thickness;
    let boxLo = lo - margin;
    let boxHi = hi + margin;
    let n = P.particleCount;
    let thickness2 = P.thickness * P.thickness;
    for (var cx = c0Cell.x; cx <= c1Cell.x; cx++) {
        for (var cy = c0Cell.y; cy <= c1Cell.y; cy++) {
            for (var cz = c0Cell.z; cz <= c1Cell.z; cz++) {
                let cell = vec3<i32>(cx, cy, cz);
                let h = bucketOf(cell);
                let end = table[h + 1u];
                for (var slot = table[h]; slot < end; slot++) {
                    let e = table[S.buckets + 1u + slot];
                    // Its corners, and particles of no triangle (a tetrahedral body's inside), take no part.
                    if (e == t.x || e == t.y || e == t.z || frozen[n + e].w == 0.0) {
                        continue;
                    }
                    let e0 = prev[e].xyz;
                    let e1 = frozen[e].xyz;
                    if (any(min(e0, e1) > boxHi) || any(max(e0, e1) < boxLo) || any(cellOf(e) != cell)) {
                        continue;
                    }
                    // Within a thickness of the triangle at rest (its neighbours on a fine mesh): never a contact.
                    if (closestWeights(frozen[n + e].xyz, frozen[n + t.x].xyz, frozen[n + t.y].xyz, frozen[n + t.z].xyz).d2 < thickness2) {
                        continue;
                    }
                    contact(e, t, startSide(e0, a0, b0, c0));
                }
            }
        }
    }
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn applyCorrections(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    let count = atomicLoad(&sums[4u * k + 3u]);
    if (count == 0) {
        return;
    }
    let sum = vec3<i32>(atomicLoad(&sums[4u * k]), atomicLoad(&sums[4u * k + 1u]), atomicLoad(&sums[4u * k + 2u]));
    for (var j = 0u; j < 4u; j++) {
        atomicStore(&sums[4u * k + j], 0);
    }
    let p = pos[k];
    pos[k] = vec4<f32>(p.xyz + vec3<f32>(sum) / (${CORRECTION_SCALE}.0 * f32(count)), p.w);
}
`;
