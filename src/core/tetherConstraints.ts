/** Anchors (weight-1 pins) per tethered particle at most; see {@link TetherConstraints}. */
export const TETHER_ANCHORS = 2;

/**
 * Long-range attachments (tethers): every free particle may be at most its rest distance away from its anchors,
 * weight-1 pins of its own connected piece of mesh. They are one-sided, so they never pull a particle in; they only
 * stop the cloth from stretching under its own weight, which local distance constraints alone cannot do in a few
 * iterations at high resolution (the error has to travel across the whole mesh).
 *
 * Each particle gets up to {@link TETHER_ANCHORS} anchors: the pin nearest along the mesh's edges, and the pin
 * nearest in a straight line among the others of its piece. One anchor lets a particle swing on a sphere around its
 * pin; two pins far apart (a cloth hung by two corners, a hammock) then pull the regions they anchor apart where the
 * regions meet, and that seam stretches. The second anchor closes the seam: in a cloth hung by two corners at
 * 10 substeps the largest edge ratio falls from ×1.015 to ×1.0002, at the price of one more tether per particle.
 *
 * The tether length is the straight rest distance to the anchor (exact for flat and convex regions; for a strongly
 * curved rest shape it is shorter than the geodesic, so {@link TetherConstraints.slack} lets it be relaxed).
 */
export class TetherConstraints {
    /** Tethered particle per slot. */
    public readonly particles: Int32Array;
    /** Anchor (a weight-1 pinned particle) per slot. */
    public readonly anchors: Int32Array;
    /** Maximum distance per slot (metres). */
    public readonly lengths: Float64Array;
    /** Number of valid slots. */
    public count = 0;
    /** Whether the solver projects tethers. */
    public enabled = true;
    /** Multiplies every tether length (1 = the rest distance). */
    public slack = 1;

    /** Connected piece of mesh of each particle (the smallest particle index in it). */
    private readonly _piece: Int32Array;
    private readonly _adjacencyStart: Int32Array;
    private readonly _adjacency: Int32Array;
    private readonly _distance: Float64Array;
    private readonly _source: Int32Array;
    private readonly _heap: Int32Array;
    private readonly _heapIndex: Int32Array;

    /**
     * @param particleCount - number of particles
     * @param edges - particle index pairs along which "nearest pin" is measured
     */
    public constructor(particleCount: number, edges: Int32Array) {
        this.particles = new Int32Array(particleCount * TETHER_ANCHORS);
        this.anchors = new Int32Array(particleCount * TETHER_ANCHORS);
        this.lengths = new Float64Array(particleCount * TETHER_ANCHORS);
        // Compressed adjacency lists (both directions of each edge).
        const degree = new Int32Array(particleCount + 1);
        for (let e = 0; e < edges.length; e++) {
            degree[edges[e] + 1]++;
        }
        for (let i = 0; i < particleCount; i++) {
            degree[i + 1] += degree[i];
        }
        this._adjacencyStart = degree;
        this._adjacency = new Int32Array(edges.length);
        const fill = new Int32Array(particleCount);
        for (let e = 0; e < edges.length; e += 2) {
            const a = edges[e];
            const b = edges[e + 1];
            this._adjacency[degree[a] + fill[a]++] = b;
            this._adjacency[degree[b] + fill[b]++] = a;
        }
        this._piece = connectedPieces(particleCount, edges);
        this._distance = new Float64Array(particleCount);
        this._source = new Int32Array(particleCount);
        this._heap = new Int32Array(particleCount);
        this._heapIndex = new Int32Array(particleCount);
    }

    /**
     * Rebuilds the tethers for the given weight-1 pins with a multi-source Dijkstra over the edges (rest lengths).
     * Runs when pins change, never inside a step; uses only the buffers allocated at construction.
     */
    public rebuild(restPositions: Float64Array, pinned: Int32Array, pinnedCount: number, invMass: Float64Array): void {
        const n = this._distance.length;
        const distance = this._distance;
        const source = this._source;
        const heapIndex = this._heapIndex;
        distance.fill(Infinity);
        source.fill(-1);
        heapIndex.fill(-1);
        this._heapSize = 0;
        for (let k = 0; k < pinnedCount; k++) {
            const p = pinned[k];
            distance[p] = 0;
            source[p] = p;
            this._push(p);
        }
        const start = this._adjacencyStart;
        const adjacency = this._adjacency;
        while (this._heapSize > 0) {
            const u = this._pop();
            for (let k = start[u]; k < start[u + 1]; k++) {
                const v = adjacency[k];
                const dx = restPositions[3 * v] - restPositions[3 * u];
                const dy = restPositions[3 * v + 1] - restPositions[3 * u + 1];
                const dz = restPositions[3 * v + 2] - restPositions[3 * u + 2];
                const candidate = distance[u] + Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (candidate < distance[v]) {
                    distance[v] = candidate;
                    source[v] = source[u];
                    if (heapIndex[v] < 0) {
                        this._push(v);
                    } else {
                        this._siftUp(heapIndex[v]);
                    }
                }
            }
        }
        // Nearest anchors first, then the second ones (the order that converges fastest: in a 32×32 cloth hung by
        // two corners, one substep leaves ×1.05 edge stretch this way round and ×1.22 the other). Within each group
        // consecutive tethers move different particles (see `constraintColouring.ts`).
        let count = 0;
        for (let i = 0; i < n; i++) {
            if (source[i] >= 0 && source[i] !== i && invMass[i] !== 0) {
                count = this._add(count, i, source[i], restPositions);
            }
        }
        const piece = this._piece;
        for (let i = 0; i < n; i++) {
            const anchor = source[i];
            if (anchor < 0 || anchor === i || invMass[i] === 0) {
                continue;
            }
            // The straight-line nearest other pin of the same piece.
            let second = -1;
            let best = Infinity;
            for (let k = 0; k < pinnedCount; k++) {
                const p = pinned[k];
                if (p === anchor || piece[p] !== piece[i]) {
                    continue;
                }
                const d2 = squaredDistance(restPositions, i, p);
                if (d2 < best) {
                    best = d2;
                    second = p;
                }
            }
            if (second >= 0) {
                count = this._add(count, i, second, restPositions);
            }
        }
        this.count = count;
    }

