import { WORKGROUP_SIZE } from "./predictShader.js";

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
 * What the contacts between particles and triangles on the GPU share, self-collision's (`selfCollisionShader.ts`)
 * and those between bodies (`bodyContactsShader.ts`): the hash of the particles rebuilt every substep, and one
 * contact's moves added to fixed-point sums.
 *
 * The hash (the core's `find`): `clearCells`, `countCells` (one thread per particle: keeps its predicted position,
 * counts it in the hash bucket of its cell, the cell of the middle of its motion, with an integer atomic, and raises
 * the substep's largest motion, an atomic max on the f32 bits, which order as integers for non-negative floats),
 * `sumChunks` and `scanCells` (the exclusive prefix sum of the counts in {@link SCAN_SIZE} chunks, in a fixed order,
 * without workgroup barriers: SwiftShader ran a one-workgroup scan with barriers at 20 ms a substep) and
 * `scatterCells` (each particle into its bucket's range). The order within a bucket depends on the threads; nothing
 * after depends on it.
 *
 * A contact (`contact`) is the core's: normal, depth, moves by inverse mass and barycentric weight, positional
 * friction, computed from the positions at the start of the projection; its moves are added in fixed point
 * ({@link CORRECTION_SCALE}) with a count per particle (`addMove`): the integer sums do not depend on the order the
 * threads add in.
 *
 * The includer declares `S` (with `invCell`, `bucketMask`, `buckets`), the bindings `pos` (read_write), `prev`,
 * `counts` (atomic u32), `table` (u32: bucket starts [0, buckets], the sorted particles, the scan's chunk sums),
 * `frozen` (the predicted positions first) and `sums` (atomic i32: 4 per particle, then the largest motion), and the
 * functions `particleTotal()` (the particles hashed) and `splitOf(k)` (the mass splitting of particle k).
 */
export const PARTICLE_CONTACT_WGSL = /* wgsl */ `
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
    return S.buckets + 1u + particleTotal();
}

/** Word of the largest motion of the substep (after the particles' sums). */
fn moveWord() -> u32 {
    return 4u * particleTotal();
}

/** The hash cells and the box that triangle's contacts are looked for in (triangleQuery). */
struct TriangleQuery {
    /** Whether the box spans too many cells (a runaway body): the triangle is skipped for the substep. */
    wide: bool,
    firstCell: vec3<i32>,
    lastCell: vec3<i32>,
    lo: vec3<f32>,
    hi: vec3<f32>,
}

/**
 * Where the contacts of the triangle with corners t.xyz, at contact distance cd at most, are looked for: the box of
 * its corners at the start and predicted, grown by a contact distance and a half (the half for the motion the solve
 * adds to the prediction); the cells reach half the largest motion further, as a particle is hashed at the middle of
 * its motion.
 */
fn triangleQuery(t: vec3<u32>, cd: f32) -> TriangleQuery {
    let a0 = prev[t.x].xyz;
    let b0 = prev[t.y].xyz;
    let c0 = prev[t.z].xyz;
    let lo = min(min(min(a0, b0), min(c0, frozen[t.x].xyz)), min(frozen[t.y].xyz, frozen[t.z].xyz));
    let hi = max(max(max(a0, b0), max(c0, frozen[t.x].xyz)), max(frozen[t.y].xyz, frozen[t.z].xyz));
    let reach = 0.5 * bitcast<f32>(atomicLoad(&sums[moveWord()])) + 1.5 * cd;
    let firstCell = vec3<i32>(floor((lo - reach) * S.invCell));
    let lastCell = vec3<i32>(floor((hi + reach) * S.invCell));
    let margin = 1.5 * cd;
    return TriangleQuery(any(lastCell - firstCell >= vec3<i32>(${MAX_CELL_SPAN})), firstCell, lastCell, lo - margin, hi + margin);
}

/**
 * Whether particle e cannot touch the triangle of query q from the bucket of cell: its motion misses the box, or its
 * own cell is another one that only shares the bucket.
 */
fn queryMisses(q: TriangleQuery, e: u32, cell: vec3<i32>) -> bool {
    let e0 = prev[e].xyz;
    let e1 = frozen[e].xyz;
    return any(min(e0, e1) > q.hi) || any(max(e0, e1) < q.lo) || any(cellOf(e) != cell);
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
    if (k >= particleTotal()) {
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
    if (k >= particleTotal()) {
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
fn startSide(q0: vec3<f32>, a0: vec3<f32>, b0: vec3<f32>, c0: vec3<f32>, cd: f32) -> f32 {
    let near = 2.0 * cd;
    let r = closestWeights(q0, a0, b0, c0);
    if (!(r.d2 < near * near) && !(r.weights.x > 0.0 && r.weights.y > 0.0 && r.weights.z > 0.0)) {
        return 0.0;
    }
    return select(-1.0, 1.0, dot(q0 - a0, cross(b0 - a0, c0 - a0)) >= 0.0);
}

/**
 * One contact of particle e with triangle t (the core's SoftContacts.project), at contact distance cd with friction
 * coefficients us, uk: its moves of the particle and the corners (by inverse mass and weight), normal then friction,
 * into the sums. The multiplier weighs each particle's inverse mass by splitOf (1, or how many contacts share it: mass
 * splitting); the moves use the inverse masses themselves, so the contact moves no momentum either way.
 */
fn contact(e: u32, t: vec4<u32>, side: f32, cd: f32, us: f32, uk: f32) {
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
    let split = vec4<f32>(splitOf(e), splitOf(t.x), splitOf(t.y), splitOf(t.z));
    let denominator = wp * split.x + dot(k * split.yzw, u);
    if (denominator == 0.0) {
        return;
    }
    let lambda = depth / denominator;
    var dp = (wp * lambda) * n;
    var dc = lambda * n;
    // Friction: the slip relative to the closest point over the substep, removed within the static cone. The normal
    // moves leave the tangential slip as it is, so it is measured before them.
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

`;
