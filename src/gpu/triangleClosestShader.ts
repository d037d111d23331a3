/**
 * The core's `closestPointOnTriangle` in WGSL: the point of a triangle closest to a query, by the query's Voronoi
 * region (corner, edge or face), with its squared distance and its barycentric weights (exactly 0 for a corner off
 * the region: one weight 0 on an edge, two on a corner). Included by the collider shapes (mesh triangles) and by the
 * self-collision pass.
 */
export const TRIANGLE_CLOSEST_WGSL = /* wgsl */ `
struct TriangleClosest {
    point: vec3<f32>,
    d2: f32,                // squared distance from the query
    weights: vec3<f32>,     // barycentric weights of a, b, c
}

/** The point of triangle abc closest to q (the core's closestPointOnTriangle). */
fn closestWeights(q: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> TriangleClosest {
    let ab = b - a;
    let ac = c - a;
    let ap = q - a;
    let d1 = dot(ab, ap);
    let d2 = dot(ac, ap);
    var p = a;
    var u = vec3<f32>(1.0, 0.0, 0.0);
    if (d1 > 0.0 || d2 > 0.0) {
        let bp = q - b;
        let d3 = dot(ab, bp);
        let d4 = dot(ac, bp);
        let cp = q - c;
        let d5 = dot(ab, cp);
        let d6 = dot(ac, cp);
        let vc = d1 * d4 - d3 * d2;
        let vb = d5 * d2 - d1 * d6;
        let va = d3 * d6 - d5 * d4;
        if (d3 >= 0.0 && d4 <= d3) {
            p = b;
            u = vec3<f32>(0.0, 1.0, 0.0);
        } else if (d6 >= 0.0 && d5 <= d6) {
            p = c;
            u = vec3<f32>(0.0, 0.0, 1.0);
        } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
            let v = d1 / (d1 - d3);
            p = a + v * ab;
            u = vec3<f32>(1.0 - v, v, 0.0);
        } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
            let v = d2 / (d2 - d6);
            p = a + v * ac;
            u = vec3<f32>(1.0 - v, 0.0, v);
        } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
            let v = (d4 - d3) / (d4 - d3 + (d5 - d6));
            p = b + v * (c - b);
            u = vec3<f32>(0.0, 1.0 - v, v);
        } else {
            let inv = 1.0 / (va + vb + vc);
            p = a + ab * (vb * inv) + ac * (vc * inv);
            u = vec3<f32>(1.0 - vb * inv - vc * inv, vb * inv, vc * inv);
        }
    }
    let d = q - p;
    return TriangleClosest(p, dot(d, d), u);
}
`;