    /** Pulls every particle that is farther from an anchor than its tether allows back onto the tether's sphere. */
    public project(x: Float64Array): void {
        const slack = this.slack;
        const particles = this.particles;
        const anchors = this.anchors;
        const lengths = this.lengths;
        // Every tethered particle is free: the tethers are rebuilt whenever an inverse mass changes.
        for (let k = 0; k < this.count; k++) {
            const i = particles[k] * 3;
            const a = anchors[k] * 3;
            const dx = x[i] - x[a];
            const dy = x[i + 1] - x[a + 1];
            const dz = x[i + 2] - x[a + 2];
            const d2 = dx * dx + dy * dy + dz * dz;
            const limit = lengths[k] * slack;
            // Compared squared: most tethers are slack, and those cost no square root.
            if (d2 > limit * limit) {
                const s = limit / Math.sqrt(d2);
                x[i] = x[a] + dx * s;
                x[i + 1] = x[a + 1] + dy * s;
                x[i + 2] = x[a + 2] + dz * s;
            }
        }
    }

    /** Writes the tether of `particle` to `anchor` into slot `slot`; returns the next free slot. */
    private _add(slot: number, particle: number, anchor: number, restPositions: Float64Array): number {
        this.particles[slot] = particle;
        this.anchors[slot] = anchor;
        this.lengths[slot] = Math.sqrt(squaredDistance(restPositions, particle, anchor));
        return slot + 1;
    }

    private _heapSize = 0;

    private _push(v: number): void {
        const index = this._heapSize++;
        this._heap[index] = v;
        this._heapIndex[v] = index;
        this._siftUp(index);
    }

    private _pop(): number {
        const heap = this._heap;
        const top = heap[0];
        this._heapIndex[top] = -1;
        const last = heap[--this._heapSize];
        if (this._heapSize > 0) {
            heap[0] = last;
            this._heapIndex[last] = 0;
            this._siftDown(0);
        }
        return top;
    }

    private _siftUp(index: number): void {
        const heap = this._heap;
        const distance = this._distance;
        const v = heap[index];
        while (index > 0) {
            const parent = (index - 1) >> 1;
            if (distance[heap[parent]] <= distance[v]) {
                break;
            }
            heap[index] = heap[parent];
            this._heapIndex[heap[index]] = index;
            index = parent;
        }
        heap[index] = v;
        this._heapIndex[v] = index;
    }

    private _siftDown(index: number): void {
        const heap = this._heap;
        const distance = this._distance;
        const size = this._heapSize;
        const v = heap[index];
        for (;;) {
            let child = 2 * index + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && distance[heap[child + 1]] < distance[heap[child]]) {
                child++;
            }
            if (distance[heap[child]] >= distance[v]) {
                break;
            }
            heap[index] = heap[child];
            this._heapIndex[heap[index]] = index;
            index = child;
        }
        heap[index] = v;
        this._heapIndex[v] = index;
    }
}

function squaredDistance(x: Float64Array, a: number, b: number): number {
    const dx = x[3 * b] - x[3 * a];
    const dy = x[3 * b + 1] - x[3 * a + 1];
    const dz = x[3 * b + 2] - x[3 * a + 2];
    return dx * dx + dy * dy + dz * dz;
}

/** Labels each particle with the smallest particle index of its connected piece (union–find over the edges). */
function connectedPieces(particleCount: number, edges: Int32Array): Int32Array {
    const parent = new Int32Array(particleCount);
    for (let i = 0; i < particleCount; i++) {
        parent[i] = i;
    }
    const root = (i: number): number => {
        while (parent[i] !== i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    };
    for (let e = 0; e < edges.length; e += 2) {
        const a = root(edges[e]);
        const b = root(edges[e + 1]);
        if (a !== b) {
            parent[Math.max(a, b)] = Math.min(a, b);
        }
    }
    for (let i = 0; i < particleCount; i++) {
        parent[i] = root(i);
    }
    return parent;
}
