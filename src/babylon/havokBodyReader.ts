/**
 * Reads a Havok body's motion state back out of the physics v2 plugin: motion type, mass properties, velocities,
 * world pose, collision filter and activation, for the XPBD core.
 */
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import type { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { QuaternionTuple, Vector3Tuple } from "../core/colliderShapeDescriptor.js";
import { quat, vec3 } from "../core/tupleMath.js";
import { internals, type HavokBodyData, type ShapeId } from "./havokNative.js";

/** The body state the XPBD coupling needs, read from Havok. Vectors are world-space unless noted. */
export interface HavokMotionState {
    /** STATIC 0, ANIMATED 1, DYNAMIC 2. */
    motionType: PhysicsMotionType;
    /** kg (Havok's value; static and animated bodies keep the mass of their shapes but never move from contacts). */
    mass: number;
    /** Principal moments in kg·m² (Havok stores them per unit mass; multiplied by `mass` here). */
    inertia: Vector3Tuple;
    /** Rotation from the principal axes to the body frame. */
    inertiaOrientation: QuaternionTuple;
    /** Centre of mass in the body frame. */
    centerOfMass: Vector3Tuple;
    /** m/s, of the centre of mass. */
    linearVelocity: Vector3Tuple;
    /** rad/s. */
    angularVelocity: Vector3Tuple;
    /** The body frame's origin: the node's world position as Havok last simulated it. */
    position: Vector3Tuple;
    /** The body frame's world rotation as Havok last simulated it. */
    rotation: QuaternionTuple;
    /**
     * Collision filter of the body's shape, as unsigned 32-bit masks (two shapes collide when each one's
     * membership intersects the other's collide mask). A container's own filter is not meaningful in Havok
     * 1.3.14 (reads back e.g. `0` / `0x3f800000`); its children carry the filters used in contacts.
     */
    filterMembershipMask: number;
    /** The groups this body's shape collides with (unsigned 32-bit); see `filterMembershipMask`. */
    filterCollideMask: number;
}

/** The mass properties of a Havok body, as {@link readHavokMassProperties} returns them. */
export interface HavokMassProperties {
    /** kg (Havok's value; static and animated bodies keep the mass of their shapes but never move from contacts). */
    mass: number;
    /** Principal moments in kg·m² (Havok stores them per unit mass; multiplied by `mass` here). */
    inertia: Vector3Tuple;
    /** Rotation from the principal axes to the body frame. */
    inertiaOrientation: QuaternionTuple;
    /** Centre of mass in the body frame. */
    centerOfMass: Vector3Tuple;
}

/**
 * The motion type, mass properties, velocities, world pose and collision filter of `body`, read from Havok. Returns
 * a new object each call; the collider sync reads the same values in place (see {@link readHavokPose}).
 */
export function readHavokMotion(plugin: HavokPlugin, body: PhysicsBody): HavokMotionState {
    const mass = readHavokMassProperties(plugin, body);
    const pose = new Float64Array(7);
    readHavokPose(plugin, body, pose);
    const linear = body.getLinearVelocity();
    const angular = body.getAngularVelocity();
    const shape = body.shape;
    return {
        motionType: plugin.getMotionType(body),
        ...mass,
        linearVelocity: [linear.x, linear.y, linear.z],
        angularVelocity: [angular.x, angular.y, angular.z],
        position: [pose[0], pose[1], pose[2]],
        rotation: [pose[3], pose[4], pose[5], pose[6]],
        filterMembershipMask: shape ? shape.filterMembershipMask >>> 0 : 0,
        filterCollideMask: shape ? shape.filterCollideMask >>> 0 : 0,
    };
}

/** The mass properties of `body` as Havok holds them (what `setMassProperties` set, or what Havok derived from the shape). */
export function readHavokMassProperties(plugin: HavokPlugin, body: PhysicsBody): HavokMassProperties {
    const mass = plugin.getMassProperties(body);
    const massKg = mass.mass ?? 0;
    const perUnitMass = mass.inertia ? mass.inertia.asArray() : [0, 0, 0];
    return {
        mass: massKg,
        inertia: [perUnitMass[0] * massKg, perUnitMass[1] * massKg, perUnitMass[2] * massKg],
        inertiaOrientation: mass.inertiaOrientation ? quat(mass.inertiaOrientation.asArray()) : [0, 0, 0, 1],
        centerOfMass: mass.centerOfMass ? vec3(mass.centerOfMass.asArray()) : [0, 0, 0],
    };
}

/**
 * Writes the world pose of `body`'s frame as Havok last simulated it into `out`: position `x, y, z` then rotation
 * `x, y, z, w` (7 numbers). Nothing is allocated here; Havok's binding returns its transform as new arrays, which
 * no public API avoids.
 */
export function readHavokPose(plugin: HavokPlugin, body: PhysicsBody, out: Float64Array): void {
    const data = body._pluginData as HavokBodyData;
    const transform = internals(plugin)._hknp.HP_Body_GetQTransform(data.hpBodyId)[1];
    const translation = transform[0];
    const rotation = transform[1];
    // Havok positions are relative to the body's floating-origin region (the zero vector unless that mode is on).
    const origin = data.worldRegion?.floatingOrigin;
    out[0] = origin ? translation[0] + origin.x : translation[0];
    out[1] = origin ? translation[1] + origin.y : translation[1];
    out[2] = origin ? translation[2] + origin.z : translation[2];
    out[3] = rotation[0];
    out[4] = rotation[1];
    out[5] = rotation[2];
    out[6] = rotation[3];
}

/** Moves `body` to the world pose `pose` (translation, rotation `[x, y, z, w]`), as {@link readHavokPose} reads it. */
export function writeHavokPose(plugin: HavokPlugin, body: PhysicsBody, pose: Float64Array): void {
    const data = body._pluginData as HavokBodyData;
    const origin = data.worldRegion?.floatingOrigin;
    internals(plugin)._hknp.HP_Body_SetQTransform(data.hpBodyId, [
        [origin ? pose[0] - origin.x : pose[0], origin ? pose[1] - origin.y : pose[1], origin ? pose[2] - origin.z : pose[2]],
        [pose[3], pose[4], pose[5], pose[6]],
    ]);
}

/**
 * Writes the collision filter of `shape` into `out` as unsigned 32-bit masks: `out[0]` membership, `out[1]` collide
 * (one Havok call, where Babylon's two getters make one each). See {@link HavokMotionState.filterMembershipMask}.
 */
export function readHavokShapeFilter(plugin: HavokPlugin, shape: PhysicsShape, out: Float64Array): void {
    const filter = internals(plugin)._hknp.HP_Shape_GetFilterInfo(shape._pluginData as ShapeId)[1];
    out[0] = filter[0] >>> 0;
    out[1] = filter[1] >>> 0;
}

/** Whether Havok simulates `body` now (false while it has deactivated it: asleep, not moving). */
export function isHavokBodyActive(plugin: HavokPlugin, body: PhysicsBody): boolean {
    return internals(plugin)._hknp.HP_Body_GetActivationState((body._pluginData as HavokBodyData).hpBodyId)[1].value === 0;
}
