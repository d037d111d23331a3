/**
 * Closest point on a triangle to a query point (by the Voronoi region of the query: vertex, edge or face).
 */

/**
 * Writes into `out[0..2]` the point of the triangle with corners at `positions[a..a+2]`, `[b..]` and `[c..]` closest
 * to `query[0..2]`, its squared distance into `out[3]` and its barycentric weights of a, b and c into `out[4..6]`
 * (one of them 0 when the point lies on an edge, two when on a corner). Coordinates travel in arrays and only integer offsets
 * as arguments: a number argument or result would be boxed on every call the JIT does not inline, and the solver
 * calls this per particle per substep. The triangle must not be degenerate (zero area).
 * @param positions - xyz per vertex.
 * @param a - Offset of corner a's x in `positions` (3 × vertex index); likewise `b` and `c`.
 * @param query - The query point.
 * @param out - Receives the closest point, the squared distance and the weights (7 entries).
 */
export function closestPointOnTriangle(
    positions: Float64Array,
    a: number,
    b: number,
    c: number,
    query: Float64Array,
    out: Float64Array,
): void {
    const qx = query[0],
        qy = query[1],
        qz = query[2];
    const ax = positions[a],
        ay = positions[a + 1],
        az = positions[a + 2];
    const bx = positions[b],
        by = positions[b + 1],
        bz = positions[b + 2];
    const cx = positions[c],
        cy = positions[c + 1],
        cz = positions[c + 2];
    const abx = bx - ax,
        aby = by - ay,
        abz = bz - az;
    const acx = cx - ax,
        acy = cy - ay,
        acz = cz - az;
    const apx = qx - ax,
        apy = qy - ay,
        apz = qz - az;
    const d1 = abx * apx + aby * apy + abz * apz;
    const d2 = acx * apx + acy * apy + acz * apz;
    let px: number, py: number, pz: number;
    let ua = 0,
        ub = 0,
        uc = 0;
    if (d1 <= 0 && d2 <= 0) {
        px = ax;
        py = ay;
        pz = az;
        ua = 1;
    } else {
        const bpx = qx - bx,
            bpy = qy - by,
            bpz = qz - bz;
        const d3 = abx * bpx + aby * bpy + abz * bpz;
        const d4 = acx * bpx + acy * bpy + acz * bpz;
        const cpx = qx - cx,
            cpy = qy - cy,
            cpz = qz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        // vc, vb, va: barycentric numerators; a non-positive one puts q beyond the opposite edge.
        const vc = d1 * d4 - d3 * d2;
        const vb = d5 * d2 - d1 * d6;
        const va = d3 * d6 - d5 * d4;
        if (d3 >= 0 && d4 <= d3) {
            px = bx;
            py = by;
            pz = bz;
            ub = 1;
        } else if (d6 >= 0 && d5 <= d6) {
            px = cx;
            py = cy;
            pz = cz;
            uc = 1;
        } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            const t = d1 / (d1 - d3);
            px = ax + t * abx;
            py = ay + t * aby;
            pz = az + t * abz;
            ua = 1 - t;
            ub = t;
        } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            const t = d2 / (d2 - d6);
            px = ax + t * acx;
            py = ay + t * acy;
            pz = az + t * acz;
            ua = 1 - t;
            uc = t;
        } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
            const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
            px = bx + t * (cx - bx);
            py = by + t * (cy - by);
            pz = bz + t * (cz - bz);
            ub = 1 - t;
            uc = t;
        } else {
            const inv = 1 / (va + vb + vc);
            ub = vb * inv;
            uc = vc * inv;
            ua = 1 - ub - uc;
            px = ax + abx * ub + acx * uc;
            py = ay + aby * ub + acy * uc;
            pz = az + abz * ub + acz * uc;
        }
    }
    out[0] = px;
    out[1] = py;
    out[2] = pz;
    const dx = qx - px,
        dy = qy - py,
        dz = qz - pz;
    out[3] = dx * dx + dy * dy + dz * dz;
    out[4] = ua;
    out[5] = ub;
    out[6] = uc;
}
