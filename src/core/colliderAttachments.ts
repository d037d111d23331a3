import { indexBelow } from "./argumentChecks.js";
import { ColliderMotion, type Collider } from "./collider.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";
import { TETHER_ANCHORS } from "./tetherConstraints.js";

/**
 * Particles attached to points fixed in a collider's frame: a rope tied to a crate, a cable to a lamp. One slot per
 * particle (a particle hangs on at most one collider). Each attachment is a rigid (zero-compliance) XPBD positional
 * constraint of zero length between the particle and its anchor, solved once per pass after the contacts:
 *
 * - on a dynamic collider, the correction is shared by the particle's inverse mass and the collider's generalised
 *   inverse mass at the anchor (`1/M + (r × n)·I⁻¹(r × n)`); the collider moves and turns inside the substep, and its
 *   impulse goes to its accumulator, which the host hands to its rigid-body engine (two-way coupling: the rope holds
 *   the crate, the swinging crate pulls the rope);
 * - on a static or kinematic collider the particle alone moves: it follows the anchor.
 *
 * A light rope cannot stop a heavy crate one correction at a time (its particle would take nearly all of it). So, as
 * with the held contacts (`heldContacts.ts`), the pins hold the crate directly: the anchor gets the particle's tethers
 * (maximum distances to the pins), solved at velocity level on the collider alone ({@link solveHeld}), and the
 * tethers hand the load to the pins. At the start of each step {@link carry} puts the particles back on their anchors,
 * which the host may have moved.
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

    private readonly _anchor = new Float64Array(3);
    /** The gap to close (xyz, from the particle to its anchor) and the particle's inverse mass for it. */
    private readonly _pull = new Float64Array(4);
    /** Unit direction of the current correction. */
    private readonly _direction = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _bodyInverseMass = new Float64Array(1);
    /** Velocity of the anchor (world), for the held solve. */
    private readonly _surface = new Float64Array(3);
    /** Impulse (N·s) accumulated on each tether of each attachment in the current held solve. */
    private readonly _held: Float64Array;

    /** @param capacity - the body's particle capacity */
    public constructor(capacity: number) {
        this.colliders = new Array<Collider | null>(capacity).fill(null);
        this.anchors = new Float64Array(3 * capacity);
        this.particles = new Int32Array(capacity);
        this._held = new Float64Array(capacity * TETHER_ANCHORS);
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
        const previous = this.colliders[particle];
        if (previous !== null) {
            previous.attachedParticles--;
        }
        collider.attachedParticles++;
        this.colliders[particle] = collider;
        this.anchors[3 * particle] = x;
        this.anchors[3 * particle + 1] = y;
        this.anchors[3 * particle + 2] = z;
        this._rebuild();
    }

    /** Frees `particle` from its collider (nothing when it has none). Not during a step. */
    public detach(particle: number): void {
        indexBelow(particle, this.colliders.length, "detach: particle");
        const collider = this.colliders[particle];
        if (collider !== null) {
            collider.attachedParticles--;
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
            collider.attachedParticles -= freed;
            this._rebuild();
        }
        return freed;
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
        const pull = this._pull;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            const collider = this.colliders[p] as Collider;
            const i = 3 * p;
            const w = invMass[p];
            this._worldAnchor(collider, p, anchor);
            pull[0] = anchor[0] - x[i];
            pull[1] = anchor[1] - x[i + 1];
            pull[2] = anchor[2] - x[i + 2];
            pull[3] = w;
            this._close(body, collider, p, context);
        }
    }

    /**
     * Puts every free attached particle of `body` on its anchor, without changing its velocity: at the start of a
     * step, after the host moved the colliders to where its own step left them. A host's rigid-body engine moves a
     * body through contacts the soft world does not see (a crate landing on a plank); closing that gap in the first
     * substep instead would throw the particle at the gap's size over one substep, and a light rope far.
     */
    public carry(body: SoftBody): void {
        const x = body.positions;
        const anchor = this._anchor;
        for (let k = 0; k < this.count; k++) {
            const p = this.particles[k];
            if (body.inverseMasses[p] === 0) {
                continue;
            }
            this._worldAnchor(this.colliders[p] as Collider, p, anchor);
            x[3 * p] = anchor[0];
            x[3 * p + 1] = anchor[1];
            x[3 * p + 2] = anchor[2];
        }
    }

    /**
     * The held solve of the attachments, once per substep after the colliders' accelerations and before they move
     * (as `ParticleContacts.solveHeld`): the anchor of every particle tied to a dynamic collider gets the particle's
     * tethers (its maximum distances to the pins, see `tetherConstraints.ts`), solved at velocity level on the
     * collider alone by sequential impulses (`HELD_ROUNDS` rounds, accumulated, pulling only). A tether may close its
     * slack within the step, and a stretched one is pulled back over one step: the host moves the body by its end
     * velocity times the step, so a gap closed at substep speed would be overshot by the host and swing back larger.
     * Through these the pins hold the collider directly, as firmly as the particle, while the particle's own
     * attachment (in the passes, shared by mass) keeps it on the anchor.
     */
    public solveHeld(body: SoftBody, context: SubstepContext): void {
        const tethers = body.tethers;
        if (!tethers.enabled) {
            return;
        }
        const x = body.positions;
        const v = body.velocities;
        const anchor = this._anchor;
        const n = this._direction;
        const surface = this._surface;
        const impulse = this._impulse;
        const accumulated = this._held;
        accumulated.fill(0, 0, this.count * TETHER_ANCHORS);
        const invDt = 1 / context.dt;
        for (let round = 0; round < HELD_ROUNDS; round++) {
            for (let k = 0; k < this.count; k++) {
                const p = this.particles[k];
                const collider = this.colliders[p] as Collider;
                if (collider.motion !== ColliderMotion.Dynamic || body.inverseMasses[p] === 0) {
                    continue;
                }
                for (let rank = 0; rank < TETHER_ANCHORS; rank++) {
                    const slot = tethers.slotOf[p * TETHER_ANCHORS + rank];
                    if (slot < 0) {
                        break;
                    }
                    const a = 3 * tethers.anchors[slot];
                    this._worldAnchor(collider, p, anchor);
                    const dx = anchor[0] - x[a];
                    const dy = anchor[1] - x[a + 1];
                    const dz = anchor[2] - x[a + 2];
                    const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
                    if (distance < 1e-12) {
                        continue;
                    }
                    n[0] = dx / distance;
                    n[1] = dy / distance;
                    n[2] = dz / distance;
                    const gap = distance - tethers.lengths[slot] * tethers.slack;
                    collider.pointVelocity(anchor, surface);
                    // Speed of the anchor away from the pin (whose velocity the pinned particle carries).
                    const away = (surface[0] - v[a]) * n[0] + (surface[1] - v[a + 1]) * n[1] + (surface[2] - v[a + 2]) * n[2];
                    collider._inverseMassAt(anchor, n, this._bodyInverseMass);
                    const slotIndex = k * TETHER_ANCHORS + rank;
                    const previous = accumulated[slotIndex];
                    // Slack may close within the step; a stretch is taken back at a bounded speed.
                    const target = gap <= 0 ? -gap * invDt : -Math.min(gap * invDt, HELD_PULL_SPEED);
                    const total = Math.max(previous + (away - target) / this._bodyInverseMass[0], 0);
                    accumulated[slotIndex] = total;
                    const j = total - previous;
                    if (j === 0) {
                        continue;
                    }
                    impulse[0] = -j * n[0];
                    impulse[1] = -j * n[1];
                    impulse[2] = -j * n[2];
                    body.contacts._push(collider, impulse, anchor, null);
                }
            }
        }
    }

    /**
     * Closes the gap `_pull[0..2]` (from particle `p` to its anchor, which is in `_anchor`) with the particle's inverse
     * mass `_pull[3]` and the collider's generalised one along the gap (numbers cross in arrays: see `particleContacts.ts`).
     */
    private _close(body: SoftBody, collider: Collider, p: number, context: SubstepContext): void {
        const pull = this._pull;
        const anchor = this._anchor;
        const n = this._direction;
        const distance = Math.sqrt(pull[0] * pull[0] + pull[1] * pull[1] + pull[2] * pull[2]);
        if (distance < 1e-12) {
            return;
        }
        // n: from the particle towards the anchor.
        n[0] = pull[0] / distance;
        n[1] = pull[1] / distance;
        n[2] = pull[2] / distance;
        const w = pull[3];
        const dynamic = collider.motion === ColliderMotion.Dynamic;
        let wBody = 0;
        if (dynamic) {
            collider._inverseMassAt(anchor, n, this._bodyInverseMass);
            wBody = this._bodyInverseMass[0];
        }
        if (w + wBody === 0) {
            return;
        }
        // Rigid (zero compliance), so no multiplier to keep: the particle moves w·s, the collider wBody·s back.
        const s = distance / (w + wBody);
        const x = body.positions;
        const i = 3 * p;
        x[i] += w * s * n[0];
        x[i + 1] += w * s * n[1];
        x[i + 2] += w * s * n[2];
        // The particle (or the pins behind it) gained momentum s·n/h; the collider gets the opposite.
        const impulse = this._impulse;
        const invH = context.invH;
        impulse[0] = -s * n[0] * invH;
        impulse[1] = -s * n[1] * invH;
        impulse[2] = -s * n[2] * invH;
        body.contacts._push(collider, impulse, anchor, context);
        if (dynamic) {
            collider._turn(impulse, anchor, context);
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

/** Rounds of the attachments' held solve per substep (the WebGPU solver's too). */
export const HELD_ROUNDS = 4;
/** Largest speed (m/s) at which the held solve pulls a collider back to its tethers' reach (the WebGPU solver's too). */
export const HELD_PULL_SPEED = 0.1;
