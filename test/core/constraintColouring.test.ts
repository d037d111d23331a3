import { createClothGrid } from "../../src/meshing/clothGrid";
import { colourOrder, reorderConstraints } from "../../src/core/constraintColouring";
import { SoftBody } from "../../src/core/softBody";
import { tetEdges } from "../../src/meshing/tetEdges";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { boxMesh } from "../support/coreScenes";

/** Whether `order` holds every index 0..count−1 exactly once. */
function isPermutation(order: Int32Array, count: number): boolean {
    if (order.length !== count) {
        return false;
    }
    const seen = new Uint8Array(count);
    for (const c of order) {
        if (c < 0 || c >= count || seen[c]) {
            return false;
        }
        seen[c] = 1;
    }
    return true;
}

/** The constraints of `indices` as a sorted list of keys, one per constraint (a multiset of tuples). */
function tupleKeys(indices: ArrayLike<number>, arity: number, sortWithin: boolean): string[] {
    const keys: string[] = [];
    for (let c = 0; c < indices.length; c += arity) {
        const tuple = Array.from({ length: arity }, (_, k) => indices[c + k]);
        if (sortWithin) {
            tuple.sort((a, b) => a - b);
        }
        keys.push(tuple.join(","));
    }
    return keys.sort();
}

interface Walk {
    /** Maximal runs, cut greedily where the next constraint shares a particle with one already in the run. */
    runs: number;
    /** Adjacent pairs that share a particle. */
    touchingPairs: number;
    /** Largest number of other constraints one constraint shares a particle with (the conflict degree Δ). */
    maxConflicts: number;
}

/** Walks the reordered list `ordered` (arity per constraint) as the solver sweeps it. */
function walk(ordered: Int32Array, arity: number, particleCount: number): Walk {
    const count = ordered.length / arity;
    // Run membership per particle: the run number that last used it.
    const lastRun = new Int32Array(particleCount).fill(-1);
    let runs = 0;
    let touchingPairs = 0;
    for (let c = 0; c < count; c++) {
        let clash = false;
        for (let k = 0; k < arity; k++) {
            if (lastRun[ordered[arity * c + k]] === runs - 1 && runs > 0) {
                clash = true;
            }
        }
        if (c === 0 || clash) {
            runs++;
        }
        for (let k = 0; k < arity; k++) {
            lastRun[ordered[arity * c + k]] = runs - 1;
        }
        if (c > 0) {
            const previous = ordered.subarray(arity * (c - 1), arity * c);
            if (Array.from(ordered.subarray(arity * c, arity * (c + 1))).some((p) => previous.includes(p))) {
                touchingPairs++;
            }
        }
    }
    // Conflict degree: constraints per particle, then for each constraint the sum over its particles, less itself.
    const perParticle = new Int32Array(particleCount);
    for (const p of ordered) {
        perParticle[p]++;
    }
    let maxConflicts = 0;
    for (let c = 0; c < count; c++) {
        let conflicts = 0;
        for (let k = 0; k < arity; k++) {
            conflicts += perParticle[ordered[arity * c + k]] - 1;
        }
        maxConflicts = Math.max(maxConflicts, conflicts);
    }
    return { runs, touchingPairs, maxConflicts };
}

