/**
 * A binary min-heap of item indices `0 … keys.length − 1`, ordered by `keys[item]`. Its storage is allocated once,
 * at construction, so code that must not allocate (tearing at the end of a step) can use it. Like everything in the
 * core it is deterministic: the same pushes and pops give the same order.
 *
 * The keys belong to the owner, who writes an item's key before pushing it and may lower it while the item is in the
 * heap, then call {@link decreased}.
 */
export class IndexHeap {
    /** Number of items in the heap. */
    public size = 0;

    private readonly _keys: Float64Array;
    private readonly _lowerIndexFirst: boolean;
    private readonly _items: Int32Array;
    /** Slot of each item in {@link _items}, or −1 when it is not in the heap. */
    private readonly _slots: Int32Array;

    /**
     * @param keys - the key of each item; its length is the heap's capacity
     * @param lowerIndexFirst - among equal keys, the lower index first: a total order, whatever the pushes were.
     *   Otherwise equal keys leave in an order that depends on the pushes and pops.
     */
    public constructor(keys: Float64Array, lowerIndexFirst: boolean) {
        this._keys = keys;
        this._lowerIndexFirst = lowerIndexFirst;
        this._items = new Int32Array(keys.length);
        this._slots = new Int32Array(keys.length).fill(-1);
    }

    /** Empties the heap. */
    public clear(): void {
        for (let k = 0; k < this.size; k++) {
            this._slots[this._items[k]] = -1;
        }
        this.size = 0;
    }

    /** Whether `item` is in the heap. */
    public has(item: number): boolean {
        return this._slots[item] >= 0;
    }

    /** Adds `item` (not in the heap) with its current key. */
    public push(item: number): void {
        const slot = this.size++;
        this._items[slot] = item;
        this._slots[item] = slot;
        this._siftUp(slot);
    }

    /** Removes and returns the item first in order; the heap must not be empty. */
    public pop(): number {
        const items = this._items;
        const top = items[0];
        this._slots[top] = -1;
        const last = items[--this.size];
        if (this.size > 0) {
            items[0] = last;
            this._slots[last] = 0;
            this._siftDown(0);
        }
        return top;
    }

    /** Restores the order after the key of `item`, which is in the heap, was lowered. */
    public decreased(item: number): void {
        this._siftUp(this._slots[item]);
    }

    private _siftUp(slot: number): void {
        const items = this._items;
        const item = items[slot];
        while (slot > 0) {
            const parent = (slot - 1) >> 1;
            if (!this._before(item, items[parent])) {
                break;
            }
            this._place(slot, items[parent]);
            slot = parent;
        }
        this._place(slot, item);
    }

    private _siftDown(slot: number): void {
        const items = this._items;
        const size = this.size;
        const item = items[slot];
        for (;;) {
            let child = 2 * slot + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && this._before(items[child + 1], items[child])) {
                child++;
            }
            if (!this._before(items[child], item)) {
                break;
            }
            this._place(slot, items[child]);
            slot = child;
        }
        this._place(slot, item);
    }

    private _place(slot: number, item: number): void {
        this._items[slot] = item;
        this._slots[item] = slot;
    }

    private _before(a: number, b: number): boolean {
        const ka = this._keys[a];
        const kb = this._keys[b];
        return ka < kb || (this._lowerIndexFirst && ka === kb && a < b);
    }
}
