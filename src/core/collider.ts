import { ColliderShape } from "./colliderShape.js";
import type { ColliderShapeDescriptor } from "./colliderShapeDescriptor.js";
import { getDefaults, resolveDefaultsVersion } from "./defaults.js";
import type { SubstepContext } from "./substepContext.js";
import { matrixFromQuaternion } from "./tupleMath.js";

/** How a collider moves during a step. */
export enum ColliderMotion {
    /** Never moves. */
    Static = 0,
    /** Moves with its given velocities (an animated body); soft bodies cannot push it. */
    Kinematic = 1,
    /** Has mass and inertia: contacts change its velocity inside the step and add to its impulse accumulator. */
    Dynamic = 2,
}

/** Options of a {@link Collider}; every field has a default. */
export interface ColliderOptions {
    /** Default {@link ColliderMotion.Static}. */
    motion?: ColliderMotion;
    /** Mass in kg (dynamic only). Default 1. */
    mass?: number;
    /** Principal moments of inertia in kg·m² (dynamic only). Default: those of a unit sphere of `mass`. */
    inertia?: readonly [number, number, number];
    /** Orientation of the principal axes in the collider frame, `[x, y, z, w]`. Default identity. */
    inertiaRotation?: readonly [number, number, number, number];
    /** Centre of mass in the collider frame. Default the origin. */
    centerOfMass?: readonly [number, number, number];
    /** Friction coefficient of the surface, combined with a soft body's by geometric mean. Default 0.5. */
    friction?: number;
    /** Restitution of the surface, combined with a soft body's by maximum. Default 0. */
    restitution?: number;
    /** Collision groups this collider belongs to (bit mask). Default 1. */
    membership?: number;
    /** Groups this collider collides with (bit mask). Default all. */
    collideWith?: number;
    /** Defaults version that fills in the options not given (see `defaultsTable.ts`). Default the newest. */
    defaultsVersion?: number;
}

/**
 * A rigid body as the soft-body solver sees it: one or more shapes in a local frame, a pose, velocities and (when
 * dynamic) mass properties. The host (e.g. the Havok bridge) sets the pose and velocities before each step and
 * reads the impulse accumulator after it; standing alone, the collider keeps the pose and velocity it ends the step
 * with. Inside the step a dynamic collider accelerates by {@link Collider.acceleration}, which the host sets to what
 * the rest of its world does to the body (gravity, and the push of bodies resting on it): a body resting on a cloth
 * then presses on it in every substep, and the contacts hand back exactly the impulse that holds it. The accumulator
 * holds the contact impulses only; the host adds its own forces itself.
 */
