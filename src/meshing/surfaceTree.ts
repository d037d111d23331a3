/**
 * A bounding-volume hierarchy over the triangles of a surface, with per-node moments, answering generalised
 * winding number and closest-point queries in about logarithmic time.
 */
import { closestPointOnTriangle } from "../core/closestPointOnTriangle.js";

/** Triangles per leaf. */
const LEAF_SIZE = 8;

/** A node may use its dipole approximation once the query is this many node radii from its centre. */
const FAR_FIELD_RADII = 2;

/** Numbers stored per node: min xyz, max xyz, vector area xyz, centre xyz, radius². */
const NODE_STRIDE = 13;

/**
 * Triangles of a surface in a median-split hierarchy. Every node stores the bounding box of its triangles, their
 * vector area `Σ ½ (b − a) × (c − a)` and area-weighted centre, and the radius about that centre, so that distant
 * groups are summed as one dipole (the approach of Barill et al. 2018, "Fast Winding Numbers"). Zero-area
 * triangles are ignored (they contribute nothing to either query).
 */
export class SurfaceTree {
    private readonly positions: Float64Array;
    private readonly triangles: Int32Array;
    /** Triangle order: each leaf covers a contiguous range. */
    private readonly order: Int32Array;
    private readonly data: Float64Array;
    /** Per node: left child (inner) or −1 − first triangle slot (leaf). */
    private readonly first: Int32Array;
    /** Per node: right child (inner) or triangle count (leaf). */
    private readonly second: Int32Array;
    private nodeCount = 0;
    private readonly stack: Int32Array;
    private readonly scratch = new Float64Array(7);
    private readonly query = new Float64Array(3);

    /**
     * @param positions - Vertex positions, xyz interleaved (finite).
     * @param triangles - Triangle indices, 3 per triangle, in range.
     */
    constructor(positions: ArrayLike<number>, triangles: ArrayLike<number>) {
        this.positions = Float64Array.from(positions);
        const p = this.positions;
        const kept: number[] = [];
        for (let t = 0; t + 2 < triangles.length; t += 3) {
            const a = triangles[t],
                b = triangles[t + 1],
                c = triangles[t + 2];
            const n = cross(p, a, b, c);
            if (n[0] !== 0 || n[1] !== 0 || n[2] !== 0) kept.push(a, b, c);
        }
        this.triangles = Int32Array.from(kept);
        const count = kept.length / 3;
        this.order = new Int32Array(count);
        const centroids = new Float64Array(count * 3);
        for (let t = 0; t < count; t++) {
            this.order[t] = t;
            for (let axis = 0; axis < 3; axis++) {
                centroids[3 * t + axis] = (p[3 * kept[3 * t] + axis] + p[3 * kept[3 * t + 1] + axis] + p[3 * kept[3 * t + 2] + axis]) / 3;
            }
        }
        // Every leaf holds at least one triangle, so a binary tree has fewer than 2 · count nodes.
        const capacity = 2 * count + 1;
        this.data = new Float64Array(capacity * NODE_STRIDE);
        this.first = new Int32Array(capacity);
        this.second = new Int32Array(capacity);
        this.stack = new Int32Array(capacity);
        if (count > 0) this.build(0, count, centroids);
    }

