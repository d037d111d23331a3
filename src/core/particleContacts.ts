import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import type { SoftBody } from "./softBody.js";
import { TETHER_ANCHORS } from "./tetherConstraints.js";
import type { SubstepContext } from "./substepContext.js";

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
    /** Largest correction (m) in the current step. */
    public maxCorrection = 0;
    /** Total impulse (N·s, world) the colliders put on the body during the current step. */
    public readonly impulse = new Float64Array(3);
    // Scratch: numbers cross calls through these small arrays, never as boxed arguments (see docs/performance.md).
    private readonly _query = new Float64Array(4);
    private readonly _shapeResult = new Float64Array(4);
    private readonly _point = new Float64Array(3);
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _surface = new Float64Array(3);
    private readonly _slipState = new Float64Array(2);
    private readonly _bodyInverseMass = new Float64Array(1);
    private readonly _basis = new Float64Array(13);
    /** Normal velocity before the substep's solve, per candidate (for restitution). */
    private readonly _approach: Float64Array;
    /** Whether the candidate touched in the current substep: {@link TOUCHING}, {@link HELD}, or 0. */
    private readonly _active: Uint8Array;
    /** Normal of each candidate's last touch (world). */
    private readonly _normals: Float64Array;
    /** Whether each candidate takes part in the current held solve. */
    private readonly _held: Uint8Array;
    /** Normal (world) of each held candidate in the current held solve. */
    private readonly _heldNormals: Float64Array;
    /** Velocity (world) of the pin that holds each held candidate. */
    private readonly _heldSupport: Float64Array;
    /** Gap (m, negative when penetrating) of each held candidate at the start of the held solve. */
    private readonly _heldGap: Float64Array;
    /** Normal impulse (N·s) on each held candidate, accumulated over the held solve's iterations. */
    private readonly _heldNormal: Float64Array;
    /** Friction impulse (N·s, world) on each held candidate, accumulated likewise. */
    private readonly _heldFriction: Float64Array;

    /** @param capacity - maximum number of candidates per step */
    public constructor(public readonly capacity: number) {
        this.particles = new Int32Array(capacity);
        this.slots = new Int32Array(capacity);
        this._approach = new Float64Array(capacity);
        this._active = new Uint8Array(capacity);
        this._normals = new Float64Array(capacity * 3);
        this._held = new Uint8Array(capacity);
        this._heldNormals = new Float64Array(capacity * 3);
        this._heldGap = new Float64Array(capacity);
        this._heldSupport = new Float64Array(capacity * 3);
        this._heldNormal = new Float64Array(capacity);
        this._heldFriction = new Float64Array(capacity * 3);
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
                if (body.tethers.enabled && this._isHeld(body, p, direction)) {
                    if (this._active[k] === 0) {
                        this.touching++;
                    }
                    this._active[k] = HELD;
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
            this._applyFriction(body, collider, i, direction, point, slipState, context);
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
     * dynamic body about to press on particles that their taut tethers hold (see `TetherConstraints.heldFraction`)
     * gets the impulses that keep it from sinking into them, at velocity level and inelastic, with Coulomb friction,
     * by sequential impulses over those contacts (`HELD_ITERATIONS` rounds, accumulated and clamped). A contact
     * may close its gap within the step, and no more (a speculative contact), so the body comes to rest exactly on
     * the particles; a penetration is pushed out at no more than `HELD_PUSH_OUT_SPEED`. The particles do not
     * move: their tethers hand the load to the pins. This is how a 0.5 kg hammock holds a 500 kg crate: a light
     * particle cannot stop a heavy body one correction at a time, but the pins behind it can.
     */
    public solveHeld(body: SoftBody, colliders: readonly Collider[], shapes: readonly ColliderShape[], context: SubstepContext): void {
        const x = body.positions;
        const v = body.velocities;
        const invMass = body.inverseMasses;
        const thickness = body.thickness;
        const point = this._point;
        const surface = this._surface;
        const direction = this._direction;
        const impulse = this._impulse;
        const bodyInverseMass = this._bodyInverseMass;
        const held = this._held;
        const normals = this._heldNormals;
        const support = this._heldSupport;
        const n = this._shapeResult;
        let any = false;
        for (let k = 0; k < this.count; k++) {
            held[k] = 0;
            const p = this.particles[k];
            const collider = colliders[this.slots[k]];
            if (collider.motion !== ColliderMotion.Dynamic || invMass[p] === 0 || shapes[this.slots[k]].twoSided) {
                continue;
            }
            const i = p * 3;
            this._query[3] = thickness * 4;
            this._query3(x, i, collider, shapes[this.slots[k]]);
            const nx = n[0];
            const ny = n[1];
            const nz = n[2];
            const gap = n[3] - thickness;
            point[0] = x[i];
            point[1] = x[i + 1];
            point[2] = x[i + 2];
            collider.pointVelocity(point, surface);
            const separation = (v[i] - surface[0]) * nx + (v[i + 1] - surface[1]) * ny + (v[i + 2] - surface[2]) * nz;
            // Only contacts the body can reach within this step.
            if (gap + Math.min(separation, 0) * context.dt > 0) {
                continue;
            }
            direction[0] = nx;
            direction[1] = ny;
            direction[2] = nz;
            if (!this._isHeld(body, p, direction)) {
                continue;
            }
            held[k] = 1;
            any = true;
            // A held particle moves as the pins behind it do: its own velocity carries the cloth's small corrections,
            // which would drag and spin the body through friction.
            const anchor = body.tethers.anchors[body.tethers.slotOf[p * TETHER_ANCHORS]] * 3;
            support[3 * k] = v[anchor];
            support[3 * k + 1] = v[anchor + 1];
            support[3 * k + 2] = v[anchor + 2];
            normals[3 * k] = nx;
            normals[3 * k + 1] = ny;
            normals[3 * k + 2] = nz;
            // A penetration under the slop is left alone: pushing out every fraction of a millimetre spins the body.
            this._heldGap[k] = gap < 0 ? Math.min(gap + thickness * HELD_SLOP, 0) : gap;
            this._heldNormal[k] = 0;
            this._heldFriction[3 * k] = 0;
            this._heldFriction[3 * k + 1] = 0;
            this._heldFriction[3 * k + 2] = 0;
        }
        if (!any) {
            return;
        }
        // Gaps close over a whole step, not a substep: the host moves the body by its end velocity times the step,
        // so a body closing a gap at substep speed would be carried through the cloth by the host.
        const invDt = 1 / context.dt;
        for (let round = 0; round < HELD_ITERATIONS; round++) {
            for (let k = 0; k < this.count; k++) {
                if (held[k] === 0) {
                    continue;
                }
                const collider = colliders[this.slots[k]];
                const i = this.particles[k] * 3;
                point[0] = x[i];
                point[1] = x[i + 1];
                point[2] = x[i + 2];
                const nx = normals[3 * k];
                const ny = normals[3 * k + 1];
                const nz = normals[3 * k + 2];
                collider.pointVelocity(point, surface);
                const o = 3 * k;
                const separation = (support[o] - surface[0]) * nx + (support[o + 1] - surface[1]) * ny + (support[o + 2] - surface[2]) * nz;
                // The gap may close within the substep; a penetration opens at a bounded speed.
                const gap = this._heldGap[k];
                const target = gap >= 0 ? -gap * invDt : Math.min(-gap * invDt, HELD_PUSH_OUT_SPEED);
                direction[0] = nx;
                direction[1] = ny;
                direction[2] = nz;
                collider._inverseMassAt(point, direction, bodyInverseMass);
                const previous = this._heldNormal[k];
                const accumulated = Math.max(previous + (target - separation) / bodyInverseMass[0], 0);
                const jn = accumulated - previous;
                this._heldNormal[k] = accumulated;
                // The body is pushed along −n; the particle's share goes through its tethers to the pins.
                impulse[0] = -jn * nx;
                impulse[1] = -jn * ny;
                impulse[2] = -jn * nz;
                this._push(collider, impulse, point, null);
                this._heldFrictionRound(body, collider, k, point);
            }
        }
    }

    /** Whether particle `p`'s taut tethers hold it against a push along `direction` (see `TetherConstraints.heldFraction`). */
    private _isHeld(body: SoftBody, p: number, direction: Float64Array): boolean {
        this._basis[12] = body.thickness * HELD_TOLERANCE;
        body.tethers.heldFraction(body.positions, p, direction, this._basis);
        return this._basis[12] >= HELD_FRACTION;
    }

    /**
     * World normal and signed distance of particle `x[i..i+2]` to the surface of `shape` of `collider`, into
     * `_shapeResult` (the point goes into the collider frame with the transposed rotation, the normal comes back); a
     * mesh farther than `_query[3]` (set by the caller) reports `Infinity`.
     */
    private _query3(x: Float64Array, i: number, collider: Collider, shape: ColliderShape): void {
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

    /** Coulomb friction of held candidate `k` on its body, clamped by the normal impulse accumulated so far. */
    private _heldFrictionRound(body: SoftBody, collider: Collider, k: number, point: Float64Array): void {
        const us = Math.sqrt(body.staticFriction * collider.friction);
        if (us === 0) {
            return;
        }
        const support = this._heldSupport;
        const surface = this._surface;
        const direction = this._direction;
        const impulse = this._impulse;
        const bodyInverseMass = this._bodyInverseMass;
        const nx = this._heldNormals[3 * k];
        const ny = this._heldNormals[3 * k + 1];
        const nz = this._heldNormals[3 * k + 2];
        // A body carrying a load (a crate under a stack) tilts as the load lets it, which the core does not know:
        // friction then sees its sliding and its turning about the load axis, not its tilting, so that a tilt the
        // core predicts but the stack does not follow cannot become a steady sideways push.
        if (collider.loadMass > 0) {
            // Sliding and turning about the load axis only (a crate under a stack tilts as the stack lets it).
            const a = collider.loadAxis;
            const w = collider.angularVelocity;
            const spin = w[0] * a[0] + w[1] * a[1] + w[2] * a[2];
            const rx = point[0] - collider._com[0];
            const ry = point[1] - collider._com[1];
            const rz = point[2] - collider._com[2];
            const v = collider.linearVelocity;
            surface[0] = v[0] + spin * (a[1] * rz - a[2] * ry);
            surface[1] = v[1] + spin * (a[2] * rx - a[0] * rz);
            surface[2] = v[2] + spin * (a[0] * ry - a[1] * rx);
        } else {
            collider.pointVelocity(point, surface);
        }
        // Slip of the body's surface over the particle, in the tangent plane.
        let sx = surface[0] - support[3 * k];
        let sy = surface[1] - support[3 * k + 1];
        let sz = surface[2] - support[3 * k + 2];
        const along = sx * nx + sy * ny + sz * nz;
        sx -= along * nx;
        sy -= along * ny;
        sz -= along * nz;
        const slip = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (slip < 1e-9) {
            return;
        }
        direction[0] = sx / slip;
        direction[1] = sy / slip;
        direction[2] = sz / slip;
        collider._inverseMassAt(point, direction, bodyInverseMass);
        const f = this._heldFriction;
        const o = 3 * k;
        const before0 = f[o];
        const before1 = f[o + 1];
        const before2 = f[o + 2];
        const j = slip / bodyInverseMass[0];
        let fx = before0 - j * direction[0];
        let fy = before1 - j * direction[1];
        let fz = before2 - j * direction[2];
        const limit = us * this._heldNormal[k];
        const size = Math.sqrt(fx * fx + fy * fy + fz * fz);
        if (size > limit) {
            const s = size > 0 ? limit / size : 0;
            fx *= s;
            fy *= s;
            fz *= s;
        }
        f[o] = fx;
        f[o + 1] = fy;
        f[o + 2] = fz;
        impulse[0] = fx - before0;
        impulse[1] = fy - before1;
        impulse[2] = fz - before2;
        this._push(collider, impulse, point, null);
    }

    /** Hands the impulse `j` at `point` to the collider (moving a dynamic one) and the opposite to the body's account. */
    private _push(collider: Collider, j: Float64Array, point: Float64Array, context: SubstepContext | null): void {
        if (collider.motion === ColliderMotion.Dynamic) {
            collider._applyImpulse(j, point, context);
        } else {
            collider.recordImpulse(j, point);
        }
        this.impulse[0] -= j[0];
        this.impulse[1] -= j[1];
        this.impulse[2] -= j[2];
    }

    /**
     * Positional friction for one touching contact: removes the particle's tangential slip relative to the surface
     * over the substep, entirely while it is within the static cone (slip under μs·depth), else by μk·depth. `normal`
     * holds the contact normal (overwritten with the slip direction), `point` the contact point, `state` the depth
     * and the particle's inverse mass.
     */
    private _applyFriction(
        body: SoftBody,
        collider: Collider,
        i: number,
        normal: Float64Array,
        point: Float64Array,
        state: Float64Array,
        context: SubstepContext,
    ): void {
        const direction = normal;
        const surface = this._surface;
        const impulse = this._impulse;
        const bodyInverseMass = this._bodyInverseMass;
        const us = Math.sqrt(body.staticFriction * collider.friction);
        const uk = Math.sqrt(body.kineticFriction * collider.friction);
        if (us === 0 && uk === 0) {
            return;
        }
        const x = body.positions;
        const xPrev = body.previousPositions;
        const h = context.h;
        const depth = state[0];
        const w = state[1];
        const nx = direction[0];
        const ny = direction[1];
        const nz = direction[2];
        const dynamic = collider.motion === ColliderMotion.Dynamic;
        collider.pointVelocity(point, surface);
        let sx = x[i] - xPrev[i] - surface[0] * h;
        let sy = x[i + 1] - xPrev[i + 1] - surface[1] * h;
        let sz = x[i + 2] - xPrev[i + 2] - surface[2] * h;
        const along = sx * nx + sy * ny + sz * nz;
        sx -= along * nx;
        sy -= along * ny;
        sz -= along * nz;
        const slip = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (slip < 1e-12) {
            return;
        }
        const removed = slip < us * depth ? slip : Math.min(uk * depth, slip);
        direction[0] = sx / slip;
        direction[1] = sy / slip;
        direction[2] = sz / slip;
        let wBodyT = 0;
        if (dynamic) {
            collider._inverseMassAt(point, direction, bodyInverseMass);
            wBodyT = bodyInverseMass[0];
        }
        const lambdaT = removed / (w + wBodyT);
        x[i] -= w * lambdaT * direction[0];
        x[i + 1] -= w * lambdaT * direction[1];
        x[i + 2] -= w * lambdaT * direction[2];
        point[0] = x[i];
        point[1] = x[i + 1];
        point[2] = x[i + 2];
        const jt = lambdaT / h;
        impulse[0] = jt * direction[0];
        impulse[1] = jt * direction[1];
        impulse[2] = jt * direction[2];
        this._push(collider, impulse, point, context);
    }
}

/** {@link ParticleContacts}' `_active` value of a candidate that touched and was projected. */
const TOUCHING = 1;
/** `_active` value of a candidate that touched a dynamic collider while held by its tethers (see `solveHeld`). */
const HELD = 2;
/** Held fraction from which a touching particle counts as held (see `TetherConstraints.heldFraction`). */
const HELD_FRACTION = 0.5;
/** How close to its limit (in thicknesses) a tether counts as taut. */
const HELD_TOLERANCE = 0.1;
/** Rounds of the held solve per substep. */
const HELD_ITERATIONS = 4;
/** Penetration (in thicknesses) the held solve tolerates without pushing out. */
const HELD_SLOP = 0.05;
/** Largest speed (m/s) at which the held solve pushes a body out of a penetration. */
const HELD_PUSH_OUT_SPEED = 0.1;
