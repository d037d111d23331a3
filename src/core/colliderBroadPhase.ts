import { ColliderMotion, type Collider } from "./collider.js";
import { ColliderGrid } from "./colliderGrid.js";
import type { ColliderShape } from "./colliderShape.js";
import type { SoftBody } from "./softBody.js";
import type { SubstepContext } from "./substepContext.js";

/**
 * The broad phase between soft bodies and colliders: every collider shape is a slot with world bounds swept over the
 * step, the slots go into a uniform grid once per step, and each free particle's swept box finds its candidate
 * slots there. Contacts are then solved per substep against the candidates only.
 */
export class ColliderBroadPhase {
    /** The collider of each slot. */
    public slotColliders: Collider[] = [];
    /** The shape of each slot. */
    public slotShapes: ColliderShape[] = [];
    /** Whether any collider has restitution (then every body records approach speeds). */
    public anyRestitution = false;
    /** Whether the slots must be rebuilt before the next step (a collider was added or removed). */
    public slotsDirty = true;

    private readonly _grid: ColliderGrid;
    private readonly _gridCapacity: number;
    private readonly _query = new Int32Array(32);
    private readonly _box = new Float64Array(6);

    /**
     * @param cellSize - grid cell edge (m)
     * @param gridCapacity - grid entries (shape × cell) at most
     */
    public constructor(cellSize: number, gridCapacity: number) {
        this._grid = new ColliderGrid(cellSize);
        this._gridCapacity = gridCapacity;
    }

    /** Grid entries at most (the capacity reported when the grid overflows). */
    public get gridCapacity(): number {
        return this._gridCapacity;
    }

    /**
     * Rebuilds the slots if needed, sweeps their bounds over the step and fills the grid. Returns whether the grid
     * overflowed (then some shapes are missing from some cells).
     */
    public build(colliders: readonly Collider[], context: SubstepContext): boolean {
        if (this.slotsDirty) {
            this._rebuildSlots(colliders);
        }
        this._updateSlotBounds(context);
        this._grid.build(this.slotColliders.length);
        return this._grid.overflowed;
    }

