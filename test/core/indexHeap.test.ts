import { IndexHeap } from "../../src/core/indexHeap.js";

/** A small deterministic generator, so that a failure can be replayed. */
function lcg(seed: number): () => number {
    let s = seed;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

/** The order the heap promises: by key, then by the lower index. */
function expectedOrder(keys: Float64Array, items: number[]): number[] {
    return [...items].sort((a, b) => keys[a] - keys[b] || a - b);
}

describe("IndexHeap", () => {
    it("pops by key, the lower index first among equal keys", () => {
        const random = lcg(7);
        const keys = new Float64Array(500);
        // Few distinct keys, so that most items tie with others.
        for (let i = 0; i < keys.length; i++) {
            keys[i] = Math.floor(random() * 8);
        }
        const heap = new IndexHeap(keys, true);
        const items: number[] = [];
        for (let i = keys.length - 1; i >= 0; i -= 3) {
            heap.push(i);
            items.push(i);
        }
        const popped: number[] = [];
        while (heap.size > 0) {
            popped.push(heap.pop());
        }
        expect(popped).toEqual(expectedOrder(keys, items));
    });

    it("keeps its order when keys are lowered in place, as Dijkstra's search does", () => {
        const random = lcg(11);
        const keys = new Float64Array(200);
        const heap = new IndexHeap(keys, true);
        for (let i = 0; i < keys.length; i++) {
            keys[i] = 100 + random() * 100;
            heap.push(i);
        }
        for (let k = 0; k < 300; k++) {
            const i = Math.floor(random() * keys.length);
            keys[i] -= random() * 50;
            heap.decreased(i);
        }
        const popped: number[] = [];
        while (heap.size > 0) {
            popped.push(heap.pop());
        }
        expect(popped).toEqual(expectedOrder(keys, [...keys.keys()]));
    });

    it("without the index order, still pops by key", () => {
        const random = lcg(5);
        const keys = new Float64Array(300);
        const heap = new IndexHeap(keys, false);
        for (let i = 0; i < keys.length; i++) {
            keys[i] = Math.floor(random() * 10);
            heap.push(i);
        }
        let last = -Infinity;
        while (heap.size > 0) {
            const key = keys[heap.pop()];
            expect(key).toBeGreaterThanOrEqual(last);
            last = key;
        }
    });

    it("tells which items it holds, and clear() empties it for reuse", () => {
        const keys = new Float64Array([3, 1, 2, 0]);
        const heap = new IndexHeap(keys, true);
        heap.push(0);
        heap.push(2);
        expect([heap.has(0), heap.has(1), heap.has(2)]).toEqual([true, false, true]);
        expect(heap.pop()).toBe(2);
        expect(heap.has(2)).toBe(false);
        heap.clear();
        expect(heap.size).toBe(0);
        expect(heap.has(0)).toBe(false);
        heap.push(3);
        heap.push(1);
        expect([heap.pop(), heap.pop()]).toEqual([3, 1]);
    });
});
