import { CORRECTION_SCALE, PARTICLE_CONTACT_WGSL } from "./particleContactShader.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { TRIANGLE_CLOSEST_WGSL } from "./triangleClosestShader.js";

/** 32-bit words of one body's record in the group's records (see {@link BODY_CONTACTS_WGSL}). */
export const BODY_RECORD_WORDS = 8;

/**
 * Contacts between the bodies of a group on the GPU (`GpuContactGroup`): the core's `SoftContacts` for pairs of
 * bodies, over copies of every body's particles in one set of buffers.
 *
 * The group's particles are the bodies' one after another (body b's particle k is `offset(b) + k`). Each body's
 * `gather` (one thread per particle) copies its positions and start positions there before the hash's rebuild (once
 * per substep, after every body's prediction: the hash of `particleContactShader.ts`) and before each projection
 * (after every body's solver pass).
 *
 * `projectPairs`, one thread per triangle of any body, walks the cells of the triangle's box (as self-collision's)
 * and takes each particle of another body there whose collision groups let the two bodies touch (each one's
 * membership in the other's mask) and whose swept box comes within 1.5 of the group's largest thickness. The contact
 * distance of the pair is the mean of the two thicknesses and the friction coefficients are the geometric means, as
 * on the CPU. Each contact moves its four particles by their inverse masses (momentum is exchanged by the masses);
 * the multiplier uses mass splitting, each inverse mass times the count of contacts its particle had in the last
 * projection (`splitOf`): a particle pushed by the two triangles of a quad moves once, not twice, and because every
 * particle of a contact moves by the same multiplier, the contact moves no momentum. The moves are summed in fixed
 * point, so the sums do not depend on thread order. Each body's `scatter` (one thread per particle) then adds its
 * particles' sums to its positions, keeps their counts for the next projection's splitting and clears the sums.
 *
 * Layout of the group kernels (group 0): 0 GroupParams, 1 pos, 2 prev (the gathered particles), 3 records (u32: per
 * body {@link BODY_RECORD_WORDS} words: thickness, μs, μk as f32 bits, membership, collideWith, first particle,
 * particle count; then per triangle its corners (group indices) and its interior-edge bits plus the body times 8;
 * then per particle its body + 1, 0 for a particle of no triangle), 4 counts, 5 table, 6 frozen (predicted
 * positions), 7 sums (4 i32 per particle, the largest motion, then the split counts). The per-body kernels: 0
 * BodyParams, 1 the body's positions, 2 its start positions, 3 pos, 4 prev, 5 sums.
 */
