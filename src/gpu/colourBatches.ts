/**
 * Splits a constraint list into the dispatches of a parallel Gauss–Seidel sweep: maximal runs of consecutive
 * constraints that share no particle. Every run can be projected at once, one thread per constraint, with the same
 * result as projecting it one constraint after another, so the runs in order (or in reverse order, for a backward
 * sweep) reproduce the CPU solver's sweep exactly, up to floating-point rounding.
 *
 * A body's constraints are already in colour order (`colourOrder` in the core): colour after colour, and no two
 * constraints of a colour share a particle. A run therefore never ends inside a colour except where the previous run
 * reached into it, so there are at most as many runs as colours (a cloth's stretch edges: 4; its shear edges: 2;
 * its bend elements: about 8). Constraints that the colouring had to put together in its overflow colour (which may
 * share particles) simply split into more runs, and stay exact.
 *
 * @param indices - particle indices, `arity` per constraint, in the order the CPU solver sweeps them
 * @param arity - particles per constraint
 * @param particleCount - number of particles (indices are below it)
 * @returns the first constraint of each run, then the constraint count: run `r` is `[starts[r], starts[r + 1])`
 */
export function colourBatches(indices: Int32Array, arity: number, particleCount: number): Int32Array {
    const count = Math.floor(indices.length / arity);
    // The run each particle was last touched in (−1: none yet); a constraint touching the current run starts a new one.
    const lastRun = new Int32Array(particleCount).fill(-1);
    const starts: number[] = [];
    for (let c = 0; c < count; c++) {
        const run = starts.length - 1;
        let conflict = run < 0;
        for (let k = 0; k < arity && !conflict; k++) {
            conflict = lastRun[indices[arity * c + k]] === run;
        }
        if (conflict) {
            starts.push(c);
        }
        for (let k = 0; k < arity; k++) {
            lastRun[indices[arity * c + k]] = starts.length - 1;
        }
    }
    starts.push(count);
    return Int32Array.from(starts);
}
