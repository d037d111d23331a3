import { TRIANGLE_CLOSEST_WGSL } from "./triangleClosestShader.js";

/** vec4s per collider shape record (the static part, written once per collider list). */
export const SHAPE_VEC4S = 7;

/**
 * Collider shapes in WGSL: the signed distance and outward normal of a point given in the collider frame, computed
 * as the core's `ColliderShape.query` computes them, for every kind.
 *
 * A shape record: 0 kind and two-sidedness (as u32 bits), then by kind. Analytic shapes: 1 `a` and the radius
 * (plane: normal and offset), 2 `b`, 3 the box or sphere centre, 4–6 the box rotation's rows (box → collider).
 * Convex hull: 1 the vec4 index of its planes and their count (u32). Mesh: 1 the grid's origin and cell size, 2 the
 * cells per axis and the vec4 index of the triangles (u32), 3 the word indices of the cell starts and of the cells'
 * triangle lists. Hull planes and mesh data lie after the records in the same buffer (see `ColliderRecords`).
 *
 * Included by the particle pass, whose binding it reads: `colliders` (the collider buffer, of vec4s). A mesh query
 * looks for triangles within the reach it is given (the core's query reach: 4 thicknesses for a contact, the path's
 * length more for a sweep).
 */
export const SHAPES_WGSL = /* wgsl */ `
${TRIANGLE_CLOSEST_WGSL}
const PLANE = 0u;
const SPHERE = 1u;
const BOX = 2u;
const CAPSULE = 3u;
const CYLINDER = 4u;
const CONVEX_HULL = 5u;
// No mesh triangle within reach: the core's Infinity (any number far beyond a thickness will do).
const NO_SURFACE = 1e30;

/** Word i of the collider buffer, as u32 (the grids' integer lists). */
fn colliderWord(i: u32) -> u32 {
    return bitcast<u32>(colliders[i >> 2u][i & 3u]);
}

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

fn hullDistance(base: u32, q: vec3<f32>) -> vec4<f32> {
    let first = bitcast<u32>(colliders[base + 1u].x);
    let count = bitcast<u32>(colliders[base + 1u].y);
    // The face plane the point is farthest in front of (least behind): the first of equals, as the core.
    var best = colliders[first];
    var bestDistance = dot(best.xyz, q) - best.w;
    for (var k = 1u; k < count; k++) {
        let plane = colliders[first + k];
        let d = dot(plane.xyz, q) - plane.w;
        if (d > bestDistance) {
            bestDistance = d;
            best = plane;
        }
    }
    return vec4<f32>(best.xyz, bestDistance);
}

/** The point of triangle abc closest to q and its squared distance. */
fn closestOnTriangle(q: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> vec4<f32> {
    let r = closestWeights(q, a, b, c);
    return vec4<f32>(r.point, r.d2);
}

/**
 * The core's TriangleMeshShape.query: the closest triangle within reach among the grid cells the reach overlaps;
 * inside a closed mesh is negative, an open one is a two-sided sheet.
 */
fn meshDistance(base: u32, q: vec3<f32>, reach: f32) -> vec4<f32> {
    let grid = colliders[base + 1u];
    let cells = colliders[base + 2u];
    let lists = colliders[base + 3u];
    let dims = vec3<i32>(bitcast<vec3<u32>>(cells.xyz));
    let triangles = bitcast<u32>(cells.w);
    let cellStart = bitcast<u32>(lists.x);
    let cellTriangles = bitcast<u32>(lists.y);
    let top = dims - vec3<i32>(1);
    let lo = clamp(vec3<i32>(floor((q - reach - grid.xyz) / grid.w)), vec3<i32>(0), top);
    let hi = clamp(vec3<i32>(floor((q + reach - grid.xyz) / grid.w)), vec3<i32>(0), top);
    var best2 = reach * reach;
    var best = 0u;
    var found = false;
    var closest = vec3<f32>(0.0);
    for (var z = lo.z; z <= hi.z; z++) {
        for (var y = lo.y; y <= hi.y; y++) {
            for (var x = lo.x; x <= hi.x; x++) {
                let cell = u32(x + dims.x * (y + dims.y * z));
                let end = colliderWord(cellStart + cell + 1u);
                // A triangle in several cells is tested again: the same answer, and only a strictly closer one wins.
                for (var k = colliderWord(cellStart + cell); k < end; k++) {
                    let t = colliderWord(cellTriangles + k);
                    let corners = triangles + 4u * t;
                    let r = closestOnTriangle(q, colliders[corners].xyz, colliders[corners + 1u].xyz, colliders[corners + 2u].xyz);
                    if (r.w < best2) {
                        best2 = r.w;
                        best = t;
                        found = true;
                        closest = r.xyz;
                    }
                }
            }
        }
    }
    if (!found) {
        return vec4<f32>(0.0, 1.0, 0.0, NO_SURFACE);
    }
    let n = colliders[triangles + 4u * best + 3u].xyz;
    let closed = bitcast<u32>(colliders[base].y) == 0u;
    let d = q - closest;
    let distance = sqrt(best2);
    let behind = dot(d, n) < 0.0;
    // The closest point carries a few ulps of rounding: nearer than 64 ulps of the point's largest coordinate (the
    // core's f64 takes 1e-9 m), d's direction is mostly that rounding (a particle that arrived on a face was pushed
    // sideways by millimetres), and the particle counts as on the surface.
    let extent = max(max(abs(q.x), abs(q.y)), max(abs(q.z), 1.0));
    if (distance > extent * ${2 ** -18}) {
        let s = select(1.0, -1.0, closed && behind);
        return vec4<f32>((s * d) / distance, s * distance);
    }
    // On the surface: the triangle's normal, towards the particle's side of a sheet, and the distance along it.
    let s = select(1.0, -1.0, !closed && behind);
    return vec4<f32>(s * n, s * dot(d, n));
}

/** Normal (collider frame) and signed distance of the local point q to shape slot s (a mesh's within reach). */
fn shapeQuery(s: u32, q: vec3<f32>, reach: f32) -> vec4<f32> {
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
    if (kind == CONVEX_HULL) {
        return hullDistance(base, q);
    }
    if (kind == CYLINDER) {
        return cylinderDistance(base, q);
    }
    return meshDistance(base, q, reach);
}
`;
