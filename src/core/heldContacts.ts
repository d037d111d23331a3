import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import type { ParticleContacts } from "./particleContacts.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";
import { TETHER_ANCHORS } from "./tetherConstraints.js";

/**
 * The held solve, at the start of a substep, after the colliders' accelerations and before they move: every
 * dynamic body about to press on particles that their taut tethers hold (see `TetherConstraints.heldFraction`)
 * gets the impulses that keep it from sinking into them, at velocity level and inelastic, with Coulomb friction,
 * by sequential impulses over those contacts (`HELD_ITERATIONS` rounds, accumulated and clamped). A contact
 * may close its gap within the step, and no more (a speculative contact), so the body comes to rest exactly on
 * the particles; a penetration is pushed out at no more than `HELD_PUSH_OUT_SPEED`. The particles do not
 * move: their tethers hand the load to the pins. This is how a 0.5 kg hammock holds a 500 kg crate: a light
 * particle cannot stop a heavy body one correction at a time, but the pins behind it can.
 * The state lives here, per candidate of the owning {@link ParticleContacts}.
 */
export class HeldContacts {
    private readonly _point = new Float64Array(3);
    private readonly _surface = new Float64Array(3);
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _bodyInverseMass = new Float64Array(1);
    private readonly _basis = new Float64Array(13);
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

    /** @param capacity - the owning contacts' capacity */
    public constructor(capacity: number) {
        this._held = new Uint8Array(capacity);
        this._heldNormals = new Float64Array(capacity * 3);
        this._heldGap = new Float64Array(capacity);
        this._heldSupport = new Float64Array(capacity * 3);
        this._heldNormal = new Float64Array(capacity);
        this._heldFriction = new Float64Array(capacity * 3);
    }

    /** Runs the held solve over the candidates of `contacts` (see the class comment). */
    public solve(
        contacts: ParticleContacts,
        body: SoftBody,
        colliders: readonly Collider[],
        shapes: readonly ColliderShape[],
        context: SubstepContext,
    ): void {
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
        const n = contacts._shapeResult;
        let any = false;
        for (let k = 0; k < contacts.count; k++) {
            held[k] = 0;
            const p = contacts.particles[k];
            const collider = colliders[contacts.slots[k]];
            if (collider.motion !== ColliderMotion.Dynamic || invMass[p] === 0 || shapes[contacts.slots[k]].twoSided) {
                continue;
            }
            const i = p * 3;
            contacts._query[3] = thickness * 4;
            contacts._query3(x, i, collider, shapes[contacts.slots[k]]);
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
            if (!this.isHeld(body, p, direction)) {
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
            for (let k = 0; k < contacts.count; k++) {
                if (held[k] === 0) {
                    continue;
                }
                const collider = colliders[contacts.slots[k]];
                const i = contacts.particles[k] * 3;
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
                contacts._push(collider, impulse, point, null);
                this._frictionRound(contacts, body, collider, k, point);
            }
        }
    }

    /** Whether particle `p`'s taut tethers hold it against a push along `direction` (see {@link particleHeld}). */
    public isHeld(body: SoftBody, p: number, direction: Float64Array): boolean {
        return particleHeld(body, p, direction, this._basis);
    }

    /** Coulomb friction of held candidate `k` on its body, clamped by the normal impulse accumulated so far. */
    private _frictionRound(contacts: ParticleContacts, body: SoftBody, collider: Collider, k: number, point: Float64Array): void {
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
        contacts._push(collider, impulse, point, null);
    }
}

/**
 * Whether particle `p`'s taut tethers hold it against a push along the unit vector `direction`, as firmly as the pins
 * (see `TetherConstraints.heldFraction`): then a contact should not move it, and the pins take the load. `scratch`
 * holds 13 numbers of working space.
 */
export function particleHeld(body: SoftBody, p: number, direction: Float64Array, scratch: Float64Array): boolean {
    scratch[12] = body.thickness * HELD_TOLERANCE;
    body.tethers.heldFraction(body.positions, p, direction, scratch);
    return scratch[12] >= HELD_FRACTION;
}

/** Held fraction from which a touching particle counts as held (see `TetherConstraints.heldFraction`). */
export const HELD_FRACTION = 0.5;
/** How close to its limit (in thicknesses) a tether counts as taut. */
export const HELD_TOLERANCE = 0.1;
/** Rounds of the held solve per substep. */
export const HELD_ITERATIONS = 4;
/** Penetration (in thicknesses) the held solve tolerates without pushing out. */
export const HELD_SLOP = 0.05;
/** Largest speed (m/s) at which the held solve pushes a body out of a penetration. */
export const HELD_PUSH_OUT_SPEED = 0.1;
