import { WORKGROUP_SIZE } from "./predictShader.js";

/** Bytes of the render kernels' uniform block (`RenderParams`). */
export const RENDER_PARAMS_SIZE = 80;

/**
 * The render-mesh kernels, one thread per render vertex, dispatched one after the other: what `RenderMeshSync`
 * computes on the CPU.
 *
 * - `positions`: the vertex's world position is the weighted sum of its four corner particles, in corner order
 *   (a cloth's vertex: its particle, weights 1, 0, 0, 0, which gives the particle exactly; a soft body's: its tet's
 *   corners and barycentric weights, as `applyTetBinding`; a vertex bound to a surface triangle: the triangle's corners
 *   and weights, the fourth 0), plus, for surface-bound vertices (`P.surface`), its offset along the triangle's
 *   orthonormal frame, as `applySurfaceBinding`; then taken into the mesh's local frame by `P.inverseWorld`.
 * - `normals`: the area-weighted sum of the cross products of its smoothing group's triangles, from the positions
 *   just written (the triangles' corners are their groups' first vertices, as on the CPU), normalised and signed.
 *   Every vertex of a group reads the same triangle list, in triangle order, so the vertices of a seam get
 *   bit-identical normals, and no sum depends on thread order.
 *
 * Layout (group 0): 0 RenderParams (uniform), 1 particle positions (vec4, w = inverse mass), 2 vertex records (two
 * per vertex: the four corner particles; then first adjacency entry, adjacency count, unused ×2), 3 corner weights
 * (vec4 per vertex), 4 adjacency (triangle indices, per group in triangle order), 5 triangles (their corners' render
 * vertices, w unused), 6 positions out (xyz per vertex), 7 normals out, 8 offsets (a surface-bound vertex's along its
 * triangle's frame, vec4 per vertex, w unused; one unread vec4 for other bindings).
 */
export const RENDER_MESH_WGSL = /* wgsl */ `
struct RenderParams {
    inverseWorld: mat4x4<f32>,  // world → the mesh's local frame
    vertexCount: u32,
    normalSign: f32,            // −1 when the mesh's authored normals face the other way
    surface: u32,               // 1 when the vertices are bound to surface triangles, with offsets along their frames
    pad: u32,
}
@group(0) @binding(0) var<uniform> P: RenderParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vertices: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> weights: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> adjacency: array<u32>;
@group(0) @binding(5) var<storage, read> triangles: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> outPositions: array<f32>;
@group(0) @binding(7) var<storage, read_write> outNormals: array<f32>;
@group(0) @binding(8) var<storage, read> offsets: array<vec4<f32>>;

// The offset o along the frame of triangle (a, b, c): its unit first edge, the in-plane direction n × t across it,
// and its unit normal, as triangleFrame in surfaceBinding.ts.
fn alongFrame(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, o: vec3<f32>) -> vec3<f32> {
    let e1 = b - a;
    let t = e1 / length(e1);
    let normal = cross(e1, c - a);
    let n = normal / length(normal);
    return o.x * t + o.y * cross(n, t) + o.z * n;
}

fn written(v: u32) -> vec3<f32> {
    return vec3<f32>(outPositions[3u * v], outPositions[3u * v + 1u], outPositions[3u * v + 2u]);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn positions(@builtin(global_invocation_id) id: vec3<u32>) {
    let v = id.x;
    if (v >= P.vertexCount) {
        return;
    }
    let c = vertices[2u * v];
    let w = weights[v];
    var world = w.x * pos[c.x].xyz + w.y * pos[c.y].xyz + w.z * pos[c.z].xyz + w.w * pos[c.w].xyz;
    if (P.surface != 0u) {
        world += alongFrame(pos[c.x].xyz, pos[c.y].xyz, pos[c.z].xyz, offsets[v].xyz);
    }
    let x = (P.inverseWorld * vec4<f32>(world, 1.0)).xyz;
    outPositions[3u * v] = x.x;
    outPositions[3u * v + 1u] = x.y;
    outPositions[3u * v + 2u] = x.z;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn normals(@builtin(global_invocation_id) id: vec3<u32>) {
    let v = id.x;
    if (v >= P.vertexCount) {
        return;
    }
    let record = vertices[2u * v + 1u];
    var n = vec3<f32>(0.0);
    for (var k = record.x; k < record.x + record.y; k++) {
        let t = triangles[adjacency[k]];
        let b = written(t.y);
        n += cross(written(t.x) - b, written(t.z) - b);
    }
    let length2 = dot(n, n);
    if (length2 > 0.0) {
        n = n * (P.normalSign / sqrt(length2));
    }
    outNormals[3u * v] = n.x;
    outNormals[3u * v + 1u] = n.y;
    outNormals[3u * v + 2u] = n.z;
}
`;
