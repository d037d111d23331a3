import { ClothTearing } from "./clothTearing.js";
import { ColliderAttachments } from "./colliderAttachments.js";
import { colourOrder, reorderConstraints } from "./constraintColouring.js";
import type { ConstraintSet } from "./constraintSet.js";
import { DistanceConstraints } from "./distanceConstraints.js";
import { createBendSet, type BendSet } from "./bendSet.js";
import { getDefaults, resolveDefaultsVersion } from "./defaults.js";
import { KernelMemory } from "./kernelMemory.js";
import { ParticleContacts } from "./particleContacts.js";
import { lumpParticleMasses } from "./particleMasses.js";
import { PinConstraints } from "./pinConstraints.js";
import type { SoftBodyDescriptor } from "./softBodyDescriptor.js";
import type { SoftBodyOptions } from "./softBodyOptions.js";
import { readIndices, readPositions, validateSoftBodyOptions } from "./softBodyValidation.js";
import { StepStats } from "./stepStats.js";
import { StrainLimit } from "./strainLimit.js";
import { TEAR_DETOUR, TETHER_ANCHORS, TetherConstraints } from "./tetherConstraints.js";
import { ShapeMatching } from "./shapeMatching.js";
import { GasPressure } from "./gasPressure.js";
import { VolumeConstraints } from "./volumeConstraints.js";

/**
 * A deformable body: particles in structure-of-arrays form and its constraint sets. Everything is allocated here,
 * once; the solver ({@link XpbdWorld}) only reads and writes these arrays. Construction validates the descriptor
 * and throws an Error naming the offending element.
 */
export class SoftBody {
    /** Id assigned by the world (−1 while not in one). */
    public id = -1;
    /** The defaults version the body's options were completed with (see {@link SoftBodyOptions.defaultsVersion}). */
    public readonly defaultsVersion: number;
    /** The options as given to the constructor, defaults not filled in (a replay rebuilds the body from them). */
    public readonly options: Readonly<SoftBodyOptions>;
    /**
     * Number of particles. It grows only when a cloth tears (up to {@link particleCapacity}); the particle arrays
     * are that long from the start, and only their first `particleCount` entries are live.
     */
    public particleCount: number;
    /** Particles the arrays hold: {@link particleCount} plus, for a cloth that may tear, `maxTearParticles`. */
    public readonly particleCapacity: number;
    /** Tearing (see {@link SoftBodyOptions.tearRatio}); null for a body that never tears. */
    public readonly tearing: ClothTearing | null = null;
    /** Shape matching (see {@link SoftBodyOptions.shapeMatchingCompliance}); null for a body built without it. */
    public readonly shapeMatching: ShapeMatching | null;
    /** The gas inside (see {@link SoftBodyOptions.pressure}); null for a body built without it. */
    public readonly gas: GasPressure | null;
    /** Current positions (xyz per particle, world). */
    public readonly positions: Float64Array;
    /** Positions at the start of the current substep. */
    public readonly previousPositions: Float64Array;
    /** Velocities (m/s). */
    public readonly velocities: Float64Array;
    /** Rest positions (as built). */
    public readonly restPositions: Float64Array;
    /** Particle masses (kg). */
    public readonly masses: Float64Array;
    /** Inverse masses as simulated: 0 for weight-1 pins. */
    public readonly inverseMasses: Float64Array;
    /** External force per particle (N, world), added every substep; the host writes it (e.g. wind). */
    public readonly externalForces: Float64Array;
    /** Surface triangles (particle indices). */
    public readonly triangles: Int32Array;
    /** Stretch constraints. */
    public readonly stretch: DistanceConstraints;
    /** Shear constraints. */
    public readonly shear: DistanceConstraints;
    /** Bend elements (see {@link SoftBodyOptions.bendModel}). */
    public readonly bend: BendSet;
    /** Tet volume constraints. */
    public readonly volume: VolumeConstraints;
    /** The constraint sets the solver sweeps, in order: stretch, shear, bend, volume, then shape matching and the gas (if any). */
    public readonly constraintSets: readonly ConstraintSet[];
    /** Weighted pins. */
    public readonly pins: PinConstraints;
    /** Long-range attachments to the weight-1 pins. */
    public readonly tethers: TetherConstraints;
    /** Contact candidates. */
    public readonly contacts: ParticleContacts;
    /** Particles attached to points of colliders (see {@link ColliderAttachments}). */
    public readonly attachments: ColliderAttachments;
    /**
     * The WebAssembly memory holding the arrays the hot loops touch (positions, previous positions, velocities,
     * external and aerodynamic forces, inverse masses, the stretch, shear and isometric bending lists, the tethers),
     * whose kernels then run those loops; null when
     * {@link SoftBodyOptions.wasmKernels} is off or the platform has no WebAssembly (the JavaScript loops run,
     * bit-identical).
     */
    public readonly kernelMemory: KernelMemory | null;
    /** Total mass (kg). */
    public readonly totalMass: number;
    /**
     * Per-particle residuals of the last step that measured them (`XpbdWorld.residuals`), for heatmaps: max
     * |edge ratio − 1| over incident stretch edges.
     */
    public readonly stretchResidual: Float32Array;
    /** Max |θ − θ₀| over incident bend elements (radians). */
    public readonly bendResidual: Float32Array;
    /** Max |V/V₀ − 1| over incident tets. */
    public readonly volumeResidual: Float32Array;
    /** Largest contact correction (m) in the last step. */
    public readonly contactResidual: Float32Array;
    /** This body's figures for the last step. */
    public readonly stats = new StepStats();
    /**
     * Force (N, world) the pins exerted on the body, averaged over the last step: through the edges and tethers of
     * weight-1 pins, the attachments of soft pins, and the loads of bodies resting on held particles. A cloth hanging
     * at rest with a crate on it has `−(cloth + crate mass) × gravity` here. Measured by momentum balance (see
     * `pinForce.ts`); while the body sleeps, the mean load of the time it came to rest in stays on it.
     */
    public readonly pinForce = new Float64Array(3);
    /** Momentum of the free particles at the start of the step (N·s). @internal */
    public readonly _startMomentum = new Float64Array(3);