    /**
     * Generalised winding number of the surface at q: Σ solid angles / 4π. About ±1 inside a closed surface (+1 when
     * `(b − a) × (c − a)` points outwards), 0 outside, and in between near the holes of an open one.
     */
    windingNumber(qx: number, qy: number, qz: number): number {
        if (this.nodeCount === 0) return 0;
        const p = this.positions,
            tri = this.triangles,
            data = this.data,
            stack = this.stack;
        let total = 0;
        let top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const node = stack[--top];
            const o = NODE_STRIDE * node;
            const rx = data[o + 9] - qx,
                ry = data[o + 10] - qy,
                rz = data[o + 11] - qz;
            const r2 = rx * rx + ry * ry + rz * rz;
            if (r2 > FAR_FIELD_RADII * FAR_FIELD_RADII * data[o + 12]) {
                total += (data[o + 6] * rx + data[o + 7] * ry + data[o + 8] * rz) / (r2 * Math.sqrt(r2));
            } else if (this.first[node] < 0) {
                const start = -1 - this.first[node],
                    end = start + this.second[node];
                for (let s = start; s < end; s++) {
                    const t = 3 * this.order[s];
                    const a = 3 * tri[t],
                        b = 3 * tri[t + 1],
                        c = 3 * tri[t + 2];
                    total += solidAngle(
                        p[a] - qx,
                        p[a + 1] - qy,
                        p[a + 2] - qz,
                        p[b] - qx,
                        p[b + 1] - qy,
                        p[b + 2] - qz,
                        p[c] - qx,
                        p[c + 1] - qy,
                        p[c + 2] - qz,
                    );
                }
            } else {
                stack[top++] = this.first[node];
                stack[top++] = this.second[node];
            }
        }
        return total / (4 * Math.PI);
    }

    /**
     * Closest point of the surface to q, written to `out[0..2]`; returns the squared distance (Infinity when the
     * surface has no triangle of non-zero area).
     * @param out - Receives the closest point.
     */
    closestPoint(qx: number, qy: number, qz: number, out: Float64Array): number {
        if (this.nodeCount === 0) return Infinity;
        const p = this.positions,
            tri = this.triangles,
            data = this.data,
            stack = this.stack,
            s = this.scratch;
        const query = this.query;
        query[0] = qx;
        query[1] = qy;
        query[2] = qz;
        let best = Infinity;
        let top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const node = stack[--top];
            if (boxDistanceSquared(data, NODE_STRIDE * node, qx, qy, qz) >= best) continue;
            if (this.first[node] < 0) {
                const start = -1 - this.first[node],
                    end = start + this.second[node];
                for (let i = start; i < end; i++) {
                    const t = 3 * this.order[i];
                    const a = 3 * tri[t],
                        b = 3 * tri[t + 1],
                        c = 3 * tri[t + 2];
                    closestPointOnTriangle(p, a, b, c, query, s);
                    const d = s[3];
                    if (d < best) {
                        best = d;
                        out[0] = s[0];
                        out[1] = s[1];
                        out[2] = s[2];
                    }
                }
            } else {
                // Visit the nearer child first (pushed last) so the bound tightens early.
                const left = this.first[node],
                    right = this.second[node];
                const dl = boxDistanceSquared(data, NODE_STRIDE * left, qx, qy, qz);
                const dr = boxDistanceSquared(data, NODE_STRIDE * right, qx, qy, qz);
                if (dl < dr) {
                    stack[top++] = right;
                    stack[top++] = left;
                } else {
                    stack[top++] = left;
                    stack[top++] = right;
                }
            }
        }
        return best;
    }

    /** Builds the node for triangle slots [start, end) and returns its index. */
    private build(start: number, end: number, centroids: Float64Array): number {
        const node = this.nodeCount++;
        const p = this.positions,
            tri = this.triangles,
            data = this.data,
            o = NODE_STRIDE * node;
        data[o] = data[o + 1] = data[o + 2] = Infinity;
        data[o + 3] = data[o + 4] = data[o + 5] = -Infinity;
        let area = 0,
            cx = 0,
            cy = 0,
            cz = 0;
        const cmin = [Infinity, Infinity, Infinity],
            cmax = [-Infinity, -Infinity, -Infinity];
        for (let s = start; s < end; s++) {
            const t = this.order[s];
            const a = tri[3 * t],
                b = tri[3 * t + 1],
                c = tri[3 * t + 2];
            const n = cross(p, a, b, c);
            data[o + 6] += n[0] / 2;
            data[o + 7] += n[1] / 2;
            data[o + 8] += n[2] / 2;
            const w = Math.hypot(n[0], n[1], n[2]) / 2;
            area += w;
            cx += w * centroids[3 * t];
            cy += w * centroids[3 * t + 1];
            cz += w * centroids[3 * t + 2];
            for (let axis = 0; axis < 3; axis++) {
                for (const v of [a, b, c]) {
                    const x = p[3 * v + axis];
                    if (x < data[o + axis]) data[o + axis] = x;
                    if (x > data[o + 3 + axis]) data[o + 3 + axis] = x;
                }
                cmin[axis] = Math.min(cmin[axis], centroids[3 * t + axis]);
                cmax[axis] = Math.max(cmax[axis], centroids[3 * t + axis]);
            }
        }
        cx /= area;
        cy /= area;
        cz /= area;
        data[o + 9] = cx;
        data[o + 10] = cy;
        data[o + 11] = cz;
        // The farthest bounding-box corner from the centre bounds every point of the node's triangles.
        const rx = Math.max(cx - data[o], data[o + 3] - cx);
        const ry = Math.max(cy - data[o + 1], data[o + 4] - cy);
        const rz = Math.max(cz - data[o + 2], data[o + 5] - cz);
        data[o + 12] = rx * rx + ry * ry + rz * rz;
        if (end - start <= LEAF_SIZE) {
            this.first[node] = -1 - start;
            this.second[node] = end - start;
            return node;
        }
        // Median split along the widest spread of centroids.
        const spread = [cmax[0] - cmin[0], cmax[1] - cmin[1], cmax[2] - cmin[2]];
        const axis = spread[0] >= spread[1] && spread[0] >= spread[2] ? 0 : spread[1] >= spread[2] ? 1 : 2;
        const slice = this.order.subarray(start, end);
        slice.sort((i, j) => centroids[3 * i + axis] - centroids[3 * j + axis] || i - j);
        const middle = (start + end) >> 1;
        this.first[node] = this.build(start, middle, centroids);
        this.second[node] = this.build(middle, end, centroids);
        return node;
    }
}

function cross(p: Float64Array, a: number, b: number, c: number): [number, number, number] {
    const ux = p[3 * b] - p[3 * a],
        uy = p[3 * b + 1] - p[3 * a + 1],
        uz = p[3 * b + 2] - p[3 * a + 2];
    const vx = p[3 * c] - p[3 * a],
        vy = p[3 * c + 1] - p[3 * a + 1],
        vz = p[3 * c + 2] - p[3 * a + 2];
    return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}

function boxDistanceSquared(data: Float64Array, o: number, x: number, y: number, z: number): number {
    const dx = Math.max(data[o] - x, 0, x - data[o + 3]);
    const dy = Math.max(data[o + 1] - y, 0, y - data[o + 4]);
    const dz = Math.max(data[o + 2] - z, 0, z - data[o + 5]);
    return dx * dx + dy * dy + dz * dz;
}

/** Signed solid angle of triangle (a, b, c) seen from the origin (Van Oosterom–Strackee formula). */
function solidAngle(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number {
    const la = Math.sqrt(ax * ax + ay * ay + az * az);
    const lb = Math.sqrt(bx * bx + by * by + bz * bz);
    const lc = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
    const denominator =
        la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (ax * cx + ay * cy + az * cz) * lb + (bx * cx + by * cy + bz * cz) * la;
    return 2 * Math.atan2(det, denominator);
}
