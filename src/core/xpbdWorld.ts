import { booleanValue, describeValue, finiteNonNegative, finiteVector3, nonNegativeInteger, positiveInteger } from "./argumentChecks.js";
import { computeAerodynamicForces } from "./aerodynamics.js";
import { measureAsleep, measureBody } from "./bodyMeasures.js";
import { ColliderMotion, type Collider } from "./collider.js";
import { ColliderBroadPhase } from "./colliderBroadPhase.js";
import { getDefaults, resolveDefaultsVersion } from "./defaults.js";
import { dampDeformation } from "./deformationDamping.js";
import { EventQueue, SoftBodyEventType } from "./eventQueue.js";
import type { KernelMemory } from "./kernelMemory.js";
import { measurePinForce, recordStartMomentum } from "./pinForce.js";
import type { SoftBody } from "./softBody.js";
import { readyToSleep, SOFT_CONTACT_CAPACITY_ELEMENT, SoftContacts } from "./softContacts.js";
import { StepStats } from "./stepStats.js";
import { strainLimitActive } from "./strainLimit.js";
import { SubstepContext } from "./substepContext.js";
import { bodySubsteps, substepSpan } from "./substepSchedule.js";
import type { XpbdWorldOptions } from "./xpbdWorldOptions.js";

/**
 * Farthest a particle may be from the origin along an axis (m). A runaway state is caught here while finite, far
 * below where squares of coordinates (normals, lengths) overflow the render mesh's 32-bit floats (about 1.8e19 m);
 * a body falling freely from rest needs 5 days to get this far.
 */
export const MAX_COORDINATE = 1e12;

/** Approach speed (m/s) under which restitution does not bounce: resting contacts stay at rest (the WebGPU solver reads it too). */
export const RESTITUTION_THRESHOLD = 0.2;

/** Throws unless `buffer` is a typed array of the kind `writeContacts` takes for `name` with room for `length` numbers. */
function contactBuffer(buffer: unknown, length: number, name: "points" | "normals" | "kinds"): void {
    const ok = name === "kinds" ? buffer instanceof Uint8Array : buffer instanceof Float32Array || buffer instanceof Float64Array;
    if (!ok) {
        const wanted = name === "kinds" ? "a Uint8Array" : "a Float32Array or Float64Array";
        throw new TypeError(`writeContacts: ${name} must be ${wanted}, got ${describeValue(buffer)}`);
    }
    if ((buffer as Uint8Array).length < length) {
        throw new RangeError(`writeContacts: ${name} holds ${(buffer as Uint8Array).length} numbers, the capacity needs ${length}`);
    }
}

/** The step clock (ms): `performance.now` where it exists, else `Date.now`. */
const now: () => number =
    typeof performance !== "undefined" && typeof performance.now === "function" ? () => performance.now() : () => Date.now();

/**
 * The XPBD solver: soft bodies, the colliders they meet, and the fixed-substep loop (see the README). One
 * {@link XpbdWorld.step} advances everything by `dt` in {@link XpbdWorld.substeps} equal substeps. In steady state
 * a step allocates nothing, calls no callbacks and formats no strings; events are queued and read after it.
 * Same inputs in the same order give bit-identical results.
 */
export class XpbdWorld {
    /** Gravity (m/s²). */
    public readonly gravity = new Float64Array(3);
    /** Wind velocity (m/s, world). */
    public readonly wind = new Float64Array(3);
    /** Air density (kg/m³). */
    public airDensity: number;
    /** Substeps per step. */
    public substeps: number;
    /** Iterations per substep, two passes each (see {@link XpbdWorldOptions.iterations}). */
    public iterations: number;
    /** Bodies, in solve order. */
    public readonly bodies: SoftBody[] = [];
    /** Colliders, in solve order. */
    public readonly colliders: Collider[] = [];
    /** Figures of the last step, summed over the bodies. */
    public readonly stats = new StepStats();
    /** Events of the last step. */
    public readonly events: EventQueue;
    /** Simulated time (s). */
    public time = 0;
    /** The defaults version the world's options were completed with (see {@link XpbdWorldOptions.defaultsVersion}). */
    public readonly defaultsVersion: number;
    /** The options as given to the constructor, defaults not filled in (a replay rebuilds the world from them). */
    public readonly options: Readonly<XpbdWorldOptions>;
    /** Whether each step times itself for {@link StepStats.stepMs} (see {@link XpbdWorldOptions.timing}). */
    public timing: boolean;
    /** Whether each step measures the bend residuals and fills the residual heatmaps (see {@link XpbdWorldOptions.residuals}). */
    public residuals: boolean;
    /** Contacts between the bodies, and of a body with itself (see {@link XpbdWorldOptions.softContacts}). */
    public readonly softContacts: SoftContacts;