    /** Deformation damping rate (1/s). */
    public damping: number;
    /** Static friction coefficient. */
    public staticFriction: number;
    /** Kinetic friction coefficient. */
    public kineticFriction: number;
    /** Restitution. */
    public restitution: number;
    /** Collision thickness (m). */
    public thickness: number;
    /** Whether the body's particles collide with its own triangles (see {@link SoftBodyOptions.selfCollision}). */
    public selfCollision: boolean;
    /** Whether the body may sleep. */
    public allowSleep: boolean;
    /** Sleep speed threshold (m/s). */
    public sleepVelocity: number;
    /** Seconds slow before sleeping. */
    public sleepTime: number;
    /** Collision groups the body belongs to. */
    public membership: number;
    /** Collision groups the body collides with. */
    public collideWith: number;
    /** Over-stretch event threshold (edge ratio). */
    public overStretchRatio: number;
    /**
     * Strain limit (edge ratio; 0 off): see {@link SoftBodyOptions.strainLimit}. Assign 0 or a finite ratio greater
     * than 1; a body that tears ignores it.
     */
    public strainLimit: number;
    /** The strain limiter's levels and edge order; null for a body that tears. @internal */
    public readonly _strainLimiter: StrainLimit | null;
    /** Aerodynamic drag coefficient C_D. */
    public dragCoefficient: number;
    /** Aerodynamic lift coefficient C_L. */
    public liftCoefficient: number;
    /** Scale of the world's wind on this body; 0 turns its aerodynamics off. */
    public windScale: number;
    /** Whether the body is asleep. */
    public sleeping = false;
    /**
     * Substeps of the world's step this body is solved in (a level of detail): 0, or at least the world's
     * `substeps`, solves it in every world substep; a smaller count in that many longer ones, each ending with a world
     * substep (see `substepSchedule.ts`). Compliance is per unit of time squared, so the stiffness stays; only the
     * accuracy drops (a little more stretch and damping). Between its substeps the body waits: soft contacts of other
     * bodies may still push its particles then, and those pushes move it without giving it velocity. Default 0.
     */
    public substeps = 0;
    /**
     * Whether the body is held asleep (a level of detail): at the next step it falls asleep where it is, velocities
     * zeroed, and nothing wakes it (pins, colliders, other bodies, API calls) until this is cleared; it costs no
     * solver work meanwhile. Clearing it leaves the body asleep: wake it with {@link wake}. Default false.
     */
    public holdAsleep = false;
    /** Seconds the body has been slow. @internal */
    public _slowTime = 0;
    /**
     * The contact impulses on the body summed over its slow time (N·s): asleep, it goes on reporting their mean as the
     * load on its pins (see `pinForce.ts`). @internal
     */
    public readonly _slowImpulse = new Float64Array(3);
    /** Set by API calls that must wake the body before the next step. @internal */
    public _wakeRequested = false;
    /** Last valid positions, restored (at rest) when the state turns invalid. @internal */
    public readonly _validPositions: Float64Array;
    /** Aerodynamic force per particle (N, world) of the current step, added every substep (see `aerodynamics.ts`). */
    public readonly aerodynamicForces: Float64Array;

