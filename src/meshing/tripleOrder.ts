/**
 * Lexicographic ordering of index triples, used to find repeated triangles (cloth) and unpaired tet faces
 * (tetrahedralisation) without hashing three indices into one number.
 */

/**
 * Returns the permutation that sorts `count` triples (`triples[3i..3i+2]`, each already sorted ascending)
 * lexicographically; equal triples end up adjacent, in increasing original order (the sort is stable).
 * @param triples - Index triples, 3 per entry, each sorted ascending.
 * @param count - Number of triples to order.
 */
export function sortedTripleOrder(triples: Int32Array, count: number): Int32Array {
    const order = new Int32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort(
        (i, j) =>
            triples[3 * i] - triples[3 * j] || triples[3 * i + 1] - triples[3 * j + 1] || triples[3 * i + 2] - triples[3 * j + 2] || i - j,
    );
    return order;
}

/**
 * Writes `a`, `b`, `c` sorted ascending into `out[3i..3i+2]`.
 * @param out - Destination triples.
 * @param i - Triple index.
 * @param a - First value.
 * @param b - Second value.
 * @param c - Third value.
 */
export function writeSortedTriple(out: Int32Array, i: number, a: number, b: number, c: number): void {
    if (a > b) {
        const t = a;
        a = b;
        b = t;
    }
    if (b > c) {
        const t = b;
        b = c;
        c = t;
    }
    if (a > b) {
        const t = a;
        a = b;
        b = t;
    }
    out[3 * i] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
}