    private readonly _broadPhase: ColliderBroadPhase;
    private readonly _context = new SubstepContext();
    /** The substep of a body solved in fewer substeps than the world (see {@link _bodyContext}). */
    private readonly _spanContext = new SubstepContext();
    /**
     * Wind xyz and air density of the last step, copied from the public fields at the start of each step (a change
     * wakes the bodies). State a snapshot carries. @internal
     */
    public readonly _air = new Float64Array(4);
    private _nextBodyId = 0;
    private _gridOverflowReported = false;
    private _softOverflowReported = false;
    private readonly _contactOverflowReported = new WeakSet<SoftBody>();

    /** @param options - see {@link XpbdWorldOptions} */
    public constructor(options: XpbdWorldOptions = {}) {
        this.defaultsVersion = resolveDefaultsVersion(options.defaultsVersion);
        this.options = Object.freeze({ ...options });
        const d = getDefaults(this.defaultsVersion).world;
        this.gravity.set(finiteVector3(options.gravity ?? d.gravity, "gravity"));
        this.wind.set(finiteVector3(options.wind ?? d.wind, "wind"));
        this.airDensity = finiteNonNegative(options.airDensity ?? d.airDensity, "airDensity");
        this.substeps = positiveInteger(options.substeps ?? d.substeps, "substeps");
        this.iterations = positiveInteger(options.iterations ?? d.iterations, "iterations");
        this._broadPhase = new ColliderBroadPhase(options.cellSize ?? d.cellSize, options.gridCapacity ?? d.gridCapacity);
        this.events = new EventQueue(options.eventCapacity ?? d.eventCapacity);
        this.timing = options.timing ?? d.timing;
        this.residuals = options.residuals ?? d.residuals;
        this.softContacts = new SoftContacts(
            positiveInteger(options.softContactCapacity ?? d.softContactCapacity, "softContactCapacity"),
            booleanValue(options.softContacts ?? d.softContacts, "softContacts"),
        );
    }

    /** Adds a body (it must not be in a world already). */
    public addBody(body: SoftBody): void {
        if (body.id >= 0) {
            throw new Error(`soft body ${body.id} is already in a world`);
        }
        body.id = this._nextBodyId++;
        body._rebuildPins();
        // Contacts of a step elsewhere name colliders of that world: none here until this world steps it.
        body.stats.contacts = 0;
        this.bodies.push(body);
        this.softContacts.attach(this.bodies);
    }

    /** Removes a body; it may be added again (to this or another world). */
    public removeBody(body: SoftBody): void {
        const index = this.bodies.indexOf(body);
        if (index >= 0) {
            this.bodies.splice(index, 1);
            body.id = -1;
            this.softContacts.attach(this.bodies);
        }
    }

    /** Adds a collider. */
    public addCollider(collider: Collider): void {
        if (this.colliders.includes(collider)) {
            throw new Error("collider is already in this world");
        }
        this.colliders.push(collider);
        this._broadPhase.slotsDirty = true;
    }

    /**
     * Whether a collider that moved in the last step came within reach of `body` (the wake test of a sleeping body),
     * for a host that keeps a body out of the world (the WebGPU backend). @internal
     */
    public _movingColliderNear(body: SoftBody): boolean {
        return this._broadPhase.movingColliderNear(body);
    }

    /** Removes a collider; particles attached to it (`SoftBody.attachments`) are freed. */
    public removeCollider(collider: Collider): void {
        const index = this.colliders.indexOf(collider);
        if (index >= 0) {
            for (let b = 0; b < this.bodies.length; b++) {
                if (this.bodies[b].attachments.detachCollider(collider) > 0) {
                    this.bodies[b].wake();
                }
            }
            this.colliders.splice(index, 1);
            this._broadPhase.slotsDirty = true;
        }
    }