describe("colour order", () => {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: 24, segmentsY: 24 });
    const particleCount = grid.positions.length / 3;
    const lists: [string, Int32Array, number][] = [
        ["stretch", grid.topology.stretch, 2],
        ["shear", grid.topology.shear, 2],
        ["bend", grid.topology.bend, 4],
    ];

    test.each(lists)("%s of a 24×24 grid cloth: a permutation, swept in a few runs of independent constraints", (name, indices, arity) => {
        const count = indices.length / arity;
        const order = colourOrder(indices, arity, particleCount);
        expect(isPermutation(order, count)).toBe(true);
        const ordered = reorderConstraints(indices, arity, order);
        expect(tupleKeys(ordered, arity, false)).toEqual(tupleKeys(indices, arity, false));
        const colour = walk(ordered, arity, particleCount);
        const mesh = walk(indices, arity, particleCount);
        console.log(
            `${name}: ${count} constraints, conflict degree Δ ${colour.maxConflicts}; colour order: ${colour.runs} runs, ` +
                `${colour.touchingPairs} touching neighbours; mesh order: ${mesh.runs} runs, ${mesh.touchingPairs} touching neighbours`,
        );
        // Greedy colouring uses at most Δ + 1 colours, each colour one block of constraints that share no particle,
        // and a greedy cut of the list into particle-disjoint runs needs no more runs than there are blocks (a run
        // that starts inside a block reaches at least its end). So at most Δ + 1 runs, and at most Δ adjacent
        // pairs that touch (only at block boundaries). The mesh order, for contrast, touches almost everywhere.
        expect(colour.runs).toBeLessThanOrEqual(colour.maxConflicts + 1);
        expect(colour.touchingPairs).toBeLessThanOrEqual(colour.runs - 1);
        expect(mesh.runs).toBeGreaterThan(10 * (colour.maxConflicts + 1));
    });

    test("each colour keeps the input order: the order falls back (a new colour starts) fewer than Δ + 1 times", () => {
        const [, indices, arity] = lists[0];
        const order = colourOrder(indices, arity, particleCount);
        let descents = 0;
        for (let k = 1; k < order.length; k++) {
            if (order[k] < order[k - 1]) {
                descents++;
            }
        }
        const { maxConflicts } = walk(indices, arity, particleCount);
        console.log(`stretch colour order: ${descents} descents, Δ ${maxConflicts}`);
        // Within a colour the input order is kept (ascending), so every descent is a colour boundary.
        expect(descents).toBeLessThanOrEqual(maxConflicts);
        expect(descents).toBeGreaterThan(0);
    });

    test("a star (one particle in 80 constraints) needs more than the 64 colours: still a permutation, nothing lost", () => {
        const arms = 80;
        const indices = new Int32Array(2 * arms);
        for (let c = 0; c < arms; c++) {
            indices[2 * c] = 0;
            indices[2 * c + 1] = c + 1;
        }
        const order = colourOrder(indices, 2, arms + 1);
        expect(isPermutation(order, arms)).toBe(true);
        const ordered = reorderConstraints(indices, 2, order);
        expect(tupleKeys(ordered, 2, false)).toEqual(tupleKeys(indices, 2, false));
        // Every constraint touches every other: each of the first 63 gets a colour of its own, in input order, and the
        // rest share the last colour (64 in all), so the order is the input order.
        expect(Array.from(order)).toEqual(Array.from({ length: arms }, (_, c) => c));
    });

    test("an empty list and a single constraint", () => {
        expect(colourOrder(new Int32Array(0), 2, 4).length).toBe(0);
        expect(Array.from(colourOrder(new Int32Array([2, 3, 0, 1]), 4, 4))).toEqual([0]);
    });
});

describe("a soft body keeps every constraint of its descriptor (in colour order)", () => {
    test("stretch, shear and bend of a grid cloth: the same multisets of tuples", () => {
        const grid = createClothGrid({ width: 1, height: 1, segmentsX: 12, segmentsY: 9, plane: "xz" });
        const t = grid.topology;
        const body = new SoftBody({ positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend });
        expect(body.stretch.indices.length).toBe(t.stretch.length);
        expect(body.shear.indices.length).toBe(t.shear.length);
        expect(body.bend.indices.length).toBe(t.bend.length);
        // Pairs as sorted pairs; bend elements as ordered tuples (a, b wings, c–d hinge: the order is the element).
        expect(tupleKeys(body.stretch.indices, 2, true)).toEqual(tupleKeys(t.stretch, 2, true));
        expect(tupleKeys(body.shear.indices, 2, true)).toEqual(tupleKeys(t.shear, 2, true));
        expect(tupleKeys(body.bend.indices, 4, false)).toEqual(tupleKeys(t.bend, 4, false));
        // And they are reordered, not merely copied (the solver sweeps them in colour order).
        expect(Array.from(body.stretch.indices)).not.toEqual(Array.from(t.stretch));
    });

    test("tets and edges of a tetrahedralised box: the same multisets of tuples", () => {
        const box = boxMesh([1, 0.5, 0.6], [0, 0.25, 0]);
        const tets = tetrahedralize(box.positions, box.indices, { resolution: 5 });
        const particleCount = tets.positions.length / 3;
        const edges = tetEdges(tets.tets, particleCount);
        const body = new SoftBody({ positions: tets.positions, tets: tets.tets, stretch: edges, triangles: tets.surfaceTriangles });
        expect(body.volume.count).toBe(tets.tets.length / 4);
        expect(body.volume.count).toBeGreaterThan(50);
        // Tets as ordered 4-tuples (the order is the orientation, which the rest volume's sign depends on).
        expect(tupleKeys(body.volume.indices, 4, false)).toEqual(tupleKeys(tets.tets, 4, false));
        expect(tupleKeys(body.stretch.indices, 2, true)).toEqual(tupleKeys(edges, 2, true));
        expect(Array.from(body.volume.indices)).not.toEqual(Array.from(tets.tets));
    });
});