    /**
     * @param descriptor - particles and constraint index lists (see {@link SoftBodyDescriptor})
     * @param options - compliances, damping, friction, sleep and filtering; see {@link SoftBodyOptions}
     */
    public constructor(descriptor: SoftBodyDescriptor, options: SoftBodyOptions = {}) {
        this.defaultsVersion = resolveDefaultsVersion(options.defaultsVersion);
        this.options = Object.freeze({ ...options });
        const o = { ...getDefaults(this.defaultsVersion).body, ...options };
        validateSoftBodyOptions(o);
        const given = readPositions(descriptor.positions);
        const n = given.length / 3;
        this.particleCount = n;
        const triangles = readIndices(descriptor.triangles, 3, n, "triangle");
        // Constraints are solved in colour order (see `constraintColouring.ts`), whatever order the descriptor has.
        const stretch = colour(readIndices(descriptor.stretch, 2, n, "stretch constraint"), 2, n);
        const shear = colour(readIndices(descriptor.shear, 2, n, "shear constraint"), 2, n);
        const bend = colour(readIndices(descriptor.bend, 4, n, "bend element"), 4, n);
        const tets = colour(readIndices(descriptor.tets, 4, n, "tet"), 4, n);
        const tearRatio = o.tearRatio ?? Infinity;
        const tears = tearRatio !== Infinity;
        if (tears && (tets.length > 0 || triangles.length === 0)) {
            throw new Error(
                `tearRatio needs a cloth: a body with triangles and no tetrahedra (this one has ${triangles.length / 3} triangles and ${tets.length / 4} tets)`,
            );
        }
        const capacity = n + (tears ? (o.maxTearParticles ?? n) : 0);
        this.particleCapacity = capacity;
        // Room for every element the triangles can give once torn: each edge has a triangle corner of its own, and
        // an edge with shear and bend two (see `clothTearing.ts`).
        const triangleSlots = triangles.length;
        const stretchCapacity = tears ? Math.max(stretch.length >> 1, triangleSlots) : stretch.length >> 1;
        const shearCapacity = tears ? Math.max(shear.length >> 1, triangleSlots >> 1) : shear.length >> 1;
        const bendCapacity = tears ? Math.max(bend.length >> 2, triangleSlots >> 1) : bend.length >> 2;
        const memory = o.wasmKernels ? kernelMemoryFor(capacity, stretchCapacity, shearCapacity, bendCapacity) : null;
        this.kernelMemory = memory;
        const positions = memory !== null ? memory.f64(3 * capacity) : new Float64Array(3 * capacity);
        positions.set(given);
        this.positions = positions;
        this.previousPositions = memory !== null ? memory.f64(3 * capacity) : new Float64Array(3 * capacity);
        this.previousPositions.set(positions);
        this.velocities = memory !== null ? memory.f64(3 * capacity) : new Float64Array(3 * capacity);
        this.restPositions = new Float64Array(positions);
        this.externalForces = memory !== null ? memory.f64(3 * capacity) : new Float64Array(3 * capacity);
        this.triangles = triangles;
        this.masses = withCapacity(lumpParticleMasses(descriptor, given, tets, triangles), capacity);
        this.inverseMasses = memory !== null ? memory.f64(capacity) : new Float64Array(capacity);
        let total = 0;
        for (let i = 0; i < n; i++) {
            this.inverseMasses[i] = 1 / this.masses[i];
            total += this.masses[i];
        }
        this.totalMass = total;
        this.stretch = new DistanceConstraints(stretch, given, o.stretchCompliance, "stretch", stretchCapacity, memory);
        this.shear = new DistanceConstraints(shear, given, o.shearCompliance, "shear", shearCapacity, memory);
        this.bend = createBendSet(o.bendModel, bend, given, o.bendCompliance, bendCapacity, memory);
        this.volume = new VolumeConstraints(tets, given, o.volumeCompliance);
        const shape = o.shapeMatchingCompliance;
        this.shapeMatching = shape !== undefined ? new ShapeMatching(given, this.masses, n, shape) : null;
        this.gas = o.pressure !== undefined ? new GasPressure(triangles, given, n, o.pressure) : null;
        const sets: ConstraintSet[] = [this.stretch, this.shear, this.bend, this.volume];
        if (this.shapeMatching !== null) {
            sets.push(this.shapeMatching);
        }
        if (this.gas !== null) {
            sets.push(this.gas);
        }
        this.constraintSets = sets;
        this.pins = new PinConstraints(positions);
        const graph = new Int32Array(stretch.length + shear.length);
        graph.set(stretch);
        graph.set(shear, stretch.length);
        this.tethers = new TetherConstraints(capacity, graph, stretchCapacity + shearCapacity, memory);
        this.tethers.enabled = o.tethers;
        this.contacts = new ParticleContacts(capacity * o.maxContactsPerParticle);
        this.attachments = new ColliderAttachments(capacity);
        this.stretchResidual = new Float32Array(capacity);
        this.bendResidual = new Float32Array(capacity);
        this.volumeResidual = new Float32Array(capacity);
        this.contactResidual = new Float32Array(capacity);
        this._validPositions = new Float64Array(positions);
        this.aerodynamicForces = memory !== null ? memory.f64(3 * capacity) : new Float64Array(3 * capacity);
        if (tears) {
            this.tearing = new ClothTearing(this, tearRatio, capacity - n);
            // Tethers to several pins hold each particle between them; pulled farther apart than the cloth reaches
            // (what tears a cloth), they pull against each other and lay the whole stretch on the edges next to a
            // pin. With the nearest pin only, it lies where the regions anchored to each pin meet: between them.
            this.tethers.maxAnchors = 1;
            this.tethers.detour = TEAR_DETOUR;
        }
        this.damping = o.damping;
        this.staticFriction = o.staticFriction;
        this.kineticFriction = o.kineticFriction;
        this.restitution = o.restitution;
        this.thickness = o.thickness;
        this.selfCollision = o.selfCollision;
        this.allowSleep = o.allowSleep;
        this.sleepVelocity = o.sleepVelocity;
        this.sleepTime = o.sleepTime;
        this.membership = o.membership;
        this.collideWith = o.collideWith;
        this.overStretchRatio = o.overStretchRatio;
        this.strainLimit = o.strainLimit;
        this._strainLimiter = tears ? null : new StrainLimit(capacity, this.stretch);
        this._strainLimiter?.rebuild(this.inverseMasses);
        this.dragCoefficient = o.dragCoefficient;
        this.liftCoefficient = o.liftCoefficient;
        this.windScale = o.windScale;
    }

