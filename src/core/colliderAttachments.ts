import { indexBelow } from "./argumentChecks.js";
import { ColliderMotion, type Collider } from "./collider.js";
import { particleHeld } from "./heldContacts.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Particles attached to points fixed in a collider's frame: a rope tied to a crate, a cable to a lamp. One slot per
 * particle (a particle hangs on at most one collider). Each attachment is a zero-length XPBD positional constraint
 * between the particle and its anchor, solved once per pass after the contacts:
 *
 * - on a dynamic collider, the correction is shared by the particle's inverse mass and the collider's generalised
 *   inverse mass at the anchor (`1/M + (r × n)·I⁻¹(r × n)`); the collider moves and turns inside the substep, and its
 *   impulse goes to its accumulator, which the host hands to its rigid-body engine (two-way coupling: the rope holds
 *   the crate, the swinging crate pulls the rope);
 * - on a static or kinematic collider the particle alone moves: it follows the anchor.
 *
 * A light rope cannot stop a heavy crate one correction at a time (its particle would take nearly all of it). So, as
 * with the held contacts (`heldContacts.ts`), a particle whose taut tethers hold it against the pull counts as fixed:
 * the collider takes the whole correction, and the tethers hand the load to the pins.
 *
 * The impulses count as collider impulses of the body (`ParticleContacts.impulse`), so `SoftBody.pinForce` stays the
 * force of the pins alone: a rope pinned at its top carrying a crate shows the weight of both there.
 *
 * Capacity is the body's particle capacity, allocated here once; the solve allocates nothing.
 */
export class ColliderAttachments {
    /** Collider per particle, or null for a particle that is not attached. */
    public readonly colliders: (Collider | null)[];
    /** Anchor per particle in its collider's frame (xyz, m). */
    public readonly anchors: Float64Array;
    /** Attached particles in increasing order; the first {@link count} entries are valid. */
    public readonly particles: Int32Array;
    /** Number of attached particles. */
    public count = 0;
    /**
     * Compliance (m/N) of every attachment; 0 (the default) is rigid. A small value lets a heavy body hang from a
     * light rope a little springily instead of tugging it.
     */
    public compliance = 0;

    /** Lagrange multiplier per slot of {@link particles}, cleared every substep. */
    private readonly _lambdas: Float64Array;
    private readonly _anchor = new Float64Array(3);
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _bodyInverseMass = new Float64Array(1);
    private readonly _basis = new Float64Array(13);

    /** @param capacity - the body's particle capacity */
    public constructor(capacity: number) {
        this.colliders = new Array<Collider | null>(capacity).fill(null);
        this.anchors = new Float64Array(3 * capacity);
        this.particles = new Int32Array(capacity);
        this._lambdas = new Float64Array(capacity);
    }

    /**
     * Attaches `particle` to the point `(x, y, z)` of `collider`'s frame (m), replacing an attachment it had. Not
     * during a step.
     * @throws RangeError for a particle out of range or an anchor that is not finite
     */
    public attach(particle: number, collider: Collider, x: number, y: number, z: number): void {
        indexBelow(particle, this.colliders.length, "attach: particle");
        if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
            throw new RangeError(`attach: the anchor of particle ${particle} must be finite, got (${x}, ${y}, ${z})`);
        }
        this.colliders[particle] = collider;
        this.anchors[3 * particle] = x;
        this.anchors[3 * particle + 1] = y;
        this.anchors[3 * particle + 2] = z;
        this._rebuild();
    }

    /** Frees `particle` from its collider (nothing when it has none). Not during a step. */
    public detach(particle: number): void {
        indexBelow(particle, this.colliders.length, "detach: particle");
        if (this.colliders[particle] !== null) {
            this.colliders[particle] = null;
            this._rebuild();
        }
    }

    /** Frees every particle attached to `collider` (a collider leaving the world); returns how many. */
    public detachCollider(collider: Collider): number {
        let freed = 0;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            if (this.colliders[p] === collider) {
                this.colliders[p] = null;
                freed++;
            }
        }
        if (freed > 0) {
            this._rebuild();
        }
        return freed;
    }

    /** Clears the multipliers at the start of a substep. */
    public beginSubstep(): void {
        this._lambdas.fill(0, 0, this.count);
    }

    /** World position of `particle`'s anchor, at its collider's current pose, into `out[0..2]`. */
    public anchorPosition(particle: number, out: Float64Array): void {
        const collider = this.colliders[particle];
        if (collider === null) {
            throw new Error(`particle ${particle} is not attached`);
        }
        this._worldAnchor(collider, particle, out);
    }

    /** One sweep over the attachments of `body` (see the class comment). */
    public project(body: SoftBody, context: SubstepContext): void {
        const x = body.positions;
        const invMass = body.inverseMasses;
        const anchor = this._anchor;
        const n = this._direction;
        const impulse = this._impulse;
        const bodyInverseMass = this._bodyInverseMass;
        const alphaTilde = this.compliance * context.invH2;
        const invH = context.invH;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            const collider = this.colliders[p] as Collider;
            this._worldAnchor(collider, p, anchor);
            const i = 3 * p;
            const dx = x[i] - anchor[0];
            const dy = x[i + 1] - anchor[1];
            const dz = x[i + 2] - anchor[2];
            const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (distance < 1e-12) {
                continue;
            }
            const dynamic = collider.motion === ColliderMotion.Dynamic;
            let w = invMass[p];
            let wBody = 0;
            if (dynamic) {
                // The pull on the particle, towards the anchor: held by taut tethers, the particle does not yield.
                n[0] = -dx / distance;
                n[1] = -dy / distance;
                n[2] = -dz / distance;
                if (w > 0 && body.tethers.enabled && particleHeld(body, p, n, this._basis)) {
                    w = 0;
                }
                collider._inverseMassAt(anchor, n, bodyInverseMass);
                wBody = bodyInverseMass[0];
            }
            if (w + wBody === 0) {
                continue;
            }
            const dLambda = (-distance - alphaTilde * this._lambdas[k]) / (w + wBody + alphaTilde);
            this._lambdas[k] += dLambda;
            // n: from the anchor to the particle.
            n[0] = dx / distance;
            n[1] = dy / distance;
            n[2] = dz / distance;
            x[i] += w * dLambda * n[0];
            x[i + 1] += w * dLambda * n[1];
            x[i + 2] += w * dLambda * n[2];
            // The particle gained momentum Δλ·n/h (or the pins behind it did); the collider gets the opposite.
            impulse[0] = -dLambda * n[0] * invH;
            impulse[1] = -dLambda * n[1] * invH;
            impulse[2] = -dLambda * n[2] * invH;
            body.contacts._push(collider, impulse, anchor, context);
            if (dynamic) {
                collider._turn(impulse, anchor, context);
            }
        }
    }

    private _worldAnchor(collider: Collider, p: number, out: Float64Array): void {
        const m = collider._matrix;
        const ax = this.anchors[3 * p];
        const ay = this.anchors[3 * p + 1];
        const az = this.anchors[3 * p + 2];
        const o = collider.position;
        out[0] = o[0] + m[0] * ax + m[1] * ay + m[2] * az;
        out[1] = o[1] + m[3] * ax + m[4] * ay + m[5] * az;
        out[2] = o[2] + m[6] * ax + m[7] * ay + m[8] * az;
    }

    /** Rebuilds the list of attached particles, in increasing order (deterministic whatever the call order). */
    private _rebuild(): void {
        let count = 0;
        for (let p = 0; p < this.colliders.length; p++) {
            if (this.colliders[p] !== null) {
                this.particles[count++] = p;
            }
        }
        this.count = count;
    }
}
