/**
 * A rope as a chain of particles along a polyline: positions, the stretch pairs (neighbours), the bend pairs (every
 * other particle) and masses lumped by length.
 */

/** A rope's particles and constraint lists (see {@link buildRopeChain}). */
export interface RopeChain {
    /** Particle positions, xyz interleaved (the polyline's frame). */
    positions: Float64Array;
    /** Stretch constraints: particles `i, i + 1`. */
    stretch: Int32Array;
    /**
     * Bend constraints: particles `i, i + 2`, a distance constraint across each joint. Bending a joint by θ shortens
     * it by about `L·θ²/4` for segments of length L, so it resists sharp kinks firmly and gentle curves barely: what a
     * rope does, at the cost (and with the kernels) of a stretch constraint, where an angle constraint per joint would
     * need its own kernel for a stiffness a rope hardly has.
     */
    bend: Int32Array;
    /** Particle masses (kg): each segment's share of the mass, half to each end. */
    masses: Float64Array;
    /** Length of the polyline (m). */
    length: number;
}

/**
 * The chain of equal segments along the polyline `points` (xyz interleaved, at least two points): `segments` of
 * them, else as many as make segments closest to `segmentLength` (m; at least one), else (both undefined) one particle
 * per point. The total `mass` (kg) is spread by length.
 * @throws RangeError for fewer than two points, a non-finite coordinate, a polyline of zero length, or a segment count
 *   that is not a positive integer
 */
export function buildRopeChain(points: ArrayLike<number>, mass: number, segments?: number, segmentLength?: number): RopeChain {
    const count = Math.floor(points.length / 3);
    if (count < 2 || points.length % 3 !== 0) {
        throw new RangeError(`a rope needs a path of at least 2 points (xyz each), got ${points.length} numbers`);
    }
    for (let k = 0; k < points.length; k++) {
        if (!Number.isFinite(points[k])) {
            throw new RangeError(`rope path point ${Math.floor(k / 3)} has a non-finite ${"xyz"[k % 3]} coordinate (${points[k]})`);
        }
    }
    // Arc length at each point.
    const along = new Float64Array(count);
    for (let i = 1; i < count; i++) {
        along[i] =
            along[i - 1] +
            Math.hypot(points[3 * i] - points[3 * i - 3], points[3 * i + 1] - points[3 * i - 2], points[3 * i + 2] - points[3 * i - 1]);
    }
    const length = along[count - 1];
    if (!(length > 0)) {
        throw new RangeError("a rope's path must have a length (its points all coincide)");
    }
    if (segments === undefined && segmentLength !== undefined) {
        segments = Math.max(1, Math.round(length / segmentLength));
    }
    let positions: Float64Array;
    if (segments === undefined) {
        positions = Float64Array.from(points);
    } else {
        if (!Number.isInteger(segments) || segments < 1) {
            throw new RangeError(`a rope's segments must be a positive integer, got ${segments}`);
        }
        positions = new Float64Array(3 * (segments + 1));
        let span = 0;
        for (let p = 0; p <= segments; p++) {
            const s = (length * p) / segments;
            while (span < count - 2 && along[span + 1] < s) {
                span++;
            }
            const width = along[span + 1] - along[span];
            const t = width > 0 ? Math.min(Math.max((s - along[span]) / width, 0), 1) : 0;
            for (let axis = 0; axis < 3; axis++) {
                const a = points[3 * span + axis];
                positions[3 * p + axis] = a + (points[3 * span + 3 + axis] - a) * t;
            }
        }
    }
    const n = positions.length / 3;
    const stretch = new Int32Array(2 * (n - 1));
    for (let i = 0; i + 1 < n; i++) {
        stretch[2 * i] = i;
        stretch[2 * i + 1] = i + 1;
    }
    const bend = new Int32Array(2 * Math.max(n - 2, 0));
    for (let i = 0; i + 2 < n; i++) {
        bend[2 * i] = i;
        bend[2 * i + 1] = i + 2;
    }
    const masses = new Float64Array(n);
    for (let i = 0; i + 1 < n; i++) {
        const d = Math.hypot(
            positions[3 * i + 3] - positions[3 * i],
            positions[3 * i + 4] - positions[3 * i + 1],
            positions[3 * i + 5] - positions[3 * i + 2],
        );
        masses[i] += d / 2;
        masses[i + 1] += d / 2;
    }
    let total = 0;
    for (let i = 0; i < n; i++) {
        // A particle between repeated points still gets a little mass.
        masses[i] = Math.max(masses[i], length * 1e-6);
        total += masses[i];
    }
    for (let i = 0; i < n; i++) {
        masses[i] *= mass / total;
    }
    return { positions, stretch, bend, masses, length };
}
