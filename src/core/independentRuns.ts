/**
 * Marks, for each element `e` of a list of `count` elements of `arity` particle indices each, whether elements
 * `e` … `e + lanes − 1` share no particle (1) or do (0), into `out` (0 where fewer than `lanes` elements remain). A SIMD
 * kernel projects such a run side by side, which is only the same as one after another when the run shares no
 * particle; it reads this table, made when the list is, instead of comparing indices in every sweep.
 */
export function markIndependentRuns(indices: Int32Array, arity: number, lanes: number, count: number, out: Int32Array): void {
    out.fill(0);
    for (let e = 0; e + lanes - 1 < count; e++) {
        let shared = false;
        // Every index of each element against every index of each later one in the run.
        const end = arity * (e + lanes);
        for (let i = arity * e; i < end - arity && !shared; i++) {
            for (let j = arity * (Math.floor(i / arity) + 1); j < end; j++) {
                if (indices[i] === indices[j]) {
                    shared = true;
                    break;
                }
            }
        }
        out[e] = shared ? 0 : 1;
    }
}