    /**
     * Sets a particle's pin weight (0 free, (0, 1) soft, 1 kinematic). A particle that becomes pinned gets its
     * target where it is now; move it with {@link setPinTarget}.
     */
    public setPinWeight(particle: number, weight: number): void {
        const wasFree = this.pins.weights[particle] === 0;
        this.pins.setWeight(particle, weight);
        if (wasFree && weight > 0) {
            const i = particle * 3;
            this.pins.placeTarget(particle, this.positions[i], this.positions[i + 1], this.positions[i + 2]);
        }
        this._wakeRequested = true;
    }

    /** Sets where a pinned particle's target is at the end of the next step (world). */
    public setPinTarget(particle: number, x: number, y: number, z: number): void {
        this.pins.setTarget(particle, x, y, z);
    }

    /** Gives every particle the velocity `(vx, vy, vz)` and wakes the body. */
    public setLinearVelocity(vx: number, vy: number, vz: number): void {
        for (let i = 0; i < this.particleCount; i++) {
            if (this.inverseMasses[i] > 0) {
                this.velocities[3 * i] = vx;
                this.velocities[3 * i + 1] = vy;
                this.velocities[3 * i + 2] = vz;
            }
        }
        this._wakeRequested = true;
    }

    /**
     * Applies the impulse `j` (N·s) at world point `p`, spread over the particles within `radius` of it with weights
     * falling linearly to zero at `radius` (the nearest particle alone if none is that close), so the body's
     * momentum changes by exactly `j` (less what pinned particles would have taken).
     */
    public applyImpulse(jx: number, jy: number, jz: number, px: number, py: number, pz: number, radius: number): void {
        const x = this.positions;
        let weightedMass = 0;
        let nearest = -1;
        let nearest2 = Infinity;
        for (let i = 0; i < this.particleCount; i++) {
            if (this.inverseMasses[i] === 0) {
                continue;
            }
            const d2 = (x[3 * i] - px) ** 2 + (x[3 * i + 1] - py) ** 2 + (x[3 * i + 2] - pz) ** 2;
            if (d2 < nearest2) {
                nearest2 = d2;
                nearest = i;
            }
            const d = Math.sqrt(d2);
            if (d < radius) {
                weightedMass += (1 - d / radius) * this.masses[i];
            }
        }
        if (nearest < 0) {
            return;
        }
        if (weightedMass === 0) {
            const m = this.masses[nearest];
            this.velocities[3 * nearest] += jx / m;
            this.velocities[3 * nearest + 1] += jy / m;
            this.velocities[3 * nearest + 2] += jz / m;
        } else {
            for (let i = 0; i < this.particleCount; i++) {
                if (this.inverseMasses[i] === 0) {
                    continue;
                }
                const d = Math.sqrt((x[3 * i] - px) ** 2 + (x[3 * i + 1] - py) ** 2 + (x[3 * i + 2] - pz) ** 2);
                if (d < radius) {
                    // Δvᵢ = j·wᵢ / Σ wₖmₖ, so Σ mᵢΔvᵢ = j.
                    const f = (1 - d / radius) / weightedMass;
                    this.velocities[3 * i] += jx * f;
                    this.velocities[3 * i + 1] += jy * f;
                    this.velocities[3 * i + 2] += jz * f;
                }
            }
        }
        this._wakeRequested = true;
    }

