/**
 * Level of detail: how far an impostor is from the scene's active camera, and whether that camera sees it, decide
 * how much solver work it gets each step (see {@link XpbdLodOptions}).
 */
import type { Nullable } from "@babylonjs/core/types";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import { booleanValue, describeValue, knownKeys, positiveInteger, type SoftBody } from "../core/index.js";

/**
 * Level-of-detail options, of the plugin (`XpbdPluginOptions.lod`, for every impostor) or of one impostor
 * (`SoftImpostorOptions.lod`, which overrides the plugin's). Without them (the default) every impostor gets every
 * substep, wherever the camera is. An impostor asleep for its level of detail pushes nothing, so Havok bodies
 * resting on it fall through: keep one that carries bodies at full detail with its own options.
 */
export interface XpbdLodOptions {
    /**
     * `[near, far]`, metres from the active camera's position to the centre of the impostor's bounding sphere,
     * `0 ≤ near ≤ far` (`Infinity` for never). Up to `near`: every substep ({@link XpbdLodLevel.Full}); up to `far`:
     * {@link midSubsteps} ({@link XpbdLodLevel.Reduced}); beyond: asleep where it is ({@link XpbdLodLevel.Asleep}).
     * Required.
     */
    distances: readonly [number, number];
    /**
     * Substeps per step between `near` and `far` (a positive integer; counts from the plugin's substeps up change
     * nothing). Stiffness stays (compliance is per unit of time squared); the cloth only stretches and damps a little
     * more. Default: half the plugin's substeps, rounded up.
     */
    midSubsteps?: number;
    /** Whether an impostor outside the active camera's view frustum sleeps as if it were beyond `far`. Default true. */
    frustumCulling?: boolean;
}

/** How much solver work an impostor gets, from its {@link XpbdLodOptions}: the impostor's `lodLevel`. */
export enum XpbdLodLevel {
    /** Every substep: no level of detail, or within `near`. */
    Full = 0,
    /** `midSubsteps` substeps: between `near` and `far`. */
    Reduced = 1,
    /** Asleep where it is, no solver work: beyond `far`, or outside the view frustum. */
    Asleep = 2,
}

/** Defaults of the optional {@link XpbdLodOptions} (their one home). */
export const LOD_DEFAULTS = Object.freeze({
    /** See {@link XpbdLodOptions.frustumCulling}. */
    frustumCulling: true,
});

/** The substeps between near and far when `XpbdLodOptions.midSubsteps` is not given: half the plugin's, rounded up. */
export function defaultMidSubsteps(pluginSubsteps: number): number {
    return Math.ceil(pluginSubsteps / 2);
}

const LOD_KEYS = ["distances", "midSubsteps", "frustumCulling"] as const;

/**
 * Returns a frozen, checked copy of `value`; throws naming `name` (a TypeError for a value of the wrong type, a
 * RangeError for a distance that is negative or NaN, near beyond far, or a bad substep count).
 */
export function checkLodOptions(value: XpbdLodOptions, name: string): Readonly<XpbdLodOptions> {
    if (typeof value !== "object" || value === null) {
        throw new TypeError(`${name} must be an object like { distances: [near, far] }, got ${describeValue(value)}`);
    }
    knownKeys(value, LOD_KEYS, name);
    const distances: unknown = value.distances;
    if (!Array.isArray(distances) || distances.length !== 2) {
        throw new TypeError(`${name}.distances must be [near, far] (two numbers, metres), got ${describeValue(distances)}`);
    }
    const [near, far] = distances as unknown[];
    for (const [which, distance] of [
        ["near", near],
        ["far", far],
    ] as const) {
        if (typeof distance !== "number" || !(distance >= 0)) {
            throw new RangeError(
                `${name}.distances: ${which} must be a number ≥ 0 (metres, Infinity for never), got ${describeValue(distance)}`,
            );
        }
    }
    if ((near as number) > (far as number)) {
        throw new RangeError(`${name}.distances: near (${near as number} m) must not be beyond far (${far as number} m)`);
    }
    const checked: XpbdLodOptions = { distances: Object.freeze([near as number, far as number] as const) };
    if (value.midSubsteps !== undefined) {
        checked.midSubsteps = positiveInteger(value.midSubsteps, `${name}.midSubsteps`);
    }
    if (value.frustumCulling !== undefined) {
        checked.frustumCulling = booleanValue(value.frustumCulling, `${name}.frustumCulling`);
    }
    return Object.freeze(checked);
}

/**
 * The level `lod` gives an impostor with render mesh `mesh` seen from `camera`: {@link XpbdLodLevel.Full} without
 * options or camera. Reads the camera where it is now and the mesh's bounding sphere, which the render sync keeps
 * around the simulated shape.
 */
export function chooseLodLevel(lod: Nullable<Readonly<XpbdLodOptions>>, camera: Nullable<Camera>, mesh: AbstractMesh): XpbdLodLevel {
    if (lod === null || camera === null) {
        return XpbdLodLevel.Full;
    }
    // Before physics the camera has not been updated for this frame yet: a camera moved since the last render would
    // be judged where it was (cached when it has not moved).
    camera.getViewMatrix();
    if ((lod.frustumCulling ?? LOD_DEFAULTS.frustumCulling) && !camera.isInFrustum(mesh)) {
        return XpbdLodLevel.Asleep;
    }
    const distance = Vector3.Distance(camera.globalPosition, mesh.getBoundingInfo().boundingSphere.centerWorld);
    return distance > lod.distances[1] ? XpbdLodLevel.Asleep : distance > lod.distances[0] ? XpbdLodLevel.Reduced : XpbdLodLevel.Full;
}

/**
 * Sets `body` up for `level` (its substeps and hold, see `SoftBody.substeps` and `SoftBody.holdAsleep`), coming
 * from `previous`. Falling asleep zeroes the velocities, as any sleep does, so the body wakes at rest where it
 * slept: no jump. Waking, its pins start the step from where their particles are (a `pinTo` target that moved
 * meanwhile is caught up over that step, never teleported to at the first substep).
 */
export function applyLodLevel(
    body: SoftBody,
    level: XpbdLodLevel,
    previous: XpbdLodLevel,
    lod: Nullable<Readonly<XpbdLodOptions>>,
    pluginSubsteps: number,
): void {
    body.holdAsleep = level === XpbdLodLevel.Asleep;
    body.substeps = level === XpbdLodLevel.Reduced && lod !== null ? (lod.midSubsteps ?? defaultMidSubsteps(pluginSubsteps)) : 0;
    if (previous === XpbdLodLevel.Asleep && level !== XpbdLodLevel.Asleep) {
        body.pins.startAt(body.positions);
        body.wake();
    }
}
