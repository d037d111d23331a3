import type { ClothTearing } from "./clothTearing.js";
import { splitParticle } from "./particleSplit.js";
import type { SoftBody } from "./softBody.js";

/** {@link ClothSplitter.tearEdge}'s answer when a split is due but the body has no particle left. */
export const OUT_OF_PARTICLES = -2;

/**
 * How a tearing cloth's edge tears (see `clothTearing.ts` for when): one of its two particles is split in two, in
 * memory allocated once. The particle split is a free one (pinned particles never split), preferably one already on
 * a border (a crack's tip, so that a crack runs on instead of holes opening beside it), else the lower index.
 *
 * The split runs along the plane through that particle perpendicular to the edge (at rest): its triangles on the
 * edge's side of the plane move to a new particle at the same place, with the same velocity, and the others keep it,
 * so the crack opens across the edge, the way a crack runs across the pull. When that leaves a side empty at both
 * ends (a small piece can twist so that a particle's triangles all lie on one side of its plane), the edge's own
 * triangles come off one end instead. Then every particle around the split that joins two fans of triangles sharing
 * no edge (a crack reaching a border cuts the border particle's fan in two; the plane can cut a fan into more than two
 * arcs) gives each extra fan a particle of its own: two pieces never hang together by a single particle, which no
 * edge's stretch could ever tear.
 *
 * The mass is shared by the rest area of the triangles each part keeps (see `particleSplit.ts`). Each split
 * is recorded in the {@link ClothTearing}.
 */
export class ClothSplitter {
    /** Per particle: the stamp of the last step that split it. */
    private readonly _stamp: Int32Array;
    private _stampValue = 0;
    /** The triangles around the particle last gathered ({@link _gather}), and their count. */
    private readonly _incident: Int32Array;
    private _incidentCount = 0;
    /** Per gathered triangle: its side of the split plane (1: the new particle's), or its fan (union–find parent). */
    private readonly _group: Int32Array;
    /** Per gathered triangle: twice its rest area. */
    private readonly _areas: Float64Array;
    /** Per particle: a gathered triangle it belongs to, or −1 (reset after each use). */
    private readonly _firstWith: Int32Array;
    /** Particles around the particle being split, to check for separated fans. */
    private readonly _ring: Int32Array;
    /**
     * The triangle corners of each particle as linked lists, kept up to date as triangles move to new particles: the
     * first corner slot (`3·triangle + corner`) of each particle, or −1, and the next slot of the same particle.
     */
    private readonly _firstCorner: Int32Array;
    private readonly _nextCorner: Int32Array;
    /**
     * The share of a split particle's mass the new particle takes. Numbers cross calls through arrays: one passed or
     * returned directly is boxed whenever the JIT does not inline the call, and tearing runs too seldom for that.
     */
    private readonly _share = new Float64Array(1);
    /** The torn edge of the split in progress, for its records. */
    private readonly _edge = new Int32Array(2);

    /**
     * @param body - the body (its particle capacity and triangles are read)
     * @param _tearing - where the splits are recorded
     */
    public constructor(
        body: SoftBody,
        private readonly _tearing: ClothTearing,
    ) {
        const triangleCount = body.triangles.length / 3;
        const particles = body.particleCapacity;
        this._stamp = new Int32Array(particles);
        this._incident = new Int32Array(triangleCount);
        this._group = new Int32Array(triangleCount);
        this._areas = new Float64Array(triangleCount);
        this._firstWith = new Int32Array(particles).fill(-1);
        this._ring = new Int32Array(3 * triangleCount);
        this._firstCorner = new Int32Array(particles);
        this._nextCorner = new Int32Array(3 * triangleCount);
        this.linkCorners(body.triangles);
    }