    /**
     * The number of contacts {@link writeContacts} writes when given room: those of `body` (its collider contacts,
     * and the soft contacts it takes part in as particle or as triangle), or of every body. It equals
     * `stats.contacts + stats.softContacts` of the world (or `body.stats.contacts` plus the body's soft contacts).
     * @param body - a body of this world, or null for all
     * @throws Error when `body` is not in this world
     */
    public contactCount(body: SoftBody | null = null): number {
        const slot = this._bodySlot(body);
        let count = this.softContacts._countContacts(slot);
        for (let b = 0; b < this.bodies.length; b++) {
            if (slot < 0 || b === slot) {
                count += this.bodies[b].stats.contacts;
            }
        }
        return count;
    }

    /**
     * Writes the contacts that touched in the last substep of the last step, for drawing or inspecting them between
     * steps; allocates nothing and changes nothing. Contact `i` gets its point (world, m) in `points[3i … 3i+2]`, its
     * unit normal in `normals[3i … 3i+2]` and its {@link ContactKind} in `kinds[i]`:
     *
     * - {@link ContactKind.Collider}: the point of the collider's surface closest to the particle, the normal the
     *   solve pushed the particle along (out of the surface).
     * - {@link ContactKind.Soft} and {@link ContactKind.Self}: the point of the triangle closest to the particle, the
     *   normal from the triangle to the particle's side.
     *
     * Points are measured at the current positions, so they sit on the surface as the step left it. Collider contacts
     * come first, body by body, then the soft contacts. A sleeping body has none of its own (as in its stats), and a
     * body joining or leaving the world clears the soft contacts until the next step.
     * @param points - room for `3 × capacity` numbers
     * @param normals - room for `3 × capacity` numbers
     * @param kinds - room for `capacity` kinds
     * @param capacity - the most contacts to write
     * @param body - only the contacts of this body of the world (see {@link contactCount}), or null for all
     * @returns how many were written: at most `capacity`; compare with {@link contactCount} to see if some did not fit
     * @throws TypeError or RangeError for a buffer of the wrong type or too short, or a bad capacity; Error when
     * `body` is not in this world
     */
    public writeContacts(
        points: Float32Array | Float64Array,
        normals: Float32Array | Float64Array,
        kinds: Uint8Array,
        capacity: number,
        body: SoftBody | null = null,
    ): number {
        nonNegativeInteger(capacity, "writeContacts: capacity");
        contactBuffer(points, 3 * capacity, "points");
        contactBuffer(normals, 3 * capacity, "normals");
        contactBuffer(kinds, capacity, "kinds");
        const slot = this._bodySlot(body);
        const colliders = this._broadPhase.slotColliders;
        const shapes = this._broadPhase.slotShapes;
        let written = 0;
        for (let b = 0; b < this.bodies.length; b++) {
            const other = this.bodies[b];
            // `stats.contacts` is 0 for a body that slept through the step (its candidates are older).
            if ((slot < 0 || b === slot) && other.stats.contacts > 0) {
                written = other.contacts._writeContacts(other, colliders, shapes, points, normals, kinds, written, capacity);
            }
        }
        return this.softContacts._writeContacts(this.bodies, slot, points, normals, kinds, written, capacity);
    }

    /** The slot of `body` in {@link bodies}, or −1 for null; throws when it is not in this world. */
    private _bodySlot(body: SoftBody | null): number {
        if (body === null) {
            return -1;
        }
        const slot = this.bodies.indexOf(body);
        if (slot < 0) {
            throw new Error(`soft body (id ${describeValue(body?.id)}) is not in this world`);
        }
        return slot;
    }

