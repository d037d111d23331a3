import { applyAerodynamics, DEFAULT_AIR_DENSITY } from "./aerodynamics.js";
import { ColliderMotion, type Collider } from "./collider.js";
import { ColliderGrid } from "./colliderGrid.js";
import type { ColliderShape } from "./colliderShape.js";
import { writeHinge } from "./bendConstraints.js";
import { EventQueue, SoftBodyEventType } from "./eventQueue.js";
import type { SoftBody } from "./softBody.js";
import { StepStats } from "./stepStats.js";
import { SubstepContext } from "./substepContext.js";
import { tetVolume } from "./volumeConstraints.js";

/** Options of an {@link XpbdWorld}; every field has a default. */
export interface XpbdWorldOptions {
    /** Gravity (m/s²). Default `[0, −9.81, 0]`. */
    gravity?: readonly [number, number, number];
    /** Substeps per step (the quality tier). Default 10. */
    substeps?: number;
    /**
     * Solver iterations per substep, each a symmetric pass (all constraints forward, then backward). Default 1
     * (see the README's "Quality and stability" section).
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
}

/** Approach speed (m/s) under which restitution does not bounce: resting contacts stay at rest. */
const RESTITUTION_THRESHOLD = 0.2;

/** The step clock (ms): `performance.now` where it exists, else `Date.now`. */
const now: () => number =
    typeof performance !== "undefined" && typeof performance.now === "function" ? () => performance.now() : () => Date.now();

/**
 * The XPBD solver: soft bodies, the colliders they meet, and the fixed-substep loop (DESIGN §3). One
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
    /** Iterations per substep (each a forward and a backward sweep). */
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
    /** Whether each step times itself for {@link StepStats.stepMs} (see {@link XpbdWorldOptions.timing}). */
    public timing: boolean;

    private readonly _grid: ColliderGrid;
    private readonly _gridCapacity: number;
    private _slotColliders: Collider[] = [];
    private _slotShapes: ColliderShape[] = [];
    private _slotsDirty = true;
    private readonly _query = new Int32Array(32);
    private readonly _box = new Float64Array(6);
    private readonly _context = new SubstepContext();
    /** Wind xyz and air density, copied from the public fields at the start of each step. */
    private readonly _air = new Float64Array(4);
    private readonly _hinge = new Float64Array(10);
    private _nextBodyId = 0;
    private _gridOverflowReported = false;
    private readonly _contactOverflowReported = new WeakSet<SoftBody>();

    /** @param options see {@link XpbdWorldOptions} */
    public constructor(options: XpbdWorldOptions = {}) {
        const gravity = options.gravity ?? [0, -9.81, 0];
        if (!gravity.every(Number.isFinite)) {
            throw new RangeError(`gravity must be finite, got ${gravity.join(", ")}`);
        }
        this.gravity.set(gravity);
        const wind = options.wind ?? [0, 0, 0];
        if (!wind.every(Number.isFinite)) {
            throw new RangeError(`wind must be finite, got ${wind.join(", ")}`);
        }
        this.wind.set(wind);
        this.airDensity = options.airDensity ?? DEFAULT_AIR_DENSITY;
        if (!(this.airDensity >= 0) || !Number.isFinite(this.airDensity)) {
            throw new RangeError(`airDensity must be a finite number ≥ 0, got ${this.airDensity}`);
        }
        this.substeps = positiveInteger(options.substeps ?? 10, "substeps");
        this.iterations = positiveInteger(options.iterations ?? 1, "iterations");
        const cellSize = options.cellSize ?? 0.5;
        this._grid = new ColliderGrid(cellSize);
        this._gridCapacity = options.gridCapacity ?? 65536;
        this.events = new EventQueue(options.eventCapacity ?? 256);
        this.timing = options.timing ?? true;
    }

    /** Adds a body (it must not be in a world already). */
    public addBody(body: SoftBody): void {
        if (body.id >= 0) {
            throw new Error(`soft body ${body.id} is already in a world`);
        }
        body.id = this._nextBodyId++;
        body._rebuildPins();
        this.bodies.push(body);
    }

