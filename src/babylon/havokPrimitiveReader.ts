/**
 * Rebuilds Havok's primitive shapes (box, capsule, cylinder, convex hull) from what Havok exposes: its bounding box
 * of the shape under a chosen rotation, its mass properties (volume-exact for the primitives) and its debug display
 * geometry. Havok keeps no shape parameters that can be queried.
 */
import type { ColliderShapeDescriptor } from "../core/colliderShapeDescriptor.js";
import {
    add,
    conjugate,
    cross,
    dot,
    length,
    mid,
    normalize,
    quatFromAxes,
    quatFromUnitVectors,
    rotate,
    scale,
    sub,
    type Quat,
    type Vec3,
} from "../core/tupleMath.js";
import type { HavokNative, ShapeId } from "./havokNative.js";

/** The box's axes come from the 8 corners of Havok's core box (shrunk by the convex radius), the radius from its AABB. */
export function readBox(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions } = geometry(hk, id);
    const corners: Vec3[] = [];
    for (let i = 0; i < positions.length; i += 3) {
        corners.push([positions[i], positions[i + 1], positions[i + 2]]);
    }
    const center = scale(
        corners.reduce((sum, c) => add(sum, c), [0, 0, 0] as Vec3),
        1 / corners.length,
    );
    // From one corner the shortest edge is shorter than any diagonal; each next edge is the shortest offset
    // orthogonal to the edges found so far. A box no thicker than twice the convex radius has a flat (or thinner)
    // core whose corners coincide: its missing edges have length 0 and directions that complete the frame.
    const extent = Math.max(...corners.map((c) => length(sub(c, center))));
    const offsets = corners
        .slice(1)
        .map((c) => sub(c, corners[0]))
        .filter((d) => length(d) > 1e-6 * extent);
    const edges: Vec3[] = [];
    for (let k = 0; k < 3; k++) {
        let best: Vec3 | undefined;
        for (const d of offsets) {
            const orthogonal = edges.every((e) => length(e) === 0 || Math.abs(dot(d, e)) <= 1e-4 * length(d) * length(e));
            if (orthogonal && (!best || length(d) < length(best))) {
                best = d;
            }
        }
        edges.push(best ?? [0, 0, 0]);
    }
    const directions = completeFrame(edges);
    const { axes, order } = alignAxes(directions);
    const core = order.map((k) => length(edges[k]) / 2) as Vec3;
    const [min, max] = boundsUnder(hk, id, [0, 0, 0, 1]);
    // AABB half size along world axis i = Σ_j |axis_j[i]| core_j + convex radius.
    let convexRadius = 0;
    for (let i = 0; i < 3; i++) {
        const coreHalf = axes.reduce((sum, axis, j) => sum + Math.abs(axis[i]) * core[j], 0);
        convexRadius += ((max[i] - min[i]) / 2 - coreHalf) / 3;
    }
    return {
        kind: "box",
        center,
        halfExtents: core.map((h) => h + convexRadius) as Vec3,
        rotation: quatFromAxes(axes),
    };
}

/**
 * Unit directions of three mutually orthogonal edges, some of which may have length 0 (a degenerate box core):
 * the zero ones get directions that complete a right angle frame with the others.
 */
function completeFrame(edges: Vec3[]): [Vec3, Vec3, Vec3] {
    const known = edges.filter((e) => length(e) > 0).map(normalize);
    if (known.length === 0) {
        known.push([1, 0, 0]);
    }
    if (known.length === 1) {
        // Any direction orthogonal to the first: cross it with the world axis it is least aligned with.
        const u = known[0];
        const least = [0, 1, 2].reduce((a, b) => (Math.abs(u[b]) < Math.abs(u[a]) ? b : a));
        known.push(normalize(cross(u, [least === 0 ? 1 : 0, least === 1 ? 1 : 0, least === 2 ? 1 : 0])));
    }
    if (known.length === 2) {
        known.push(normalize(cross(known[0], known[1])));
    }
    // Back in edge order, so that each direction keeps its edge's length.
    let next = edges.filter((e) => length(e) > 0).length;
    return edges.map((e) => (length(e) > 0 ? normalize(e) : known[next++])) as [Vec3, Vec3, Vec3];
}

/**
 * Assigns three orthonormal directions to the x, y, z axes so that the rotation is closest to identity (a box
 * created without rotation reads back with identity), then makes it right-handed.
 */
