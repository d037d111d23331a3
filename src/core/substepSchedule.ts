/**
 * Which of the world's substeps a body with fewer substeps of its own is solved in (see `SoftBody.substeps`).
 *
 * A step of `n` world substeps solves such a body in `m < n` substeps, each ending where a world substep ends, so the
 * body's state is at the world's time whenever it is solved, and its contacts, pins and soft contacts meet the
 * others at the right instant. Its substep `j` (from 0) ends at the end of world substep `E(j) − 1`, where
 * `E(j) = ⌈(j + 1)·n / m⌉`: as evenly spread as whole world substeps allow (n = 5, m = 3: spans of 2, 2 and 1).
 * Integer arithmetic only: the schedule is the same on every machine.
 */

/**
 * How many world substeps the body's substep ending with world substep `s` (from 0) spans, or 0 when none of the
 * body's substeps ends there (the body waits). `n` world substeps per step, `m` of the body's (`1 ≤ m < n`).
 */
export function substepSpan(s: number, n: number, m: number): number {
    // Body substeps ended by the end of world substep s, and by the end of the one before.
    const done = Math.floor(((s + 1) * m) / n);
    const before = Math.floor((s * m) / n);
    if (done === before) {
        return 0;
    }
    // The world substeps ended when the body's previous substep ended: E(done − 2), or 0 for its first.
    const start = done >= 2 ? Math.ceil(((done - 1) * n) / m) : 0;
    return s + 1 - start;
}

/** The substeps a body with `m` of its own (`SoftBody.substeps`, 0 for the world's) is solved in per step of `n`. */
export function bodySubsteps(n: number, m: number): number {
    return m > 0 && m < n ? m : n;
}
