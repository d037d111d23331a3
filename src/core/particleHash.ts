/**
 * A spatial hash of points on a uniform grid, rebuilt by counting sort in preallocated memory: the broad phase of
 * the soft contacts (`softContacts.ts`). Each entry keeps its integer cell, so a query that visits two cells sharing
 * a bucket sees each entry once: only in the cell it really lies in.
 */
export class ParticleHash {
    /** Grid cell edge (m). */
    public cellSize = 1;
    /** Entries inserted since the last {@link clear}. */
    public count = 0;
    /** Bucket `h` holds the entries `sorted[start[h] .. start[h + 1])` (after {@link build}). */
    public readonly start: Int32Array;
    /** Entry indices sorted by bucket. */
    public readonly sorted: Int32Array;
    /** Integer cell of each entry (three per entry). */
    public readonly cells: Int32Array;
    private readonly _bucket: Int32Array;
    private readonly _mask: number;

    /** @param capacity - most entries one build holds */
    public constructor(public readonly capacity: number) {
        let size = 16;
        while (size < 2 * capacity) {
            size *= 2;
        }
        this._mask = size - 1;
        this.start = new Int32Array(size + 2);
        this.sorted = new Int32Array(capacity);
        this.cells = new Int32Array(3 * capacity);
        this._bucket = new Int32Array(capacity);
    }

    /** Empties the hash (keeping {@link cellSize}). */
    public clear(): void {
        this.count = 0;
    }

    /**
     * Adds the point `(x, y, z)` as entry {@link count} (the caller keeps what the entry stands for, and stays within
     * {@link capacity}).
     */
    public insert(x: number, y: number, z: number): void {
        const e = this.count++;
        const inv = 1 / this.cellSize;
        const ix = Math.floor(x * inv);
        const iy = Math.floor(y * inv);
        const iz = Math.floor(z * inv);
        this.cells[3 * e] = ix;
        this.cells[3 * e + 1] = iy;
        this.cells[3 * e + 2] = iz;
        this._bucket[e] = this.bucketOf(ix, iy, iz);
    }

    /** Sorts the entries into their buckets; call once after the inserts, before the queries. */
    public build(): void {
        // Counting sort: counts go two places up, the prefix sum turns `start[h + 1]` into bucket h's first slot, and
        // filling advances it to bucket h's end, which leaves `start[h]` at bucket h's start.
        const start = this.start;
        start.fill(0);
        for (let e = 0; e < this.count; e++) {
            start[this._bucket[e] + 2]++;
        }
        for (let h = 2; h < start.length; h++) {
            start[h] += start[h - 1];
        }
        for (let e = 0; e < this.count; e++) {
            this.sorted[start[this._bucket[e] + 1]++] = e;
        }
    }

    /** Bucket of integer cell `(ix, iy, iz)`. */
    public bucketOf(ix: number, iy: number, iz: number): number {
        return (Math.imul(ix, 92837111) ^ Math.imul(iy, 689287499) ^ Math.imul(iz, 283923481)) & this._mask;
    }
}
