import { getDefaults } from "./defaults.js";
import type { BendModel } from "./bendSet.js";

/** Options of a {@link SoftBody}. Compliances are XPBD compliances (see `stiffness.ts` for the [0, 1] mapping). */
export interface SoftBodyOptions {
    /** Stretch compliance (m/N). Default 0 (inextensible). */
    stretchCompliance?: number;
    /** Shear compliance (m/N). Default: stiffness 0.9. */
    shearCompliance?: number;
    /** Bend compliance (rad/(N·m)). Default: stiffness 0.5. */
    bendCompliance?: number;
    /**
     * Bending model: `"isometric"` (quadratic isometric bending, cheap, for a cloth flat at rest), `"dihedral"` (the
     * dihedral angle, for any rest shape) or `"auto"`: isometric when every bend element is flat at rest, else
     * dihedral. Both give the same stiffness for small folds. Default `"auto"`.
     */
    bendModel?: BendModel;
    /** Volume compliance. Default 0 (every tet keeps its volume). */
    volumeCompliance?: number;
    /**
     * Damping of deformation: the rate (1/s) at which each particle's velocity relative to the body's rigid motion
     * (`v_cm + ω × r`) decays. For a free body that motion is its best rigid fit and is never damped (a thrown body
     * keeps flying); for a body hanging from weight-1 pins it is the pins' motion. Default 1.
     */
    damping?: number;
    /**
     * Static friction coefficient against colliders (combined with the collider's by geometric mean). Default 0.5, the
     * friction of Babylon's and Havok's default material.
     */
    staticFriction?: number;
    /** Kinetic friction coefficient. Default 0.5. */
    kineticFriction?: number;
    /** Restitution against colliders (the larger of the two is used). Default 0. */
    restitution?: number;
    /** Collision thickness: particles stay this far from collider surfaces (m). Default 0.01. */
    thickness?: number;
    /**
     * Whether the body's particles collide with its own surface triangles (see `softContacts.ts`): a cloth folding on
     * itself, or a jelly's surface, stays `thickness` apart. Particles within `thickness` of a triangle at rest never
     * contact it, so the thickness must be under the spacing of the particles. Default false: it costs a spatial hash
     * of the body's particles and a query per triangle every substep (see `npm run bench`).
     */
    selfCollision?: boolean;
    /** Long-range attachments to weight-1 pins (see `tetherConstraints.ts`). Default true. */
    tethers?: boolean;
    /**
     * Whether the hot loops (distances, isometric bending, tethers) run as WebAssembly where the platform has it
     * (`solverKernels.wat`): bit-identical results, about 1.5× faster steps. Default true; false runs the same loops
     * in JavaScript.
     */
    wasmKernels?: boolean;
    /** Whether the body may fall asleep. Default true. */
    allowSleep?: boolean;
    /** Speed (m/s) under which every particle must stay for the body to sleep. Default 0.02. */
    sleepVelocity?: number;
    /** Seconds the body must stay slow before it sleeps. Default 0.5. */
    sleepTime?: number;
    /** Contact candidates per particle (capacity). Default 4. */
    maxContactsPerParticle?: number;
    /** Collision groups the body belongs to (bit mask). Default all, as Havok's shapes. */
    membership?: number;
    /** Collision groups the body collides with (bit mask). Default all. */
    collideWith?: number;
    /** Edge length / rest length above which an over-stretch event is raised. Default 1.5. */
    overStretchRatio?: number;
    /**
     * Strain limiting (see `strainLimit.ts`): the largest edge length / rest length a stretch edge keeps after each
     * substep (applied late in its last pass, before the soft pins and contacts). Longer edges are shortened to it,
     * the end farther (in edges) from the weight-1 pins moving. For loads the solver cannot carry within a substep
     * (fast pins, strong wind), so the limit is a ceiling, not a stiffness: a body whose edges stayed under halfway
     * to it (`1 + (strainLimit − 1) / 2`) in a step skips it the next step. Only for inextensible stretch
     * (`stretchCompliance` 0): a stretchy fabric stretches as its compliance says. 0 turns it off; otherwise finite
     * and greater than 1. Not applied to a body that tears (`tearRatio`). Default 0 (off; cloth impostors have their
     * own default).
     */
    strainLimit?: number;
    /** Aerodynamic drag coefficient C_D of the surface triangles (see `aerodynamics.ts`). Default 1.2 (a flat plate). */
    dragCoefficient?: number;
    /** Aerodynamic lift coefficient C_L of the surface triangles (see `aerodynamics.ts`). Default 1. */
    liftCoefficient?: number;
    /** Scale of the world's wind this body feels (0 turns its aerodynamics off, still-air drag included). Default 1. */
    windScale?: number;
    /**
     * Defaults version that fills in the options not given (see `defaultsTable.ts`): a body built with version n
     * behaves the same in every later release. Default {@link LATEST_DEFAULTS_VERSION}.
     */
    defaultsVersion?: number;
    /**
     * Tearing: a stretch edge longer than `tearRatio` × its rest length at the end of a step tears, and the body's
     * particles along the tear are split (see `clothTearing.ts`). Greater than 1; `Infinity` (the default) never
     * tears. Only for a cloth: a body with triangles and no tetrahedra. Tearing derives the stretch, shear and bend
     * elements from the triangles again after each tear (as `buildClothTopology` does), so give it those.
     */
    tearRatio?: number;
    /**
     * Shape matching (see `shapeMatching.ts`): every particle is pulled towards the body's rest shape, best fitted to
     * where the particles are, with this compliance α (s²: a deformed body springs back at ω = 1/√α; 0 is rigid).
     * The cheap way to keep a jelly's or a closed cloth's shape and volume, without tetrahedra. Not given (the
     * default), the body has none. Not with {@link tearRatio}.
     */
    shapeMatchingCompliance?: number;
    /**
     * Gas inside a closed cloth (see `gasPressure.ts`), for balloons, air cushions and inflatables: the pressure in
     * pascals (Pa) the gas has when the body encloses its rest volume V₀. That fixes the amount of gas; the gas is
     * ideal and isothermal with no air outside, so at volume V it pushes the surface outwards with
     * `p = pressure V₀ / V` (p·V = pressure·V₀ stays constant). 0 is no gas: the body collapses as one without the
     * option. Finite and ≥ 0. The body's triangles must close (no open edges), else the constructor throws. Not given (the
     * default), the body holds no gas. Not with {@link tearRatio}.
     */
    pressure?: number;
    /**
     * Particles tearing may add (capacity, fixed when the body is built; a tear splits one particle in two). When
     * they run out the body stops tearing and reports it once. Default: the body's particle count. Ignored without
     * {@link tearRatio}.
     */
    maxTearParticles?: number;
}

/**
 * The defaults of {@link SoftBodyOptions} in the newest defaults version (see `defaultsTable.ts` for every version).
 * Tearing is not among them: without `tearRatio` a body never tears (the table holds plain numbers that survive
 * JSON, and a ratio of `Infinity` would not). Nor is shape matching: without `shapeMatchingCompliance` a body has none; nor gas: without `pressure` a body holds none.
 */
export const SOFT_BODY_DEFAULTS: Readonly<
    Required<Omit<SoftBodyOptions, "defaultsVersion" | "tearRatio" | "maxTearParticles" | "shapeMatchingCompliance" | "pressure">>
> = getDefaults().body;