    /** Removes a body; it may be added again (to this or another world). */
    public removeBody(body: SoftBody): void {
        const index = this.bodies.indexOf(body);
        if (index >= 0) {
            this.bodies.splice(index, 1);
            body.id = -1;
        }
    }

    /** Adds a collider. */
    public addCollider(collider: Collider): void {
        if (this.colliders.includes(collider)) {
            throw new Error("collider is already in this world");
        }
        this.colliders.push(collider);
        this._slotsDirty = true;
    }

    /** Removes a collider. */
    public removeCollider(collider: Collider): void {
        const index = this.colliders.indexOf(collider);
        if (index >= 0) {
            this.colliders.splice(index, 1);
            this._slotsDirty = true;
        }
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
        if (this._slotsDirty) {
            this._rebuildSlots();
        }
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
        this._updateSlotBounds(context);
        this._grid.build(this._slotColliders.length);
        if (this._grid.overflowed && !this._gridOverflowReported) {
            this._gridOverflowReported = true;
            this.events.push(SoftBodyEventType.CapacityExceeded, -1, 1, this._gridCapacity);
        }
        for (let b = 0; b < this.bodies.length; b++) {
            const body = this.bodies[b];
            if (airChanged && body.triangles.length > 0 && body.windScale > 0) {
                body._wakeRequested = true;
            }
            this._beginStep(body, context);
        }
        for (let s = 0; s < substeps; s++) {
            context.t = (s + 1) / substeps;
            for (let c = 0; c < this.colliders.length; c++) {
                const collider = this.colliders[c];
                if (collider.motion !== ColliderMotion.Static) {
                    collider._integrate(context);
                }
            }
            for (let b = 0; b < this.bodies.length; b++) {
                const body = this.bodies[b];
                if (!body.sleeping) {
                    this._substep(body, context);
                }
            }
        }
        const stats = this.stats;
        stats.reset();
        for (let b = 0; b < this.bodies.length; b++) {
            const body = this.bodies[b];
            this._endStep(body, context);
            stats.accumulate(body.stats);
        }
        stats.substeps = substeps;
        stats.iterations = this.iterations;
        // Two clock reads per step (each boxes a number): the per-substep figure is the step's share.
        stats.stepMs = timing ? now() - start : 0;
        stats.substepMs = stats.stepMs / substeps;
        this.time += dt;
    }

    /** Pins, wake-up, last valid state and broad phase of one body. */
    private _beginStep(body: SoftBody, context: SubstepContext): void {
        if (body.pins.dirty) {
            body._rebuildPins();
        }
        if (body.sleeping && (body._wakeRequested || body.pins.targetsMove() || this._movingColliderNear(body))) {
            body.sleeping = false;
            body._slowTime = 0;
            this.events.push(SoftBodyEventType.Wake, body.id, -1, 0);
        }
        body._wakeRequested = false;
        if (body.sleeping) {
            return;
        }
        // A value written between steps (by the host or a user) is checked before it becomes the "last valid" state.
        if (this._containInvalid(body)) {
            body._validPositions.set(body.positions);
            body._validVelocities.set(body.velocities);
        }
        body.contacts.maxCorrection = 0;
        body.contactResidual.fill(0);
        this._findContacts(body, context);
    }