export class Collider {
    /** Compiled shapes in the collider frame. */
    public readonly shapes: readonly ColliderShape[];
    /** The shape descriptors the collider was built from (a replay rebuilds it from them). */
    public readonly shapeDescriptors: readonly ColliderShapeDescriptor[];
    /** The options as given to the constructor, defaults not filled in. */
    public readonly options: Readonly<ColliderOptions>;
    /** The defaults version the options were completed with (see {@link ColliderOptions.defaultsVersion}). */
    public readonly defaultsVersion: number;
    /** How the collider moves. */
    public motion: ColliderMotion;
    /** Mass in kg (dynamic). */
    public mass: number;
    /** Principal moments of inertia (kg·m²). */
    public readonly inertia = new Float64Array(3);
    /** Principal axes orientation in the collider frame. */
    public readonly inertiaRotation = new Float64Array([0, 0, 0, 1]);
    /** Centre of mass in the collider frame. */
    public readonly centerOfMass = new Float64Array(3);
    /** Surface friction coefficient. */
    public friction: number;
    /** Surface restitution. */
    public restitution: number;
    /** Collision groups this collider belongs to. */
    public membership: number;
    /** Collision groups this collider collides with. */
    public collideWith: number;
    /** World position of the collider frame's origin. */
    public readonly position = new Float64Array(3);
    /** World rotation of the collider frame, `[x, y, z, w]`. */
    public readonly rotation = new Float64Array([0, 0, 0, 1]);
    /** Linear velocity of the centre of mass (m/s). */
    public readonly linearVelocity = new Float64Array(3);
    /** Angular velocity (rad/s, world). */
    public readonly angularVelocity = new Float64Array(3);
    /**
     * Linear acceleration (m/s², world) of a dynamic collider inside the step, from everything but the soft bodies:
     * gravity and the host's other forces. Default zero. Not part of {@link impulse}.
     */
    public readonly acceleration = new Float64Array(3);
    /**
     * Mass (kg) of a load the collider carries along {@link loadAxis} (crates stacked on a crate): it moves with the
     * collider along that axis, not across it, so a push along the axis meets `mass + loadMass` and one across it
     * meets `mass`. Default 0. A host that knows what rests on its bodies sets it (the Havok bridge measures it).
     */
    public loadMass = 0;
    /** Unit axis along which {@link loadMass} is carried (world; against gravity). Default `[0, 1, 0]`. */
    public readonly loadAxis = new Float64Array([0, 1, 0]);
    /**
     * Linear impulse (N·s, world) that the host gives a dynamic collider's body during the coming step on the soft
     * bodies' behalf, before their own impulses for that step arrive: a host whose soft bodies' figures come back late
     * (the WebGPU backend) forecasts them, so that its rigid-body engine's contacts see the body supported in the step
     * it is. A solver whose impulses arrive late counts this as given: its prediction of the impulses in flight adds
     * only the rest, and its figures carry it (`StepImpulses.forecast`) for the host to give only the rest too. The CPU
     * world does not read it. Default zero.
     */
    public readonly forecastImpulse = new Float64Array(3);
    /** Total linear impulse the soft bodies put on this collider during the last step (N·s). */
    public readonly impulse = new Float64Array(3);
    /** Total angular impulse about the centre of mass during the last step (N·m·s). */
    public readonly angularImpulse = new Float64Array(3);
    /** Impulse-weighted centroid of the contacts of the last step (world); valid when {@link impulse} is not zero. */
    public readonly impulsePoint = new Float64Array(3);
    /**
     * Soft-body particles attached to this collider (see `ColliderAttachments`), kept by the attachments. Their held
     * solve pulls the collider back to the pins' reach over one step, so a host that learns {@link loadMass} leaves a
     * tied collider at 0: a learned load would scale the mass and inertia the solve works with, not the host's, and
     * the host would overshoot every correction.
     */
    public attachedParticles = 0;
    /** Host data: whatever the host needs to find its own body again. */
    public userData: unknown = null;

    /** Row-major world rotation, kept in sync with {@link rotation} by the solver. @internal */
    public readonly _matrix = new Float64Array(9);
    /** World centre of mass. @internal */
    public readonly _com = new Float64Array(3);
    /** World inverse inertia tensor (row-major). @internal */
    public readonly _invInertia = new Float64Array(9);
    /** Half the rotation vector of the next {@link _rotate}. */
    private readonly _halfTurn = new Float64Array(3);
    /** Sum of |j| over contacts, for the impulse point. @internal */
    public _impulseWeight = 0;

    /**
     * @param shapes - one or more shape descriptors in the collider frame
     * @param options - motion, mass properties, surface and filtering; see {@link ColliderOptions}
     */
    public constructor(shapes: readonly ColliderShapeDescriptor[], options: ColliderOptions = {}) {
        if (shapes.length === 0) {
            throw new Error("a collider needs at least one shape");
        }
        this.shapes = shapes.map((s) => new ColliderShape(s));
        this.shapeDescriptors = Object.freeze([...shapes]);
        this.options = Object.freeze({ ...options });
        this.defaultsVersion = resolveDefaultsVersion(options.defaultsVersion);
        const d = getDefaults(this.defaultsVersion).collider;
        this.motion = options.motion ?? ColliderMotion.Static;
        this.mass = options.mass ?? d.mass;
        if (this.motion === ColliderMotion.Dynamic && !(this.mass > 0 && Number.isFinite(this.mass))) {
            throw new Error(`a dynamic collider needs a positive finite mass, got ${this.mass}`);
        }
        const sphereInertia = 0.4 * this.mass;
        this.inertia.set(options.inertia ?? [sphereInertia, sphereInertia, sphereInertia]);
        if (this.motion === ColliderMotion.Dynamic && !(this.inertia[0] > 0 && this.inertia[1] > 0 && this.inertia[2] > 0)) {
            throw new Error(`a dynamic collider needs positive moments of inertia, got ${Array.from(this.inertia).join(", ")}`);
        }
        this.inertiaRotation.set(options.inertiaRotation ?? [0, 0, 0, 1]);
        this.centerOfMass.set(options.centerOfMass ?? [0, 0, 0]);
        this.friction = options.friction ?? d.friction;
        this.restitution = options.restitution ?? d.restitution;
        this.membership = options.membership ?? d.membership;
        this.collideWith = options.collideWith ?? d.collideWith;
        this.syncPose();
    }