    /** Advances the world by `dt` seconds in {@link substeps} substeps. */
    public step(dt: number): void {
        // `x − x === 0` is the finiteness test that never calls out (a call would box the number each step).
        if (!(dt > 0) || dt - dt !== 0) {
            throw new RangeError(`time step must be positive and finite, got ${dt}`);
        }
        const timing = this.timing;
        const start = timing ? now() : 0;
        this.events.clear();
        const substeps = this.substeps;
        const context = this._context;
        context.setStep(dt, substeps);
        const air = this._air;
        // A change of wind or air wakes every body (a sleeping flag must start flapping when the wind rises).
        const airChanged = air[0] !== this.wind[0] || air[1] !== this.wind[1] || air[2] !== this.wind[2] || air[3] !== this.airDensity;
        air.set(this.wind);
        air[3] = this.airDensity;
        for (let c = 0; c < this.colliders.length; c++) {
            this.colliders[c].resetImpulse();
            this.colliders[c].syncPose();
        }
        const broadPhase = this._broadPhase;
        // Reported once, or until it fits in the event queue (a dropped report would be lost for good).
        if (broadPhase.build(this.colliders, context) && !this._gridOverflowReported) {
            this._gridOverflowReported = this.events.push(SoftBodyEventType.CapacityExceeded, -1, 1, broadPhase.gridCapacity);
        }
        const bodies = this.bodies;
        const softContacts = this.softContacts;
        softContacts.wakeNear(bodies, context);
        for (let b = 0; b < bodies.length; b++) {
            const body = bodies[b];
            if (airChanged && body.triangles.length > 0 && body.windScale > 0) {
                body._wakeRequested = true;
            }
            this._beginStep(body, context);
        }
        for (let s = 0; s < substeps; s++) {
            context.t = (s + 1) / substeps;
            for (let c = 0; c < this.colliders.length; c++) {
                const collider = this.colliders[c];
                if (collider.motion === ColliderMotion.Dynamic) {
                    collider._accelerate(context);
                }
            }
            // Bodies resting on held particles are stopped before they move (see `ParticleContacts.solveHeld`).
            for (let b = 0; b < this.bodies.length; b++) {
                const body = this.bodies[b];
                const bodyContext = this._bodyContext(body, s);
                if (bodyContext !== null && body.tethers.enabled) {
                    body.contacts.solveHeld(body, broadPhase.slotColliders, broadPhase.slotShapes, bodyContext);
                    if (body.attachments.count > 0) {
                        body.attachments.solveHeld(body, bodyContext);
                    }
                }
            }
            for (let c = 0; c < this.colliders.length; c++) {
                const collider = this.colliders[c];
                if (collider.motion !== ColliderMotion.Static) {
                    collider._integrate(context);
                }
            }
            for (let b = 0; b < bodies.length; b++) {
                const bodyContext = this._bodyContext(bodies[b], s);
                if (bodyContext !== null) {
                    this._predict(bodies[b], bodyContext);
                }
            }
            softContacts.find(bodies);
            // Pass by pass over every body, the soft contacts after each: they couple the bodies' solves.
            const passes = 2 * this.iterations;
            for (let pass = 0; pass < passes; pass++) {
                for (let b = 0; b < bodies.length; b++) {
                    const bodyContext = this._bodyContext(bodies[b], s);
                    if (bodyContext !== null) {
                        this._pass(bodies[b], bodyContext, pass);
                    }
                }
                if (softContacts.count > 0) {
                    softContacts.project(bodies, context);
                }
            }
            for (let b = 0; b < bodies.length; b++) {
                const bodyContext = this._bodyContext(bodies[b], s);
                if (bodyContext !== null) {
                    this._finishSubstep(bodies[b], bodyContext);
                }
            }
            if (softContacts.count > 0) {
                softContacts.settle(bodies);
            }
        }
        if (softContacts.overflowed && !this._softOverflowReported) {
            this._softOverflowReported = this.events.push(
                SoftBodyEventType.CapacityExceeded,
                -1,
                SOFT_CONTACT_CAPACITY_ELEMENT,
                softContacts.capacity,
            );
        }
        const stats = this.stats;
        stats.reset();
        for (let b = 0; b < bodies.length; b++) {
            this._endStep(bodies[b], context);
        }
        this._sleepReady();
        for (let b = 0; b < bodies.length; b++) {
            stats.accumulate(bodies[b].stats);
        }
        stats.softContactCandidates = softContacts.count;
        stats.softContacts = softContacts.touching;
        stats.substeps = substeps;
        stats.iterations = this.iterations;
        // Two clock reads per step (each boxes a number): the per-substep figure is the step's share.
        stats.stepMs = timing ? now() - start : 0;
        stats.substepMs = stats.stepMs / substeps;
        this.time += dt;
    }

