/**
 * Finding the tetrahedron a point lies in, or is least outside of: barycentric weights in a tet, and a uniform grid
 * over the tets that {@link bindToTets} searches.
 */
import { closestPointOnTriangle } from "../core/closestPointOnTriangle.js";

/** Barycentric weights of q in tet t; all zero except the first when the tet is flat (never for valid tets). */
export function barycentric(p: Float64Array, tets: Int32Array, t: number, qx: number, qy: number, qz: number, out: Float64Array): void {
    const a = 3 * tets[4 * t],
        b = 3 * tets[4 * t + 1],
        c = 3 * tets[4 * t + 2],
        d = 3 * tets[4 * t + 3];
    const ux = p[b] - p[a],
        uy = p[b + 1] - p[a + 1],
        uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a],
        vy = p[c + 1] - p[a + 1],
        vz = p[c + 2] - p[a + 2];
    const wx = p[d] - p[a],
        wy = p[d + 1] - p[a + 1],
        wz = p[d + 2] - p[a + 2];
    const rx = qx - p[a],
        ry = qy - p[a + 1],
        rz = qz - p[a + 2];
    const det = triple(ux, uy, uz, vx, vy, vz, wx, wy, wz);
    if (det === 0) {
        out[0] = 1;
        out[1] = out[2] = out[3] = 0;
        return;
    }
    out[1] = triple(rx, ry, rz, vx, vy, vz, wx, wy, wz) / det;
    out[2] = triple(ux, uy, uz, rx, ry, rz, wx, wy, wz) / det;
    out[3] = triple(ux, uy, uz, vx, vy, vz, rx, ry, rz) / det;
    out[0] = 1 - out[1] - out[2] - out[3];
}

