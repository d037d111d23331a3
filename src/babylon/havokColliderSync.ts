/**
 * The two-way bridge between Havok rigid bodies and the core's colliders.
 *
 * Before each core step every physics v2 body of the scene (found with `physicsEngine.getBodies()`, so bodies
 * added or removed at any time are picked up) has a {@link Collider} whose shapes come from
 * {@link readHavokShape} and whose motion type, pose, velocities, friction, restitution and collision filter are
 * refreshed from Havok (mass properties when they change). After the core step, the impulse the soft bodies put on each dynamic
 * collider is applied to its Havok body, before Havok steps, so momentum is exchanged both ways.
 *
 * Garbage: the sync keeps everything it reads in preallocated arrays and vectors, and reads a body's mass properties
 * only when it first sees the body and when `setMassProperties` changed them. What still allocates per body and
 * step is inside Havok's bindings, which return every value they read as new arrays (motion type, pose, collision
 * filter, and the velocities behind `getLinearVelocityToRef` / `getAngularVelocityToRef`), and Babylon's
 * `applyImpulse` / `applyAngularImpulse`, which build arrays for them.
 */
import type { Nullable } from "@babylonjs/core/types";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Logger } from "@babylonjs/core/Misc/logger";
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import { PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { Collider, ColliderMotion, type XpbdWorld } from "../core/index.js";
import { matrixFromQuaternion, rotateX, rotateY, rotateZ } from "../core/tupleMath.js";
import { isHavokBodyActive, readHavokMassProperties, readHavokPose, readHavokShapeFilter, writeHavokPose } from "./havokBodyReader.js";
import { readHavokShape } from "./havokShapeReader.js";
import { learnSupportedMass, MASS_INPUT_VALUES, massInputChanged, type BodyMassInput, type ColliderEntry } from "./havokColliderEntry.js";

/**
 * Keeps one core {@link Collider} per Havok body (`collider.userData` is the `PhysicsBody`).
 *
 * Motion mapping: STATIC → Static; ANIMATED → Kinematic; DYNAMIC → Dynamic (mass and principal inertia in kg·m²,
 * Havok's per-unit-mass inertia × mass). An animated body whose pre-step is on (`disablePreStep = false` or
 * `PhysicsPrestepType.ACTION`) is about to be moved by Havok from its current pose to its node's pose, so the
 * collider gets the velocity that makes that motion over the step (what friction sees); otherwise Havok's own
 * velocities are used. Bodies with trigger shapes, without shapes, with thin instances, or on an impostor's mesh
 * are ignored.
 *
 * Filtering: the body shape's Havok membership / collide masks; a container's own masks are not meaningful in
 * Havok, so containers collide with everything.
 */
export class HavokColliderSync {
    private readonly _entries: ColliderEntry[] = [];
    private readonly _byBody = new Map<PhysicsBody, ColliderEntry>();
    private _pass = 0;
    private _warnedInstances = false;
    /** Bodies whose shape could not be turned into a collider, with that shape: skipped until it changes. */
    private readonly _unreadable = new WeakMap<PhysicsBody, PhysicsShape>();
    private readonly _impulse = new Vector3();
    private readonly _point = new Vector3();
    private readonly _angular = new Vector3();
    private readonly _linearVelocity = new Vector3();
    private readonly _angularVelocity = new Vector3();
    private readonly _pose = new Float64Array(7);
    /** Scratch of {@link applyLateImpulse}: a centre of mass, a rotation and its matrix. */
    private readonly _com = new Float64Array(3);
    private readonly _quaternion = new Float64Array(4);
    private readonly _matrix = new Float64Array(9);
    private readonly _filter = new Float64Array(2);
    /** Nodes drawn by a soft body: a Havok body on one is not a collider (see {@link softNodes}). */
    private readonly _softNodes = new WeakSet<object>();
    /** Bodies already warned about for being on a soft body's mesh. */
    private readonly _warnedSoftNodes = new WeakSet<PhysicsBody>();

    /**
     * @param _plugin - the scene's Havok plugin
     * @param _physicsEngine - the scene's physics v2 engine (body list)
     * @param _world - the core world colliders are added to
     */
    public constructor(
        private readonly _plugin: HavokPlugin,
        private readonly _physicsEngine: PhysicsEngine,
        private readonly _world: XpbdWorld,
    ) {}

    /**
     * Nodes (impostor meshes) whose Havok bodies are ignored, with one warning each: the soft body would collide with
     * a rigid copy of itself, and Havok would move the node its vertices are drawn under. Kept by the plugin.
     */
    public get softNodes(): WeakSet<object> {
        return this._softNodes;
    }

    /** The collider standing for `body`, if any. */
    public getCollider(body: PhysicsBody): Nullable<Collider> {
        return this._byBody.get(body)?.collider ?? null;
    }

    /** Adds, removes and refreshes colliders so they mirror Havok just before a step of `dt` seconds. */
    public beforeStep(dt: number): void {
        const pass = ++this._pass;
        const bodies = this._physicsEngine.getBodies();
        for (let b = 0; b < bodies.length; b++) {
            const body = bodies[b];
            if (!this._isSupported(body)) {
                continue;
            }
            let entry = this._byBody.get(body);
            if (entry && entry.shape !== body.shape) {
                this._remove(entry);
                entry = undefined;
            }
            if (!entry) {
                entry = this._add(body);
                if (!entry) {
                    continue;
                }
            }
            entry.seen = pass;
            this._refresh(entry, dt);
        }
        for (let e = this._entries.length - 1; e >= 0; e--) {
            if (this._entries[e].seen !== pass) {
                this._remove(this._entries[e]);
            }
        }
    }

    /**
     * Hands each dynamic collider's accumulated impulse to its Havok body: linear impulse `J` and angular impulse `L`
     * about the centre of mass, exactly. The part of `J` along gravity goes in through the body's gravity factor for
     * the length of Havok's step (restored by {@link afterHavokStep}); the rest through `applyImpulse` at the centre
     * of mass, and `L` through `applyAngularImpulse`. Why: Havok integrates gravity in several internal substeps, so
     * an impulse at the start of its step that cancels one step of gravity still leaves the body rising at first and
     * falling later (about 1 mm per step at 60 Hz, reported as a speed of 6 cm/s). A support carried as a change of
     * gravity acts in every internal substep, like Havok's own contacts: a crate held by a cloth, and a stack on it,
     * end the step at rest.
     */
    public applyImpulses(dt: number): void {
        const g = this._world.gravity;
        const gravity = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (let e = 0; e < this._entries.length; e++) {
            const entry = this._entries[e];
            const { collider, body, com } = entry;
            entry.lastStepValid = collider.motion === ColliderMotion.Dynamic;
            entry.supportImpulse = 0;
            if (!entry.lastStepValid) {
                continue;
            }
            const j = collider.impulse;
            // The GPU bodies' support, forecast (`SupportForecast`), goes in with the CPU world's; the load learning
            // sees it when their impulses arrive (applyLateImpulse).
            const forecast = collider.forecastImpulse;
            let jx = j[0] + forecast[0];
            let jy = j[1] + forecast[1];
            let jz = j[2] + forecast[2];
            if (jx === 0 && jy === 0 && jz === 0) {
                continue;
            }
            if (gravity > 0) {
                // Along the unit vector of gravity: J·ĝ; Havok adds m·g·factor·dt, so the factor grows by J·ĝ/(m·|g|·dt).
                const along = (jx * g[0] + jy * g[1] + jz * g[2]) / gravity;
                entry.supportImpulse = -(j[0] * g[0] + j[1] * g[1] + j[2] * g[2]) / gravity;
                const factor = body.getGravityFactor();
                entry.gravityFactor = factor;
                entry.gravityFactorChanged = true;
                body.setGravityFactor(factor + along / (entry.mass * gravity * dt));
                jx -= (along * g[0]) / gravity;
                jy -= (along * g[1]) / gravity;
                jz -= (along * g[2]) / gravity;
            }
            this._point.set(com[0], com[1], com[2]);
            if (jx !== 0 || jy !== 0 || jz !== 0) {
                this._impulse.set(jx, jy, jz);
                body.applyImpulse(this._impulse, this._point);
            }
            const l = collider.angularImpulse;
            if (l[0] !== 0 || l[1] !== 0 || l[2] !== 0) {
                this._angular.set(l[0], l[1], l[2]);
                body.applyAngularImpulse(this._angular);
            }
        }
    }

    /**
     * Same-step coupling with a GPU body whose impulses arrive after Havok stepped (see `GpuBackend`): the GPU moved
     * `collider` within a step by the impulse `linear` (N·s) and `angular` (N·m·s about the centre of mass), which
     * Havok's steps since that step's start, `seconds` long (one step's length when the read-back came between two
     * frames, k steps' when it came k frames late), went without. The body gets the impulse now, as a change of
     * velocity, and the displacement it missed, J/M × `seconds` and a turn of I⁻¹L × `seconds` about its centre of
     * mass: free motion is linear in the impulse, so it is where it would be had the impulse come on time (Havok's
     * contacts meanwhile aside). Of `linear`, the part `forecast` (N·s) was given during the step already
     * (`Collider.forecastImpulse`, see `SupportForecast`): only the rest is given now, with the displacement it
     * missed. Bodies without a dynamic collider are left alone.
     */
    public applyLateImpulse(
        collider: Collider,
        linear: ArrayLike<number>,
        angular: ArrayLike<number>,
        seconds: number,
        forecast: ArrayLike<number>,
    ): void {
        const entry = this._byBody.get(collider.userData as PhysicsBody);
        if (!entry || collider.motion !== ColliderMotion.Dynamic || entry.body.isDisposed) {
            return;
        }
        const body = entry.body;
        const g = this._world.gravity;
        const gravity = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (gravity > 0) {
            // The load learning (`learnSupportedMass`, at the coming sync) sees the GPU's support with the CPU's.
            entry.supportImpulse -= (linear[0] * g[0] + linear[1] * g[1] + linear[2] * g[2]) / gravity;
        }
        const pose = this._pose;
        readHavokPose(this._plugin, body, pose);
        // The centre of mass now (Havok moved the body since the sync): the impulse's point, the turn's centre.
        const com = this._com;
        const q = this._quaternion;
        q[0] = pose[3];
        q[1] = pose[4];
        q[2] = pose[5];
        q[3] = pose[6];
        matrixFromQuaternion(q, this._matrix);
        const m = this._matrix;
        const c = collider.centerOfMass;
        for (let axis = 0; axis < 3; axis++) {
            com[axis] = pose[axis] + m[3 * axis] * c[0] + m[3 * axis + 1] * c[1] + m[3 * axis + 2] * c[2];
        }
        const jx = linear[0] - forecast[0];
        const jy = linear[1] - forecast[1];
        const jz = linear[2] - forecast[2];
        this._point.set(com[0], com[1], com[2]);
        this._impulse.set(jx, jy, jz);
        body.applyImpulse(this._impulse, this._point);
        this._angular.set(angular[0], angular[1], angular[2]);
        body.applyAngularImpulse(this._angular);
        const i = collider._invInertia;
        // The turn missed (rad, world) and the origin's offset from the centre of mass, turned by it.
        const tx = (i[0] * angular[0] + i[1] * angular[1] + i[2] * angular[2]) * seconds;
        const ty = (i[3] * angular[0] + i[4] * angular[1] + i[5] * angular[2]) * seconds;
        const tz = (i[6] * angular[0] + i[7] * angular[1] + i[8] * angular[2]) * seconds;
        const rx = pose[0] - com[0];
        const ry = pose[1] - com[1];
        const rz = pose[2] - com[2];
        pose[0] += (jx / collider.mass) * seconds + ty * rz - tz * ry;
        pose[1] += (jy / collider.mass) * seconds + tz * rx - tx * rz;
        pose[2] += (jz / collider.mass) * seconds + tx * ry - ty * rx;
        const qx = pose[3];
        const qy = pose[4];
        const qz = pose[5];
        const qw = pose[6];
        const hx = 0.5 * tx;
        const hy = 0.5 * ty;
        const hz = 0.5 * tz;
        const x = qx + hx * qw + hy * qz - hz * qy;
        const y = qy + hy * qw + hz * qx - hx * qz;
        const z = qz + hz * qw + hx * qy - hy * qx;
        const w = qw - hx * qx - hy * qy - hz * qz;
        const length = Math.sqrt(x * x + y * y + z * z + w * w);
        pose[3] = x / length;
        pose[4] = y / length;
        pose[5] = z / length;
        pose[6] = w / length;
        writeHavokPose(this._plugin, body, pose);
    }

    /**
     * Gives back the gravity factors {@link applyImpulses} changed for Havok's step. A body disposed since (by an
     * observer between the soft step and Havok's) has nothing to give back to; its collider goes at the next sync.
     */
    public afterHavokStep(): void {
        for (let e = 0; e < this._entries.length; e++) {
            const entry = this._entries[e];
            if (entry.gravityFactorChanged) {
                entry.gravityFactorChanged = false;
                if (!entry.body.isDisposed) {
                    entry.body.setGravityFactor(entry.gravityFactor);
                }
            }
        }
    }

    /** Removes every collider from the world. */
    public dispose(): void {
        for (let e = this._entries.length - 1; e >= 0; e--) {
            this._remove(this._entries[e]);
        }
    }

    private _isSupported(body: PhysicsBody): boolean {
        if (body.isDisposed || !body.shape || body.shape.isTrigger) {
            return false;
        }
        if (this._softNodes.has(body.transformNode)) {
            if (!this._warnedSoftNodes.has(body)) {
                this._warnedSoftNodes.add(body);
                Logger.Warn(
                    `XpbdPlugin: soft bodies ignore the physics body of "${body.transformNode.name}": that mesh is simulated ` +
                        "by an impostor (dispose the body, or put it on another node)",
                );
            }
            return false;
        }
        if (body._pluginDataInstances.length > 0) {
            if (!this._warnedInstances) {
                this._warnedInstances = true;
                Logger.Warn("XpbdPlugin: physics bodies with thin instances are ignored by soft bodies");
            }
            return false;
        }
        return true;
    }

    private _add(body: PhysicsBody): ColliderEntry | undefined {
        const shape = body.shape as PhysicsShape;
        if (this._unreadable.get(body) === shape) {
            return undefined;
        }
        let collider: Collider;
        try {
            const shapes = readHavokShape(this._plugin, body);
            if (shapes.length === 0) {
                return undefined;
            }
            // Built static; the real motion type and mass properties are set by the refresh that follows.
            collider = new Collider(shapes);
        } catch (error) {
            // A shape the reader cannot turn into a collider (e.g. one built with NaN sizes) must not stop the frame.
            this._unreadable.set(body, shape);
            Logger.Warn(
                `XpbdPlugin: soft bodies ignore the physics body of "${body.transformNode.name}": ` +
                    `its shape could not be read (${error instanceof Error ? error.message : String(error)})`,
            );
            return undefined;
        }
        collider.userData = body;
        const entry: ColliderEntry = {
            body,
            shape,
            collider,
            seen: 0,
            com: new Float64Array(3),
            lastStepValid: false,
            supportImpulse: 0,
            startSpeed: 0,
            massScale: 1,
            gravityFactor: 1,
            gravityFactorChanged: false,
            mass: 0,
            inertia: new Float64Array(3),
            inertiaOrientation: new Float64Array([0, 0, 0, 1]),
            centerOfMass: new Float64Array(3),
            massInput: undefined,
            massInputValues: new Float64Array(MASS_INPUT_VALUES),
        };
        this._entries.push(entry);
        this._byBody.set(body, entry);
        this._world.addCollider(collider);
        return entry;
    }

    private _remove(entry: ColliderEntry): void {
        if (entry.gravityFactorChanged && !entry.body.isDisposed) {
            entry.body.setGravityFactor(entry.gravityFactor);
        }
        this._world.removeCollider(entry.collider);
        this._byBody.delete(entry.body);
        this._entries.splice(this._entries.indexOf(entry), 1);
    }

    private _refresh(entry: ColliderEntry, dt: number): void {
        const { body, collider, shape } = entry;
        const plugin = this._plugin;
        // Havok's bindings allocate small arrays for what they return; everything kept is written in place.
        const motionType = plugin.getMotionType(body);
        if (massInputChanged(entry, (body._pluginData as BodyMassInput).userMassProps)) {
            const mass = readHavokMassProperties(plugin, body);
            entry.mass = mass.mass;
            entry.inertia.set(mass.inertia);
            entry.inertiaOrientation.set(mass.inertiaOrientation);
            entry.centerOfMass.set(mass.centerOfMass);
        }
        let motion =
            motionType === PhysicsMotionType.DYNAMIC
                ? ColliderMotion.Dynamic
                : motionType === PhysicsMotionType.ANIMATED
                  ? ColliderMotion.Kinematic
                  : ColliderMotion.Static;
        const inertia = entry.inertia;
        if (motion === ColliderMotion.Dynamic && !(entry.mass > 0 && inertia[0] > 0 && inertia[1] > 0 && inertia[2] > 0)) {
            motion = ColliderMotion.Kinematic;
        }
        // Number fields are written only when they change: V8 may box a number written into an object field.
        if (collider.motion !== motion) {
            collider.motion = motion;
        }
        if (motion === ColliderMotion.Dynamic) {
            if (collider.mass !== entry.mass) {
                collider.mass = entry.mass;
            }
            collider.inertiaRotation.set(entry.inertiaOrientation);
        }
        collider.centerOfMass.set(entry.centerOfMass);
        // Babylon keeps the material it read (or was given) on the shape.
        const material = shape.material;
        const friction = material.friction ?? 0.5;
        const restitution = material.restitution ?? 0;
        if (collider.friction !== friction) {
            collider.friction = friction;
        }
        if (collider.restitution !== restitution) {
            collider.restitution = restitution;
        }
        let membership = 0xffffffff;
        let collideWith = 0xffffffff;
        if (shape.type !== PhysicsShapeType.CONTAINER) {
            const filter = this._filter;
            readHavokShapeFilter(plugin, shape, filter);
            membership = filter[0];
            collideWith = filter[1];
        }
        if (collider.membership !== membership) {
            collider.membership = membership;
        }
        if (collider.collideWith !== collideWith) {
            collider.collideWith = collideWith;
        }
        const pose = this._pose;
        readHavokPose(plugin, body, pose);
        collider.setPose(pose[0], pose[1], pose[2], pose[3], pose[4], pose[5], pose[6]);
        entry.com.set(collider._com);
        const prestep = body.getPrestepType();
        if (motion === ColliderMotion.Kinematic && (prestep === PhysicsPrestepType.TELEPORT || prestep === PhysicsPrestepType.ACTION)) {
            this._velocityTowardsNode(entry, dt);
        } else if (motionType === PhysicsMotionType.STATIC) {
            // Havok keeps static bodies at rest (it reads their velocities back as zero).
            collider.setVelocity(0, 0, 0, 0, 0, 0);
        } else {
            const v = this._linearVelocity;
            const w = this._angularVelocity;
            body.getLinearVelocityToRef(v);
            body.getAngularVelocityToRef(w);
            collider.setVelocity(v.x, v.y, v.z, w.x, w.y, w.z);
        }
        this._setAcceleration(entry, motion, dt);
    }

    /**
     * Gravity (times the body's gravity factor) as the dynamic collider's acceleration inside the step, and the load
     * it carries along gravity (see `learnSupportedMass`).
     */
    private _setAcceleration(entry: ColliderEntry, motion: ColliderMotion, dt: number): void {
        const { body, collider } = entry;
        const a = collider.acceleration;
        if (motion !== ColliderMotion.Dynamic) {
            entry.massScale = 1;
            collider.loadMass = 0;
            a.fill(0);
            return;
        }
        const g = this._world.gravity;
        const factor = body.getGravityFactor();
        a[0] = g[0] * factor;
        a[1] = g[1] * factor;
        a[2] = g[2] * factor;
        const gravity = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        const v = collider.linearVelocity;
        const speed = gravity > 0 ? (v[0] * g[0] + v[1] * g[1] + v[2] * g[2]) / gravity : 0;
        // Asleep in Havok (or about to be: Havok then reports exactly zero) the body did not move whatever held it,
        // which tells nothing about its load.
        const still = v[0] === 0 && v[1] === 0 && v[2] === 0;
        if (collider.attachedParticles > 0) {
            // Tied to soft bodies: their held solve carries the body's load itself (see `Collider.attachedParticles`).
            entry.massScale = 1;
        } else if (entry.lastStepValid && gravity > 0 && !still && isHavokBodyActive(this._plugin, body)) {
            learnSupportedMass(entry, speed - entry.startSpeed, gravity * factor * dt);
        }
        entry.startSpeed = speed;
        const load = entry.mass * (entry.massScale - 1);
        if (collider.loadMass !== load) {
            collider.loadMass = load;
        }
        // The load also steadies the body against tipping: its moments of inertia grow with it.
        for (let axis = 0; axis < 3; axis++) {
            collider.inertia[axis] = entry.inertia[axis] * entry.massScale;
        }
        if (gravity > 0) {
            collider.loadAxis[0] = -g[0] / gravity;
            collider.loadAxis[1] = -g[1] / gravity;
            collider.loadAxis[2] = -g[2] / gravity;
        }
    }

    /** Velocities that carry the collider from its Havok pose to its node's world pose in `dt`. */
    private _velocityTowardsNode(entry: ColliderEntry, dt: number): void {
        const { body, collider } = entry;
        const node = body.transformNode;
        node.computeWorldMatrix(true);
        const target = node.absolutePosition;
        const q = node.absoluteRotationQuaternion;
        const r = collider.rotation;
        // Relative rotation q · r⁻¹, taken the short way round; ω = axis · angle / dt.
        let dx = q.w * -r[0] + q.x * r[3] + q.y * -r[2] - q.z * -r[1];
        let dy = q.w * -r[1] - q.x * -r[2] + q.y * r[3] + q.z * -r[0];
        let dz = q.w * -r[2] + q.x * -r[1] - q.y * -r[0] + q.z * r[3];
        let dw = q.w * r[3] - q.x * -r[0] - q.y * -r[1] - q.z * -r[2];
        if (dw < 0) {
            dx = -dx;
            dy = -dy;
            dz = -dz;
            dw = -dw;
        }
        const s = Math.sqrt(dx * dx + dy * dy + dz * dz);
        const k = s > 1e-12 ? (2 * Math.atan2(s, dw)) / (s * dt) : 2 / dt;
        // The centre of mass moves with the node: its target is the node pose applied to the local centre of mass.
        const c = collider.centerOfMass;
        const tx = target.x + rotateX(q.x, q.y, q.z, q.w, c[0], c[1], c[2]);
        const ty = target.y + rotateY(q.x, q.y, q.z, q.w, c[0], c[1], c[2]);
        const tz = target.z + rotateZ(q.x, q.y, q.z, q.w, c[0], c[1], c[2]);
        const com = collider._com;
        collider.setVelocity((tx - com[0]) / dt, (ty - com[1]) / dt, (tz - com[2]) / dt, dx * k, dy * k, dz * k);
    }
}