    /** Broad phase: each free particle's swept box against the grid of collider shapes. */
    private _findContacts(body: SoftBody, context: SubstepContext): void {
        const contacts = body.contacts;
        contacts.count = 0;
        contacts.overflowed = false;
        if (this._slotColliders.length === 0) {
            return;
        }
        const dt = context.dt;
        const x = body.positions;
        const v = body.velocities;
        const g = this.gravity;
        const pad = body.thickness * 2 + Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * dt * dt;
        const query = this._query;
        for (let p = 0; p < body.particleCount; p++) {
            if (body.inverseMasses[p] === 0) {
                continue;
            }
            const i = p * 3;
            const ex = x[i] + v[i] * dt;
            const ey = x[i + 1] + v[i + 1] * dt;
            const ez = x[i + 2] + v[i + 2] * dt;
            const box = this._box;
            box[0] = Math.min(x[i], ex) - pad;
            box[1] = Math.min(x[i + 1], ey) - pad;
            box[2] = Math.min(x[i + 2], ez) - pad;
            box[3] = Math.max(x[i], ex) + pad;
            box[4] = Math.max(x[i + 1], ey) + pad;
            box[5] = Math.max(x[i + 2], ez) + pad;
            const found = this._grid.query(box, query);
            if (found === query.length) {
                // More shapes overlap this particle than one query holds: the farthest ones may be missed.
                contacts.overflowed = true;
            }
            for (let k = 0; k < found; k++) {
                const slot = query[k];
                const collider = this._slotColliders[slot];
                if ((collider.membership & body.collideWith) !== 0 && (collider.collideWith & body.membership) !== 0) {
                    contacts.add(p, slot);
                }
            }
        }
        if (contacts.overflowed && !this._contactOverflowReported.has(body)) {
            this._contactOverflowReported.add(body);
            this.events.push(SoftBodyEventType.CapacityExceeded, body.id, 0, contacts.capacity);
        }
    }

    /** One substep of one body: aerodynamics, predict, project, update velocities, restitution, damping. */
    private _substep(body: SoftBody, context: SubstepContext): void {
        applyAerodynamics(body, this._air, context);
        const n = body.particleCount;
        const x = body.positions;
        const xPrev = body.previousPositions;
        const v = body.velocities;
        const w = body.inverseMasses;
        const f = body.externalForces;
        const h = context.h;
        const gx = this.gravity[0] * h;
        const gy = this.gravity[1] * h;
        const gz = this.gravity[2] * h;
        xPrev.set(x);
        for (let p = 0; p < n; p++) {
            const wp = w[p];
            if (wp === 0) {
                continue;
            }
            const i = p * 3;
            v[i] += gx + f[i] * wp * h;
            v[i + 1] += gy + f[i + 1] * wp * h;
            v[i + 2] += gz + f[i + 2] * wp * h;
            x[i] += v[i] * h;
            x[i + 1] += v[i + 1] * h;
            x[i + 2] += v[i + 2] * h;
        }
        body.pins.placeKinematic(x, context);
        body.stretch.lambdas.fill(0);
        body.shear.lambdas.fill(0);
        body.bend.lambdas.fill(0);
        body.volume.lambdas.fill(0);
        body.pins.lambdas.fill(0);
        body.contacts.beginSubstep();
        // Each iteration is a symmetric Gauss–Seidel pass: every constraint list front to back, then back to front.
        for (let sweep = 0; sweep < 2 * this.iterations; sweep++) {
            context.reverse = (sweep & 1) === 1;
            if (body.stretch.enabled) {
                body.stretch.project(x, w, context);
            }
            if (body.shear.enabled) {
                body.shear.project(x, w, context);
            }
            if (body.bend.enabled) {
                body.bend.project(x, w, context);
            }
            if (body.volume.enabled) {
                body.volume.project(x, w, context);
            }
            if (body.tethers.enabled) {
                body.tethers.project(x, w);
            }
            body.pins.projectSoft(x, w, context);
            body.contacts.project(body, this._slotColliders, this._slotShapes, context);
        }
        const bounce = body.restitution > 0 || this._anyRestitution;
        if (bounce) {
            body.contacts.recordApproach(v, this._slotColliders, x);
        }
        const invH = context.invH;
        for (let k = 0; k < 3 * n; k++) {
            v[k] = (x[k] - xPrev[k]) * invH;
        }
        if (bounce) {
            body.contacts.applyRestitution(body, this._slotColliders, RESTITUTION_THRESHOLD);
        }
        if (body.damping > 0) {
            dampDeformation(body, context);
        }
    }

