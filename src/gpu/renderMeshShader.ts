import { WORKGROUP_SIZE } from "./predictShader.js";

/** Bytes of the render kernel's uniform block (`RenderParams`). */
export const RENDER_PARAMS_SIZE = 80;

/**
 * The render-mesh kernel, one thread per render vertex: the vertex's position is its particle's, taken into the
 * mesh's local frame by `P.inverseWorld`; its normal is the area-weighted sum of the cross products of its smoothing
 * group's triangles (their corners also taken into the local frame first), normalised and signed: what
 * `RenderMeshSync` computes on the CPU. Every vertex of a group reads the same triangle list, in triangle order, so
 * the vertices of a seam get bit-identical normals, and no sum depends on thread order.
 *
 * Layout (group 0): 0 RenderParams (uniform), 1 particle positions (vec4, w = inverse mass), 2 vertex records
 * (particle, first adjacency entry, adjacency count, unused), 3 adjacency (triangle indices, per group in triangle
 * order), 4 triangles (their corners' particles, w unused), 5 positions out (xyz per vertex), 6 normals out.
 */
export const RENDER_MESH_WGSL = /* wgsl */ `
struct RenderParams {
    inverseWorld: mat4x4<f32>,  // world → the mesh's local frame
    vertexCount: u32,
    normalSign: f32,            // −1 when the mesh's authored normals face the other way
    pad0: u32,
    pad1: u32,
}
@group(0) @binding(0) var<uniform> P: RenderParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vertices: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> adjacency: array<u32>;
@group(0) @binding(4) var<storage, read> triangles: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> outPositions: array<f32>;
@group(0) @binding(6) var<storage, read_write> outNormals: array<f32>;

fn local(particle: u32) -> vec3<f32> {
    return (P.inverseWorld * vec4<f32>(pos[particle].xyz, 1.0)).xyz;
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let v = id.x;
    if (v >= P.vertexCount) {
        return;
    }
    let record = vertices[v];
    let x = local(record.x);
    var n = vec3<f32>(0.0);
    for (var k = record.y; k < record.y + record.z; k++) {
        let t = triangles[adjacency[k]];
        let b = local(t.y);
        n += cross(local(t.x) - b, local(t.z) - b);
    }
    let length2 = dot(n, n);
    if (length2 > 0.0) {
        n = n * (P.normalSign / sqrt(length2));
    }
    outPositions[3u * v] = x.x;
    outPositions[3u * v + 1u] = x.y;
    outPositions[3u * v + 2u] = x.z;
    outNormals[3u * v] = n.x;
    outNormals[3u * v + 1u] = n.y;
    outNormals[3u * v + 2u] = n.z;
}
`;
