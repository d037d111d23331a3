/**
 * Closest point on a triangle to a query point (by the Voronoi region of the query: vertex, edge or face).
 */

/**
 * Writes into `out[0..2]` the point of triangle (a, b, c) closest to q and returns its squared distance.
 * Arguments are plain coordinates so callers can read them from any array without allocating.
 * The triangle must not be degenerate (zero area).
 * @param qx - Query x (likewise `qy`, `qz`).
 * @param ax - Corner a x (likewise the other corner coordinates).
 * @param out - Receives the closest point.
 */
export function closestPointOnTriangle(
    qx: number, qy: number, qz: number,
    ax: number, ay: number, az: number,
    bx: number, by: number, bz: number,
    cx: number, cy: number, cz: number,
    out: Float64Array,
): number {
    const abx = bx - ax, aby = by - ay, abz = bz - az;
    const acx = cx - ax, acy = cy - ay, acz = cz - az;
    const apx = qx - ax, apy = qy - ay, apz = qz - az;
    const d1 = abx * apx + aby * apy + abz * apz;
    const d2 = acx * apx + acy * apy + acz * apz;
    let px: number, py: number, pz: number;
    if (d1 <= 0 && d2 <= 0) {
        px = ax; py = ay; pz = az;
    } else {
        const bpx = qx - bx, bpy = qy - by, bpz = qz - bz;
        const d3 = abx * bpx + aby * bpy + abz * bpz;
        const d4 = acx * bpx + acy * bpy + acz * bpz;
        const cpx = qx - cx, cpy = qy - cy, cpz = qz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        // vc, vb, va: barycentric numerators; a non-positive one puts q beyond the opposite edge.
        const vc = d1 * d4 - d3 * d2;
        const vb = d5 * d2 - d1 * d6;
        const va = d3 * d6 - d5 * d4;
        if (d3 >= 0 && d4 <= d3) {
            px = bx; py = by; pz = bz;
        } else if (d6 >= 0 && d5 <= d6) {
            px = cx; py = cy; pz = cz;
        } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            const t = d1 / (d1 - d3);
            px = ax + t * abx; py = ay + t * aby; pz = az + t * abz;
        } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            const t = d2 / (d2 - d6);
            px = ax + t * acx; py = ay + t * acy; pz = az + t * acz;
        } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
            const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
            px = bx + t * (cx - bx); py = by + t * (cy - by); pz = bz + t * (cz - bz);
        } else {
            const inv = 1 / (va + vb + vc);
            const v = vb * inv, w = vc * inv;
            px = ax + abx * v + acx * w; py = ay + aby * v + acy * w; pz = az + abz * v + acz * w;
        }
    }
    out[0] = px;
    out[1] = py;
    out[2] = pz;
    const dx = qx - px, dy = qy - py, dz = qz - pz;
    return dx * dx + dy * dy + dz * dz;
}
