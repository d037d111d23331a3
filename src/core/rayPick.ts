import type { SoftBody } from "./softBody.js";

/** Below this |determinant| a ray runs along a triangle's plane and does not hit it. */
const PARALLEL = 1e-12;

/**
 * Where a ray first meets a body's triangles (both faces count: a cloth is picked from behind as well), for picking
 * with the pointer. `direction` need not be unit length; distances are in metres along it. Writes the distance and
 * the triangle's index to `out` and returns true, or returns false when no triangle lies within `maxDistance`.
 * Reads the positions of the last step; allocation-free, but it visits every triangle: call it on pointer events,
 * not every frame for many rays.
 */
export function rayHitsBody(
    body: SoftBody,
    origin: ArrayLike<number>,
    direction: ArrayLike<number>,
    maxDistance: number,
    out: Float64Array,
): boolean {
    const length = Math.hypot(direction[0], direction[1], direction[2]);
    if (!(length > 0)) {
        return false;
    }
    const [dx, dy, dz] = [direction[0] / length, direction[1] / length, direction[2] / length];
    const [ox, oy, oz] = [origin[0], origin[1], origin[2]];
    const x = body.positions;
    const triangles = body.triangles;
    let best = maxDistance;
    let hit = -1;
    // Möller–Trumbore: solve origin + t·d = a + u·(b − a) + v·(c − a) by Cramer's rule.
    for (let t = 0; t < triangles.length; t += 3) {
        const a = 3 * triangles[t];
        const b = 3 * triangles[t + 1];
        const c = 3 * triangles[t + 2];
        const e1x = x[b] - x[a];
        const e1y = x[b + 1] - x[a + 1];
        const e1z = x[b + 2] - x[a + 2];
        const e2x = x[c] - x[a];
        const e2y = x[c + 1] - x[a + 1];
        const e2z = x[c + 2] - x[a + 2];
        const px = dy * e2z - dz * e2y;
        const py = dz * e2x - dx * e2z;
        const pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        if (Math.abs(det) < PARALLEL) {
            continue;
        }
        const inv = 1 / det;
        const sx = ox - x[a];
        const sy = oy - x[a + 1];
        const sz = oz - x[a + 2];
        const u = (sx * px + sy * py + sz * pz) * inv;
        if (u < 0 || u > 1) {
            continue;
        }
        const qx = sy * e1z - sz * e1y;
        const qy = sz * e1x - sx * e1z;
        const qz = sx * e1y - sy * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < 0 || u + v > 1) {
            continue;
        }
        const distance = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (distance >= 0 && distance < best) {
            best = distance;
            hit = t / 3;
        }
    }
    if (hit < 0) {
        return false;
    }
    out[0] = best;
    out[1] = hit;
    return true;
}