    /** Sets the world pose (origin and rotation `[x, y, z, w]`). */
    public setPose(x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number): void {
        this.position[0] = x;
        this.position[1] = y;
        this.position[2] = z;
        this.rotation[0] = qx;
        this.rotation[1] = qy;
        this.rotation[2] = qz;
        this.rotation[3] = qw;
        this.syncPose();
    }

    /** Sets the linear velocity of the centre of mass and the angular velocity (world). */
    public setVelocity(vx: number, vy: number, vz: number, wx: number, wy: number, wz: number): void {
        this.linearVelocity[0] = vx;
        this.linearVelocity[1] = vy;
        this.linearVelocity[2] = vz;
        this.angularVelocity[0] = wx;
        this.angularVelocity[1] = wy;
        this.angularVelocity[2] = wz;
    }

    /** Recomputes the derived world quantities after {@link position} or {@link rotation} were written directly. */
    public syncPose(): void {
        matrixFromQuaternion(this.rotation, this._matrix);
        const m = this._matrix;
        const c = this.centerOfMass;
        this._com[0] = this.position[0] + m[0] * c[0] + m[1] * c[1] + m[2] * c[2];
        this._com[1] = this.position[1] + m[3] * c[0] + m[4] * c[1] + m[5] * c[2];
        this._com[2] = this.position[2] + m[6] * c[0] + m[7] * c[1] + m[8] * c[2];
        this._updateInverseInertia();
    }

    /** Velocity of the material point at world `point[0..2]` into `out`. */
    public pointVelocity(point: Float64Array, out: Float64Array): void {
        const w = this.angularVelocity;
        const rx = point[0] - this._com[0];
        const ry = point[1] - this._com[1];
        const rz = point[2] - this._com[2];
        out[0] = this.linearVelocity[0] + w[1] * rz - w[2] * ry;
        out[1] = this.linearVelocity[1] + w[2] * rx - w[0] * rz;
        out[2] = this.linearVelocity[2] + w[0] * ry - w[1] * rx;
    }

    /**
     * The world box of `shape` (one of {@link shapes}) at the current pose into `out[offset …]`, min xyz then max xyz:
     * its local bounds turned by the rotation and moved. Infinite when the shape is (a plane).
     * @internal broad phases
     */
    public _shapeBox(shape: ColliderShape, out: Float64Array, offset: number): void {
        const local = shape.bounds;
        if (local[0] - local[0] !== 0) {
            out.fill(-Infinity, offset, offset + 3);
            out.fill(Infinity, offset + 3, offset + 6);
            return;
        }
        const m = this._matrix;
        const cx = (local[0] + local[3]) / 2;
        const cy = (local[1] + local[4]) / 2;
        const cz = (local[2] + local[5]) / 2;
        const hx = (local[3] - local[0]) / 2;
        const hy = (local[4] - local[1]) / 2;
        const hz = (local[5] - local[2]) / 2;
        for (let axis = 0; axis < 3; axis++) {
            const r = 3 * axis;
            const center = this.position[axis] + m[r] * cx + m[r + 1] * cy + m[r + 2] * cz;
            const half = Math.abs(m[r]) * hx + Math.abs(m[r + 1]) * hy + Math.abs(m[r + 2]) * hz;
            out[offset + axis] = center - half;
            out[offset + 3 + axis] = center + half;
        }
    }

    /** Clears the impulse accumulator; the solver calls it at the start of each step. */
    public resetImpulse(): void {
        this.impulse.fill(0);
        this.angularImpulse.fill(0);
        this.impulsePoint.fill(0);
        this._impulseWeight = 0;
    }

    /**
     * Adds one substep of {@link acceleration} to a dynamic collider's velocity (before the held contacts are solved
     * and before {@link _integrate}).
     * @internal solver use
     */
    public _accelerate(context: SubstepContext): void {
        const h = context.h;
        const v = this.linearVelocity;
        v[0] += this.acceleration[0] * h;
        v[1] += this.acceleration[1] * h;
        v[2] += this.acceleration[2] * h;
    }