function triple(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number {
    return (ay * bz - az * by) * cx + (az * bx - ax * bz) * cy + (ax * by - ay * bx) * cz;
}

/** Uniform grid of cubic cells over the tets; each tet is listed in every cell its bounding box overlaps. */
export class TetGrid {
    /** Tet chosen by the last {@link TetGrid.nearestTet} call. */
    found = -1;
    private readonly min: Float64Array;
    private readonly n: Int32Array;
    private readonly inverseCell: number;
    private readonly cellSize: number;
    private readonly start: Int32Array;
    private readonly entries: Int32Array;
    private readonly stamp: Int32Array;
    private readonly visitedTets: Int32Array;
    private readonly visitedDistances: Float64Array;
    private stampValue = 0;
    private readonly weights = new Float64Array(4);
    private readonly point = new Float64Array(7);
    private readonly query = new Float64Array(3);

    constructor(
        private readonly p: Float64Array,
        private readonly tets: Int32Array,
    ) {
        const tetCount = tets.length >> 2;
        const min = new Float64Array([Infinity, Infinity, Infinity]);
        const max = new Float64Array([-Infinity, -Infinity, -Infinity]);
        for (let i = 0; i < tets.length; i++) {
            for (let k = 0; k < 3; k++) {
                min[k] = Math.min(min[k], p[3 * tets[i] + k]);
                max[k] = Math.max(max[k], p[3 * tets[i] + k]);
            }
        }
        const longest = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
        const cellsAlongLongest = Math.max(1, Math.round(Math.cbrt(tetCount / 2)));
        this.cellSize = longest > 0 ? longest / cellsAlongLongest : 1;
        this.inverseCell = 1 / this.cellSize;
        this.min = min;
        this.n = Int32Array.from([0, 1, 2], (k) => Math.max(1, Math.ceil((max[k] - min[k]) * this.inverseCell)));
        const cellCount = this.n[0] * this.n[1] * this.n[2];
        this.start = new Int32Array(cellCount + 1);
        const range = new Int32Array(6);
        for (let t = 0; t < tetCount; t++) {
            this.cellRange(t, range);
            for (let z = range[2]; z <= range[5]; z++) {
                for (let y = range[1]; y <= range[4]; y++) {
                    for (let x = range[0]; x <= range[3]; x++) this.start[x + this.n[0] * (y + this.n[1] * z) + 1]++;
                }
            }
        }
        for (let cell = 0; cell < cellCount; cell++) this.start[cell + 1] += this.start[cell];
        this.entries = new Int32Array(this.start[cellCount]);
        const fill = this.start.slice(0, cellCount);
        for (let t = 0; t < tetCount; t++) {
            this.cellRange(t, range);
            for (let z = range[2]; z <= range[5]; z++) {
                for (let y = range[1]; y <= range[4]; y++) {
                    for (let x = range[0]; x <= range[3]; x++) this.entries[fill[x + this.n[0] * (y + this.n[1] * z)]++] = t;
                }
            }
        }
        this.stamp = new Int32Array(tetCount);
        this.visitedTets = new Int32Array(tetCount);
        this.visitedDistances = new Float64Array(tetCount);
    }

    /** The tet containing q where q lies deepest (largest smallest weight), or −1. */
    containingTet(x: number, y: number, z: number): number {
        const cx = this.cellCoordinate(x, 0),
            cy = this.cellCoordinate(y, 1),
            cz = this.cellCoordinate(z, 2);
        if (cx < 0 || cy < 0 || cz < 0 || cx >= this.n[0] || cy >= this.n[1] || cz >= this.n[2]) return -1;
        const cell = cx + this.n[0] * (cy + this.n[1] * cz);
        let best = -1,
            bestDepth = -1e-9;
        for (let s = this.start[cell]; s < this.start[cell + 1]; s++) {
            const t = this.entries[s];
            barycentric(this.p, this.tets, t, x, y, z, this.weights);
            const depth = Math.min(this.weights[0], this.weights[1], this.weights[2], this.weights[3]);
            if (depth >= bestDepth) {
                if (depth > bestDepth || best < 0) best = t;
                bestDepth = depth;
            }
        }
        return best;
    }

    /**
     * Sets {@link TetGrid.found} to the tet q is least outside of, and returns q's squared distance to it. Among the
     * tets within half a cell of the nearest distance, the one with the largest smallest weight wins: near the
     * surface the strictly nearest tet is often a thin snapped one whose extrapolated weights would be large.
     */
    nearestTet(x: number, y: number, z: number): number {
        const cx = this.cellCoordinate(x, 0),
            cy = this.cellCoordinate(y, 1),
            cz = this.cellCoordinate(z, 2);
        const n = this.n;
        const maxRing = Math.max(
            cx,
            n[0] - 1 - cx,
            cy,
            n[1] - 1 - cy,
            cz,
            n[2] - 1 - cz,
            -cx,
            cx - n[0] + 1,
            -cy,
            cy - n[1] + 1,
            -cz,
            cz - n[2] + 1,
        );
        const margin = 0.5 * this.cellSize;
        this.stampValue++;
        let nearest = Infinity;
        let visited = 0;
        for (let r = 0; r <= maxRing; r++) {
            for (let iz = Math.max(cz - r, 0); iz <= Math.min(cz + r, n[2] - 1); iz++) {
                for (let iy = Math.max(cy - r, 0); iy <= Math.min(cy + r, n[1] - 1); iy++) {
                    const onShell = iz === cz - r || iz === cz + r || iy === cy - r || iy === cy + r;
                    for (let ix = Math.max(cx - r, 0); ix <= Math.min(cx + r, n[0] - 1); ix++) {
                        if (!onShell && ix !== cx - r && ix !== cx + r) continue;
                        const cell = ix + n[0] * (iy + n[1] * iz);
                        for (let s = this.start[cell]; s < this.start[cell + 1]; s++) {
                            const t = this.entries[s];
                            if (this.stamp[t] === this.stampValue) continue;
                            this.stamp[t] = this.stampValue;
                            const d = Math.sqrt(this.distanceSquaredToTet(t, x, y, z));
                            this.visitedTets[visited] = t;
                            this.visitedDistances[visited++] = d;
                            if (d < nearest) nearest = d;
                        }
                    }
                }
            }
            // Tets not met yet lie outside the (2r + 1)³ block of cells around q, hence at least r cells away.
            if (nearest + margin <= r * this.cellSize) break;
        }
        let bestDepth = -Infinity,
            bestDistance = Infinity;
        this.found = -1;
        for (let i = 0; i < visited; i++) {
            if (this.visitedDistances[i] > nearest + margin) continue;
            const t = this.visitedTets[i];
            barycentric(this.p, this.tets, t, x, y, z, this.weights);
            const depth = Math.min(this.weights[0], this.weights[1], this.weights[2], this.weights[3]);
            if (depth > bestDepth) {
                bestDepth = depth;
                bestDistance = this.visitedDistances[i];
                this.found = t;
            }
        }
        return bestDistance * bestDistance;
    }

    private distanceSquaredToTet(t: number, x: number, y: number, z: number): number {
        const p = this.p,
            tets = this.tets,
            point = this.point,
            query = this.query;
        query[0] = x;
        query[1] = y;
        query[2] = z;
        let best = Infinity;
        for (let f = 0; f < 4; f++) {
            // Faces: every corner triple (the skipped corner is f).
            const a = 3 * tets[4 * t + (f === 0 ? 1 : 0)];
            const b = 3 * tets[4 * t + (f <= 1 ? 2 : 1)];
            const c = 3 * tets[4 * t + (f <= 2 ? 3 : 2)];
            closestPointOnTriangle(p, a, b, c, query, point);
            if (point[3] < best) best = point[3];
        }
        return best;
    }

    private cellCoordinate(value: number, axis: number): number {
        return Math.floor((value - this.min[axis]) * this.inverseCell);
    }

    private cellRange(t: number, out: Int32Array): void {
        for (let k = 0; k < 3; k++) {
            let lo = Infinity,
                hi = -Infinity;
            for (let c = 0; c < 4; c++) {
                const value = this.p[3 * this.tets[4 * t + c] + k];
                lo = Math.min(lo, value);
                hi = Math.max(hi, value);
            }
            out[k] = clamp(this.cellCoordinate(lo, k), 0, this.n[k] - 1);
            out[3 + k] = clamp(this.cellCoordinate(hi, k), 0, this.n[k] - 1);
        }
    }
}

function clamp(value: number, lo: number, hi: number): number {
    return value < lo ? lo : value > hi ? hi : value;
}