export const BODY_CONTACTS_WGSL = /* wgsl */ `
${TRIANGLE_CLOSEST_WGSL}
struct GroupParams {
    invCell: f32,           // 1 / cell edge (1/m)
    bucketMask: u32,        // buckets − 1 (a power of two)
    buckets: u32,
    particleCount: u32,     // the group's particles
    triangleCount: u32,     // the group's triangles
    triangleBase: u32,      // word of the records where the triangles start
    flagBase: u32,          // word of the records where the particles' bodies start
    maxThickness: f32,      // the largest thickness of the group's bodies (m)
}
@group(0) @binding(0) var<uniform> S: GroupParams;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> records: array<u32>;
@group(0) @binding(4) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> table: array<u32>;
@group(0) @binding(6) var<storage, read_write> frozen: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> sums: array<atomic<i32>>;

fn particleTotal() -> u32 {
    return S.particleCount;
}

/** How many contacts particle k had in the last projection (at least 1): its mass splitting. */
fn splitOf(k: u32) -> f32 {
    return f32(max(atomicLoad(&sums[4u * S.particleCount + 1u + k]), 1));
}

${PARTICLE_CONTACT_WGSL}

fn thicknessOf(b: u32) -> f32 {
    return bitcast<f32>(records[${BODY_RECORD_WORDS}u * b]);
}

fn staticFrictionOf(b: u32) -> f32 {
    return bitcast<f32>(records[${BODY_RECORD_WORDS}u * b + 1u]);
}

fn kineticFrictionOf(b: u32) -> f32 {
    return bitcast<f32>(records[${BODY_RECORD_WORDS}u * b + 2u]);
}

/** Whether bodies a and b may touch: each one's membership in the other's mask (the core's pairAllowed). */
fn pairAllowed(a: u32, b: u32) -> bool {
    let ra = ${BODY_RECORD_WORDS}u * a;
    let rb = ${BODY_RECORD_WORDS}u * b;
    return (records[ra + 3u] & records[rb + 4u]) != 0u && (records[rb + 3u] & records[ra + 4u]) != 0u;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn projectPairs(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= S.triangleCount) {
        return;
    }
    let w = S.triangleBase + 4u * id.x;
    let t = vec4<u32>(records[w], records[w + 1u], records[w + 2u], records[w + 3u]);
    let tb = t.w >> 3u;
    // The contact distance of a pair is at most the thickest body's.
    let q = triangleQuery(t.xyz, S.maxThickness);
    if (q.wide) {
        return;
    }
    let a0 = prev[t.x].xyz;
    let b0 = prev[t.y].xyz;
    let c0 = prev[t.z].xyz;
    let thickness = thicknessOf(tb);
    let us = staticFrictionOf(tb);
    let uk = kineticFrictionOf(tb);
    for (var cx = q.firstCell.x; cx <= q.lastCell.x; cx++) {
        for (var cy = q.firstCell.y; cy <= q.lastCell.y; cy++) {
            for (var cz = q.firstCell.z; cz <= q.lastCell.z; cz++) {
                let cell = vec3<i32>(cx, cy, cz);
                let h = bucketOf(cell);
                let end = table[h + 1u];
                for (var slot = table[h]; slot < end; slot++) {
                    let e = table[S.buckets + 1u + slot];
                    let flag = records[S.flagBase + e];
                    // A particle of no triangle (a tetrahedral body's inside), or of the triangle's own body (its
                    // self-collision is its own pass), or of a body the masks keep apart: no contact.
                    if (flag == 0u || flag - 1u == tb || !pairAllowed(flag - 1u, tb)) {
                        continue;
                    }
                    if (queryMisses(q, e, cell)) {
                        continue;
                    }
                    let pb = flag - 1u;
                    let cd = 0.5 * (thickness + thicknessOf(pb));
                    contact(e, t, startSide(prev[e].xyz, a0, b0, c0, cd), cd, sqrt(us * staticFrictionOf(pb)), sqrt(uk * kineticFrictionOf(pb)));
                }
            }
        }
    }
}
`;

/**
 * The per-body kernels of the group's contacts (see {@link BODY_CONTACTS_WGSL}): `gather` copies a body's particles
 * into the group's buffers, `scatter` adds their contact moves back to the body's positions.
 */
export const BODY_TRANSFER_WGSL = /* wgsl */ `
struct BodyParams {
    first: u32,             // the body's first particle in the group
    count: u32,             // its particles
    split: u32,             // word of the group's sums where the split counts start
}
@group(0) @binding(0) var<uniform> B: BodyParams;
@group(0) @binding(1) var<storage, read_write> bodyPos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> bodyPrev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> sums: array<atomic<i32>>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn gather(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= B.count) {
        return;
    }
    pos[B.first + k] = bodyPos[k];
    prev[B.first + k] = bodyPrev[k];
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn scatter(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= B.count) {
        return;
    }
    let g = B.first + k;
    let count = atomicLoad(&sums[4u * g + 3u]);
    atomicStore(&sums[B.split + g], count);
    if (count == 0) {
        return;
    }
    let sum = vec3<i32>(atomicLoad(&sums[4u * g]), atomicLoad(&sums[4u * g + 1u]), atomicLoad(&sums[4u * g + 2u]));
    for (var j = 0u; j < 4u; j++) {
        atomicStore(&sums[4u * g + j], 0);
    }
    let p = bodyPos[k];
    bodyPos[k] = vec4<f32>(p.xyz + vec3<f32>(sum) / ${CORRECTION_SCALE}.0, p.w);
}
`;
