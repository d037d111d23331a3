import type { Collider, SoftBody } from "../core/index.js";
import { matrixFromQuaternion } from "../core/tupleMath.js";

/** vec4s per attachment record. */
export const ATTACHMENT_VEC4S = 2;

/**
 * A body's collider attachments (`SoftBody.attachments`: particles tied to points of colliders) as the particle pass
 * reads them, after the pose records in the collider buffer: per attached particle, in the core's order (increasing
 * particle index; `info.w` of the particle is its record's index), the anchor in its collider's frame with the
 * collider's first shape slot (whose pose records give the frame at each substep), then the anchor in the world at
 * the collider's pose when the step starts (where the step's `Carry` pass puts the particle, as the core's
 * `ColliderAttachments.carry`) with the particle's index (as f32, exact to 2²⁴: the held solve walks the records, see
 * `heldContactsShader.ts`). Written every step the body has attachments (32 bytes each); the list of attached
 * particles is compared every step to the one the particle info was packed with ({@link changed}).
 */
export class AttachmentRecords {
    /** The records, {@link ATTACHMENT_VEC4S} vec4s per attached particle (the first `count` are valid). */
    public data = new Float32Array(0);
    /** The attached particles the particle info was packed with. */
    private _particles = new Int32Array(0);
    /** A collider's rotation matrix (from its quaternion: the host may have posed it without `syncPose`). */
    private readonly _matrix = new Float64Array(9);

    /**
     * Whether the body's attached particles differ from those of the last {@link accept} (which particles, not
     * their colliders or anchors: those are in the records, written every step).
     */
    public changed(body: SoftBody): boolean {
        const attachments = body.attachments;
        if (attachments.count !== this._particles.length) {
            return true;
        }
        for (let k = 0; k < attachments.count; k++) {
            if (attachments.particles[k] !== this._particles[k]) {
                return true;
            }
        }
        return false;
    }

    /** Takes the body's attached particles as those the particle info now holds. */
    public accept(body: SoftBody): void {
        this._particles = body.attachments.particles.slice(0, body.attachments.count);
    }

    /**
     * Fills {@link data} from the body's attachments, with `slotOf` giving a collider's first shape slot (every
     * attached particle's collider must be in the world: the solver frees the others first).
     */
    public write(body: SoftBody, slotOf: (collider: Collider) => number): void {
        const attachments = body.attachments;
        const count = attachments.count;
        if (this.data.length < count * ATTACHMENT_VEC4S * 4) {
            this.data = new Float32Array(count * ATTACHMENT_VEC4S * 4);
        }
        const data = this.data;
        for (let k = 0; k < count; k++) {
            const p = attachments.particles[k];
            const collider = attachments.colliders[p] as Collider;
            const slot = slotOf(collider);
            const o = k * ATTACHMENT_VEC4S * 4;
            const ax = attachments.anchors[3 * p];
            const ay = attachments.anchors[3 * p + 1];
            const az = attachments.anchors[3 * p + 2];
            data[o] = ax;
            data[o + 1] = ay;
            data[o + 2] = az;
            data[o + 3] = slot;
            // As the core's `carry`: the anchor at the pose the host left the collider in, in f64.
            const m = this._matrix;
            matrixFromQuaternion(collider.rotation, m);
            const origin = collider.position;
            data[o + 4] = origin[0] + m[0] * ax + m[1] * ay + m[2] * az;
            data[o + 5] = origin[1] + m[3] * ax + m[4] * ay + m[5] * az;
            data[o + 6] = origin[2] + m[6] * ax + m[7] * ay + m[8] * az;
            data[o + 7] = p;
        }
    }
}
