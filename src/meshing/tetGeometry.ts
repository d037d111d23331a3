/**
 * Shape quality of a tetrahedron given by four particle indices into an xyz array.
 */
import { tetVolume } from "../core/volumeConstraints.js";

/**
 * Shape quality `6√2 · V / ℓ³rms`, where ℓrms is the root mean square of the six edge lengths: 1 for a regular
 * tetrahedron, about 0.93 for a body-centred-cubic lattice tet, → 0 for a flat one, negative when inverted.
 * @param p - Positions, xyz interleaved.
 * @param a - First corner index.
 * @param b - Second corner index.
 * @param c - Third corner index.
 * @param d - Fourth corner index.
 */
export function tetQuality(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
    const sumSquares =
        distanceSquared(p, a, b) +
        distanceSquared(p, a, c) +
        distanceSquared(p, a, d) +
        distanceSquared(p, b, c) +
        distanceSquared(p, b, d) +
        distanceSquared(p, c, d);
    if (sumSquares === 0) return 0;
    const rms = Math.sqrt(sumSquares / 6);
    return (6 * Math.SQRT2 * tetVolume(p, a, b, c, d)) / (rms * rms * rms);
}

function distanceSquared(p: ArrayLike<number>, i: number, j: number): number {
    const x = p[3 * i] - p[3 * j],
        y = p[3 * i + 1] - p[3 * j + 1],
        z = p[3 * i + 2] - p[3 * j + 2];
    return x * x + y * y + z * z;
}
