import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import { ContactKind } from "./contactKind.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";
import { ContactFriction } from "./contactFriction.js";
import { HeldContacts } from "./heldContacts.js";
import { ParticleSweep } from "./particleSweep.js";

/**
 * Contact candidates of one body's particles against collider shapes, found once per step by the broad phase and
 * solved every iteration of every substep: the particle is kept `thickness` outside the surface, a dynamic collider
 * takes its share of the correction through its generalised inverse mass, and positional (static / kinetic)
 * friction acts on the tangential motion relative to the surface.
 */
export class ParticleContacts {
    /** Particle of each candidate. */
    public readonly particles: Int32Array;
    /** Broad-phase slot (collider shape) of each candidate. */
    public readonly slots: Int32Array;
    /** Number of candidates this step. */
    public count = 0;
    /** Set when the broad phase found more candidates than {@link capacity}; extra ones were dropped. */
    public overflowed = false;
    /** Candidates that touched during the last substep. */
    public touching = 0;
    /**
     * Whether the body's fastest particle, plus a step of gravity, moves more than half its thickness in a substep of
     * this step (set by the broad phase): only then are the candidates of static colliders swept (see `ParticleSweep`).
     */
    public fast = false;
    /** Whether a candidate of this step is a kinematic collider's shape that is swept (set by the broad phase). */
    public kinematicNear = false;
    /** Largest correction (m) in the current step. */
    public maxCorrection = 0;
    /** Total impulse (N·s, world) the colliders put on the body during the current step. */
    public readonly impulse = new Float64Array(3);
    // Scratch: numbers cross calls through these small arrays, never as boxed arguments (see docs/performance.md).
    /** The query point (collider frame) and reach of {@link _query3}. @internal */
    public readonly _query = new Float64Array(4);
    /** {@link _query3}'s answer: world normal and signed distance. @internal */
    public readonly _shapeResult = new Float64Array(4);
    private readonly _point = new Float64Array(3);
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _surface = new Float64Array(3);
    private readonly _slipState = new Float64Array(2);
    private readonly _bodyInverseMass = new Float64Array(1);
    /** Normal velocity before the substep's solve, per candidate (for restitution). */
    private readonly _approach: Float64Array;
    /** Whether the candidate touched in the current substep: {@link TOUCHING}, {@link HELD}, or 0. */
    private readonly _active: Uint8Array;
    /** Normal of each candidate's last touch (world). */
    private readonly _normals: Float64Array;
    /** The held solve's state (see {@link solveHeld}). */
    private readonly _held: HeldContacts;
    /** Friction of the touching candidates, with its own scratch. */
    private readonly _friction = new ContactFriction();
    /** The swept tests of fast particles. */
    private readonly _sweep: ParticleSweep;

    /** @param capacity - maximum number of candidates per step */
    public constructor(public readonly capacity: number) {
        this.particles = new Int32Array(capacity);
        this.slots = new Int32Array(capacity);
        this._approach = new Float64Array(capacity);
        this._active = new Uint8Array(capacity);
        this._normals = new Float64Array(capacity * 3);
        this._held = new HeldContacts(capacity);
        this._sweep = new ParticleSweep(capacity);
    }

    /** Adds a candidate unless full. */
    public add(particle: number, slot: number): void {
        if (this.count >= this.capacity) {
            this.overflowed = true;
            return;
        }
        this.particles[this.count] = particle;
        this.slots[this.count] = slot;
        this.count++;
    }

    /** Clears the touch flags at the start of a substep. */
    public beginSubstep(): void {
        this._active.fill(0, 0, this.count);
        this.touching = 0;
    }