    /** After the substeps: contain non-finite values, pins, sleep, residuals and events. */
    private _endStep(body: SoftBody, context: SubstepContext): void {
        const dt = context.dt;
        body.pins.endStep();
        const stats = body.stats;
        if (body.sleeping) {
            stats.sleepingBodies = 1;
            stats.kineticEnergy = 0;
            stats.contacts = 0;
            stats.contactCandidates = 0;
            stats.maxContactCorrection = 0;
            return;
        }
        this._containInvalid(body);
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
        this._measure(body);
        if (body.allowSleep && maxSpeed2 < body.sleepVelocity * body.sleepVelocity) {
            body._slowTime += dt;
            if (body._slowTime >= body.sleepTime) {
                body.sleeping = true;
                v.fill(0);
                stats.kineticEnergy = 0;
                stats.sleepingBodies = 1;
                this.events.push(SoftBodyEventType.Sleep, body.id, -1, 0);
            }
        } else {
            body._slowTime = 0;
        }
    }

    /**
     * Restores the body's last valid state if a position, velocity or external force is not finite, and reports it.
     * Returns whether the state was valid.
     */
    private _containInvalid(body: SoftBody): boolean {
        const x = body.positions;
        const v = body.velocities;
        const f = body.externalForces;
        let sum = 0;
        for (let k = 0; k < x.length; k++) {
            sum += x[k] + v[k] + f[k];
        }
        if (sum - sum === 0) {
            return true;
        }
        x.set(body._validPositions);
        v.set(body._validVelocities);
        body.previousPositions.set(x);
        for (let k = 0; k < f.length; k++) {
            if (!Number.isFinite(f[k])) {
                f[k] = 0;
            }
        }
        this.events.push(SoftBodyEventType.InvalidState, body.id, -1, 0);
        return false;
    }

    /** Residuals (body figures and per-particle heatmap arrays) of the state after the step. */
    private _measure(body: SoftBody): void {
        const stats = body.stats;
        stats.sleepingBodies = 0;
        stats.particles = body.particleCount;
        stats.stretchConstraints = body.stretch.count;
        stats.shearConstraints = body.shear.count;
        stats.bendConstraints = body.bend.count;
        stats.volumeConstraints = body.volume.count;
        stats.tethers = body.tethers.enabled ? body.tethers.count : 0;
        stats.pins = body.pins.kinematicCount + body.pins.softCount;
        stats.contactCandidates = body.contacts.count;
        stats.contacts = body.contacts.touching;
        stats.maxContactCorrection = body.contacts.maxCorrection;
        measureKineticEnergy(body);
        // One function per kind: each loop is optimised on its own, and a kind the body lacks costs nothing.
        const overStretched = measureStretch(body);
        if (overStretched >= 0) {
            this.events.push(SoftBodyEventType.OverStretch, body.id, overStretched, stats.maxEdgeRatio);
        }
        if (body.bend.count > 0) {
            measureBend(body, this._hinge);
        } else {
            stats.maxBendResidual = 0;
            stats.meanBendResidual = 0;
        }
        if (body.volume.count > 0) {
            measureVolume(body);
        } else {
            stats.maxVolumeResidual = 0;
            stats.meanVolumeResidual = 0;
            stats.volumeRatio = 0;
        }
    }

    private _anyRestitution = false;

    /** Flattens the colliders' shapes into broad-phase slots. Allocates: runs only after colliders changed. */
    private _rebuildSlots(): void {
        this._slotColliders = [];
        this._slotShapes = [];
        this._anyRestitution = false;
        for (const collider of this.colliders) {
            for (const shape of collider.shapes) {
                this._slotColliders.push(collider);
                this._slotShapes.push(shape);
            }
            this._anyRestitution ||= collider.restitution > 0;
        }
        this._grid.reserve(this._slotColliders.length, this._gridCapacity);
        this._slotsDirty = false;
    }

