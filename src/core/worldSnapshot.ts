/**
 * Snapshots of an {@link XpbdWorld}: everything the solver carries from one step to the next, so that stepping on
 * from a restored snapshot is bit-identical to stepping on from the original.
 *
 * What a step reads that an earlier step wrote, and so what a snapshot holds (checked against `xpbdWorld.ts`):
 * per body, positions, velocities, the positions at the start of the last substep, the last valid positions (what
 * containment restores), external forces, pin weights, pin targets at both ends of the step, whether the pin lists
 * are stale, and sleep (asleep, seconds slow, a pending wake-up); per world, the simulated time, gravity, wind, air
 * density, the wind and density of the last step (a change wakes bodies), substeps and iterations; per collider
 * (core worlds; the plugin's colliders are Havok's), pose, velocities, acceleration and carried load.
 *
 * What it does not need: λ (every constraint's, the soft pins' too, is zeroed at each substep and never carried over),
 * contact candidates and touch flags (found afresh every step and substep), aerodynamic forces (recomputed at the
 * start of each step), tethers, pin lists and inverse masses (rebuilt from the pin weights and masses), statistics and
 * events (outputs). Options (compliances, damping, friction, masses…) are not state: they travel as JSON in
 * {@link XpbdSnapshot.options} for a bug report and are not restored.
 */
import { crc32Of } from "./checksum.js";
import type { Collider } from "./collider.js";
import { LATEST_DEFAULTS_VERSION } from "./defaults.js";
import { XpbdDataError } from "./snapshotError.js";
import type { SoftBody } from "./softBody.js";
import { captureTopology, checkTopologyFits, restoreTopology, validateTopology, type XpbdTopologySnapshot } from "./topologySnapshot.js";
import { MAX_COORDINATE, type XpbdWorld } from "./xpbdWorld.js";

/** The snapshot format this build writes (and the newest it reads). */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** The state of one body in an {@link XpbdSnapshot}; arrays are xyz per particle unless noted. */
export interface XpbdBodySnapshot {
    /** Number of particles. */
    particleCount: number;
    /** CRC-32 of the body's rest positions and constraint lists ({@link bodyFingerprint}): which body this is. */
    fingerprint: number;
    /** Whether the body is asleep. */
    sleeping: boolean;
    /** Whether an API call asked it to wake before the next step. */
    wakeRequested: boolean;
    /** Whether pin weights or masses changed since the pin lists were last rebuilt. */
    pinsDirty: boolean;
    /** Seconds the body has been slow (towards sleep). */
    slowTime: number;
    /** Contact impulses (N·s, x y z) summed over that time: a sleeping body's load on its pins. */
    slowImpulse: Float64Array;
    /** Positions (m, world). */
    positions: Float64Array;
    /** Positions at the start of the last substep. */
    previousPositions: Float64Array;
    /** Velocities (m/s). */
    velocities: Float64Array;
    /** Last valid positions (restored, at rest, if the state turns non-finite). */
    validPositions: Float64Array;
    /** External forces (N) the host wrote. */
    externalForces: Float64Array;
    /** Pin weight per particle, in [0, 1]. */
    pinWeights: Float64Array;
    /** Pin targets at the start of the next step. */
    pinTargetsStart: Float64Array;
    /** Pin targets at the end of the next step. */
    pinTargetsEnd: Float64Array;
    /** A cloth that may tear: its topology as tearing left it (particles made, triangles, masses, constraints). Else null. */
    topology: XpbdTopologySnapshot | null;
}

/** The state of one collider of a core world: 20 numbers. */
export interface XpbdColliderSnapshot {
    /** Number of shapes (a check that the collider is the same). */
    shapeCount: number;
    /** Position (3), rotation quaternion xyzw (4), linear velocity (3), angular velocity (3), acceleration (3), load mass (1), load axis (3). */
    state: Float64Array;
}