    /** Builds the particles' lists of triangle corners from `triangles` (at construction, and when a snapshot is restored). */
    public linkCorners(triangles: Int32Array): void {
        this._firstCorner.fill(-1);
        for (let slot = triangles.length - 1; slot >= 0; slot--) {
            this._nextCorner[slot] = this._firstCorner[triangles[slot]];
            this._firstCorner[triangles[slot]] = slot;
        }
    }

    /** Starts a step's splits: from now on {@link splitThisStep} tells the particles split since. */
    public beginStep(): void {
        this._stampValue++;
    }

    /** Whether particle `p` was split (or made) since {@link beginStep}: the edges around it were measured before. */
    public splitThisStep(p: number): boolean {
        return this._stamp[p] === this._stampValue;
    }

    /**
     * Tears the edge `a`–`b` (see the class comment). Returns the particles made (0 when neither end can split), or
     * {@link OUT_OF_PARTICLES}.
     */
    public tearEdge(body: SoftBody, a: number, b: number): number {
        this._edge[0] = a;
        this._edge[1] = b;
        const weights = body.pins.weights;
        const freeA = weights[a] === 0;
        const freeB = weights[b] === 0;
        // A border particle first (the tip of a crack), then the lower index (a: stretch pairs are ordered).
        const bFirst = freeB && (!freeA || (this._onBorder(body, b) && !this._onBorder(body, a)));
        // Across the edge at either end first; failing that (a small piece can twist so that a particle's triangles
        // all lie on one side of its plane), the edge's own triangles come off one end.
        for (let attempt = 0; attempt < 4; attempt++) {
            const useB = bFirst === (attempt % 2 === 0);
            if (!(useB ? freeB : freeA)) {
                continue;
            }
            const p = useB ? b : a;
            const q = useB ? a : b;
            const before = this._tearing.tearCount;
            // A particle joining separate fans already is torn by separating them.
            const made = this._separateFans(body, p);
            if (made !== 0) {
                return made;
            }
            const split = attempt < 2 ? this._splitAcross(body, p, q) : this._splitAlong(body, p, q);
            if (split < 0) {
                if (split === OUT_OF_PARTICLES) {
                    return split;
                }
                continue;
            }
            // The plane may cut the fan into more than two arcs, or cut a neighbour's fan in two.
            const ringCount = this._gatherRing(body, p, split);
            for (let k = 0; k < ringCount; k++) {
                if (this._separateFans(body, this._ring[k]) === OUT_OF_PARTICLES) {
                    return OUT_OF_PARTICLES;
                }
            }
            return this._tearing.tearCount - before;
        }
        return 0;
    }