    /** World bounds of every slot, swept over the step by the collider's velocities. */
    private _updateSlotBounds(context: SubstepContext): void {
        const bounds = this._grid.bounds;
        for (let s = 0; s < this._slotColliders.length; s++) {
            const dt = context.dt;
            const collider = this._slotColliders[s];
            const local = this._slotShapes[s].bounds;
            const o = s * 6;
            if (local[0] - local[0] !== 0) {
                for (let axis = 0; axis < 3; axis++) {
                    bounds[o + axis] = -Infinity;
                    bounds[o + 3 + axis] = Infinity;
                }
                continue;
            }
            const m = collider._matrix;
            const cx = (local[0] + local[3]) / 2;
            const cy = (local[1] + local[4]) / 2;
            const cz = (local[2] + local[5]) / 2;
            const hx = (local[3] - local[0]) / 2;
            const hy = (local[4] - local[1]) / 2;
            const hz = (local[5] - local[2]) / 2;
            let sweep = 0;
            if (collider.motion !== ColliderMotion.Static) {
                const v = collider.linearVelocity;
                const w = collider.angularVelocity;
                const wx = collider.position[0] + m[0] * cx + m[1] * cy + m[2] * cz - collider._com[0];
                const wy = collider.position[1] + m[3] * cx + m[4] * cy + m[5] * cz - collider._com[1];
                const wz = collider.position[2] + m[6] * cx + m[7] * cy + m[8] * cz - collider._com[2];
                const reach = Math.sqrt(wx * wx + wy * wy + wz * wz) + Math.sqrt(hx * hx + hy * hy + hz * hz);
                sweep = (Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * reach) * dt;
            }
            for (let axis = 0; axis < 3; axis++) {
                const r = axis * 3;
                const center = collider.position[axis] + m[r] * cx + m[r + 1] * cy + m[r + 2] * cz;
                const half = Math.abs(m[r]) * hx + Math.abs(m[r + 1]) * hy + Math.abs(m[r + 2]) * hz + sweep;
                bounds[o + axis] = center - half;
                bounds[o + 3 + axis] = center + half;
            }
        }
    }

    /** Whether a moving collider's swept bounds come within reach of a sleeping body. */
    private _movingColliderNear(body: SoftBody): boolean {
        if (this._slotColliders.length === 0) {
            return false;
        }
        const x = body.positions;
        let minX = Infinity;
        let minY = Infinity;
        let minZ = Infinity;
        let maxX = -Infinity;
        let maxY = -Infinity;
        let maxZ = -Infinity;
        for (let k = 0; k < x.length; k += 3) {
            minX = Math.min(minX, x[k]);
            minY = Math.min(minY, x[k + 1]);
            minZ = Math.min(minZ, x[k + 2]);
            maxX = Math.max(maxX, x[k]);
            maxY = Math.max(maxY, x[k + 1]);
            maxZ = Math.max(maxZ, x[k + 2]);
        }
        const pad = body.thickness * 2;
        const bounds = this._grid.bounds;
        for (let s = 0; s < this._slotColliders.length; s++) {
            const collider = this._slotColliders[s];
            if (collider.motion === ColliderMotion.Static) {
                continue;
            }
            const v = collider.linearVelocity;
            const w = collider.angularVelocity;
            const moving = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > body.sleepVelocity ** 2 || w[0] * w[0] + w[1] * w[1] + w[2] * w[2] > 1e-6;
            const o = s * 6;
            if (moving && bounds[o] <= maxX + pad && bounds[o + 3] >= minX - pad && bounds[o + 1] <= maxY + pad &&
                bounds[o + 4] >= minY - pad && bounds[o + 2] <= maxZ + pad && bounds[o + 5] >= minZ - pad) {
                return true;
            }
        }
        return false;
    }
}

/** Kinetic energy ½ Σ m v² into the body's stats (written, not returned, so no number is boxed). */
function measureKineticEnergy(body: SoftBody): void {
    const v = body.velocities;
    const m = body.masses;
    let energy = 0;
    for (let p = 0; p < body.particleCount; p++) {
        energy += 0.5 * m[p] * (v[3 * p] * v[3 * p] + v[3 * p + 1] * v[3 * p + 1] + v[3 * p + 2] * v[3 * p + 2]);
    }
    body.stats.kineticEnergy = energy;
}

/**
 * Stretch figures and the per-particle stretch residual; returns the most stretched constraint when it is over the
 * body's over-stretch ratio, else −1.
 */
