import type { DistanceConstraints } from "./distanceConstraints.js";
import type { SoftBody } from "./softBody.js";

/**
 * Whether `body`'s strain limit acts in its next step: it is on, the body does not tear, its stretch is inextensible
 * (a stretchy fabric stretches as its compliance says), and its edges came past halfway to the limit in the last step
 * (a body that stays far from it, such as the benchmark cloth at ×1.001, pays nothing for it).
 */
export function strainLimitActive(body: SoftBody): boolean {
    const limit = body.strainLimit;
    return limit > 0 && body._strainLimiter !== null && body.stretch.compliance === 0 && body.stats.maxEdgeRatio > 0.5 * (1 + limit);
}

/**
 * Strain limiting (`SoftBodyOptions.strainLimit`): late in a substep's last pass (before the soft pins and the
 * contacts, which keep the final say), no stretch edge stays longer than the limit × its rest length. Under a load
 * the passes cannot carry in one substep (a cape on a pin moving at 10 m/s drags the air at 60 N, 20 times its
 * weight), Gauss–Seidel leaves the edges next to the pins stretched by 30%; this one sweep takes that back.
 *
 * The edges are visited by their distance in edges from the weight-1 pins (the level of their nearer end), and an
 * edge whose ends lie at different levels moves only its far end, as if the near end were pinned: a shortened edge is
 * then not stretched again by the edges after it, so the limit reaches from the pins to the free edge in a single
 * sweep, and the load goes to the pins, which carry it anyway. An edge between particles of one level, or of a part
 * that no pin reaches, moves both ends by their inverse masses (momentum is kept).
 *
 * Edges and pins are read when the body is built and when its pins change ({@link rebuild}); capacity is fixed then,
 * and {@link project} allocates nothing.
 */
export class StrainLimit {
    /** Level of each particle: edges to the nearest weight-1 pin, or −1 where none is reachable. */
    public readonly levels: Int32Array;
    /** Stretch constraint indices in sweep order, nearest level first; edges no pin reaches last (see {@link rebuild}). */
    public readonly order: Int32Array;
    private readonly _adjacencyStart: Int32Array;
    private readonly _adjacency: Int32Array;
    private readonly _queue: Int32Array;
    private readonly _levelCounts: Int32Array;

    /** @param particleCount - the body's particles; @param stretch - its stretch edges (their list does not change) */
    public constructor(
        particleCount: number,
        private readonly _stretch: DistanceConstraints,
    ) {
        const edges = _stretch.indices;
        const count = _stretch.count;
        this.levels = new Int32Array(particleCount);
        this.order = new Int32Array(count);
        this._queue = new Int32Array(particleCount);
        this._levelCounts = new Int32Array(particleCount + 2);
        this._adjacencyStart = new Int32Array(particleCount + 1);
        this._adjacency = new Int32Array(2 * count);
        for (let k = 0; k < 2 * count; k++) {
            this._adjacencyStart[edges[k] + 1]++;
        }
        for (let p = 0; p < particleCount; p++) {
            this._adjacencyStart[p + 1] += this._adjacencyStart[p];
        }
        const fill = this._adjacencyStart.slice(0, particleCount);
        for (let c = 0; c < count; c++) {
            const a = edges[2 * c];
            const b = edges[2 * c + 1];
            this._adjacency[fill[a]++] = b;
            this._adjacency[fill[b]++] = a;
        }
    }

    /** Levels and edge order from the particles of inverse mass 0 (the weight-1 pins). Outside the step. */
    public rebuild(inverseMasses: Float64Array): void {
        const levels = this.levels;
        const queue = this._queue;
        const n = levels.length;
        let tail = 0;
        for (let p = 0; p < n; p++) {
            levels[p] = inverseMasses[p] === 0 ? 0 : -1;
            if (levels[p] === 0) {
                queue[tail++] = p;
            }
        }
        for (let head = 0; head < tail; head++) {
            const p = queue[head];
            for (let k = this._adjacencyStart[p]; k < this._adjacencyStart[p + 1]; k++) {
                const q = this._adjacency[k];
                if (levels[q] < 0) {
                    levels[q] = levels[p] + 1;
                    queue[tail++] = q;
                }
            }
        }
        // Counting sort by the nearer end's level; unreached edges (level −1) go to bucket n, the last.
        const counts = this._levelCounts;
        counts.fill(0);
        const edges = this._stretch.indices;
        const count = this._stretch.count;
        for (let c = 0; c < count; c++) {
            counts[this._edgeLevel(edges, c, n) + 1]++;
        }
        for (let level = 0; level <= n; level++) {
            counts[level + 1] += counts[level];
        }
        for (let c = 0; c < count; c++) {
            this.order[counts[this._edgeLevel(edges, c, n)]++] = c;
        }
    }

    /** One sweep: every stretch edge longer than `limit` × its rest length shortened to that (see the class). */
    public project(x: Float64Array, inverseMasses: Float64Array, limit: number): void {
        const edges = this._stretch.indices;
        const rest = this._stretch.restLengths;
        const levels = this.levels;
        const unreached = levels.length;
        const order = this.order;
        for (let k = 0; k < order.length; k++) {
            const c = order[k];
            const pa = edges[2 * c];
            const pb = edges[2 * c + 1];
            const a = 3 * pa;
            const b = 3 * pb;
            const dx = x[b] - x[a];
            const dy = x[b + 1] - x[a + 1];
            const dz = x[b + 2] - x[a + 2];
            const length2 = dx * dx + dy * dy + dz * dz;
            const max = limit * rest[c];
            if (length2 <= max * max) {
                continue;
            }
            // The nearer end stays; an unreached particle (−1) ranks behind every reached one.
            const la = levels[pa] < 0 ? unreached : levels[pa];
            const lb = levels[pb] < 0 ? unreached : levels[pb];
            const wa = la < lb ? 0 : inverseMasses[pa];
            const wb = lb < la ? 0 : inverseMasses[pb];
            const weights = wa + wb;
            if (weights === 0) {
                continue;
            }
            const length = Math.sqrt(length2);
            const scale = (length - max) / (length * weights);
            x[a] += wa * scale * dx;
            x[a + 1] += wa * scale * dy;
            x[a + 2] += wa * scale * dz;
            x[b] -= wb * scale * dx;
            x[b + 1] -= wb * scale * dy;
            x[b + 2] -= wb * scale * dz;
        }
    }

    /** The level of the nearer end of edge `c`, `unreached` where no pin reaches either end. */
    private _edgeLevel(edges: Int32Array, c: number, unreached: number): number {
        const la = this.levels[edges[2 * c]];
        const lb = this.levels[edges[2 * c + 1]];
        return Math.min(la < 0 ? unreached : la, lb < 0 ? unreached : lb);
    }
}