    /**
     * The context `body` is solved with in world substep `s`: the world's, or for a body with fewer substeps of its
     * own (`SoftBody.substeps`) a longer one, or null when the body is not solved in this substep (asleep, or waiting
     * for the end of its longer substep). Allocates nothing.
     */
    private _bodyContext(body: SoftBody, s: number): SubstepContext | null {
        if (body.sleeping) {
            return null;
        }
        const n = this.substeps;
        const m = bodySubsteps(n, body.substeps);
        if (m === n) {
            return this._context;
        }
        const span = substepSpan(s, n, m);
        if (span === 0) {
            return null;
        }
        this._spanContext.setSpan(this._context, span);
        return this._spanContext;
    }

    /** Pins, wake-up, last valid state, broad phase and the step's aerodynamic forces of one body. */
    private _beginStep(body: SoftBody, context: SubstepContext): void {
        if (body.pins.dirty) {
            body._rebuildPins();
        }
        if (body.holdAsleep) {
            if (!body.sleeping) {
                this._fallAsleep(body);
            }
        } else if (body.sleeping && (body._wakeRequested || body.pins.targetsMove() || this._broadPhase.movingColliderNear(body))) {
            body.sleeping = false;
            body._slowTime = 0;
            body._slowImpulse.fill(0);
            this.events.push(SoftBodyEventType.Wake, body.id, -1, 0);
        }
        body._wakeRequested = false;
        body.contacts.impulse.fill(0);
        recordStartMomentum(body);
        if (body.sleeping) {
            return;
        }
        if (body.attachments.count > 0) {
            body.attachments.carry(body);
        }
        // A value written between steps (by the host or a user) is checked before it becomes the "last valid" state.
        if (this._containInvalid(body)) {
            body._validPositions.set(body.positions);
        }
        body.contacts.maxCorrection = 0;
        body.contactResidual.fill(0);
        this._broadPhase.findContacts(body, context, this.gravity);
        if (
            body.contacts.overflowed &&
            !this._contactOverflowReported.has(body) &&
            this.events.push(SoftBodyEventType.CapacityExceeded, body.id, 0, body.contacts.capacity)
        ) {
            this._contactOverflowReported.add(body);
        }
        computeAerodynamicForces(body, this._air, context);
    }

    /** The start of a substep of one body: velocities and positions predicted, pins placed, λ and touches cleared. */
    private _predict(body: SoftBody, context: SubstepContext): void {
        const n = body.particleCount;
        const x = body.positions;
        const xPrev = body.previousPositions;
        const v = body.velocities;
        const w = body.inverseMasses;
        const f = body.externalForces;
        const aero = body.aerodynamicForces;
        const h = context.h;
        const gx = this.gravity[0] * h;
        const gy = this.gravity[1] * h;
        const gz = this.gravity[2] * h;
        const memory = body.kernelMemory;
        if (memory !== null && inKernelMemory(memory, x, xPrev, v) && inKernelMemory(memory, w, f, aero)) {
            // The loop below, bit for bit (see `solverKernels.wat`).
            const scalar = memory.scalar;
            scalar[0] = h;
            scalar[1] = gx;
            scalar[2] = gy;
            scalar[3] = gz;
            memory.kernels.predict(x.byteOffset, xPrev.byteOffset, v.byteOffset, w.byteOffset, f.byteOffset, aero.byteOffset, n);
        } else {
            xPrev.set(x);
            for (let p = 0; p < n; p++) {
                const wh = w[p] * h;
                if (wh === 0) {
                    continue;
                }
                const i = p * 3;
                v[i] += gx + (f[i] + aero[i]) * wh;
                v[i + 1] += gy + (f[i + 1] + aero[i + 1]) * wh;
                v[i + 2] += gz + (f[i + 2] + aero[i + 2]) * wh;
                x[i] += v[i] * h;
                x[i + 1] += v[i + 1] * h;
                x[i + 2] += v[i + 2] * h;
            }
        }
        body.pins.placeKinematic(x, context);
        const sets = body.constraintSets;
        for (let k = 0; k < sets.length; k++) {
            sets[k].lambdas.fill(0);
        }
        body.pins.lambdas.fill(0);
        body.contacts.beginSubstep();
    }

