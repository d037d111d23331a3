/**
 * Independent checks of where soft bodies' surfaces are, for the soft contact tests: closest approach of particles
 * that share no triangle, and an exact count of triangle edges piercing triangles.
 */
import type { SoftBody } from "../../src/core/softBody";

/** Particle pairs that share a triangle (as `i * n + j`, i < j), from 3 indices per triangle. */
function trianglePairs(triangles: ArrayLike<number>, n: number): Set<number> {
    const pairs = new Set<number>();
    for (let t = 0; t < triangles.length; t += 3) {
        for (let k = 0; k < 3; k++) {
            const a = triangles[t + k];
            const b = triangles[t + ((k + 1) % 3)];
            pairs.add(Math.min(a, b) * n + Math.max(a, b));
        }
    }
    return pairs;
}

/**
 * Smallest distance between two of `n` particles (xyz in `positions`) that share no triangle; with `others`, between
 * a particle of the first body and one of the second instead (every pair counts).
 */
export function closestApproach(
    positions: Float64Array,
    triangles: ArrayLike<number>,
    n: number,
    others?: { positions: Float64Array; n: number },
): number {
    const adjacent = others ? new Set<number>() : trianglePairs(triangles, n);
    const q = others?.positions ?? positions;
    const m = others?.n ?? n;
    let best = Infinity;
    for (let i = 0; i < n; i++) {
        for (let j = others ? 0 : i + 1; j < m; j++) {
            if (!others && adjacent.has(i * n + j)) {
                continue;
            }
            const d = Math.hypot(positions[3 * i] - q[3 * j], positions[3 * i + 1] - q[3 * j + 1], positions[3 * i + 2] - q[3 * j + 2]);
            best = Math.min(best, d);
        }
    }
    return best;
}

/** Whether segment p→q crosses triangle (a, b, c) strictly inside both (Möller–Trumbore on the segment). */
function segmentCrossesTriangle(x: Float64Array, p: number, q: number, y: Float64Array, a: number, b: number, c: number): boolean {
    const dx = x[3 * q] - x[3 * p];
    const dy = x[3 * q + 1] - x[3 * p + 1];
    const dz = x[3 * q + 2] - x[3 * p + 2];
    const e1x = y[3 * b] - y[3 * a];
    const e1y = y[3 * b + 1] - y[3 * a + 1];
    const e1z = y[3 * b + 2] - y[3 * a + 2];
    const e2x = y[3 * c] - y[3 * a];
    const e2y = y[3 * c + 1] - y[3 * a + 1];
    const e2z = y[3 * c + 2] - y[3 * a + 2];
    const px = dy * e2z - dz * e2y;
    const py = dz * e2x - dx * e2z;
    const pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (Math.abs(det) < 1e-18) {
        return false;
    }
    const inv = 1 / det;
    const sx = x[3 * p] - y[3 * a];
    const sy = x[3 * p + 1] - y[3 * a + 1];
    const sz = x[3 * p + 2] - y[3 * a + 2];
    const u = (sx * px + sy * py + sz * pz) * inv;
    if (u <= 0 || u >= 1) {
        return false;
    }
    const qx = sy * e1z - sz * e1y;
    const qy = sz * e1x - sx * e1z;
    const qz = sx * e1y - sy * e1x;
    const v = (dx * qx + dy * qy + dz * qz) * inv;
    if (v <= 0 || u + v >= 1) {
        return false;
    }
    const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
    return t > 0 && t < 1;
}

/**
 * Number of edges of the first surface's triangles that pierce a triangle of the second (the same surface when
 * `second` is not given: then an edge and a triangle sharing a particle are not tested).
 */
export function crossingEdges(
    positions: Float64Array,
    triangles: ArrayLike<number>,
    second?: { positions: Float64Array; triangles: ArrayLike<number> },
): number {
    const y = second?.positions ?? positions;
    const tris = second?.triangles ?? triangles;
    const edges = new Map<string, [number, number]>();
    for (let t = 0; t < triangles.length; t += 3) {
        for (let k = 0; k < 3; k++) {
            const a = triangles[t + k];
            const b = triangles[t + ((k + 1) % 3)];
            edges.set(`${Math.min(a, b)},${Math.max(a, b)}`, [a, b]);
        }
    }
    // Triangle bounds, to skip the far pairs.
    const bounds: number[][] = [];
    for (let t = 0; t < tris.length; t += 3) {
        const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        for (let k = 0; k < 3; k++) {
            for (let d = 0; d < 3; d++) {
                box[d] = Math.min(box[d], y[3 * tris[t + k] + d]);
                box[d + 3] = Math.max(box[d + 3], y[3 * tris[t + k] + d]);
            }
        }
        bounds.push(box);
    }
    let crossings = 0;
    for (const [p, q] of edges.values()) {
        for (let t = 0; t < tris.length; t += 3) {
            const a = tris[t];
            const b = tris[t + 1];
            const c = tris[t + 2];
            if (!second && (p === a || p === b || p === c || q === a || q === b || q === c)) {
                continue;
            }
            const box = bounds[t / 3];
            let apart = false;
            for (let d = 0; d < 3 && !apart; d++) {
                apart =
                    Math.max(positions[3 * p + d], positions[3 * q + d]) < box[d] ||
                    Math.min(positions[3 * p + d], positions[3 * q + d]) > box[d + 3];
            }
            if (!apart && segmentCrossesTriangle(positions, p, q, y, a, b, c)) {
                crossings++;
            }
        }
    }
    return crossings;
}

/**
 * Least height of the body's particles above the cloth surface beneath them (the cloth's triangles interpolated at
 * each particle's x, z); negative when one is below it.
 */
export function heightAboveCloth(body: SoftBody, cloth: SoftBody): number {
    const x = cloth.positions;
    const tri = cloth.triangles;
    let least = Infinity;
    for (let i = 0; i < body.particleCount; i++) {
        const px = body.positions[3 * i];
        const py = body.positions[3 * i + 1];
        const pz = body.positions[3 * i + 2];
        for (let t = 0; t < tri.length; t += 3) {
            const [a, b, c] = [3 * tri[t], 3 * tri[t + 1], 3 * tri[t + 2]];
            const d = (x[b + 2] - x[c + 2]) * (x[a] - x[c]) + (x[c] - x[b]) * (x[a + 2] - x[c + 2]);
            const u = ((x[b + 2] - x[c + 2]) * (px - x[c]) + (x[c] - x[b]) * (pz - x[c + 2])) / d;
            const v = ((x[c + 2] - x[a + 2]) * (px - x[c]) + (x[a] - x[c]) * (pz - x[c + 2])) / d;
            if (u >= 0 && v >= 0 && u + v <= 1) {
                least = Math.min(least, py - (u * x[a + 1] + v * x[b + 1] + (1 - u - v) * x[c + 1]));
            }
        }
    }
    return least;
}