    /** Mass-weighted centre of the particles (world) into `out`. */
    public getCenterOfMass(out: Float64Array | number[]): void {
        weightedMean(this.positions, this.masses, out);
    }

    /** Mass-weighted mean velocity (the momentum over the mass) into `out`. */
    public getLinearVelocity(out: Float64Array | number[]): void {
        weightedMean(this.velocities, this.masses, out);
    }

    /** Moves every particle (and pin target) by `(dx, dy, dz)` at once, without velocity: for placing a body. */
    public translate(dx: number, dy: number, dz: number): void {
        for (const array of [this.positions, this.previousPositions, this._validPositions, this.pins.targetsStart, this.pins.targetsEnd]) {
            for (let i = 0; i < array.length; i += 3) {
                array[i] += dx;
                array[i + 1] += dy;
                array[i + 2] += dz;
            }
        }
        this._wakeRequested = true;
    }

    /** Wakes the body before the next step. */
    public wake(): void {
        this._wakeRequested = true;
    }

    /** Total kinetic energy ½ Σ m v² (J). */
    public kineticEnergy(): number {
        let energy = 0;
        const v = this.velocities;
        for (let i = 0; i < this.particleCount; i++) {
            energy += 0.5 * this.masses[i] * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
        }
        return energy;
    }

    /** Rebuilds inverse masses, pin lists and tethers after pin weights changed. Outside the step only. @internal */
    public _rebuildPins(): void {
        this.pins.rebuild();
        for (let i = 0; i < this.particleCount; i++) {
            this.inverseMasses[i] = this.pins.weights[i] >= 1 ? 0 : 1 / this.masses[i];
        }
        this.tethers.rebuild(this.restPositions, this.pins.kinematic, this.pins.kinematicCount, this.inverseMasses);
        this._strainLimiter?.rebuild(this.inverseMasses);
    }
}

function colour(indices: Int32Array, arity: number, particleCount: number): Int32Array {
    return reorderConstraints(indices, arity, colourOrder(indices, arity, particleCount));
}

/** A kernel memory with room for every array a body of these capacities allocates in it (see {@link SoftBody.kernelMemory}). */
function kernelMemoryFor(particles: number, stretch: number, shear: number, bend: number): KernelMemory | null {
    const tethers = particles * TETHER_ANCHORS;
    return KernelMemory.create(
        KernelMemory.bytesFor(
            // positions, previous positions, velocities, external and aerodynamic forces, inverse masses; rest lengths and λ of
            // stretch and shear; bend weights, hinge lengths, λ; tether lengths
            [
                3 * particles,
                3 * particles,
                3 * particles,
                3 * particles,
                3 * particles,
                particles,
                stretch,
                stretch,
                shear,
                shear,
                4 * bend,
                bend,
                bend,
                tethers,
            ],
            // stretch, shear and bend indices and their groups' independence; tethered particles and anchors
            [2 * stretch, stretch, 2 * shear, shear, 4 * bend, bend, tethers, tethers],
        ),
    );
}

/** `values` in a new array of `length` entries (the rest zero), or `values` itself when it is that long. */
function withCapacity(values: Float64Array, length: number): Float64Array {
    if (values.length === length) {
        return values;
    }
    const result = new Float64Array(length);
    result.set(values);
    return result;
}

function weightedMean(values: Float64Array, masses: Float64Array, out: Float64Array | number[]): void {
    let x = 0;
    let y = 0;
    let z = 0;
    let total = 0;
    for (let i = 0; i < masses.length; i++) {
        const m = masses[i];
        x += values[3 * i] * m;
        y += values[3 * i + 1] * m;
        z += values[3 * i + 2] * m;
        total += m;
    }
    out[0] = x / total;
    out[1] = y / total;
    out[2] = z / total;
}