/** A world's state: see the module comment for what it holds and why. Plain data; {@link serializeSnapshot} makes it bytes. */
export interface XpbdSnapshot {
    /** Format version ({@link SNAPSHOT_FORMAT_VERSION} when written by this build). */
    formatVersion: number;
    /** Defaults version of the world it was saved from; it restores only into a world of the same version. */
    defaultsVersion: number;
    /** Simulated time (s). */
    time: number;
    /** Gravity (m/s²). */
    gravity: Float64Array;
    /** Wind (m/s). */
    wind: Float64Array;
    /** Air density (kg/m³). */
    airDensity: number;
    /** Wind xyz and air density of the last step. */
    lastAir: Float64Array;
    /** Substeps per step. */
    substeps: number;
    /** Iterations per substep. */
    iterations: number;
    /** One entry per body, in the world's order. */
    bodies: XpbdBodySnapshot[];
    /** One entry per collider, or null when the colliders are the host's (the plugin's are Havok's). */
    colliders: XpbdColliderSnapshot[] | null;
    /** JSON text of the options the scene was built with, for a bug report ("" when none). Not restored. */
    options: string;
}

/** Options of {@link captureWorldState}. */
export interface CaptureWorldStateOptions {
    /** Whether to save the colliders' poses and velocities. Default true (false when a host such as Havok owns them). */
    colliders?: boolean;
    /** JSON text of the scene's options to carry along. Default "". */
    options?: string;
}

const COLLIDER_STATE = 20;

/**
 * CRC-32 of a body's particle count, rest positions and constraint index lists: equal for the same mesh built the
 * same way. For a cloth that may tear, of what tearing never changes: the particles it was built with (count and
 * rest positions), its capacity and its number of triangles.
 */
export function bodyFingerprint(body: SoftBody): number {
    const tearing = body.tearing;
    if (tearing !== null) {
        const built = body.particleCount - tearing.tornParticles;
        const crc = crc32Of(new Uint32Array([built, body.particleCapacity, body.triangles.length]));
        return crc32Of(body.restPositions.subarray(0, 3 * built), crc);
    }
    let crc = crc32Of(new Uint32Array([body.particleCount]));
    crc = crc32Of(body.restPositions, crc);
    crc = crc32Of(body.triangles, crc);
    for (const set of [body.stretch, body.shear, body.bend, body.volume]) {
        crc = crc32Of(set.indices, crc);
    }
    return crc;
}

/** The world's state now, as a new {@link XpbdSnapshot} (copies). Not for the hot path: it allocates. */
export function captureWorldState(world: XpbdWorld, options: CaptureWorldStateOptions = {}): XpbdSnapshot {
    return {
        formatVersion: SNAPSHOT_FORMAT_VERSION,
        defaultsVersion: world.defaultsVersion,
        time: world.time,
        gravity: world.gravity.slice(),
        wind: world.wind.slice(),
        airDensity: world.airDensity,
        lastAir: world._air.slice(),
        substeps: world.substeps,
        iterations: world.iterations,
        bodies: world.bodies.map(captureBody),
        colliders: options.colliders === false ? null : world.colliders.map(captureCollider),
        options: options.options ?? "",
    };
}

function captureBody(body: SoftBody): XpbdBodySnapshot {
    // Per-particle arrays have room for the particles a tear may add: the first n are the state.
    const n = body.particleCount;
    return {
        particleCount: n,
        fingerprint: bodyFingerprint(body),
        sleeping: body.sleeping,
        wakeRequested: body._wakeRequested,
        pinsDirty: body.pins.dirty,
        slowTime: body._slowTime,
        slowImpulse: body._slowImpulse.slice(),
        positions: body.positions.slice(0, 3 * n),
        previousPositions: body.previousPositions.slice(0, 3 * n),
        velocities: body.velocities.slice(0, 3 * n),
        validPositions: body._validPositions.slice(0, 3 * n),
        externalForces: body.externalForces.slice(0, 3 * n),
        pinWeights: body.pins.weights.slice(0, n),
        pinTargetsStart: body.pins.targetsStart.slice(0, 3 * n),
        pinTargetsEnd: body.pins.targetsEnd.slice(0, 3 * n),
        topology: captureTopology(body),
    };
}

