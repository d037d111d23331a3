/**
 * Unique undirected edges of a triangle list with their incident triangles, in memory allocated once: the adjacency
 * that cloth elements (stretch, shear, bend), closedness checks and boundary counts are derived from. The mesh
 * builders use it once; a tearing cloth rebuilds it after every tear without allocating.
 */

/** A set of unordered particle pairs, numbered in order of insertion (open addressing, no allocation after construction). */
export class PairTable {
    /** Number of pairs. */
    public count = 0;
    /** Pair end points, 2 per pair, smaller index first. */
    public readonly pairs: Int32Array;
    /** Hash slot → pair + 1 (0: empty). */
    private readonly _slots: Int32Array;
    private readonly _mask: number;

    /** @param capacity - most pairs the table holds */
    public constructor(public readonly capacity: number) {
        this.pairs = new Int32Array(2 * capacity);
        // At most half full, so that probe sequences stay short.
        let size = 16;
        while (size < 2 * capacity) {
            size *= 2;
        }
        this._slots = new Int32Array(size);
        this._mask = size - 1;
    }

    /** Removes every pair. */
    public clear(): void {
        this._slots.fill(0);
        this.count = 0;
    }

    /** The number of the pair `{a, b}`, or −1 when absent. */
    public find(a: number, b: number): number {
        const lo = a < b ? a : b;
        const hi = a < b ? b : a;
        for (let slot = hash(lo, hi) & this._mask; ; slot = (slot + 1) & this._mask) {
            const entry = this._slots[slot] - 1;
            if (entry < 0) {
                return -1;
            }
            if (this.pairs[2 * entry] === lo && this.pairs[2 * entry + 1] === hi) {
                return entry;
            }
        }
    }

    /**
     * The number of the pair `{a, b}`, added with the next number when absent (check {@link count} before and
     * after to tell). The caller keeps within {@link capacity}.
     */
    public add(a: number, b: number): number {
        const lo = a < b ? a : b;
        const hi = a < b ? b : a;
        let slot = hash(lo, hi) & this._mask;
        for (; ; slot = (slot + 1) & this._mask) {
            const entry = this._slots[slot] - 1;
            if (entry < 0) {
                break;
            }
            if (this.pairs[2 * entry] === lo && this.pairs[2 * entry + 1] === hi) {
                return entry;
            }
        }
        const entry = this.count++;
        this.pairs[2 * entry] = lo;
        this.pairs[2 * entry + 1] = hi;
        this._slots[slot] = entry + 1;
        return entry;
    }
}

/** Edges of a triangle list, rebuilt in place by {@link TriangleEdges.build}. */
export class TriangleEdges {
    /** The edges as pairs: `edges.pairs` holds the end points (smaller index first), `edges.count` their number. */
    public readonly edges: PairTable;
    /** Number of triangles using each edge (1 = boundary, 2 = interior manifold, more than 2 = non-manifold). */
    public readonly triangleCount: Int32Array;
    /**
     * Per edge, the first incident triangle as a "corner slot" `3·triangle + k`: the triangle traverses the edge from
     * its corner `k` to corner `(k + 1) % 3`, and corner `(k + 2) % 3` is the opposite vertex.
     */
    public readonly firstSlot: Int32Array;
    /** Second incident corner slot (see {@link TriangleEdges.firstSlot}), −1 when the edge has a single triangle. */
    public readonly secondSlot: Int32Array;

    /** @param triangleCapacity - most triangles a {@link build} call is given */
    public constructor(triangleCapacity: number) {
        const slots = 3 * triangleCapacity;
        this.edges = new PairTable(slots);
        this.triangleCount = new Int32Array(slots);
        this.firstSlot = new Int32Array(slots);
        this.secondSlot = new Int32Array(slots);
    }

    /** Number of unique edges. */
    public get count(): number {
        return this.edges.count;
    }

    /** Builds the edges of the first `triangleCount` triangles of `triangles`, numbered in order of first appearance. */
    public build(triangles: ArrayLike<number>, triangleCount: number): void {
        const edges = this.edges;
        edges.clear();
        const slotCount = 3 * triangleCount;
        for (let slot = 0; slot < slotCount; slot++) {
            const corner = slot % 3;
            const a = triangles[slot];
            const b = triangles[slot - corner + ((corner + 1) % 3)];
            const before = edges.count;
            const edge = edges.add(a, b);
            if (edges.count > before) {
                this.triangleCount[edge] = 0;
                this.firstSlot[edge] = -1;
                this.secondSlot[edge] = -1;
            }
            const n = this.triangleCount[edge]++;
            if (n === 0) {
                this.firstSlot[edge] = slot;
            } else if (n === 1) {
                this.secondSlot[edge] = slot;
            }
        }
    }
}

/** Next corner slot of the same triangle. */
export function nextCornerSlot(slot: number): number {
    return slot % 3 === 2 ? slot - 2 : slot + 1;
}

/**
 * Mixes two particle indices into a table position (multiplicative hashing; deterministic). A signed 32-bit result,
 * masked by the caller: an unsigned one above 2³¹ would be boxed when the call is not inlined.
 */
function hash(lo: number, hi: number): number {
    return Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
}
