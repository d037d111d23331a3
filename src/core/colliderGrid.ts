/**
 * World-space broad phase: a uniform grid, hashed into a fixed table, over the world bounds of every collider shape
 * (a "slot"). A particle asks for the slots whose bounds overlap its swept box and gets each at most once, without
 * ever looking at the colliders far from it. Unbounded shapes (planes) and shapes covering more than
 * {@link ColliderGrid.maxCellsPerShape} cells are kept in a short list that every query checks by bounds instead.
 *
 * Capacity is fixed between calls to {@link ColliderGrid.reserve}; if one build needs more entries than that, the
 * shapes that do not fit go to the short list (still correct, just slower) and {@link ColliderGrid.overflowed} is set.
 */
export class ColliderGrid {
    /** Edge length of a grid cell (metres). */
    public get cellSize(): number {
        return this._size[0];
    }
    public set cellSize(value: number) {
        if (!(value > 0)) {
            throw new RangeError(`grid cell size must be positive, got ${value}`);
        }
        this._size[0] = value;
    }
    /** Shapes covering more cells than this go to the short list. */
    public maxCellsPerShape = 64;
    /** Set when the last build ran out of entries. */
    public overflowed = false;
    /** World bounds of each slot: min xyz, max xyz. Written by the owner before {@link build}. */
    public bounds: Float64Array = new Float64Array(0);

    /** The cell size lives in a typed array: the per-step code reads it without ever boxing it. */
    private readonly _size = new Float64Array(1);
    private readonly _tableMask: number;
    private readonly _bucketStart: Int32Array;
    private readonly _bucketFill: Int32Array;
    private _entries: Int32Array = new Int32Array(0);
    private _large: Int32Array = new Int32Array(0);
    private _largeCount = 0;
    private _stamp: Int32Array = new Int32Array(0);
    private _query = 0;
    private _slotCount = 0;

    /**
     * @param cellSize - grid cell edge (metres)
     * @param tableBits - log2 of the hash table size
     */
    public constructor(cellSize: number, tableBits = 12) {
        this.cellSize = cellSize;
        this._tableMask = (1 << tableBits) - 1;
        this._bucketStart = new Int32Array((1 << tableBits) + 1);
        this._bucketFill = new Int32Array(1 << tableBits);
    }

    /** Makes room for `slotCount` slots and `entryCapacity` cell entries. Allocates: call outside the step. */
    public reserve(slotCount: number, entryCapacity: number): void {
        if (this.bounds.length < slotCount * 6) {
            const bounds = new Float64Array(slotCount * 6);
            bounds.set(this.bounds);
            this.bounds = bounds;
            this._large = new Int32Array(slotCount);
            this._stamp = new Int32Array(slotCount);
        }
        if (this._entries.length < entryCapacity) {
            this._entries = new Int32Array(entryCapacity);
        }
    }

    /** Rebuilds the grid over the first `slotCount` slots of {@link bounds}. */
    public build(slotCount: number): void {
        this._slotCount = slotCount;
        this.overflowed = false;
        if (slotCount === 0) {
            // Nothing to hash, and {@link query} answers an empty grid without its tables (no collider: every step).
            this._largeCount = 0;
            return;
        }
        const start = this._bucketStart;
        const fill = this._bucketFill;
        start.fill(0);
        this._largeCount = 0;
        let total = 0;
        // Pass 1: count per bucket; decide which slots are "large".
        for (let s = 0; s < slotCount; s++) {
            const cells = this._cellCount(s);
            if (cells < 0 || cells > this.maxCellsPerShape || total + cells > this._entries.length) {
                if (cells >= 0 && cells <= this.maxCellsPerShape) {
                    this.overflowed = true;
                }
                this._large[this._largeCount++] = s;
                this._stamp[s] = -1;
                continue;
            }
            this._stamp[s] = 0;
            total += cells;
            this._visitCells(s, start, 1);
        }
        let sum = 0;
        for (let b = 0; b <= this._tableMask; b++) {
            const count = start[b + 1];
            start[b + 1] = sum + count;
            fill[b] = sum;
            sum += count;
        }
        start[0] = 0;
        // Pass 2: fill the entries of the slots that are in the grid.
        for (let s = 0; s < slotCount; s++) {
            if (this._stamp[s] === 0) {
                this._visitCells(s, fill, 0);
            }
        }
        this._stamp.fill(0);
        this._query = 0;
    }

