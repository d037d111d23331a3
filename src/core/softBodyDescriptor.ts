/**
 * What a soft body is built from: particle rest positions and the index lists of each constraint kind.
 * `src/meshing` produces these arrays from meshes; the core validates them when a {@link SoftBody} is built.
 */
export interface SoftBodyDescriptor {
    /** Particle rest positions in world space (metres), xyz interleaved. */
    positions: ArrayLike<number>;
    /**
     * Per-particle masses in kg. When omitted, {@link SoftBodyDescriptor.mass} is spread over the particles by
     * tetrahedron volume when `tets` are given, else by triangle area when `triangles` are given, else evenly.
     */
    particleMasses?: ArrayLike<number>;
    /** Total mass in kg, used when `particleMasses` is omitted. Default 1 (or what {@link SoftBodyDescriptor.density} gives). */
    mass?: number;
    /**
     * Density, used when neither `particleMasses` nor `mass` is given: kg/m³ of tetrahedron volume when `tets` are
     * given, else kg/m² of triangle area (a cloth's areal density, "fabric weight"). The total mass is the density
     * times the rest volume or area, spread like `mass`.
     */
    density?: number;
    /** Surface triangles, 3 particle indices each (either winding: the core never relies on it): mass and wind. */
    triangles?: ArrayLike<number>;
    /** Stretch (structural) distance constraints: particle index pairs. */
    stretch?: ArrayLike<number>;
    /** Shear distance constraints: particle index pairs. */
    shear?: ArrayLike<number>;
    /**
     * Bend (dihedral angle) elements, 4 particle indices each: `[a, b, c, d]` where `c`–`d` is the hinge edge
     * shared by triangles `(a, c, d)` and `(b, d, c)`, and `a`, `b` are the two wing vertices.
     */
    bend?: ArrayLike<number>;
    /** Tetrahedra, 4 particle indices each, positively oriented: `((b − a) × (c − a)) · (d − a) > 0`. */
    tets?: ArrayLike<number>;
}
