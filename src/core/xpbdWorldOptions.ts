/** Options of an {@link XpbdWorld}; every field has a default. */
export interface XpbdWorldOptions {
    /** Gravity (m/s²). Default `[0, −9.81, 0]`. */
    gravity?: readonly [number, number, number];
    /**
     * Substeps per step (the quality tier). Default 5. A particle moves `v·dt/substeps` per substep, so fast contacts
     * and impacts want more; stretch falls fast with them (at 60 Hz a 32×32 cloth hung by two corners stretches
     * ×1.03 at 1 substep, ×1.006 at 2, ×1.002 at 5).
     */
    substeps?: number;
    /**
     * Solver iterations per substep, each two Gauss–Seidel passes over every constraint (bending forward, then
     * backward: see `ConstraintSet.symmetric`). Default 1. More substeps buy more accuracy than more iterations for
     * the same cost (smaller steps also shrink the error each pass has to remove), so raise the substeps first.
     */
    iterations?: number;
    /** Broad-phase grid cell edge (m). Default 0.5. */
    cellSize?: number;
    /** Events one step can hold. Default 256. */
    eventCapacity?: number;
    /** Broad-phase grid entries (shape × cell). Default 65,536. */
    gridCapacity?: number;
    /** Wind velocity (m/s, world) acting on every body's surface triangles (see `aerodynamics.ts`). Default zero. */
    wind?: readonly [number, number, number];
    /** Air density ρ (kg/m³) of the aerodynamic force; 0 turns aerodynamics off. Default 1.2. */
    airDensity?: number;
    /**
     * Whether each step times itself for {@link StepStats.stepMs} (two reads of `performance.now`, or `Date.now` where
     * there is none). Default true. Reading a clock is the one allocation of a steady-state step: V8 returns the time
     * as a boxed number, 16 bytes per read. With `false` the step allocates nothing and `stepMs` stays 0.
     */
    timing?: boolean;
    /**
     * Whether each step also measures the bend residuals (`StepStats.maxBendResidual`, `meanBendResidual`) and fills
     * every body's per-particle residual arrays (`stretchResidual`, `bendResidual`, `volumeResidual`: the heatmaps).
     * Default false: they cost about as much as a substep's bending, and only a debugging view reads them (the
     * Inspector turns this on while it is open). Edge ratios, volume figures, energy and events are always measured.
     */
    residuals?: boolean;
    /**
     * Whether the bodies collide with each other: every surface particle of a body with triangles keeps the mean of
     * the two thicknesses from the other bodies' triangles, pairs filtered by `membership` / `collideWith` as against
     * colliders (see `softContacts.ts`; a body with itself is `SoftBodyOptions.selfCollision`). It costs nothing while
     * the bodies' bounds stay apart; touching, a spatial hash of their surface particles each substep (a 32×32 cloth
     * on another: see `npm run bench`). Default true (false in defaults version 1, as in 0.1).
     */
    softContacts?: boolean;
    /**
     * Soft contact candidates (particle–triangle pairs) one substep can hold; more are dropped and reported once
     * (`CapacityExceeded`, element 3). Default 65,536.
     */
    softContactCapacity?: number;
    /**
     * Defaults version that fills in the options not given, and that bodies and colliders built for this world should
     * use (see `defaultsTable.ts`): a world built with version n behaves the same in every later release. Default
     * the newest (`LATEST_DEFAULTS_VERSION`).
     */
    defaultsVersion?: number;
}