    /**
     * Writes into `out` (from index 0) every slot whose bounds overlap `box` (min xyz, max xyz), each once, and
     * returns how many; stops at `out.length`. The box comes in an array so that no number is boxed per query.
     */
    public query(box: Float64Array, out: Int32Array): number {
        if (this._slotCount === 0) {
            return 0;
        }
        const minX = box[0];
        const minY = box[1];
        const minZ = box[2];
        const maxX = box[3];
        const maxY = box[4];
        const maxZ = box[5];
        if (++this._query === 0x7fffffff) {
            this._stamp.fill(0);
            this._query = 1;
        }
        const stamp = this._query;
        const bounds = this.bounds;
        let count = 0;
        for (let k = 0; k < this._largeCount && count < out.length; k++) {
            const s = this._large[k];
            if (overlaps(bounds, s, minX, minY, minZ, maxX, maxY, maxZ)) {
                out[count++] = s;
            }
        }
        const size = this._size[0];
        const x0 = Math.floor(minX / size);
        const x1 = Math.floor(maxX / size);
        const y0 = Math.floor(minY / size);
        const y1 = Math.floor(maxY / size);
        const z0 = Math.floor(minZ / size);
        const z1 = Math.floor(maxZ / size);
        // A box swept by an exploding particle can span billions of cells; past as many cells as there are slots,
        // testing every slot's bounds is cheaper (and the answer is the same).
        if (!((x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) <= Math.max(this._slotCount, 64))) {
            count = 0;
            for (let s = 0; s < this._slotCount && count < out.length; s++) {
                if (overlaps(bounds, s, minX, minY, minZ, maxX, maxY, maxZ)) {
                    out[count++] = s;
                }
            }
            return count;
        }
        for (let z = z0; z <= z1; z++) {
            for (let y = y0; y <= y1; y++) {
                for (let x = x0; x <= x1; x++) {
                    const bucket = hashCell(x, y, z) & this._tableMask;
                    for (let k = this._bucketStart[bucket]; k < this._bucketStart[bucket + 1]; k++) {
                        const s = this._entries[k];
                        if (this._stamp[s] === stamp || count >= out.length) {
                            continue;
                        }
                        this._stamp[s] = stamp;
                        if (overlaps(bounds, s, minX, minY, minZ, maxX, maxY, maxZ)) {
                            out[count++] = s;
                        }
                    }
                }
            }
        }
        return count;
    }

    /** Number of slots in the last build. */
    public get slotCount(): number {
        return this._slotCount;
    }

    /** Cells covered by slot `s`, or −1 when it is unbounded. */
    private _cellCount(s: number): number {
        const b = this.bounds;
        const o = s * 6;
        // `x − x` is 0 exactly for finite x (NaN for ±∞ and NaN), and unlike a call it never boxes the number.
        const spread =
            b[o] -
            b[o] +
            (b[o + 1] - b[o + 1]) +
            (b[o + 2] - b[o + 2]) +
            (b[o + 3] - b[o + 3]) +
            (b[o + 4] - b[o + 4]) +
            (b[o + 5] - b[o + 5]);
        if (spread !== 0) {
            return -1;
        }
        const size = this._size[0];
        const nx = Math.floor(b[o + 3] / size) - Math.floor(b[o] / size) + 1;
        const ny = Math.floor(b[o + 4] / size) - Math.floor(b[o + 1] / size) + 1;
        const nz = Math.floor(b[o + 5] / size) - Math.floor(b[o + 2] / size) + 1;
        const cells = nx * ny * nz;
        // Returned as a small integer (`| 0`), never as a boxed double; anything huge is just "too many".
        return cells > 0x3fffffff ? 0x3fffffff : cells | 0;
    }

    /** Counting pass (`mode` 1: `counts[bucket + 1]++`) or filling pass (`mode` 0: write at `counts[bucket]++`). */
    private _visitCells(s: number, counts: Int32Array, mode: number): void {
        const b = this.bounds;
        const o = s * 6;
        const size = this._size[0];
        const x0 = Math.floor(b[o] / size);
        const x1 = Math.floor(b[o + 3] / size);
        const y0 = Math.floor(b[o + 1] / size);
        const y1 = Math.floor(b[o + 4] / size);
        const z0 = Math.floor(b[o + 2] / size);
        const z1 = Math.floor(b[o + 5] / size);
        for (let z = z0; z <= z1; z++) {
            for (let y = y0; y <= y1; y++) {
                for (let x = x0; x <= x1; x++) {
                    const bucket = hashCell(x, y, z) & this._tableMask;
                    if (mode === 1) {
                        counts[bucket + 1]++;
                    } else {
                        this._entries[counts[bucket]++] = s;
                    }
                }
            }
        }
    }
}

function hashCell(x: number, y: number, z: number): number {
    return Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791);
}

function overlaps(
    bounds: Float64Array,
    s: number,
    minX: number,
    minY: number,
    minZ: number,
    maxX: number,
    maxY: number,
    maxZ: number,
): boolean {
    const o = s * 6;
    return (
        bounds[o] <= maxX &&
        bounds[o + 3] >= minX &&
        bounds[o + 1] <= maxY &&
        bounds[o + 4] >= minY &&
        bounds[o + 2] <= maxZ &&
        bounds[o + 5] >= minZ
    );
}
