import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import type { SoftBody } from "./softBody.js";
import { SubstepContext } from "./substepContext.js";

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
    // Scratch: numbers cross calls through these small arrays, never as boxed arguments (see docs/performance.md).
    private readonly _query = new Float64Array(4);
    private readonly _shapeResult = new Float64Array(4);
    private readonly _point = new Float64Array(3);
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _surface = new Float64Array(3);
    private readonly _slipState = new Float64Array(2);
    private readonly _bodyInverseMass = new Float64Array(1);
    /** Normal velocity before the substep's solve, per candidate (for restitution). */
    private readonly _approach: Float64Array;
    /** Whether the candidate touched in the current substep. */
    private readonly _active: Uint8Array;
    /** Normal of each candidate's last touch (world). */
    private readonly _normals: Float64Array;

    /** @param capacity - maximum number of candidates per step */
    public constructor(public readonly capacity: number) {
        this.particles = new Int32Array(capacity);
        this.slots = new Int32Array(capacity);
        this._approach = new Float64Array(capacity);
        this._active = new Uint8Array(capacity);
        this._normals = new Float64Array(capacity * 3);
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
        const query = this._query;
        const n = this._shapeResult;
        const point = this._point;
        const direction = this._direction;
        const impulse = this._impulse;
        const slipState = this._slipState;
        const bodyInverseMass = this._bodyInverseMass;
        query[3] = thickness * 4;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            const w = invMass[p];
            if (w === 0) {
                continue;
            }
            const slot = this.slots[k];
            const collider = colliders[slot];
            const i = p * 3;
            const m = collider._matrix;
            const dx = x[i] - collider.position[0];
            const dy = x[i + 1] - collider.position[1];
            const dz = x[i + 2] - collider.position[2];
            // Into the collider frame with the transposed rotation.
            query[0] = m[0] * dx + m[3] * dy + m[6] * dz;
            query[1] = m[1] * dx + m[4] * dy + m[7] * dz;
            query[2] = m[2] * dx + m[5] * dy + m[8] * dz;
            const shape = shapes[slot];
            shape.query(query, n);
            let nx = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
            let ny = m[3] * n[0] + m[4] * n[1] + m[5] * n[2];
            let nz = m[6] * n[0] + m[7] * n[1] + m[8] * n[2];
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
            if (dynamic) {
                collider._applyImpulse(impulse, point, context);
            } else {
                collider.recordImpulse(impulse, point);
            }
            if (this._active[k] === 0) {
                this._active[k] = 1;
                this.touching++;
            }
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
            if (this._active[k] === 0) {
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
            if (this._active[k] === 0 || invMass[p] === 0 || approach > -threshold) {
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
            if (collider.motion === ColliderMotion.Dynamic) {
                collider._applyImpulse(impulse, point, AFTER_SUBSTEP);
            } else {
                collider.recordImpulse(impulse, point);
            }
        }
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
        if (dynamic) {
            collider._applyImpulse(impulse, point, context);
        } else {
            collider.recordImpulse(impulse, point);
        }
    }
}

/** Restitution acts on velocities after the substep's positions are final: the body must not move any more. */
const AFTER_SUBSTEP = new SubstepContext();
AFTER_SUBSTEP.h = 0;