function measureStretch(body: SoftBody): number {
    const stats = body.stats;
    const x = body.positions;
    const stretchResidual = body.stretchResidual;
    stretchResidual.fill(0);
    const edges = body.stretch.indices;
    const rest = body.stretch.restLengths;
    let maxRatio = 0;
    let maxEdge = -1;
    let ratioSum = 0;
    let residualSum = 0;
    let maxResidual = 0;
    let over = 0;
    for (let c = 0; c < rest.length; c++) {
        const a = 3 * edges[2 * c];
        const b = 3 * edges[2 * c + 1];
        const dx = x[b] - x[a];
        const dy = x[b + 1] - x[a + 1];
        const dz = x[b + 2] - x[a + 2];
        const ratio = Math.sqrt(dx * dx + dy * dy + dz * dz) / rest[c];
        const residual = Math.abs(ratio - 1);
        ratioSum += ratio;
        residualSum += residual;
        if (ratio > maxRatio) {
            maxRatio = ratio;
            maxEdge = c;
        }
        if (residual > maxResidual) {
            maxResidual = residual;
        }
        if (ratio > body.overStretchRatio) {
            over++;
        }
        if (residual > stretchResidual[a / 3]) {
            stretchResidual[a / 3] = residual;
        }
        if (residual > stretchResidual[b / 3]) {
            stretchResidual[b / 3] = residual;
        }
    }
    const edgeCount = rest.length;
    stats.maxEdgeRatio = maxRatio;
    stats.meanEdgeRatio = edgeCount > 0 ? ratioSum / edgeCount : 0;
    stats.maxStretchResidual = maxResidual;
    stats.meanStretchResidual = edgeCount > 0 ? residualSum / edgeCount : 0;
    stats.overStretchedEdges = over;
    return over > 0 ? maxEdge : -1;
}

/** Bend figures and the per-particle bend residual; `hinge` is scratch for {@link writeHinge}. */
function measureBend(body: SoftBody, hinge: Float64Array): void {
    const x = body.positions;
    const bendResidual = body.bendResidual;
    bendResidual.fill(0);
    const bend = body.bend;
    let bendMax = 0;
    let bendSum = 0;
    for (let e = 0; e < bend.count; e++) {
        writeHinge(x, bend.indices[4 * e], bend.indices[4 * e + 1], bend.indices[4 * e + 2], bend.indices[4 * e + 3], hinge);
        const angle = hinge[9];
        let error = Number.isNaN(angle) ? 0 : Math.abs(angle - bend.restAngles[e]);
        if (error > Math.PI) {
            error = 2 * Math.PI - error;
        }
        bendSum += error;
        if (error > bendMax) {
            bendMax = error;
        }
        for (let k = 0; k < 4; k++) {
            const p = bend.indices[4 * e + k];
            if (error > bendResidual[p]) {
                bendResidual[p] = error;
            }
        }
    }
    body.stats.maxBendResidual = bendMax;
    body.stats.meanBendResidual = bendSum / bend.count;
}

/** Volume figures and the per-particle volume residual. */
function measureVolume(body: SoftBody): void {
    const x = body.positions;
    const volumeResidual = body.volumeResidual;
    volumeResidual.fill(0);
    const volume = body.volume;
    let volumeMax = 0;
    let volumeSum = 0;
    let total = 0;
    let restTotal = 0;
    for (let t = 0; t < volume.count; t++) {
        const current = tetVolume(x, volume.indices[4 * t], volume.indices[4 * t + 1], volume.indices[4 * t + 2], volume.indices[4 * t + 3]);
        const restVolume = volume.restVolumes[t];
        const error = Math.abs(current / restVolume - 1);
        total += current;
        restTotal += restVolume;
        volumeSum += error;
        if (error > volumeMax) {
            volumeMax = error;
        }
        for (let k = 0; k < 4; k++) {
            const p = volume.indices[4 * t + k];
            if (error > volumeResidual[p]) {
                volumeResidual[p] = error;
            }
        }
    }
    body.stats.maxVolumeResidual = volumeMax;
    body.stats.meanVolumeResidual = volumeSum / volume.count;
    body.stats.volumeRatio = total / restTotal;
}

/**
 * Removes the fraction `1 − e^(−damping·h)` of each free particle's velocity relative to the body's rigid motion
 * `v_cm + ω × r`. For a free body that motion is the best rigid fit of its particles, which leaves their linear and
 * angular momentum unchanged: a thrown body keeps flying and spinning, only its wobble dies out. A body hanging
 * from weight-1 pins is attached to them, so its rigid motion is the pins' (fitted the same way over the pinned
 * particles; pins on a line give no rotation about it): a flag is damped relative to its pole, and a curtain's
 * swing dies out.
 */
