/**
 * Volume enclosed by triangles (m³): the sum of the signed volumes of the tetrahedra each triangle makes with the
 * origin, positive when the triangles wind counter-clockwise seen from outside. Meaningful for a closed surface (an
 * open one gives a value that depends on the origin).
 *
 * @param triangles - particle indices, three per triangle
 * @param x - positions, xyz per particle
 */
export function enclosedVolume(triangles: ArrayLike<number>, x: ArrayLike<number>): number {
    let six = 0;
    for (let k = 0; k < triangles.length; k += 3) {
        const a = 3 * triangles[k];
        const b = 3 * triangles[k + 1];
        const c = 3 * triangles[k + 2];
        six +=
            x[a] * (x[b + 1] * x[c + 2] - x[b + 2] * x[c + 1]) +
            x[a + 1] * (x[b + 2] * x[c] - x[b] * x[c + 2]) +
            x[a + 2] * (x[b] * x[c + 1] - x[b + 1] * x[c]);
    }
    return six / 6;
}
