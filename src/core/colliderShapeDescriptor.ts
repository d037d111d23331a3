/** A point or direction as `[x, y, z]`. */
export type Vector3Tuple = readonly [number, number, number];
/** A rotation quaternion as `[x, y, z, w]`. */
export type QuaternionTuple = readonly [number, number, number, number];

/**
 * The geometry of one collider shape, in the local frame of the {@link Collider} that owns it.
 * Every kind is exact (a signed distance with a well-defined inside), except that `convexHull` measures the distance
 * to its face planes (exact inside and in front of a face, slightly short near edges and corners).
 */
export type ColliderShapeDescriptor =
    /** Half-space `normal · x ≤ offset` is solid. `normal` is normalised on build. */
    | { kind: "plane"; normal: Vector3Tuple; offset: number }
    | { kind: "sphere"; center: Vector3Tuple; radius: number }
    /** An oriented box; `rotation` defaults to identity. */
    | { kind: "box"; center: Vector3Tuple; halfExtents: Vector3Tuple; rotation?: QuaternionTuple }
    /** The points within `radius` of the segment A–B. */
    | { kind: "capsule"; pointA: Vector3Tuple; pointB: Vector3Tuple; radius: number }
    /** A solid cylinder with axis A–B and flat caps. */
    | { kind: "cylinder"; pointA: Vector3Tuple; pointB: Vector3Tuple; radius: number }
    /** A closed convex polyhedron given by its boundary triangles (xyz positions, 3 indices per triangle). */
    | { kind: "convexHull"; positions: ArrayLike<number>; indices: ArrayLike<number> }
    /**
     * A triangle mesh (also heightfields). Closed meshes have an inside (winding decides); open ones are two-sided
     * sheets and particles are kept `thickness` away from either side.
     */
    | { kind: "mesh"; positions: ArrayLike<number>; indices: ArrayLike<number> };