    /**
     * Advances a moving collider by one substep with its velocities (rotation about the centre of mass).
     * @internal solver use
     */
    public _integrate(context: SubstepContext): void {
        const h = context.h;
        const v = this.linearVelocity;
        const w = this.angularVelocity;
        this._com[0] += v[0] * h;
        this._com[1] += v[1] * h;
        this._com[2] += v[2] * h;
        const turn = this._halfTurn;
        turn[0] = 0.5 * h * w[0];
        turn[1] = 0.5 * h * w[1];
        turn[2] = 0.5 * h * w[2];
        this._rotate();
        if (this.motion === ColliderMotion.Dynamic) {
            this._updateInverseInertia();
        }
    }

    /**
     * Rotates about the centre of mass by `q += (h, 0) ⊗ q` with `h` = {@link _halfTurn} (half the rotation vector),
     * normalised; the origin follows. The numbers come in an array: as arguments they would be boxed whenever the JIT
     * does not inline the call.
     */
    private _rotate(): void {
        const hx = this._halfTurn[0];
        const hy = this._halfTurn[1];
        const hz = this._halfTurn[2];
        const q = this.rotation;
        const qx = q[0] + hx * q[3] + hy * q[2] - hz * q[1];
        const qy = q[1] + hy * q[3] + hz * q[0] - hx * q[2];
        const qz = q[2] + hz * q[3] + hx * q[1] - hy * q[0];
        const qw = q[3] - hx * q[0] - hy * q[1] - hz * q[2];
        const length = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
        q[0] = qx / length;
        q[1] = qy / length;
        q[2] = qz / length;
        q[3] = qw / length;
        matrixFromQuaternion(q, this._matrix);
        const m = this._matrix;
        const c = this.centerOfMass;
        this.position[0] = this._com[0] - (m[0] * c[0] + m[1] * c[1] + m[2] * c[2]);
        this.position[1] = this._com[1] - (m[3] * c[0] + m[4] * c[1] + m[5] * c[2]);
        this.position[2] = this._com[2] - (m[6] * c[0] + m[7] * c[1] + m[8] * c[2]);
    }

    /**
     * Generalised inverse mass of the body for a unit push along `n` at world point `p`, `1/M + (r × n)·I⁻¹(r × n)`,
     * into `out[0]` (a returned number would be boxed whenever the JIT does not inline this call).
     * @internal solver use
     */
    public _inverseMassAt(p: Float64Array, n: Float64Array, out: Float64Array): void {
        const nx = n[0];
        const ny = n[1];
        const nz = n[2];
        const rx = p[0] - this._com[0];
        const ry = p[1] - this._com[1];
        const rz = p[2] - this._com[2];
        const cx = ry * nz - rz * ny;
        const cy = rz * nx - rx * nz;
        const cz = rx * ny - ry * nx;
        const i = this._invInertia;
        const a = this.loadAxis;
        const along = nx * a[0] + ny * a[1] + nz * a[2];
        // Along the load axis the carried load yields with the body: 1/M less (1/M − 1/(M + load)) along².
        const loadShare = this.loadMass > 0 ? 1 / this.mass - 1 / (this.mass + this.loadMass) : 0;
        out[0] =
            1 / this.mass -
            along * along * loadShare +
            cx * (i[0] * cx + i[1] * cy + i[2] * cz) +
            cy * (i[3] * cx + i[4] * cy + i[5] * cz) +
            cz * (i[6] * cx + i[7] * cy + i[8] * cz);
    }

    /**
     * Applies the impulse `j` at world point `p` inside the step: velocities change at once and the accumulator
     * records it. Within a substep's projections (`context` given) the position follows by `j·h/M`, so later contacts
     * in the same substep see the body where it is; between them (`context` null: restitution after a substep, the
     * held solve before one) it stays.
     * @internal solver use
     */
    public _applyImpulse(j: Float64Array, p: Float64Array, context: SubstepContext | null): void {
        const jx = j[0];
        const jy = j[1];
        const jz = j[2];
        const h = context === null ? 0 : context.h;
        const rx = p[0] - this._com[0];
        const ry = p[1] - this._com[1];
        const rz = p[2] - this._com[2];
        const tx = ry * jz - rz * jy;
        const ty = rz * jx - rx * jz;
        const tz = rx * jy - ry * jx;
        const i = this._invInertia;
        this.angularVelocity[0] += i[0] * tx + i[1] * ty + i[2] * tz;
        this.angularVelocity[1] += i[3] * tx + i[4] * ty + i[5] * tz;
        this.angularVelocity[2] += i[6] * tx + i[7] * ty + i[8] * tz;
        const invMass = 1 / this.mass;
        const a = this.loadAxis;
        // Along the load axis the carried load shares the push: Δv = j/M − (j·a)·a·(1/M − 1/(M + load)).
        const loadShare = this.loadMass > 0 ? invMass - 1 / (this.mass + this.loadMass) : 0;
        const along = (jx * a[0] + jy * a[1] + jz * a[2]) * loadShare;
        for (let axis = 0; axis < 3; axis++) {
            const dv = j[axis] * invMass - along * a[axis];
            this.linearVelocity[axis] += dv;
            this._com[axis] += dv * h;
            this.position[axis] += dv * h;
        }
        this.recordImpulse(j, p);
    }

