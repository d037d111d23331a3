import { ColliderGrid } from "../../src/core/colliderGrid";
import { seededRandom } from "../support/seededRandom";

type Box = [number, number, number, number, number, number];

/** `count` boxes with a corner in [−5, 5]³ and edges from 1 cm to `maxSize` (m). */
function randomBoxes(next: () => number, count: number, maxSize: number): Box[] {
    const boxes: Box[] = [];
    for (let i = 0; i < count; i++) {
        const min = [0, 1, 2].map(() => -5 + 10 * next());
        const size = [0, 1, 2].map(() => 0.01 + (maxSize - 0.01) * next());
        boxes.push([min[0], min[1], min[2], min[0] + size[0], min[1] + size[1], min[2] + size[2]]);
    }
    return boxes;
}

function bruteForce(boxes: Box[], q: Box): number[] {
    const found: number[] = [];
    boxes.forEach((b, s) => {
        if (b[0] <= q[3] && b[3] >= q[0] && b[1] <= q[4] && b[4] >= q[1] && b[2] <= q[5] && b[5] >= q[2]) {
            found.push(s);
        }
    });
    return found;
}

function makeGrid(boxes: Box[], entryCapacity: number): ColliderGrid {
    const grid = new ColliderGrid(0.5);
    grid.reserve(boxes.length, entryCapacity);
    boxes.forEach((b, s) => grid.bounds.set(b, s * 6));
    grid.build(boxes.length);
    return grid;
}

const queryBox = new Float64Array(6);

function query(grid: ColliderGrid, q: Box, out: Int32Array): number {
    queryBox.set(q);
    return grid.query(queryBox, out);
}

/** Runs the queries; returns how many found something, after checking each result against brute force. */
function checkQueries(grid: ColliderGrid, boxes: Box[], queries: Box[]): number {
    const out = new Int32Array(boxes.length + 8);
    let nonEmpty = 0;
    for (const q of queries) {
        const count = query(grid, q, out);
        const got = Array.from(out.subarray(0, count));
        expect(new Set(got).size).toBe(count); // each slot at most once
        expect(got.sort((a, b) => a - b)).toEqual(bruteForce(boxes, q));
        nonEmpty += count > 0 ? 1 : 0;
    }
    return nonEmpty;
}

describe("ColliderGrid", () => {
    const next = seededRandom(12345);
    const boxes = randomBoxes(next, 200, 3);
    const queries = randomBoxes(next, 500, 2);

    test("200 random boxes, 500 random queries: exactly the brute-force overlap set, each once", () => {
        const grid = makeGrid(boxes, 65536);
        expect(grid.overflowed).toBe(false);
        expect(grid.slotCount).toBe(200);
        // The scene is not trivial: most queries find something, and both the cells and the short list (boxes over
        // more than 64 cells of 0.5 m) are used.
        const cells = boxes.map((b) => [0, 1, 2].reduce((n, k) => n * (Math.floor(b[k + 3] / 0.5) - Math.floor(b[k] / 0.5) + 1), 1));
        expect(cells.filter((n) => n > grid.maxCellsPerShape).length).toBeGreaterThan(20);
        expect(cells.filter((n) => n <= grid.maxCellsPerShape).length).toBeGreaterThan(20);
        expect(checkQueries(grid, boxes, queries)).toBeGreaterThan(400);
    });

    test("with a tiny entry capacity the grid overflows and still returns the exact set (short-list fallback)", () => {
        const grid = makeGrid(boxes, 40);
        expect(grid.overflowed).toBe(true);
        checkQueries(grid, boxes, queries);
    });

    test("with no entry capacity at all every slot is in the short list and queries stay exact", () => {
        const grid = makeGrid(boxes, 0);
        expect(grid.overflowed).toBe(true);
        checkQueries(grid, boxes, queries);
    });

    test("a plane (infinite bounds) is returned by every query, and does not count as overflow", () => {
        const plane: Box = [-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity];
        const withPlane = [...boxes.slice(0, 50), plane, ...boxes.slice(50, 100)];
        const grid = makeGrid(withPlane, 65536);
        expect(grid.overflowed).toBe(false);
        const out = new Int32Array(128);
        for (const q of queries.slice(0, 100)) {
            const count = query(grid, q, out);
            expect(Array.from(out.subarray(0, count))).toContain(50);
        }
        // Far from every box, the plane alone.
        expect(query(grid, [1000, 1000, 1000, 1001, 1001, 1001], out)).toBe(1);
        expect(out[0]).toBe(50);
        checkQueries(grid, withPlane, queries);
    });

    test("touching bounds overlap (closed intervals), and queries across negative cells work", () => {
        const touching: Box[] = [
            [-1, -1, -1, -0.5, -0.5, -0.5],
            [0.5, 0.5, 0.5, 1, 1, 1],
        ];
        const grid = makeGrid(touching, 64);
        const out = new Int32Array(4);
        expect(query(grid, [-0.5, -0.5, -0.5, 0.5, 0.5, 0.5], out)).toBe(2);
        expect(query(grid, [-0.49, -0.49, -0.49, 0.49, 0.49, 0.49], out)).toBe(0);
    });

    test("rebuilding with moved bounds forgets the old ones", () => {
        const grid = makeGrid(boxes, 65536);
        const moved = boxes.map((b) => b.map((v) => v + 0.37) as Box);
        moved.forEach((b, s) => grid.bounds.set(b, s * 6));
        grid.build(moved.length);
        checkQueries(grid, moved, queries);
    });

    test("a huge query box (a particle swept by an explosion) is answered exactly without walking its cells", () => {
        const grid = makeGrid(boxes, 65536);
        const huge: Box = [-1e6, -1e6, -1e6, 1e6, 1e6, 1e6];
        const out = new Int32Array(256);
        const start = performance.now();
        const count = query(grid, huge, out);
        // Walking (4·10⁶)³ cells would never finish; before the fix a 200 m box took ~45 s.
        expect(performance.now() - start).toBeLessThan(100);
        expect(Array.from(out.subarray(0, count)).sort((a, b) => a - b)).toEqual(bruteForce(boxes, huge));
        expect(count).toBe(200);
        // Boxes a little larger than the slot count in cells take the same path and stay exact.
        checkQueries(grid, boxes, randomBoxes(seededRandom(7), 100, 6));
        // A non-finite box overlaps nothing.
        expect(query(grid, [NaN, 0, 0, 1, 1, 1], out)).toBe(0);
        expect(query(grid, [0, 0, 0, Infinity, 1, 1], out)).toBe(bruteForce(boxes, [0, 0, 0, Infinity, 1, 1]).length);
    });
});
