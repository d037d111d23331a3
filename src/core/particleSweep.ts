import { ColliderMotion, type Collider } from "./collider.js";
import type { ColliderShape } from "./colliderShape.js";
import type { ParticleContacts } from "./particleContacts.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/** Distance-stepping steps of one sweep at most; a path that needs more ends at the last point reached. */
const MAX_SWEEP_STEPS = 8;

/** A sweep has entered the shape once it is within `thickness × (1 + SWEEP_TOLERANCE)` of its surface. */
const SWEEP_TOLERANCE = 0.1;

/**
 * The swept test of a fast particle against a collider shape, called from {@link ParticleContacts}' projection. The
 * closest-feature distance only knows where the particle is, not where it came from: a particle that moved more
 * than half a wall's thickness in one substep is nearer the far face and would be pushed out through it, and one
 * that moved past the wall is not touching at all. The sweep follows the particle's path over the substep (relative
 * to the collider) to the point where it entered the shape grown by the body's thickness, and takes the plane of the
 * face entered there: the particle goes back to the side it came from.
 */
export class ParticleSweep {
    /** The particle's position at the substep start, moved with the collider to where it is now (world). */
    private readonly _start = new Float64Array(3);
    /** The point of the path being queried (world). */
    private readonly _point = new Float64Array(3);
    /** The collider's velocity at the start point. */
    private readonly _velocity = new Float64Array(3);
    /** The closest-feature answer the sweep may replace. */
    private readonly _plain = new Float64Array(4);

    /**
     * For particle `i` (index of x) of `body`, whose closest-feature answer is in `contacts._shapeResult`: if the
     * particle moved more than its thickness relative to the collider during the substep, steps along its path by the
     * distance to the surface (never past it) until the path comes within the thickness. When it does before the path
     * ends, the plane of the feature found there, `n·(x − p) + d(p)`, replaces the answer if it puts the particle
     * deeper. Planes need no sweep (nothing lies behind them) and two-sided sheets have their own rule.
     */
    public refine(
        contacts: ParticleContacts,
        body: SoftBody,
        i: number,
        collider: Collider,
        shape: ColliderShape,
        context: SubstepContext,
    ): void {
        const x = body.positions;
        const xPrev = body.previousPositions;
        const thickness = body.thickness;
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
            return;
        }
        const n = contacts._shapeResult;
        const plain = this._plain;
        plain.set(n);
        const length = Math.sqrt(length2);
        const reach = contacts._query[3];
        // A mesh must answer along the whole path, not only near the end point.
        contacts._query[3] = length + reach;
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
                n.set(plain);
                contacts._query[3] = reach;
                return;
            }
        }
        contacts._query[3] = reach;
        const distance = n[3] + n[0] * (x[i] - point[0]) + n[1] * (x[i + 1] - point[1]) + n[2] * (x[i + 2] - point[2]);
        if (distance < plain[3]) {
            n[3] = distance;
        } else {
            n.set(plain);
        }
    }
}