    /**
     * Pass `pass` (from 0) of one body's solve: tethers, every constraint set, tethers again, in the last pass the
     * strain limit, then soft pins and contacts with the colliders. A substep runs {@link iterations} iterations of two
     * passes each; the symmetric sets (bending) go front to back in the first pass and back to front in the second
     * (see `ConstraintSet.symmetric`).
     * Tethers carry the load of the whole cloth to the pins in one projection, so bracketing each pass with them is the
     * cheapest way to less stretch. A later pass opens with them only when the body has soft pins, or the world colliders
     * or soft contacts, which move particles after the previous pass closed with tethers: held contacts need the tethers taut first (without
     * that, the pins of a 0.5 kg hammock under a 5 kg crate carried 2.7% too little). Without them the opening
     * projection only repeats the closing one, which bought little: a 128×128 cloth hung by two corners at 2
     * substeps kept ×1.085 instead of ×1.094, the 32×32 one at the default quality ×1.0010 either way, for 5% more
     * time at 32×32. Leaving out the closing projection of the first pass as well (tethers once before and once after
     * each iteration's two passes) was 3% faster at 32×32, at ×1.0008, but the 128×128 cloth hung by two corners at the
     * default quality stretched ×1.0168 instead of ×1.0162, and jellies of 2 and 5 kg dropped into a 0.5 kg hammock
     * came to rest 12 and 20 mm below the cloth (the 5 kg one 11 mm below even when only the hammock's settling, alone
     * in the world, ran that way).
     */
    private _pass(body: SoftBody, context: SubstepContext, pass: number): void {
        const x = body.positions;
        const w = body.inverseMasses;
        const sets = body.constraintSets;
        const backward = (pass & 1) === 1;
        // After the first pass, only where soft pins or contacts may have moved particles since the last tethers (the
        // WebGPU solver makes the same choice: see `GpuSoftBodySolver`).
        const reopen = pass === 0 || body.pins.softCount > 0 || this._broadPhase.slotColliders.length > 0 || this.softContacts.count > 0;
        if (body.tethers.enabled && reopen) {
            body.tethers.project(x);
        }
        for (let k = 0; k < sets.length; k++) {
            const set = sets[k];
            if (set.enabled) {
                set.project(x, w, context, backward && set.symmetric);
            }
        }
        if (body.tethers.enabled) {
            body.tethers.project(x);
        }
        // Last in the substep but for the pins and contacts, which must have the final say: a cloth stretched over
        // a ball that it stops is not pulled through it.
        if (pass === 2 * this.iterations - 1 && strainLimitActive(body)) {
            body._strainLimiter!.project(x, w, body.strainLimit);
        }
        body.pins.projectSoft(x, w, context);
        body.contacts.project(body, this._broadPhase.slotColliders, this._broadPhase.slotShapes, context);
        if (body.attachments.count > 0) {
            body.attachments.project(body, context);
        }
    }

    /** The end of a substep of one body: velocities from the motion, then restitution. */
    private _finishSubstep(body: SoftBody, context: SubstepContext): void {
        const x = body.positions;
        const xPrev = body.previousPositions;
        const v = body.velocities;
        const broadPhase = this._broadPhase;
        const bounce = body.restitution > 0 || broadPhase.anyRestitution;
        if (bounce) {
            body.contacts.recordApproach(v, broadPhase.slotColliders, x);
        }
        const invH = context.invH;
        const memory = body.kernelMemory;
        if (memory !== null && inKernelMemory(memory, x, xPrev, v)) {
            memory.scalar[0] = invH;
            memory.kernels.velocities(x.byteOffset, xPrev.byteOffset, v.byteOffset, 3 * body.particleCount);
        } else {
            for (let k = 0; k < 3 * body.particleCount; k++) {
                v[k] = (x[k] - xPrev[k]) * invH;
            }
        }
        if (bounce) {
            body.contacts.applyRestitution(body, broadPhase.slotColliders, RESTITUTION_THRESHOLD);
        }
    }

