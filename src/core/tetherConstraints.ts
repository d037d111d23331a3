/**
 * Long-range attachments (tethers): every free particle may be at most its rest distance away from the nearest
 * weight-1 pin (nearest along the mesh's edges). They are one-sided, so they never pull a particle in; they only
 * stop the cloth from stretching under its own weight, which local distance constraints alone cannot do in a few
 * iterations at high resolution (the error has to travel across the whole mesh).
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

    private readonly _adjacencyStart: Int32Array;
    private readonly _adjacency: Int32Array;
    private readonly _distance: Float64Array;
    private readonly _source: Int32Array;
    private readonly _heap: Int32Array;
    private readonly _heapIndex: Int32Array;

    /**
     * @param particleCount number of particles
     * @param edges particle index pairs along which "nearest pin" is measured
     */
    public constructor(particleCount: number, edges: Int32Array) {
        this.particles = new Int32Array(particleCount);
        this.anchors = new Int32Array(particleCount);
        this.lengths = new Float64Array(particleCount);
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
        let count = 0;
        for (let i = 0; i < n; i++) {
            const anchor = source[i];
            if (anchor < 0 || anchor === i || invMass[i] === 0) {
                continue;
            }
            const dx = restPositions[3 * i] - restPositions[3 * anchor];
            const dy = restPositions[3 * i + 1] - restPositions[3 * anchor + 1];
            const dz = restPositions[3 * i + 2] - restPositions[3 * anchor + 2];
            this.particles[count] = i;
            this.anchors[count] = anchor;
            this.lengths[count] = Math.sqrt(dx * dx + dy * dy + dz * dz);
            count++;
        }
        this.count = count;
    }

    /** Pulls every particle that is farther from its anchor than its tether allows back onto the tether's sphere. */
    public project(x: Float64Array, invMass: Float64Array): void {
        const slack = this.slack;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            if (invMass[p] === 0) {
                continue;
            }
            const i = p * 3;
            const a = this.anchors[k] * 3;
            const dx = x[i] - x[a];
            const dy = x[i + 1] - x[a + 1];
            const dz = x[i + 2] - x[a + 2];
            const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
            const limit = this.lengths[k] * slack;
            if (distance > limit) {
                const s = limit / distance;
                x[i] = x[a] + dx * s;
                x[i + 1] = x[a + 1] + dy * s;
                x[i + 2] = x[a + 2] + dz * s;
            }
        }
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