function alignAxes(dirs: [Vec3, Vec3, Vec3]): { axes: [Vec3, Vec3, Vec3]; order: number[] } {
    const permutations = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let order = permutations[0];
    let bestScore = -1;
    for (const p of permutations) {
        const score = p.reduce((sum, k, j) => sum + Math.abs(dirs[k][j]), 0);
        if (score > bestScore) {
            bestScore = score;
            order = p;
        }
    }
    const axes = order.map((k, j) => (dirs[k][j] < 0 ? scale(dirs[k], -1) : dirs[k])) as [Vec3, Vec3, Vec3];
    if (dot(cross(axes[0], axes[1]), axes[2]) < 0) {
        // Flipping an axis keeps the box; flip the one least aligned with its target axis.
        const j = [0, 1, 2].reduce((a, b) => (Math.abs(axes[b][b]) < Math.abs(axes[a][a]) ? b : a));
        axes[j] = scale(axes[j], -1);
    }
    return { axes, order };
}

/**
 * The axis is the principal axis of least inertia (a capsule is never flatter than a sphere); rotating the shape
 * so the axis lies along y, Havok's AABB then has half sizes (r, halfLength + r, r).
 */
export function readCapsule(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const [, , inertia, orientation] = hk.HP_Shape_BuildMassProperties(id)[1];
    const least = inertia.indexOf(Math.min(...inertia));
    const axis = rotate(orientation, [least === 0 ? 1 : 0, least === 1 ? 1 : 0, least === 2 ? 1 : 0]);
    const toY = quatFromUnitVectors(axis, [0, 1, 0]);
    const [min, max] = boundsUnder(hk, id, toY);
    const radius = (max[0] - min[0]) / 2;
    const halfLength = Math.max(0, (max[1] - min[1]) / 2 - radius);
    const center = rotate(conjugate(toY), mid(min, max));
    return {
        kind: "capsule",
        pointA: sub(center, scale(axis, halfLength)),
        pointB: add(center, scale(axis, halfLength)),
        radius,
    };
}

/**
 * The axis is the normal shared by most triangles of Havok's prism (its two fan-triangulated caps), which works even
 * when the inertia is isotropic. Radius and length come from the per-unit-mass inertia, which Havok computes for the
 * exact cylinder: about the axis r²/2, across it r²/4 + L²/12.
 */
export function readCylinder(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions, indices } = geometry(hk, id);
    const normals: Vec3[] = [];
    for (let t = 0; t < indices.length; t += 3) {
        const n = triangleNormal(positions, indices[t], indices[t + 1], indices[t + 2]);
        if (n) {
            normals.push(n);
        }
    }
    let axis: Vec3 = [0, 1, 0];
    let bestCount = 0;
    for (const n of normals) {
        const count = normals.reduce((c, m) => c + (Math.abs(dot(n, m)) > 1 - 1e-5 ? 1 : 0), 0);
        if (count > bestCount) {
            bestCount = count;
            axis = n;
        }
    }
    const [center, , inertia, orientation] = hk.HP_Shape_BuildMassProperties(id)[1];
    const across = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
    const radius = Math.sqrt(2 * inertiaAbout(inertia, orientation, axis));
    const halfLength = Math.sqrt(Math.max(0, 12 * inertiaAbout(inertia, orientation, across) - 3 * radius * radius)) / 2;
    return {
        kind: "cylinder",
        pointA: sub(center, scale(axis, halfLength)),
        pointB: add(center, scale(axis, halfLength)),
        radius,
    };
}