    /**
     * Each free particle's box, swept over the step by its velocity, against the grid: the candidates go into
     * `body.contacts` (which flags `overflowed` when its capacity or one grid query runs out).
     */
    public findContacts(body: SoftBody, context: SubstepContext, gravity: Float64Array): void {
        const contacts = body.contacts;
        contacts.count = 0;
        contacts.overflowed = false;
        contacts.kinematicNear = false;
        if (this.slotColliders.length === 0) {
            return;
        }
        const dt = context.dt;
        const x = body.positions;
        const v = body.velocities;
        const g = gravity;
        const pad = body.thickness * 2 + Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * dt * dt;
        const query = this._query;
        let maxSpeed2 = 0;
        for (let p = 0; p < body.particleCount; p++) {
            const i = p * 3;
            const speed2 = v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2];
            if (speed2 > maxSpeed2 && body.inverseMasses[p] !== 0) {
                maxSpeed2 = speed2;
            }
        }
        const maxSpeed = Math.sqrt(maxSpeed2);
        // Whether static colliders need swept tests this step (see `ParticleContacts.fast`): half the thickness, as a
        // particle shoved by its body moves up to the fastest one's speed, and a little more.
        contacts.fast = (maxSpeed + Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * dt) * context.h > body.thickness / 2;
        for (let p = 0; p < body.particleCount; p++) {
            if (body.inverseMasses[p] === 0) {
                continue;
            }
            const i = p * 3;
            const ex = x[i] + v[i] * dt;
            const ey = x[i + 1] + v[i + 1] * dt;
            const ez = x[i + 2] + v[i + 2] * dt;
            // Within the step the rest of the body can shove a particle along at up to its fastest particle's speed
            // (the far side of a jelly whose near side hit a wall springs back at it): its box grows by the
            // difference, nothing for a body that moves as one.
            const reach = pad + (maxSpeed - Math.sqrt(v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2])) * dt;
            const box = this._box;
            box[0] = Math.min(x[i], ex) - reach;
            box[1] = Math.min(x[i + 1], ey) - reach;
            box[2] = Math.min(x[i + 2], ez) - reach;
            box[3] = Math.max(x[i], ex) + reach;
            box[4] = Math.max(x[i + 1], ey) + reach;
            box[5] = Math.max(x[i + 2], ez) + reach;
            const found = this._grid.query(box, query);
            if (found === query.length) {
                // More shapes overlap this particle than one query holds: the farthest ones may be missed.
                contacts.overflowed = true;
            }
            for (let k = 0; k < found; k++) {
                const slot = query[k];
                const collider = this.slotColliders[slot];
                // A particle attached to a collider does not collide with it (it sits on its surface, or inside).
                if (
                    (collider.membership & body.collideWith) !== 0 &&
                    (collider.collideWith & body.membership) !== 0 &&
                    body.attachments.colliders[p] !== collider
                ) {
                    contacts.add(p, slot);
                    contacts.kinematicNear ||= collider.motion === ColliderMotion.Kinematic && this.slotShapes[slot].swept;
                }
            }
        }
    }

    /** Flattens the colliders' shapes into broad-phase slots. Allocates: runs only after colliders changed. */
    private _rebuildSlots(colliders: readonly Collider[]): void {
        this.slotColliders = [];
        this.slotShapes = [];
        this.anyRestitution = false;
        for (const collider of colliders) {
            for (const shape of collider.shapes) {
                this.slotColliders.push(collider);
                this.slotShapes.push(shape);
            }
            this.anyRestitution ||= collider.restitution > 0;
        }
        this._grid.reserve(this.slotColliders.length, this._gridCapacity);
        this.slotsDirty = false;
    }

    /** World bounds of every slot, swept over the step by the collider's velocities. */
    private _updateSlotBounds(context: SubstepContext): void {
        const bounds = this._grid.bounds;
        for (let s = 0; s < this.slotColliders.length; s++) {
            const dt = context.dt;
            const collider = this.slotColliders[s];
            const o = s * 6;
            collider._shapeBox(this.slotShapes[s], bounds, o);
            if (collider.motion === ColliderMotion.Static || bounds[o] === -Infinity) {
                continue;
            }
            // Grown by how far its points may move over the step: its speed, its turn about the centre of mass (each
            // point within the box centre's offset plus the box's half diagonal), and a dynamic body's acceleration.
            const v = collider.linearVelocity;
            const w = collider.angularVelocity;
            const a = collider.acceleration;
            const com = collider._com;
            const local = this.slotShapes[s].bounds;
            let offset = 0;
            let diagonal = 0;
            for (let axis = 0; axis < 3; axis++) {
                const centre = (bounds[o + axis] + bounds[o + 3 + axis]) / 2 - com[axis];
                const half = (local[3 + axis] - local[axis]) / 2;
                offset += centre * centre;
                diagonal += half * half;
            }
            const reach = Math.sqrt(offset) + Math.sqrt(diagonal);
            const sweep =
                (Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * reach) * dt +
                (collider.motion === ColliderMotion.Dynamic ? Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) * dt * dt : 0);
            for (let axis = 0; axis < 3; axis++) {
                bounds[o + axis] -= sweep;
                bounds[o + 3 + axis] += sweep;
            }
        }
    }

    /** Whether a moving collider's swept bounds come within reach of a sleeping body. */
    public movingColliderNear(body: SoftBody): boolean {
        if (this.slotColliders.length === 0) {
            return false;
        }
        const x = body.positions;
        let minX = Infinity;
        let minY = Infinity;
        let minZ = Infinity;
        let maxX = -Infinity;
        let maxY = -Infinity;
        let maxZ = -Infinity;
        for (let k = 0; k < x.length; k += 3) {
            minX = Math.min(minX, x[k]);
            minY = Math.min(minY, x[k + 1]);
            minZ = Math.min(minZ, x[k + 2]);
            maxX = Math.max(maxX, x[k]);
            maxY = Math.max(maxY, x[k + 1]);
            maxZ = Math.max(maxZ, x[k + 2]);
        }
        const pad = body.thickness * 2;
        const bounds = this._grid.bounds;
        for (let s = 0; s < this.slotColliders.length; s++) {
            const collider = this.slotColliders[s];
            if (collider.motion === ColliderMotion.Static) {
                continue;
            }
            const v = collider.linearVelocity;
            const w = collider.angularVelocity;
            const a = collider.acceleration;
            // A dynamic body that accelerates (a crate under gravity) presses on whatever holds it: it counts as moving.
            const pressing = collider.motion === ColliderMotion.Dynamic && (a[0] !== 0 || a[1] !== 0 || a[2] !== 0);
            const moving =
                pressing ||
                v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > body.sleepVelocity ** 2 ||
                w[0] * w[0] + w[1] * w[1] + w[2] * w[2] > 1e-6;
            const o = s * 6;
            if (
                moving &&
                bounds[o] <= maxX + pad &&
                bounds[o + 3] >= minX - pad &&
                bounds[o + 1] <= maxY + pad &&
                bounds[o + 4] >= minY - pad &&
                bounds[o + 2] <= maxZ + pad &&
                bounds[o + 5] >= minZ - pad
            ) {
                return true;
            }
        }
        return false;
    }
}