function captureCollider(collider: Collider): XpbdColliderSnapshot {
    const state = new Float64Array(COLLIDER_STATE);
    state.set(collider.position, 0);
    state.set(collider.rotation, 3);
    state.set(collider.linearVelocity, 7);
    state.set(collider.angularVelocity, 10);
    state.set(collider.acceleration, 13);
    state[16] = collider.loadMass;
    state.set(collider.loadAxis, 17);
    return { shapeCount: collider.shapes.length, state };
}

/**
 * Checks that `snapshot` is one a world could hold: the right types and lengths, every number finite, positions
 * within {@link MAX_COORDINATE}, pin weights in [0, 1], unit rotations. Throws an {@link XpbdDataError} naming the
 * first problem. `parseSnapshot`, `serializeSnapshot` and {@link restoreWorldState} call it: a snapshot built or
 * edited in memory is untrusted too.
 */
export function validateSnapshot(snapshot: XpbdSnapshot, what = "snapshot"): void {
    if (typeof snapshot !== "object" || snapshot === null) {
        throw new XpbdDataError("malformed", `${what} must be an object, got ${snapshot === null ? "null" : typeof snapshot}`);
    }
    if (snapshot.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
        throw new XpbdDataError(
            "version",
            `${what} has format version ${String(snapshot.formatVersion)}; this build reads ${SNAPSHOT_FORMAT_VERSION}`,
        );
    }
    const v = snapshot.defaultsVersion;
    if (!Number.isInteger(v) || v < 1 || v > LATEST_DEFAULTS_VERSION) {
        throw new XpbdDataError(
            "version",
            `${what} was saved with defaults version ${String(v)}, which this build of babylon-xpbd does not know (1 to ${LATEST_DEFAULTS_VERSION})`,
        );
    }
    finite(snapshot.time, `${what} time`, 0);
    vector(snapshot.gravity, 3, `${what} gravity`);
    vector(snapshot.wind, 3, `${what} wind`);
    finite(snapshot.airDensity, `${what} airDensity`, 0);
    vector(snapshot.lastAir, 4, `${what} last step's air`);
    count(snapshot.substeps, `${what} substeps`, 1);
    count(snapshot.iterations, `${what} iterations`, 1);
    if (typeof snapshot.options !== "string") {
        throw new XpbdDataError("malformed", `${what} options must be JSON text`);
    }
    if (!Array.isArray(snapshot.bodies)) {
        throw new XpbdDataError("malformed", `${what} bodies must be an array`);
    }
    snapshot.bodies.forEach((body, b) => validateBody(body, `${what} body ${b}`));
    if (snapshot.colliders !== null) {
        if (!Array.isArray(snapshot.colliders)) {
            throw new XpbdDataError("malformed", `${what} colliders must be an array or null`);
        }
        snapshot.colliders.forEach((collider, c) => validateCollider(collider, `${what} collider ${c}`));
    }
}

function validateBody(body: XpbdBodySnapshot, name: string): void {
    if (typeof body !== "object" || body === null) {
        throw new XpbdDataError("malformed", `${name} must be an object`);
    }
    const n = count(body.particleCount, `${name} particleCount`, 1);
    count(body.fingerprint, `${name} fingerprint`, 0);
    for (const flag of ["sleeping", "wakeRequested", "pinsDirty"] as const) {
        if (typeof body[flag] !== "boolean") {
            throw new XpbdDataError("malformed", `${name} ${flag} must be a boolean`);
        }
    }
    finite(body.slowTime, `${name} slowTime`, 0);
    vector(body.slowImpulse, 3, `${name} slowImpulse`);
    for (const key of ["positions", "previousPositions", "validPositions"] as const) {
        vector(body[key], 3 * n, `${name} ${key}`, MAX_COORDINATE);
    }
    for (const key of ["velocities", "externalForces", "pinTargetsStart", "pinTargetsEnd"] as const) {
        vector(body[key], 3 * n, `${name} ${key}`);
    }
    vector(body.pinWeights, n, `${name} pinWeights`);
    for (let p = 0; p < n; p++) {
        const w = body.pinWeights[p];
        if (!(w >= 0 && w <= 1)) {
            throw new XpbdDataError("invalid", `${name} pin weight of particle ${p} is ${w}, outside [0, 1]`);
        }
    }
    if (body.topology !== null) {
        validateTopology(body.topology, n, MAX_COORDINATE, name);
    }
}

