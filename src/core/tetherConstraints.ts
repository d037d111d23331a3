import { IndexHeap } from "./indexHeap.js";
import type { KernelMemory } from "./kernelMemory.js";

/** Anchors (weight-1 pins) per tethered particle at most; see {@link TetherConstraints}. */
export const TETHER_ANCHORS = 4;

/**
 * {@link TetherConstraints.detour} of a cloth that may tear: above the 8% by which the way along a grid's edges
 * (with both diagonals) can exceed the straight distance, so that an intact cloth keeps straight tethers.
 */
export const TEAR_DETOUR = 1.1;

/** Cosine of the smallest angle between a spread anchor's direction and those of the anchors already chosen (60°). */
const SPREAD_COSINE = 0.5;

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
 * Up to two more "spread" anchors follow where the piece has pins in other directions (each at least 60° away, seen
 * from the particle at rest, from the anchors chosen before it). Anchors that surround a particle hold it in every
 * direction once they are taut, which is what lets a light cloth carry a heavy body: see
 * {@link TetherConstraints.heldFraction}. A cloth hung by two corners has no spread anchors and pays nothing for them.
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
    /**
     * Anchors per particle at most, 1 to {@link TETHER_ANCHORS} (the default); takes effect at the next
     * {@link rebuild}. A cloth that may tear keeps 1 (see `clothTearing.ts`).
     */
    public maxAnchors = TETHER_ANCHORS;
    /**
     * When finite, the tether to a particle's nearest pin is at least the way to it along the edges divided by this
     * (greater than 1): on an intact mesh that way exceeds the straight distance by little (8% at most on a grid with both
     * diagonals), so the straight distance rules; around a tear the way is much longer, and a straight tether would
     * pull the torn edge's sides together again. Default `Infinity` (straight distances only); a cloth that may
     * tear uses `TEAR_DETOUR`. Takes effect at the next {@link rebuild}.
     */
    public detour = Infinity;
    /** Slot of each particle's tether of each rank (`particle * TETHER_ANCHORS + rank`), or −1. */
    public readonly slotOf: Int32Array;

    /** Connected piece of mesh of each particle (the smallest particle index in it). */
    private readonly _piece: Int32Array;
    private readonly _adjacencyStart: Int32Array;
    private readonly _adjacency: Int32Array;
    private readonly _distance: Float64Array;
    private readonly _source: Int32Array;
    /**
     * The Dijkstra frontier, nearest first, keyed by {@link _distance}. Equally distant particles are not ordered by
     * index: on a regular grid that moves the anchors of particles equidistant from two pins, and the tearing
     * cloth's tests were measured with them where they are.
     */
    private readonly _frontier: IndexHeap;
    /** Per particle: a counter while {@link setEdges} fills the adjacency lists. */
    private readonly _fill: Int32Array;
    /** The body's kernel memory holding the slots, or null (see {@link project}). */
    private readonly _memory: KernelMemory | null;

    /**
     * @param particleCount - number of particles (the capacity, for a cloth that may tear)
     * @param edges - particle index pairs along which "nearest pin" is measured
     * @param edgeCapacity - most pairs {@link setEdges} may be given later (default: those given now)
     * @param memory - the body's kernel memory, to hold the slots there (default none: plain arrays)
     */
    public constructor(particleCount: number, edges: Int32Array, edgeCapacity = edges.length >> 1, memory: KernelMemory | null = null) {
        const slots = particleCount * TETHER_ANCHORS;
        this._memory = memory;
        this.particles = memory !== null ? memory.i32(slots) : new Int32Array(slots);
        this.anchors = memory !== null ? memory.i32(slots) : new Int32Array(slots);
        this.lengths = memory !== null ? memory.f64(slots) : new Float64Array(slots);
        this.slotOf = new Int32Array(particleCount * TETHER_ANCHORS);
        this._adjacencyStart = new Int32Array(particleCount + 1);
        this._adjacency = new Int32Array(2 * edgeCapacity);
        this._piece = new Int32Array(particleCount);
        this._distance = new Float64Array(particleCount);
        this._source = new Int32Array(particleCount);
        this._frontier = new IndexHeap(this._distance, false);
        this._fill = new Int32Array(particleCount);
        this.setEdges(edges, edges.length >> 1);
    }

    /**
     * Replaces the edges (the first `edgeCount` pairs of `edges`) along which anchors are found: their adjacency lists
     * and connected pieces. Allocation-free; call {@link rebuild} after it (a tearing cloth does, after each tear).
     */
    public setEdges(edges: Int32Array, edgeCount: number): void {
        const n = this._piece.length;
        // Compressed adjacency lists (both directions of each edge).
        const start = this._adjacencyStart;
        start.fill(0);
        for (let e = 0; e < 2 * edgeCount; e++) {
            start[edges[e] + 1]++;
        }
        for (let i = 0; i < n; i++) {
            start[i + 1] += start[i];
        }
        const fill = this._fill;
        fill.fill(0);
        for (let e = 0; e < 2 * edgeCount; e += 2) {
            const a = edges[e];
            const b = edges[e + 1];
            this._adjacency[start[a] + fill[a]++] = b;
            this._adjacency[start[b] + fill[b]++] = a;
        }
        connectPieces(this._piece, edges, edgeCount);
    }

    /**
     * Rebuilds the tethers for the given weight-1 pins with a multi-source Dijkstra over the edges (rest lengths).
     * Runs when pins change, never inside a step; uses only the buffers allocated at construction.
     */
    public rebuild(restPositions: Float64Array, pinned: Int32Array, pinnedCount: number, invMass: Float64Array): void {
        const n = this._distance.length;
        const distance = this._distance;
        const source = this._source;
        const frontier = this._frontier;
        distance.fill(Infinity);
        source.fill(-1);
        frontier.clear();
        for (let k = 0; k < pinnedCount; k++) {
            const p = pinned[k];
            distance[p] = 0;
            source[p] = p;
            frontier.push(p);
        }
        const start = this._adjacencyStart;
        const adjacency = this._adjacency;
        while (frontier.size > 0) {
            const u = frontier.pop();
            for (let k = start[u]; k < start[u + 1]; k++) {
                const v = adjacency[k];
                const dx = restPositions[3 * v] - restPositions[3 * u];
                const dy = restPositions[3 * v + 1] - restPositions[3 * u + 1];
                const dz = restPositions[3 * v + 2] - restPositions[3 * u + 2];
                const candidate = distance[u] + Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (candidate < distance[v]) {
                    distance[v] = candidate;
                    source[v] = source[u];
                    if (frontier.has(v)) {
                        frontier.decreased(v);
                    } else {
                        frontier.push(v);
                    }
                }
            }
        }
        // Nearest anchors first, then the second ones, then the spread ones (the order that converges fastest: in a
        // 32×32 cloth hung by two corners, one substep leaves ×1.05 edge stretch this way round and ×1.22 the other).
        // Within each group consecutive tethers move different particles (see `constraintColouring.ts`).
        this.slotOf.fill(-1);
        let count = 0;
        for (let i = 0; i < n; i++) {
            if (source[i] >= 0 && source[i] !== i && invMass[i] !== 0) {
                count = this._add(count, i, 0, source[i], restPositions);
            }
        }
        for (let rank = 1; rank < this.maxAnchors; rank++) {
            for (let i = 0; i < n; i++) {
                if (this.slotOf[i * TETHER_ANCHORS + rank - 1] < 0) {
                    continue;
                }
                const anchor = this._nextAnchor(i, rank, restPositions, pinned, pinnedCount);
                if (anchor >= 0) {
                    count = this._add(count, i, rank, anchor, restPositions);
                }
            }
        }
        this.count = count;
    }

    /**
     * The fraction of a push along the unit vector `direction[0..2]` on `particle` that its taut tethers carry to
     * the pins, in [0, 1]: the squared length of the push's component in the span of the taut tethers it would
     * lengthen (a tether is taut within `scratch[12]` metres of its limit). 1 means the particle is held in that
     * direction, as firmly as the pins themselves; 0 means it is free. The result replaces `scratch[12]`, and
     * `scratch[0..11]` hold the basis: numbers passed or returned directly would be boxed whenever the JIT does not
     * inline the call.
     */
    public heldFraction(x: Float64Array, particle: number, direction: Float64Array, scratch: Float64Array): void {
        const tolerance = scratch[12];
        const i = particle * 3;
        const dx = direction[0];
        const dy = direction[1];
        const dz = direction[2];
        let basisCount = 0;
        let held = 0;
        for (let rank = 0; rank < TETHER_ANCHORS; rank++) {
            const slot = this.slotOf[particle * TETHER_ANCHORS + rank];
            if (slot < 0) {
                break;
            }
            const a = this.anchors[slot] * 3;
            let ux = x[i] - x[a];
            let uy = x[i + 1] - x[a + 1];
            let uz = x[i + 2] - x[a + 2];
            const distance = Math.sqrt(ux * ux + uy * uy + uz * uz);
            if (distance < this.lengths[slot] * this.slack - tolerance || ux * dx + uy * dy + uz * dz <= 0) {
                continue;
            }
            // Gram–Schmidt against the taut directions found so far; a nearly dependent one adds nothing.
            for (let b = 0; b < basisCount; b++) {
                const o = b * 3;
                const along = ux * scratch[o] + uy * scratch[o + 1] + uz * scratch[o + 2];
                ux -= along * scratch[o];
                uy -= along * scratch[o + 1];
                uz -= along * scratch[o + 2];
            }
            const length = Math.sqrt(ux * ux + uy * uy + uz * uz);
            if (length < MIN_INDEPENDENT * distance) {
                continue;
            }
            const o = basisCount * 3;
            scratch[o] = ux / length;
            scratch[o + 1] = uy / length;
            scratch[o + 2] = uz / length;
            const along = scratch[o] * dx + scratch[o + 1] * dy + scratch[o + 2] * dz;
            held += along * along;
            basisCount++;
        }
        scratch[12] = held > 1 ? 1 : held;
    }

    /**
     * How far particle `particle` may move along the unit vector `direction` before one of its tethers reaches its
     * length (0 when one already has and the move would stretch it further; Infinity for a particle without tethers),
     * into `out[slot]` (a number returned from a call the JIT does not inline is boxed on the heap).
     */
    public room(x: Float64Array, particle: number, direction: Float64Array, out: Float64Array, slot: number): void {
        const i = 3 * particle;
        let room = Infinity;
        for (let rank = 0; rank < TETHER_ANCHORS; rank++) {
            const slot = this.slotOf[particle * TETHER_ANCHORS + rank];
            if (slot < 0) {
                break;
            }
            const a = 3 * this.anchors[slot];
            const ux = x[i] - x[a];
            const uy = x[i + 1] - x[a + 1];
            const uz = x[i + 2] - x[a + 2];
            const along = ux * direction[0] + uy * direction[1] + uz * direction[2];
            const limit = this.lengths[slot] * this.slack;
            // |u + s·d| = limit: s = −u·d + √((u·d)² − (|u|² − limit²)).
            const discriminant = along * along - (ux * ux + uy * uy + uz * uz - limit * limit);
            const s = discriminant > 0 ? -along + Math.sqrt(discriminant) : 0;
            if (!(s > 0)) {
                room = 0;
                break;
            }
            if (s < room) {
                room = s;
            }
        }
        out[slot] = room;
    }

    /** The pin that particle `particle`'s first tether ties it to, or the particle itself when it has none. */
    public firstAnchor(particle: number): number {
        const slot = this.slotOf[particle * TETHER_ANCHORS];
        return slot < 0 ? particle : this.anchors[slot];
    }

    /**
     * The anchor of rank `rank` ≥ 1 for particle `i`: for rank 1 the straight-line nearest pin of its piece other
     * than its first anchor; for higher ranks the nearest pin whose direction from the particle is at least 60° away
     * from those of the anchors it has. −1 when there is none.
     */
    private _nextAnchor(i: number, rank: number, restPositions: Float64Array, pinned: Int32Array, pinnedCount: number): number {
        const piece = this._piece;
        const base = i * TETHER_ANCHORS;
        let best = -1;
        let bestDistance = Infinity;
        for (let k = 0; k < pinnedCount; k++) {
            const p = pinned[k];
            if (piece[p] !== piece[i]) {
                continue;
            }
            const d2 = squaredDistance(restPositions, i, p);
            if (d2 >= bestDistance || d2 === 0) {
                continue;
            }
            let allowed = true;
            for (let r = 0; r < rank && allowed; r++) {
                const q = this.anchors[this.slotOf[base + r]];
                if (q === p) {
                    allowed = false;
                } else if (rank > 1) {
                    const cosine = directionCosine(restPositions, i, p, q);
                    allowed = cosine < SPREAD_COSINE;
                }
            }
            if (allowed) {
                best = p;
                bestDistance = d2;
            }
        }
        return best;
    }

    /**
     * Pulls every particle that is farther from an anchor than its tether allows back onto the tether's sphere. When
     * the slots and `x` live in the body's kernel memory, the WebAssembly kernel runs the same loop (bit-identical,
     * see `solverKernels.wat`).
     */
    public project(x: Float64Array): void {
        const slack = this.slack;
        const particles = this.particles;
        const anchors = this.anchors;
        const lengths = this.lengths;
        const memory = this._memory;
        if (memory !== null && x.buffer === memory.buffer) {
            memory.scalar[0] = slack;
            memory.kernels.tethers(particles.byteOffset, anchors.byteOffset, lengths.byteOffset, this.count, x.byteOffset);
            return;
        }
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

    /** Writes the tether of `particle` to `anchor` (its anchor of rank `rank`) into slot `slot`; returns the next free slot. */
    private _add(slot: number, particle: number, rank: number, anchor: number, restPositions: Float64Array): number {
        this.slotOf[particle * TETHER_ANCHORS + rank] = slot;
        this.particles[slot] = particle;
        this.anchors[slot] = anchor;
        const straight = Math.sqrt(squaredDistance(restPositions, particle, anchor));
        this.lengths[slot] = rank === 0 ? Math.max(straight, this._distance[particle] / this.detour) : straight;
        return slot + 1;
    }
}

