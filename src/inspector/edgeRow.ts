/**
 * Finds an "edge row" of a cloth: the straight run of boundary particles (a border of the sheet between two
 * corners) that passes through the boundary particle nearest to a point. Used to pin or unpin a whole border with
 * one click.
 */

/** Boundary edges are followed while they turn by less than this from the row's direction (rest pose). */
const STRAIGHT_COSINE = Math.cos((25 * Math.PI) / 180);

/**
 * Boundary adjacency of a triangle mesh in particle space: for each particle, the particles it shares a boundary
 * edge with (an edge used by exactly one triangle). Closed surfaces have none.
 * @param indices - render triangles (render vertex indices)
 * @param vertexToParticle - render vertex → particle
 */
export function boundaryNeighbours(indices: ArrayLike<number>, vertexToParticle: Int32Array): Map<number, number[]> {
    const uses = new Map<string, number>();
    const key = (a: number, b: number): string => (a < b ? `${a},${b}` : `${b},${a}`);
    for (let t = 0; t + 2 < indices.length; t += 3) {
        const p = [vertexToParticle[indices[t]], vertexToParticle[indices[t + 1]], vertexToParticle[indices[t + 2]]];
        for (let e = 0; e < 3; e++) {
            const a = p[e];
            const b = p[(e + 1) % 3];
            if (a !== b) {
                const k = key(a, b);
                uses.set(k, (uses.get(k) ?? 0) + 1);
            }
        }
    }
    const neighbours = new Map<number, number[]>();
    for (const [k, count] of uses) {
        if (count !== 1) continue;
        const [a, b] = k.split(",").map(Number);
        (neighbours.get(a) ?? neighbours.set(a, []).get(a)!).push(b);
        (neighbours.get(b) ?? neighbours.set(b, []).get(b)!).push(a);
    }
    return neighbours;
}

/**
 * The straight boundary row through the boundary particle nearest to `point`.
 * @param neighbours - from {@link boundaryNeighbours}
 * @param positions - current particle positions (to find the nearest boundary particle)
 * @param rest - rest positions (to judge straightness)
 * @param point - world point, e.g. where the user clicked
 * @returns the row's particles (empty when the mesh has no boundary)
 */
export function edgeRowAt(
    neighbours: Map<number, number[]>,
    positions: ArrayLike<number>,
    rest: ArrayLike<number>,
    point: readonly [number, number, number],
): number[] {
    let start = -1;
    let best = Infinity;
    for (const p of neighbours.keys()) {
        const d = (positions[3 * p] - point[0]) ** 2 + (positions[3 * p + 1] - point[1]) ** 2 + (positions[3 * p + 2] - point[2]) ** 2;
        if (d < best) {
            best = d;
            start = p;
        }
    }
    if (start < 0) {
        return [];
    }
    // The row's direction: towards the start's boundary neighbour nearest to the point (at a corner, the border
    // the click was closer to).
    let towards = -1;
    best = Infinity;
    for (const n of neighbours.get(start)!) {
        const d = (positions[3 * n] - point[0]) ** 2 + (positions[3 * n + 1] - point[1]) ** 2 + (positions[3 * n + 2] - point[2]) ** 2;
        if (d < best) {
            best = d;
            towards = n;
        }
    }
    const direction = unit(rest, start, towards);
    const row = new Set<number>([start]);
    walk(neighbours, rest, start, direction, row);
    walk(neighbours, rest, start, [-direction[0], -direction[1], -direction[2]], row);
    return [...row];
}

function walk(neighbours: Map<number, number[]>, rest: ArrayLike<number>, from: number, direction: number[], row: Set<number>): void {
    let current = from;
    for (;;) {
        let next = -1;
        let bestDot = STRAIGHT_COSINE;
        for (const n of neighbours.get(current) ?? []) {
            if (row.has(n)) continue;
            const d = unit(rest, current, n);
            const dot = d[0] * direction[0] + d[1] * direction[1] + d[2] * direction[2];
            if (dot > bestDot) {
                bestDot = dot;
                next = n;
            }
        }
        if (next < 0) {
            return;
        }
        row.add(next);
        current = next;
    }
}

function unit(x: ArrayLike<number>, a: number, b: number): number[] {
    const d = [x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]];
    const length = Math.hypot(d[0], d[1], d[2]) || 1;
    return [d[0] / length, d[1] / length, d[2] / length];
}