function validateCollider(collider: XpbdColliderSnapshot, name: string): void {
    if (typeof collider !== "object" || collider === null) {
        throw new XpbdDataError("malformed", `${name} must be an object`);
    }
    count(collider.shapeCount, `${name} shapeCount`, 1);
    const s = vector(collider.state, COLLIDER_STATE, `${name} state`, MAX_COORDINATE);
    const norm = Math.hypot(s[3], s[4], s[5], s[6]);
    if (!(Math.abs(norm - 1) <= 1e-6)) {
        throw new XpbdDataError("invalid", `${name} rotation has length ${norm}, not 1`);
    }
    if (!(s[16] >= 0)) {
        throw new XpbdDataError("invalid", `${name} load mass is ${s[16]}, below 0`);
    }
}

/** Options of {@link restoreWorldState}. */
export interface RestoreWorldStateOptions {
    /** Whether to restore the colliders too (when the snapshot has them). Default true. */
    colliders?: boolean;
}

/**
 * Puts `world` back in the state of `snapshot`: validated first ({@link validateSnapshot}), then checked against the
 * world (defaults version, number of bodies, each body's particle count and fingerprint, the colliders), and only
 * then written, whole. Throws an {@link XpbdDataError} and changes nothing when anything does not fit.
 */
export function restoreWorldState(world: XpbdWorld, snapshot: XpbdSnapshot, options: RestoreWorldStateOptions = {}): void {
    validateSnapshot(snapshot);
    if (snapshot.defaultsVersion !== world.defaultsVersion) {
        throw new XpbdDataError(
            "version",
            `the snapshot was saved with defaults version ${snapshot.defaultsVersion}, this world uses version ${world.defaultsVersion} ` +
                `(restore it into a scene built with defaultsVersion: ${snapshot.defaultsVersion})`,
        );
    }
    if (snapshot.bodies.length !== world.bodies.length) {
        throw new XpbdDataError("mismatch", `the snapshot holds ${snapshot.bodies.length} bodies, the world has ${world.bodies.length}`);
    }
    snapshot.bodies.forEach((state, b) => checkBodyFits(state, world.bodies[b], `snapshot body ${b}`, `the world's body ${b}`));
    const colliders = options.colliders !== false && snapshot.colliders !== null ? snapshot.colliders : null;
    if (colliders) {
        if (colliders.length !== world.colliders.length) {
            throw new XpbdDataError(
                "mismatch",
                `the snapshot holds ${colliders.length} colliders, the world has ${world.colliders.length}`,
            );
        }
        colliders.forEach((state, c) => {
            if (state.shapeCount !== world.colliders[c].shapes.length) {
                throw new XpbdDataError(
                    "mismatch",
                    `snapshot collider ${c} has ${state.shapeCount} shapes, the world's collider ${c} has ${world.colliders[c].shapes.length}`,
                );
            }
        });
    }
    // Everything fits: write.
    world.time = snapshot.time;
    world.gravity.set(snapshot.gravity);
    world.wind.set(snapshot.wind);
    world.airDensity = snapshot.airDensity;
    world._air.set(snapshot.lastAir);
    world.substeps = snapshot.substeps;
    world.iterations = snapshot.iterations;
    snapshot.bodies.forEach((state, b) => restoreBody(world.bodies[b], state));
    colliders?.forEach((state, c) => restoreCollider(world.colliders[c], state.state));
}