    /**
     * Splits free particle `p` between the triangles on its edge to `q` and the others: the former go to a new
     * particle. Returns the new particle, −1 when every triangle of `p` is on the edge, or {@link OUT_OF_PARTICLES}.
     */
    private _splitAlong(body: SoftBody, p: number, q: number): number {
        const count = this._gather(p);
        const triangles = body.triangles;
        this._measureAreas(body, count);
        let areaNew = 0;
        let areaTotal = 0;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            const side = triangles[t] === q || triangles[t + 1] === q || triangles[t + 2] === q ? 1 : 0;
            this._group[k] = side;
            areaTotal += this._areas[k];
            areaNew += side * this._areas[k];
        }
        if (!(areaNew > 0 && areaNew < areaTotal)) {
            return -1;
        }
        this._share[0] = areaNew / areaTotal;
        return this._moveTriangles(body, p, 1);
    }

    /**
     * Splits free particle `p` by the plane through it perpendicular to its edge to `q` (rest positions): its
     * triangles on `q`'s side go to a new particle. Returns the new particle, −1 when one side has no triangle, or
     * {@link OUT_OF_PARTICLES}.
     */
    private _splitAcross(body: SoftBody, p: number, q: number): number {
        const count = this._gather(p);
        const rest = body.restPositions;
        const triangles = body.triangles;
        const i = 3 * p;
        const nx = rest[3 * q] - rest[i];
        const ny = rest[3 * q + 1] - rest[i + 1];
        const nz = rest[3 * q + 2] - rest[i + 2];
        this._measureAreas(body, count);
        let areaNew = 0;
        let areaTotal = 0;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            const u = 3 * triangles[t];
            const v = 3 * triangles[t + 1];
            const w = 3 * triangles[t + 2];
            // The centroid's offset from p, times 3.
            const cx = rest[u] + rest[v] + rest[w] - 3 * rest[i];
            const cy = rest[u + 1] + rest[v + 1] + rest[w + 1] - 3 * rest[i + 1];
            const cz = rest[u + 2] + rest[v + 2] + rest[w + 2] - 3 * rest[i + 2];
            const side = cx * nx + cy * ny + cz * nz > 0 ? 1 : 0;
            this._group[k] = side;
            areaTotal += this._areas[k];
            areaNew += side * this._areas[k];
        }
        if (!(areaNew > 0 && areaNew < areaTotal)) {
            return -1;
        }
        this._share[0] = areaNew / areaTotal;
        return this._moveTriangles(body, p, 1);
    }

    /**
     * Gives every fan of triangles around free particle `p` but the first (fans: triangles joined through edges at
     * `p`) a particle of its own. Returns the particles made, or {@link OUT_OF_PARTICLES}.
     */
    private _separateFans(body: SoftBody, p: number): number {
        if (body.pins.weights[p] !== 0) {
            return 0;
        }
        const count = this._gather(p);
        const triangles = body.triangles;
        const group = this._group;
        const firstWith = this._firstWith;
        for (let k = 0; k < count; k++) {
            group[k] = k;
        }
        // Two triangles around p share an edge when they share a second particle.
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                const u = triangles[corner];
                if (u === p) {
                    continue;
                }
                if (firstWith[u] < 0) {
                    firstWith[u] = k;
                } else {
                    unite(group, k, firstWith[u]);
                }
            }
        }
        let fans = 0;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                firstWith[triangles[corner]] = -1;
            }
            group[k] = findRoot(group, k);
            fans += group[k] === k ? 1 : 0;
        }
        if (fans < 2) {
            return 0;
        }
        // The fan of the first triangle keeps p; each other fan in turn takes its share of what p has left.
        this._measureAreas(body, count);
        const areas = this._areas;
        let areaLeft = 0;
        for (let k = 0; k < count; k++) {
            areaLeft += areas[k];
        }
        let made = 0;
        for (let root = 1; root < count; root++) {
            if (group[root] !== root) {
                continue;
            }
            let areaFan = 0;
            for (let k = root; k < count; k++) {
                areaFan += group[k] === root ? areas[k] : 0;
            }
            this._share[0] = areaFan / areaLeft;
            const created = this._moveTriangles(body, p, root);
            if (created < 0) {
                return created === OUT_OF_PARTICLES ? created : made;
            }
            areaLeft -= areaFan;
            made++;
        }
        return made;
    }

    /**
     * Moves the gathered triangles of group `side` from `p` to a new particle taking the share {@link _share}[0] of
     * `p`'s mass, and records the split. Returns the new particle, −1 when a share would be zero, or
     * {@link OUT_OF_PARTICLES}.
     */
    private _moveTriangles(body: SoftBody, p: number, side: number): number {
        if (body.particleCount >= body.particleCapacity) {
            return OUT_OF_PARTICLES;
        }
        const created = splitParticle(body, p, this._share);
        if (created < 0) {
            return -1;
        }
        const triangles = body.triangles;
        const first = this._firstCorner;
        const next = this._nextCorner;
        for (let k = 0; k < this._incidentCount; k++) {
            if (this._group[k] !== side) {
                continue;
            }
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                if (triangles[corner] !== p) {
                    continue;
                }
                triangles[corner] = created;
                // Out of p's list, into the new particle's.
                if (first[p] === corner) {
                    first[p] = next[corner];
                } else {
                    let before = first[p];
                    while (next[before] !== corner) {
                        before = next[before];
                    }
                    next[before] = next[corner];
                }
                next[corner] = first[created];
                first[created] = corner;
            }
        }
        this._stamp[p] = this._stampValue;
        this._stamp[created] = this._stampValue;
        this._tearing._record(this._edge[0], this._edge[1], p, created);
        return created;
    }

    /** Twice the rest area of each of the first `count` gathered triangles, into {@link _areas}. */
    private _measureAreas(body: SoftBody, count: number): void {
        const x = body.restPositions;
        const triangles = body.triangles;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            const u = 3 * triangles[t];
            const v = 3 * triangles[t + 1];
            const w = 3 * triangles[t + 2];
            const e1x = x[v] - x[u];
            const e1y = x[v + 1] - x[u + 1];
            const e1z = x[v + 2] - x[u + 2];
            const e2x = x[w] - x[u];
            const e2y = x[w + 1] - x[u + 1];
            const e2z = x[w + 2] - x[u + 2];
            const cx = e1y * e2z - e1z * e2y;
            const cy = e1z * e2x - e1x * e2z;
            const cz = e1x * e2y - e1y * e2x;
            this._areas[k] = Math.sqrt(cx * cx + cy * cy + cz * cz);
        }
    }

    /** Gathers the triangles around `p` into {@link _incident}, in increasing order; returns their count. */
    private _gather(p: number): number {
        const incident = this._incident;
        let count = 0;
        for (let slot = this._firstCorner[p]; slot >= 0; slot = this._nextCorner[slot]) {
            // Insertion sort: the lists' order depends on the splits so far, the result must not.
            const t = (slot / 3) | 0;
            let k = count++;
            for (; k > 0 && incident[k - 1] > t; k--) {
                incident[k] = incident[k - 1];
            }
            incident[k] = t;
        }
        this._incidentCount = count;
        return count;
    }

    /** Gathers the particles around `p` and `q` (two halves of a split) into {@link _ring}, each once; returns their count. */
    private _gatherRing(body: SoftBody, p: number, q: number): number {
        const triangles = body.triangles;
        const seen = this._firstWith;
        let count = 0;
        for (let half = 0; half < 2; half++) {
            for (let slot = this._firstCorner[half === 0 ? p : q]; slot >= 0; slot = this._nextCorner[slot]) {
                const t = slot - (slot % 3);
                for (let corner = t; corner < t + 3; corner++) {
                    const u = triangles[corner];
                    if (seen[u] < 0) {
                        seen[u] = 0;
                        this._ring[count++] = u;
                    }
                }
            }
        }
        for (let k = 0; k < count; k++) {
            seen[this._ring[k]] = -1;
        }
        return count;
    }

    /** Whether `p` is on a border: one of its edges belongs to a single one of its triangles. */
    private _onBorder(body: SoftBody, p: number): boolean {
        const count = this._gather(p);
        const triangles = body.triangles;
        // Counted in the otherwise idle per-particle slots, which start at −1 and are put back.
        const counts = this._firstWith;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                counts[triangles[corner]]++;
            }
        }
        let border = false;
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                const u = triangles[corner];
                border = border || (u !== p && counts[u] === 0);
            }
        }
        for (let k = 0; k < count; k++) {
            const t = 3 * this._incident[k];
            for (let corner = t; corner < t + 3; corner++) {
                counts[triangles[corner]] = -1;
            }
        }
        return border;
    }
}

/** The root of `k` in the union–find forest `parent`, halving the path on the way. */
function findRoot(parent: Int32Array, k: number): number {
    while (parent[k] !== k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

/** Joins the sets of `a` and `b`, the smaller root becoming the root. */
function unite(parent: Int32Array, a: number, b: number): void {
    const ra = findRoot(parent, a);
    const rb = findRoot(parent, b);
    if (ra !== rb) {
        parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
}
