/**
 * What a mesh-built collider shape needs from its vertex data at construction: the bounds of the points, and the
 * face planes of a convex hull. Not on the solver's path: only {@link ColliderShape}'s constructor calls these.
 */
import { finiteNumber } from "./argumentChecks.js";

/** Axis-aligned bounds (min xyz, max xyz) of vertex positions into `out`; throws on non-triples or non-finite values. */
export function pointBounds(positions: ArrayLike<number>, out: Float64Array): void {
    if (positions.length < 3 || positions.length % 3 !== 0) {
        throw new Error(`shape positions must hold xyz triples, got ${positions.length} numbers`);
    }
    out.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (let i = 0; i < positions.length; i += 3) {
        for (let axis = 0; axis < 3; axis++) {
            const v = finiteNumber(positions[i + axis], `shape position ${i / 3}`);
            out[axis] = Math.min(out[axis], v);
            out[axis + 3] = Math.max(out[axis + 3], v);
        }
    }
}

/**
 * Outward face planes of a convex polyhedron given as triangles. Winding is not trusted (hosts differ): each plane
 * is oriented so the centroid of the vertices is behind it. Near-duplicate planes (coplanar triangles) are merged.
 */
export function convexPlanes(positions: ArrayLike<number>, indices: ArrayLike<number>): Float64Array {
    const vertexCount = positions.length / 3;
    if (indices.length < 12 || indices.length % 3 !== 0) {
        throw new Error(`convex hull needs at least 4 triangles, got ${indices.length / 3}`);
    }
    let cx = 0;
    let cy = 0;
    let cz = 0;
    for (let i = 0; i < positions.length; i += 3) {
        cx += positions[i];
        cy += positions[i + 1];
        cz += positions[i + 2];
    }
    cx /= vertexCount;
    cy /= vertexCount;
    cz /= vertexCount;
    const planes: number[] = [];
    for (let t = 0; t < indices.length; t += 3) {
        const ia = indices[t];
        const ib = indices[t + 1];
        const ic = indices[t + 2];
        if (![ia, ib, ic].every((i) => Number.isInteger(i) && i >= 0 && i < vertexCount)) {
            throw new Error(`convex hull triangle ${t / 3} has an index out of range [0, ${vertexCount})`);
        }
        const ax = positions[3 * ia];
        const ay = positions[3 * ia + 1];
        const az = positions[3 * ia + 2];
        const ux = positions[3 * ib] - ax;
        const uy = positions[3 * ib + 1] - ay;
        const uz = positions[3 * ib + 2] - az;
        const vx = positions[3 * ic] - ax;
        const vy = positions[3 * ic + 1] - ay;
        const vz = positions[3 * ic + 2] - az;
        let nx = uy * vz - uz * vy;
        let ny = uz * vx - ux * vz;
        let nz = ux * vy - uy * vx;
        const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(length > 1e-12)) {
            continue;
        }
        nx /= length;
        ny /= length;
        nz /= length;
        let offset = nx * ax + ny * ay + nz * az;
        if (nx * cx + ny * cy + nz * cz > offset) {
            nx = -nx;
            ny = -ny;
            nz = -nz;
            offset = -offset;
        }
        let duplicate = false;
        for (let k = 0; k < planes.length; k += 4) {
            if (planes[k] * nx + planes[k + 1] * ny + planes[k + 2] * nz > 1 - 1e-9 && Math.abs(planes[k + 3] - offset) < 1e-7) {
                duplicate = true;
                break;
            }
        }
        if (!duplicate) {
            planes.push(nx, ny, nz, offset);
        }
    }
    if (planes.length < 16) {
        throw new Error("convex hull is flat: fewer than 4 distinct face planes");
    }
    return new Float64Array(planes);
}