/**
 * Throws a `"mismatch"` {@link XpbdDataError} unless `state` was saved from a body like `body` (same particle count
 * and fingerprint). `stateName` and `bodyName` name them in the message.
 */
export function checkBodyFits(state: XpbdBodySnapshot, body: SoftBody, stateName: string, bodyName: string): void {
    checkTopologyFits(state.topology, state.particleCount, body, stateName, bodyName);
    const fingerprint = bodyFingerprint(body);
    if (state.fingerprint !== fingerprint) {
        throw new XpbdDataError(
            "mismatch",
            `${stateName} was saved from another body than ${bodyName}: both have ${body.particleCount} particles, but their rest ` +
                `shape or constraints differ (fingerprint ${hex(state.fingerprint)}, ${hex(fingerprint)} here)`,
        );
    }
}

function restoreBody(body: SoftBody, state: XpbdBodySnapshot): void {
    body.positions.set(state.positions);
    body.previousPositions.set(state.previousPositions);
    body.velocities.set(state.velocities);
    body._validPositions.set(state.validPositions);
    body.externalForces.set(state.externalForces);
    body.pins.weights.set(state.pinWeights);
    body.pins.targetsStart.set(state.pinTargetsStart);
    body.pins.targetsEnd.set(state.pinTargetsEnd);
    // The pin lists, tethers and inverse masses follow the weights now (and the topology, for a cloth that tears); a
    // snapshot taken before a pending rebuild rebuilds again at the next step, as the original would have (the
    // rebuild is deterministic).
    if (state.topology !== null) {
        restoreTopology(body, state.particleCount, state.topology);
    } else {
        body._rebuildPins();
    }
    body.pins.dirty = state.pinsDirty;
    body.sleeping = state.sleeping;
    body._slowTime = state.slowTime;
    body._slowImpulse.set(state.slowImpulse);
    body._wakeRequested = state.wakeRequested;
}

function restoreCollider(collider: Collider, s: Float64Array): void {
    collider.linearVelocity.set(s.subarray(7, 10));
    collider.angularVelocity.set(s.subarray(10, 13));
    collider.acceleration.set(s.subarray(13, 16));
    collider.loadMass = s[16];
    collider.loadAxis.set(s.subarray(17, 20));
    collider.setPose(s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
}

function finite(value: unknown, name: string, min = -Infinity): number {
    if (typeof value !== "number") {
        throw new XpbdDataError("malformed", `${name} must be a number, got ${typeof value}`);
    }
    if (!Number.isFinite(value) || value < min) {
        throw new XpbdDataError(
            "invalid",
            `${name} is ${value}${min > -Infinity ? `; it must be finite and ≥ ${min}` : "; it must be finite"}`,
        );
    }
    return value;
}

function count(value: unknown, name: string, min: number): number {
    finite(value, name, min);
    if (!Number.isInteger(value) || (value as number) > 0xffffffff) {
        throw new XpbdDataError("invalid", `${name} is ${String(value)}; it must be an integer from ${min} to 4294967295`);
    }
    return value as number;
}

function vector(values: unknown, length: number, name: string, bound = Infinity): Float64Array {
    if (!(values instanceof Float64Array)) {
        throw new XpbdDataError("malformed", `${name} must be a Float64Array`);
    }
    if (values.length !== length) {
        throw new XpbdDataError("malformed", `${name} has ${values.length} numbers, ${length} expected`);
    }
    for (let k = 0; k < length; k++) {
        const x = values[k];
        // NaN fails both comparisons.
        if (!(x >= -bound && x <= bound) || x - x !== 0) {
            throw new XpbdDataError(
                "invalid",
                `${name}[${k}] is ${x}; it must be finite${bound < Infinity ? ` and within ±${bound}` : ""} (no NaN enters the world)`,
            );
        }
    }
    return values;
}

function hex(value: number): string {
    return `0x${value.toString(16).padStart(8, "0")}`;
}