/** Below this fraction of its length, a taut tether's direction adds no new held direction (about 1°). */
export const MIN_INDEPENDENT = 0.02;

/** Cosine of the angle at particle `i` between the directions to particles `a` and `b`. */
function directionCosine(x: Float64Array, i: number, a: number, b: number): number {
    const ax = x[3 * a] - x[3 * i];
    const ay = x[3 * a + 1] - x[3 * i + 1];
    const az = x[3 * a + 2] - x[3 * i + 2];
    const bx = x[3 * b] - x[3 * i];
    const by = x[3 * b + 1] - x[3 * i + 1];
    const bz = x[3 * b + 2] - x[3 * i + 2];
    return (ax * bx + ay * by + az * bz) / Math.sqrt((ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz));
}

function squaredDistance(x: Float64Array, a: number, b: number): number {
    const dx = x[3 * b] - x[3 * a];
    const dy = x[3 * b + 1] - x[3 * a + 1];
    const dz = x[3 * b + 2] - x[3 * a + 2];
    return dx * dx + dy * dy + dz * dz;
}

/** Labels each particle with the smallest particle index of its connected piece (union–find over the edges), in place. */
function connectPieces(parent: Int32Array, edges: Int32Array, edgeCount: number): void {
    const n = parent.length;
    for (let i = 0; i < n; i++) {
        parent[i] = i;
    }
    for (let e = 0; e < 2 * edgeCount; e += 2) {
        const a = root(parent, edges[e]);
        const b = root(parent, edges[e + 1]);
        if (a !== b) {
            parent[Math.max(a, b)] = Math.min(a, b);
        }
    }
    for (let i = 0; i < n; i++) {
        parent[i] = root(parent, i);
    }
}

/** The root of `i` in the union–find forest `parent`, halving the path on the way. */
function root(parent: Int32Array, i: number): number {
    while (parent[i] !== i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}
