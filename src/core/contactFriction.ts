import { ColliderMotion, type Collider } from "./collider.js";
import type { ParticleContacts } from "./particleContacts.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * Positional (static / kinetic) friction of the touching candidates of a {@link ParticleContacts}, called from its
 * projection once per touching contact, with scratch of its own.
 */
export class ContactFriction {
    private readonly _surface = new Float64Array(3);
    private readonly _impulse = new Float64Array(3);
    private readonly _bodyInverseMass = new Float64Array(1);

    /**
     * Positional friction for one touching contact: removes the particle's tangential slip relative to the surface
     * over the substep, entirely while it is within the static cone (slip under μs·depth), else by μk·depth. `normal`
     * holds the contact normal (overwritten with the slip direction), `point` the contact point, `state` the depth
     * and the particle's inverse mass.
     */
    public apply(
        contacts: ParticleContacts,
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
        contacts._push(collider, impulse, point, context);
    }
}
