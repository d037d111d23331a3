import { CORRECTION_SCALE, PARTICLE_CONTACT_WGSL } from "./particleContactShader.js";
import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";
import { TRIANGLE_CLOSEST_WGSL } from "./triangleClosestShader.js";

/**
 * Self-collision of one body on the GPU: the core's `SoftContacts` for a body with itself, as WGSL kernels.
 *
 * Once per substep, after the prediction (the core's `find`): the hash of `particleContactShader.ts` over the body's
 * particles.
 *
 * After every solver pass (the core's `project`): `projectContacts`, one thread per triangle, walks the cells of its
 * box (start and predicted corners, grown by half the largest motion and 1.5 thicknesses, as the core's query) and
 * tests each particle there whose swept box comes within 1.5 thicknesses of it, but for its corners and particles
 * within a thickness of it at rest; the side a particle belongs on is computed from the substep's start positions
 * (`prev`, which the passes do not move), so no candidate list is kept. Every contact is the core's, its moves
 * summed in fixed point. `applyCorrections` (one thread per particle) then moves each particle by the mean of its
 * contacts' moves (Jacobi with averaging: a particle pushed by two triangles of the layer below moves once, not
 * twice) and clears its sums.
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

/** Every particle of the body is hashed. */
fn particleTotal() -> u32 {
    return P.particleCount;
}

/** No mass splitting: the moves are averaged per particle (applyCorrections). */
fn splitOf(k: u32) -> f32 {
    return 1.0;
}

${PARTICLE_CONTACT_WGSL}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn projectContacts(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= P.triangleCount) {
        return;
    }
    let t = tris[id.x];
    let q = triangleQuery(t.xyz, P.thickness);
    if (q.wide) {
        return;
    }
    let a0 = prev[t.x].xyz;
    let b0 = prev[t.y].xyz;
    let c0 = prev[t.z].xyz;
    let n = P.particleCount;
    let thickness2 = P.thickness * P.thickness;
    for (var cx = q.firstCell.x; cx <= q.lastCell.x; cx++) {
        for (var cy = q.firstCell.y; cy <= q.lastCell.y; cy++) {
            for (var cz = q.firstCell.z; cz <= q.lastCell.z; cz++) {
                let cell = vec3<i32>(cx, cy, cz);
                let h = bucketOf(cell);
                let end = table[h + 1u];
                for (var slot = table[h]; slot < end; slot++) {
                    let e = table[S.buckets + 1u + slot];
                    // Its corners, and particles of no triangle (a tetrahedral body's inside), take no part.
                    if (e == t.x || e == t.y || e == t.z || frozen[n + e].w == 0.0) {
                        continue;
                    }
                    if (queryMisses(q, e, cell)) {
                        continue;
                    }
                    // Within a thickness of the triangle at rest (its neighbours on a fine mesh): never a contact.
                    if (closestWeights(frozen[n + e].xyz, frozen[n + t.x].xyz, frozen[n + t.y].xyz, frozen[n + t.z].xyz).d2 < thickness2) {
                        continue;
                    }
                    contact(e, t, startSide(prev[e].xyz, a0, b0, c0, P.thickness), P.thickness, S.staticFriction, S.kineticFriction);
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