/** Havok's debug geometry is the core hull, shrunk by the convex radius; each face is pushed back out by it. */
export function readConvexHull(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions, indices } = geometry(hk, id);
    const count = positions.length / 3;
    const [min, max] = boundsUnder(hk, id, [0, 0, 0, 1]);
    const coreMin: Vec3 = [Infinity, Infinity, Infinity];
    const coreMax: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < count; v++) {
        for (let i = 0; i < 3; i++) {
            coreMin[i] = Math.min(coreMin[i], positions[3 * v + i]);
            coreMax[i] = Math.max(coreMax[i], positions[3 * v + i]);
        }
    }
    // A Minkowski sum with a ball grows the support in every direction by the radius.
    let convexRadius = 0;
    for (let i = 0; i < 3; i++) {
        convexRadius += (max[i] - coreMax[i] + coreMin[i] - min[i]) / 6;
    }
    const faceNormals: Vec3[][] = Array.from({ length: count }, () => []);
    for (let t = 0; t < indices.length; t += 3) {
        const n = triangleNormal(positions, indices[t], indices[t + 1], indices[t + 2]);
        for (let k = 0; n && k < 3; k++) {
            const list = faceNormals[indices[t + k]];
            if (!list.some((m) => dot(m, n) > 1 - 1e-5)) {
                list.push(n);
            }
        }
    }
    const expanded = new Float32Array(positions.length);
    for (let v = 0; v < count; v++) {
        // Least-squares displacement d with n·d = convexRadius for every face at the vertex (exact for three faces).
        const normalMatrix = [0, 0, 0, 0, 0, 0, 0, 0, 0];
        let rhs: Vec3 = [0, 0, 0];
        for (const n of faceNormals[v]) {
            for (let r = 0; r < 3; r++) {
                for (let c = 0; c < 3; c++) {
                    normalMatrix[3 * r + c] += n[r] * n[c];
                }
            }
            rhs = add(rhs, scale(n, convexRadius));
        }
        const d = solve3(normalMatrix, rhs) ?? [0, 0, 0];
        for (let i = 0; i < 3; i++) {
            expanded[3 * v + i] = positions[3 * v + i] + d[i];
        }
    }
    return { kind: "convexHull", positions: expanded, indices };
}

/** Havok's bounds of the shape rotated by `rotation` (the only way to read a shape's extent along other axes). */
export function boundsUnder(hk: HavokNative, id: ShapeId, rotation: Quat): [Vec3, Vec3] {
    return hk.HP_Shape_GetBoundingBox(id, [[0, 0, 0], rotation])[1];
}

/** Havok's debug display triangles of one shape (what `HavokPlugin.getBodyGeometry` returns for a body's shape). */
export function geometry(hk: HavokNative, id: ShapeId): { positions: Float32Array; indices: Uint32Array } {
    const [result, handle] = hk.HP_Shape_CreateDebugDisplayGeometry(id);
    if (result !== hk.Result.RESULT_OK) {
        return { positions: new Float32Array(0), indices: new Uint32Array(0) };
    }
    const [positionsAt, vertexCount, indicesAt, triangleCount] = hk.HP_DebugGeometry_GetInfo(handle)[1];
    // Copies: releasing the geometry frees the WASM memory these views point into.
    const positions = new Float32Array(hk.HEAPU8.buffer, positionsAt, vertexCount * 3).slice();
    const indices = new Uint32Array(hk.HEAPU8.buffer, indicesAt, triangleCount * 3).slice();
    hk.HP_DebugGeometry_Release(handle);
    return { positions, indices };
}

function triangleNormal(positions: ArrayLike<number>, a: number, b: number, c: number): Vec3 | undefined {
    const pa: Vec3 = [positions[3 * a], positions[3 * a + 1], positions[3 * a + 2]];
    const n = cross(
        sub([positions[3 * b], positions[3 * b + 1], positions[3 * b + 2]], pa),
        sub([positions[3 * c], positions[3 * c + 1], positions[3 * c + 2]], pa),
    );
    return length(n) > 1e-12 ? normalize(n) : undefined;
}

/** Moment about unit axis `u` of the inertia tensor R diag(moments) Rᵀ. */
function inertiaAbout(moments: Vec3, orientation: Quat, u: Vec3): number {
    const local = rotate(conjugate(orientation), u);
    return moments[0] * local[0] * local[0] + moments[1] * local[1] * local[1] + moments[2] * local[2] * local[2];
}

/** Solves the symmetric 3×3 system `m x = b` (row-major) by Cramer's rule; undefined when singular. */
function solve3(m: number[], b: Vec3): Vec3 | undefined {
    const c0: Vec3 = [m[0], m[3], m[6]];
    const c1: Vec3 = [m[1], m[4], m[7]];
    const c2: Vec3 = [m[2], m[5], m[8]];
    const det = dot(c0, cross(c1, c2));
    if (Math.abs(det) < 1e-12) {
        return undefined;
    }
    return [dot(b, cross(c1, c2)) / det, dot(c0, cross(b, c2)) / det, dot(c0, cross(c1, b)) / det];
}
