import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import type { ParticleContacts } from "./particleContacts.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** Distance-stepping steps of one sweep at most; a path that needs more ends at the last point reached. */
export const MAX_SWEEP_STEPS = 8;

/** A sweep has entered the shape once it is within `thickness × (1 + SWEEP_TOLERANCE)` of its surface. */
export const SWEEP_TOLERANCE = 0.1;

/**
 * The swept tests of fast particles against collider shapes, run by {@link ParticleContacts}' projection before each
 * pass over its candidates. The closest-feature distance only knows where a particle is, not where it came from: one
 * that moved more than half a wall's thickness in a substep is nearer the far face and would be pushed out through
 * it, and one that moved past the wall touches nothing. A sweep follows the particle's path over the substep
 * (relative to the collider) to where it came within the body's thickness of the shape, and records the plane of the
 * face it entered there; the projection keeps the particle before that plane when it lies deeper behind it than
 * behind the closest feature and that feature faces away from the entered face (or none is within reach). Kept out
 * of the projection's loop: a call there, even one never made, slows the loop of every slow body.
 */
export class ParticleSweep {
    /** Per candidate: the entered face's plane, world normal and offset (`n·x − offset` is the distance). */
    public readonly planes: Float64Array;
    /** Per candidate: 1 when its path entered the shape in this pass ({@link planes} holds the face), else 0. */
    public readonly entered: Uint8Array;
    /** The particle's position at the substep start, moved with the collider to where it is now (world). */
    private readonly _start = new Float64Array(3);
    /** The point of the path being queried (world). */
    private readonly _point = new Float64Array(3);
    /** The collider's velocity at the start point. */
    private readonly _velocity = new Float64Array(3);

    /** @param capacity - candidates at most (that of the {@link ParticleContacts}) */
    public constructor(capacity: number) {
        this.planes = new Float64Array(capacity * 4);
        this.entered = new Uint8Array(capacity);
    }

    /**
     * Sweeps every candidate of `contacts` that may need it: against kinematic colliders always, against static ones
     * when the body is fast ({@link ParticleContacts.fast}); planes, two-sided sheets (see `ColliderShape.swept`) and
     * dynamic colliders never. Inside the step a dynamic collider moves as a free body, and the host then sets the pose
     * its own solver found (a hinged plank, say, kept where the step let it fall): a particle that pose puts past the
     * middle would be held there for good, where the closest feature sends it back out. Returns whether any path
     * entered a shape.
     */
    public prepare(
        contacts: ParticleContacts,
        body: SoftBody,
        colliders: readonly Collider[],
        shapes: readonly ColliderShape[],
        context: SubstepContext,
    ): boolean {
        const fast = contacts.fast;
        if (!fast && !contacts.kinematicNear) {
            return false;
        }
        let any = false;
        for (let k = 0; k < contacts.count; k++) {
            const slot = contacts.slots[k];
            const collider = colliders[slot];
            const shape = shapes[slot];
            this.entered[k] = 0;
            const motion = collider.motion;
            const swept = motion === ColliderMotion.Kinematic || (fast && motion === ColliderMotion.Static);
            if (swept && shape.swept && body.inverseMasses[contacts.particles[k]] !== 0) {
                any = this._sweep(contacts, body, k, collider, shape, context) || any;
            }
        }
        return any;
    }

    /**
     * Candidate `k`: if its particle moved more than its thickness relative to the collider during the substep, steps
     * along its path by the distance to the surface (never past it) until the path comes within the thickness, and
     * records the plane of the feature found there, `n·(x − p) + d(p)`. Returns whether it did before the path ended.
     */
    private _sweep(
        contacts: ParticleContacts,
        body: SoftBody,
        k: number,
        collider: Collider,
        shape: ColliderShape,
        context: SubstepContext,
    ): boolean {
        const x = body.positions;
        const xPrev = body.previousPositions;
        const thickness = body.thickness;
        const i = contacts.particles[k] * 3;
        const start = this._start;
        start[0] = xPrev[i];
        start[1] = xPrev[i + 1];
        start[2] = xPrev[i + 2];
        if (collider.motion !== ColliderMotion.Static) {
            // The collider has already moved this substep: the path is the particle's motion relative to it.
            const h = context.h;
            const v = this._velocity;
            collider.pointVelocity(start, v);
            start[0] += v[0] * h;
            start[1] += v[1] * h;
            start[2] += v[2] * h;
        }
        const ex = x[i] - start[0];
        const ey = x[i + 1] - start[1];
        const ez = x[i + 2] - start[2];
        const length2 = ex * ex + ey * ey + ez * ez;
        // A particle that moved less than its thickness cannot have got past the near face unnoticed.
        if (!(length2 > thickness * thickness)) {
            return false;
        }
        const n = contacts._shapeResult;
        const length = Math.sqrt(length2);
        // A mesh must answer along the whole path, not only near the end point.
        contacts._query[3] = length + thickness * 4;
        const point = this._point;
        const enter = thickness * (1 + SWEEP_TOLERANCE);
        let t = 0;
        for (let step = 0; step < MAX_SWEEP_STEPS; step++) {
            point[0] = start[0] + ex * t;
            point[1] = start[1] + ey * t;
            point[2] = start[2] + ez * t;
            contacts._query3(point, 0, collider, shape);
            const gap = n[3] - enter;
            if (gap <= 0) {
                break;
            }
            // The distance is a lower bound of the way to the surface (exact for the analytic shapes), so this step
            // never jumps over it; a mesh beyond reach answers Infinity, and then the path misses it.
            t += gap / length;
            if (!(t < 1)) {
                return false;
            }
        }
        // Entered (or out of steps: then the plane of the feature nearest the last point, which keeps it outside).
        const o = k * 4;
        const planes = this.planes;
        planes[o] = n[0];
        planes[o + 1] = n[1];
        planes[o + 2] = n[2];
        planes[o + 3] = n[0] * point[0] + n[1] * point[1] + n[2] * point[2] - n[3];
        this.entered[k] = 1;
        return true;
    }
}