function dampDeformation(body: SoftBody, context: SubstepContext): void {
    const k = 1 - Math.exp(-body.damping * context.h);
    const x = body.positions;
    const v = body.velocities;
    const m = body.masses;
    const w = body.inverseMasses;
    const n = body.particleCount;
    // Reference set: the pinned particles when there are any, else the free ones (m is used as a weight either way).
    const pinned = body.pins.kinematicCount > 0;
    let mass = 0;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let vx = 0;
    let vy = 0;
    let vz = 0;
    for (let p = 0; p < n; p++) {
        if ((w[p] === 0) !== pinned) {
            continue;
        }
        const mp = m[p];
        mass += mp;
        cx += x[3 * p] * mp;
        cy += x[3 * p + 1] * mp;
        cz += x[3 * p + 2] * mp;
        vx += v[3 * p] * mp;
        vy += v[3 * p + 1] * mp;
        vz += v[3 * p + 2] * mp;
    }
    if (mass === 0) {
        return;
    }
    cx /= mass;
    cy /= mass;
    cz /= mass;
    vx /= mass;
    vy /= mass;
    vz /= mass;
    // Angular momentum L and inertia tensor I about the centre of mass.
    let lx = 0;
    let ly = 0;
    let lz = 0;
    let ixx = 0;
    let iyy = 0;
    let izz = 0;
    let ixy = 0;
    let ixz = 0;
    let iyz = 0;
    for (let p = 0; p < n; p++) {
        if ((w[p] === 0) !== pinned) {
            continue;
        }
        const mp = m[p];
        const rx = x[3 * p] - cx;
        const ry = x[3 * p + 1] - cy;
        const rz = x[3 * p + 2] - cz;
        const ux = v[3 * p] - vx;
        const uy = v[3 * p + 1] - vy;
        const uz = v[3 * p + 2] - vz;
        lx += mp * (ry * uz - rz * uy);
        ly += mp * (rz * ux - rx * uz);
        lz += mp * (rx * uy - ry * ux);
        ixx += mp * (ry * ry + rz * rz);
        iyy += mp * (rx * rx + rz * rz);
        izz += mp * (rx * rx + ry * ry);
        ixy -= mp * rx * ry;
        ixz -= mp * rx * rz;
        iyz -= mp * ry * rz;
    }
    // ω = I⁻¹ L by cofactors; a degenerate inertia (particles on a line, or a single pin) gives no rotation.
    const c00 = iyy * izz - iyz * iyz;
    const c01 = ixz * iyz - ixy * izz;
    const c02 = ixy * iyz - ixz * iyy;
    const det = ixx * c00 + ixy * c01 + ixz * c02;
    let ox = 0;
    let oy = 0;
    let oz = 0;
    const scale = ixx + iyy + izz;
    if (Math.abs(det) > 1e-12 * scale * scale * scale) {
        const c11 = ixx * izz - ixz * ixz;
        const c12 = ixy * ixz - ixx * iyz;
        const c22 = ixx * iyy - ixy * ixy;
        ox = (c00 * lx + c01 * ly + c02 * lz) / det;
        oy = (c01 * lx + c11 * ly + c12 * lz) / det;
        oz = (c02 * lx + c12 * ly + c22 * lz) / det;
    }
    for (let p = 0; p < n; p++) {
        if (w[p] === 0) {
            continue;
        }
        const rx = x[3 * p] - cx;
        const ry = x[3 * p + 1] - cy;
        const rz = x[3 * p + 2] - cz;
        const i = 3 * p;
        v[i] -= k * (v[i] - (vx + oy * rz - oz * ry));
        v[i + 1] -= k * (v[i + 1] - (vy + oz * rx - ox * rz));
        v[i + 2] -= k * (v[i + 2] - (vz + ox * ry - oy * rx));
    }
}

function positiveInteger(value: number, name: string): number {
    if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    return value;
}
