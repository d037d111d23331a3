/**
 * The unique edges of a tetrahedral mesh, as particle index pairs (smaller index first, in order of first
 * appearance): the stretch constraints of a soft body.
 * @param tets - Four particle indices per tetrahedron.
 * @param particleCount - Number of particles the indices refer to.
 */
export function tetEdges(tets: ArrayLike<number>, particleCount: number): Int32Array {
    // Edge (i, j) with i < j is keyed i·n + j; a Set of numbers keeps the first-appearance order deterministic.
    const seen = new Set<number>();
    const edges: number[] = [];
    for (let t = 0; t < tets.length; t += 4) {
        for (let a = 0; a < 4; a++) {
            for (let b = a + 1; b < 4; b++) {
                const i = Math.min(tets[t + a], tets[t + b]);
                const j = Math.max(tets[t + a], tets[t + b]);
                const key = i * particleCount + j;
                if (!seen.has(key)) {
                    seen.add(key);
                    edges.push(i, j);
                }
            }
        }
    }
    return Int32Array.from(edges);
}