    /** One pass over the candidates of `body`; the largest correction per particle goes to `body.contactResidual`. */
    public project(body: SoftBody, colliders: readonly Collider[], shapes: readonly ColliderShape[], context: SubstepContext): void {
        if (this.count === 0) {
            return;
        }
        const x = body.positions;
        const xPrev = body.previousPositions;
        const invMass = body.inverseMasses;
        const thickness = body.thickness;
        const perParticleCorrection = body.contactResidual;
        const h = context.h;
        const n = this._shapeResult;
        const point = this._point;
        const direction = this._direction;
        const impulse = this._impulse;
        const slipState = this._slipState;
        const bodyInverseMass = this._bodyInverseMass;
        // Before the query reach is set: the sweeps set their own.
        const swept = this._sweep.prepare(this, body, colliders, shapes, context);
        const entered = this._sweep.entered;
        const planes = this._sweep.planes;
        this._query[3] = thickness * 4;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            const w = invMass[p];
            if (w === 0) {
                continue;
            }
            const slot = this.slots[k];
            const collider = colliders[slot];
            const i = p * 3;
            const shape = shapes[slot];
            this._query3(x, i, collider, shape);
            // A fast particle that crossed the near face within the substep goes back before it (see `ParticleSweep`)
            // where the closest feature would push it on: that feature faces away from the entered face (it went past
            // the middle), or none is within reach (it went through). Short of the middle the closest feature is
            // right, and the plane tangent where the path entered a curved surface would push a particle pressed into
            // it along the surface's motion (a cloth on a moving ball drifted so). The GPU's particle pass does the same.
            if (swept && entered[k] !== 0) {
                const o = k * 4;
                const facing = planes[o] * n[0] + planes[o + 1] * n[1] + planes[o + 2] * n[2];
                const distance = planes[o] * x[i] + planes[o + 1] * x[i + 1] + planes[o + 2] * x[i + 2] - planes[o + 3];
                if ((facing <= 0 || n[3] === Infinity) && distance < n[3]) {
                    n[0] = planes[o];
                    n[1] = planes[o + 1];
                    n[2] = planes[o + 2];
                    n[3] = distance;
                }
            }
            let nx = n[0];
            let ny = n[1];
            let nz = n[2];
            let depth = thickness - n[3];
            // A sheet has no inside: if the particle started the substep on the other side of it, it passed through
            // within the substep and goes back to the side it came from (its distance then counts as depth).
            if (shape.twoSided && (xPrev[i] - x[i]) * nx + (xPrev[i + 1] - x[i + 1]) * ny + (xPrev[i + 2] - x[i + 2]) * nz + n[3] < 0) {
                nx = -nx;
                ny = -ny;
                nz = -nz;
                depth = thickness + n[3];
            }
            if (!(depth > 0)) {
                continue;
            }
            direction[0] = nx;
            direction[1] = ny;
            direction[2] = nz;
            const dynamic = collider.motion === ColliderMotion.Dynamic;
            point[0] = x[i];
            point[1] = x[i + 1];
            point[2] = x[i + 2];
            let wBody = 0;
            if (dynamic) {
                // A particle whose taut tethers take the push is as firm as the pins: the body rests on it, and the
                // held solve at the start of each substep stops the body instead (see `solveHeld`).
                if (body.tethers.enabled && this._held.isHeld(body, p, direction)) {
                    if (this._active[k] === 0) {
                        this.touching++;
                    }
                    this._active[k] = HELD;
                    // Read only by `_writeContacts`: the solve takes no normal of a held candidate.
                    this._normals[3 * k] = nx;
                    this._normals[3 * k + 1] = ny;
                    this._normals[3 * k + 2] = nz;
                    continue;
                }
                collider._inverseMassAt(point, direction, bodyInverseMass);
                wBody = bodyInverseMass[0];
            }
            const lambda = depth / (w + wBody);
            x[i] += w * lambda * nx;
            x[i + 1] += w * lambda * ny;
            x[i + 2] += w * lambda * nz;
            if (depth > perParticleCorrection[p]) {
                perParticleCorrection[p] = depth;
            }
            if (depth > this.maxCorrection) {
                this.maxCorrection = depth;
            }
            // The particle gained momentum λ·n/h; the body gets the opposite impulse.
            point[0] = x[i];
            point[1] = x[i + 1];
            point[2] = x[i + 2];
            const jn = -lambda / h;
            impulse[0] = jn * nx;
            impulse[1] = jn * ny;
            impulse[2] = jn * nz;
            this._push(collider, impulse, point, context);
            if (this._active[k] === 0) {
                this.touching++;
            }
            this._active[k] = TOUCHING;
            this._normals[3 * k] = nx;
            this._normals[3 * k + 1] = ny;
            this._normals[3 * k + 2] = nz;
            // Friction lives in its own function: its branches are taken irregularly, and keeping them out of this
            // loop keeps the loop's type feedback stable, so the JIT does not keep throwing its optimised code away.
            slipState[0] = depth;
            slipState[1] = w;
            this._friction.apply(this, body, collider, i, direction, point, slipState, context);
        }
    }

    /** Records each candidate's approach speed before the substep's velocities are overwritten. */
    public recordApproach(v: Float64Array, colliders: readonly Collider[], x: Float64Array): void {
        const point = this._point;
        const surface = this._surface;
        for (let k = 0; k < this.count; k++) {
            if (this._active[k] !== TOUCHING) {
                continue;
            }
            const i = this.particles[k] * 3;
            point[0] = x[i];
            point[1] = x[i + 1];
            point[2] = x[i + 2];
            colliders[this.slots[k]].pointVelocity(point, surface);
            this._approach[k] =
                (v[i] - surface[0]) * this._normals[3 * k] +
                (v[i + 1] - surface[1]) * this._normals[3 * k + 1] +
                (v[i + 2] - surface[2]) * this._normals[3 * k + 2];
        }
    }

    /**
     * Restitution: a touching particle that approached faster than `threshold` leaves at `e` times that speed.
     * The change of momentum is handed to a dynamic collider, so restitution too conserves momentum.
     */
    public applyRestitution(body: SoftBody, colliders: readonly Collider[], threshold: number): void {
        const point = this._point;
        const surface = this._surface;
        const impulse = this._impulse;
        const v = body.velocities;
        const x = body.positions;
        const masses = body.masses;
        const invMass = body.inverseMasses;
        const restitution = body.restitution;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            const approach = this._approach[k];
            if (this._active[k] !== TOUCHING || invMass[p] === 0 || approach > -threshold) {
                continue;
            }
            const collider = colliders[this.slots[k]];
            const e = Math.max(restitution, collider.restitution);
            if (e === 0) {
                continue;
            }
            const i = p * 3;
            const nx = this._normals[3 * k];
            const ny = this._normals[3 * k + 1];
            const nz = this._normals[3 * k + 2];
            point[0] = x[i];
            point[1] = x[i + 1];
            point[2] = x[i + 2];
            collider.pointVelocity(point, surface);
            const current = (v[i] - surface[0]) * nx + (v[i + 1] - surface[1]) * ny + (v[i + 2] - surface[2]) * nz;
            const dv = -e * approach - current;
            if (dv <= 0) {
                continue;
            }
            v[i] += dv * nx;
            v[i + 1] += dv * ny;
            v[i + 2] += dv * nz;
            const j = -masses[p] * dv;
            impulse[0] = j * nx;
            impulse[1] = j * ny;
            impulse[2] = j * nz;
            this._push(collider, impulse, point, null);
        }
    }

    /**
     * The held solve, at the start of a substep, after the colliders' accelerations and before they move: every
     * dynamic body about to press on particles that their taut tethers hold gets the impulses that keep it from
     * sinking into them, and the particles do not move (see `heldContacts.ts`).
     */
    public solveHeld(body: SoftBody, colliders: readonly Collider[], shapes: readonly ColliderShape[], context: SubstepContext): void {
        this._held.solve(this, body, colliders, shapes, context);
    }

    /**
     * Writes the candidates that touched in the last substep into slots `start` … `end − 1` of the output (as many as
     * fit) and returns the next free slot: the point of the collider's surface closest to the particle now, the
     * normal the solve last pushed the particle along, and {@link ContactKind.Collider}. Read between steps only: it
     * uses the solve's query scratch. @internal
     */
    public _writeContacts(
        body: SoftBody,
        colliders: readonly Collider[],
        shapes: readonly ColliderShape[],
        points: Float32Array | Float64Array,
        normals: Float32Array | Float64Array,
        kinds: Uint8Array,
        start: number,
        end: number,
    ): number {
        const x = body.positions;
        const n = this._shapeResult;
        const stored = this._normals;
        let out = start;
        this._query[3] = body.thickness * 4;
        for (let k = 0; k < this.count && out < end; k++) {
            if (this._active[k] === 0) {
                continue;
            }
            const i = 3 * this.particles[k];
            const o = 3 * out;
            this._query3(x, i, colliders[this.slots[k]], shapes[this.slots[k]]);
            // A mesh farther than the query reaches: the solve left the particle a thickness off the surface.
            const far = !(n[3] < Infinity);
            for (let a = 0; a < 3; a++) {
                points[o + a] = far ? x[i + a] - body.thickness * stored[3 * k + a] : x[i + a] - n[3] * n[a];
                normals[o + a] = stored[3 * k + a];
            }
            kinds[out] = ContactKind.Collider;
            out++;
        }
        return out;
    }

    /**
     * World normal and signed distance of particle `x[i..i+2]` to the surface of `shape` of `collider`, into
     * `_shapeResult` (the point goes into the collider frame with the transposed rotation, the normal comes back); a
     * mesh farther than `_query[3]` (set by the caller) reports `Infinity`. @internal
     */
    public _query3(x: Float64Array, i: number, collider: Collider, shape: ColliderShape): void {
        const query = this._query;
        const n = this._shapeResult;
        const m = collider._matrix;
        const dx = x[i] - collider.position[0];
        const dy = x[i + 1] - collider.position[1];
        const dz = x[i + 2] - collider.position[2];
        query[0] = m[0] * dx + m[3] * dy + m[6] * dz;
        query[1] = m[1] * dx + m[4] * dy + m[7] * dz;
        query[2] = m[2] * dx + m[5] * dy + m[8] * dz;
        shape.query(query, n);
        const lx = n[0];
        const ly = n[1];
        const lz = n[2];
        n[0] = m[0] * lx + m[1] * ly + m[2] * lz;
        n[1] = m[3] * lx + m[4] * ly + m[5] * lz;
        n[2] = m[6] * lx + m[7] * ly + m[8] * lz;
    }

    /**
     * Hands the impulse `j` at `point` to the collider (moving a dynamic one) and the opposite to the body's account.
     * @internal
     */
    public _push(collider: Collider, j: Float64Array, point: Float64Array, context: SubstepContext | null): void {
        if (collider.motion === ColliderMotion.Dynamic) {
            collider._applyImpulse(j, point, context);
        } else {
            collider.recordImpulse(j, point);
        }
        this.impulse[0] -= j[0];
        this.impulse[1] -= j[1];
        this.impulse[2] -= j[2];
    }
}

/** {@link ParticleContacts}' `_active` value of a candidate that touched and was projected. */
const TOUCHING = 1;
/** `_active` value of a candidate that touched a dynamic collider while held by its tethers (see `solveHeld`). */
const HELD = 2;