    /** After the substeps: damping, contain non-finite values, pins, tearing, sleep, residuals and events. */
    private _endStep(body: SoftBody, context: SubstepContext): void {
        const dt = context.dt;
        body.pins.endStep();
        const tearing = body.tearing;
        if (tearing !== null) {
            tearing.tearCount = 0;
        }
        const stats = body.stats;
        if (body.sleeping) {
            measurePinForce(body, this.gravity, context);
            measureAsleep(body);
            return;
        }
        stats.solvedSubsteps = bodySubsteps(this.substeps, body.substeps);
        if (body.damping > 0) {
            dampDeformation(body, context);
        }
        if (this._containInvalid(body)) {
            body._validPositions.set(body.positions);
            measurePinForce(body, this.gravity, context);
            // Topology changes here, between steps, never inside the substep loop (see `clothTearing.ts`).
            if (tearing !== null) {
                tearing.tear(body, this.events);
            }
        } else {
            body.pinForce.fill(0);
        }
        const v = body.velocities;
        let maxSpeed2 = 0;
        for (let p = 0; p < body.particleCount; p++) {
            if (body.inverseMasses[p] === 0) {
                continue;
            }
            const s2 = v[3 * p] ** 2 + v[3 * p + 1] ** 2 + v[3 * p + 2] ** 2;
            if (s2 > maxSpeed2) {
                maxSpeed2 = s2;
            }
        }
        const overStretched = measureBody(body, this.residuals);
        if (overStretched >= 0) {
            this.events.push(SoftBodyEventType.OverStretch, body.id, overStretched, stats.maxEdgeRatio);
        }
        const slowImpulse = body._slowImpulse;
        if (body.allowSleep && maxSpeed2 < body.sleepVelocity * body.sleepVelocity) {
            body._slowTime += dt;
            const impulse = body.contacts.impulse;
            slowImpulse[0] += impulse[0];
            slowImpulse[1] += impulse[1];
            slowImpulse[2] += impulse[2];
        } else {
            body._slowTime = 0;
            slowImpulse.fill(0);
        }
    }

    /**
     * Puts to sleep the bodies slow for their sleep time whose soft contact islands of the step (partners, their
     * partners …) are asleep or ready too: bodies resting on each other sleep together (one falling asleep alone would
     * stop loading the other, or stop under it, which would then move, wake it, and so on).
     */
    private _sleepReady(): void {
        const bodies = this.bodies;
        for (let b = 0; b < bodies.length; b++) {
            const body = bodies[b];
            if (body.sleeping || !readyToSleep(body) || !this.softContacts.islandReady(bodies, b)) {
                continue;
            }
            this._fallAsleep(body);
            body.stats.kineticEnergy = 0;
            body.stats.sleepingBodies = 1;
        }
    }

    /** Puts `body` to sleep where it is, at rest, and reports it. */
    private _fallAsleep(body: SoftBody): void {
        body.sleeping = true;
        body.velocities.fill(0);
        this.events.push(SoftBodyEventType.Sleep, body.id, -1, 0);
    }

    /**
     * Restores the body's last valid positions, at rest, if a position, velocity or external force is not finite, or
     * a position lies farther than {@link MAX_COORDINATE} from the origin along an axis, and reports it. Returns
     * whether the state was valid. At rest, because the velocities that led here (a runaway, or one written between
     * steps) would lead here again, step after step, and freeze the body.
     */
    private _containInvalid(body: SoftBody): boolean {
        const x = body.positions;
        const v = body.velocities;
        const f = body.externalForces;
        let sum = 0;
        let far = 0;
        for (let k = 0; k < 3 * body.particleCount; k++) {
            sum += x[k] + v[k] + f[k];
            const distance = x[k] < 0 ? -x[k] : x[k];
            if (distance > far) {
                far = distance;
            }
        }
        if (sum - sum === 0 && far <= MAX_COORDINATE) {
            return true;
        }
        x.set(body._validPositions);
        v.fill(0);
        body.previousPositions.set(x);
        for (let k = 0; k < f.length; k++) {
            if (!Number.isFinite(f[k])) {
                f[k] = 0;
            }
        }
        this.events.push(SoftBodyEventType.InvalidState, body.id, -1, 0);
        return false;
    }
}

/** Whether the three arrays are views of the body's kernel memory (so that its kernels can run on them). */
function inKernelMemory(memory: KernelMemory, a: Float64Array, b: Float64Array, c: Float64Array): boolean {
    return a.buffer === memory.buffer && b.buffer === memory.buffer && c.buffer === memory.buffer;
}