    /**
     * Turns a dynamic collider inside the substep by what the impulse `j` at world point `p` (already applied with
     * {@link _applyImpulse}) added to its angular velocity: the rotation `h·I⁻¹(r × j)` about the centre of mass. A
     * positional constraint (an attachment) needs the body where the correction put it before its next projection;
     * without the turn it would push the same correction into the angular velocity again and again.
     * @internal solver use
     */
    public _turn(j: Float64Array, p: Float64Array, context: SubstepContext): void {
        const rx = p[0] - this._com[0];
        const ry = p[1] - this._com[1];
        const rz = p[2] - this._com[2];
        const tx = ry * j[2] - rz * j[1];
        const ty = rz * j[0] - rx * j[2];
        const tz = rx * j[1] - ry * j[0];
        const i = this._invInertia;
        const h = 0.5 * context.h;
        const turn = this._halfTurn;
        turn[0] = h * (i[0] * tx + i[1] * ty + i[2] * tz);
        turn[1] = h * (i[3] * tx + i[4] * ty + i[5] * tz);
        turn[2] = h * (i[6] * tx + i[7] * ty + i[8] * tz);
        if (turn[0] === 0 && turn[1] === 0 && turn[2] === 0) {
            return;
        }
        this._rotate();
        this._updateInverseInertia();
    }

    /** Adds the impulse `j` at world point `p` to the accumulator only (static and kinematic supports: their motion is given). */
    public recordImpulse(j: Float64Array, p: Float64Array): void {
        const jx = j[0];
        const jy = j[1];
        const jz = j[2];
        const px = p[0];
        const py = p[1];
        const pz = p[2];
        this.impulse[0] += jx;
        this.impulse[1] += jy;
        this.impulse[2] += jz;
        const rx = px - this._com[0];
        const ry = py - this._com[1];
        const rz = pz - this._com[2];
        this.angularImpulse[0] += ry * jz - rz * jy;
        this.angularImpulse[1] += rz * jx - rx * jz;
        this.angularImpulse[2] += rx * jy - ry * jx;
        const weight = Math.sqrt(jx * jx + jy * jy + jz * jz);
        const total = this._impulseWeight + weight;
        if (total > 0) {
            const f = weight / total;
            this.impulsePoint[0] += (px - this.impulsePoint[0]) * f;
            this.impulsePoint[1] += (py - this.impulsePoint[1]) * f;
            this.impulsePoint[2] += (pz - this.impulsePoint[2]) * f;
        }
        this._impulseWeight = total;
    }

    private _updateInverseInertia(): void {
        if (this.motion !== ColliderMotion.Dynamic) {
            this._invInertia.fill(0);
            return;
        }
        // R = world rotation × principal axes; I⁻¹_world = R diag(1/I) Rᵀ.
        const m = this._matrix;
        const p = principal;
        matrixFromQuaternion(this.inertiaRotation, p);
        for (let r = 0; r < 3; r++) {
            for (let c = 0; c < 3; c++) {
                combined[r * 3 + c] = m[r * 3] * p[c] + m[r * 3 + 1] * p[3 + c] + m[r * 3 + 2] * p[6 + c];
            }
        }
        const i = this._invInertia;
        for (let r = 0; r < 3; r++) {
            for (let c = 0; c < 3; c++) {
                let sum = 0;
                for (let k = 0; k < 3; k++) {
                    sum += (combined[r * 3 + k] * combined[c * 3 + k]) / this.inertia[k];
                }
                i[r * 3 + c] = sum;
            }
        }
    }
}

const principal = new Float64Array(9);
const combined = new Float64Array(9);
