/**
 * A replay: how a world was built (its options and every body's as given, so the defaults come from the recorded
 * defaults version), its state when the recording started, and per step the time step, what the host changed before
 * it (as patches: only the numbers that changed) and a checksum of the state after it. `XpbdWorldRecorder` writes
 * one, `XpbdReplayer` plays it back; both build the world with {@link buildReplayWorld} and apply patches with
 * {@link applyPatch}, so that the recording side and the replaying side agree on every detail.
 */
import { crc32Of } from "./checksum.js";
import { Collider, type ColliderOptions } from "./collider.js";
import type { ColliderShapeDescriptor } from "./colliderShapeDescriptor.js";
import { XpbdDataError } from "./snapshotError.js";
import { SoftBody } from "./softBody.js";
import type { SoftBodyOptions } from "./softBodyOptions.js";
import {
    BODY_SCALAR_COUNT,
    checkBodyScalar,
    checkColliderInput,
    checkWorldInput,
    COLLIDER_INPUT_COUNT,
    WORLD_INPUT_COUNT,
    writeBodyScalar,
    writeColliderInput,
    writeWorldInput,
} from "./stepInputs.js";
import type { XpbdSnapshot } from "./worldSnapshot.js";
import { XpbdWorld } from "./xpbdWorld.js";
import type { XpbdWorldOptions } from "./xpbdWorldOptions.js";

/**
 * The replay format this build writes (and the only one it reads): 2 added shape matching to the body scalars, 3
 * self-collision, 4 the gas (pressure), 5 the level of detail (`SoftBody.substeps`, `SoftBody.holdAsleep`), 6 the
 * strain limit (`SoftBody.strainLimit`).
 */
export const REPLAY_FORMAT_VERSION = 6;

/** What a patch changes. */
export enum ReplayTarget {
    /** The world's inputs (`stepInputs.ts`): gravity, wind, air density, substeps, iterations. */
    World = 0,
    /** A body's positions. */
    Positions = 1,
    /** A body's positions at the start of the last substep. */
    PreviousPositions = 2,
    /** A body's velocities (a user impulse shows here). */
    Velocities = 3,
    /** A body's last valid positions. */
    ValidPositions = 4,
    /** A body's external forces. */
    ExternalForces = 5,
    /** A body's particle masses. */
    Masses = 6,
    /** A body's pin weights. */
    PinWeights = 7,
    /** A body's pin targets at the start of the step. */
    PinTargetsStart = 8,
    /** A body's pin targets at the end of the step (animated pins show here). */
    PinTargetsEnd = 9,
    /** A body's scalars: options and sleep flags (`stepInputs.ts`). */
    BodyScalars = 10,
    /** Which colliders the world holds, in order (values: collider ids). */
    ColliderOrder = 11,
    /** A collider's inputs (`stepInputs.ts`): pose, velocities, mass properties, surface, filter. */
    ColliderInputs = 12,
}

/** Targets whose values may be non-finite: a host may write NaN there, and the solver contains it. */
const CONTAINED = new Set([ReplayTarget.Positions, ReplayTarget.Velocities, ReplayTarget.ExternalForces]);

/** One change made between two steps. */
export interface XpbdReplayPatch {
    /** What it changes. */
    target: ReplayTarget;
    /** The body's index, or the collider's id; 0 for the world and the collider order. */
    index: number;
    /** The positions in the target that change, or null: the whole target (then `values` is all of it). */
    indices: Uint32Array | null;
    /** The new values. */
    values: Float64Array;
}

/** One recorded step. */
export interface XpbdReplayStep {
    /** Its length (s). */
    dt: number;
    /** What changed before it, in order. */
    patches: XpbdReplayPatch[];
    /** CRC-32 of every body's positions and velocities after it ({@link stateChecksum}). */
    checksum: number;
}

/** How a body was built: the descriptor's arrays and the options as given. */
export interface XpbdReplayBody {
    /** Options as given (defaults not filled in; JSON). */
    options: SoftBodyOptions;
    /** Rest positions (3n). */
    positions: Float64Array;
    /** Particle masses when the recording started (n). */
    masses: Float64Array;
    /** Surface triangles. */
    triangles: Int32Array;
    /** Stretch constraints, in the body's solve order. */
    stretch: Int32Array;
    /** Shear constraints. */
    shear: Int32Array;
    /** Bend elements. */
    bend: Int32Array;
    /** Tetrahedra. */
    tets: Int32Array;
}

/** A collider that appears in the recording, and how it was built. */
export interface XpbdReplayCollider {
    /** Its id in patches. */
    id: number;
    /** Its shapes. */
    shapes: ColliderShapeDescriptor[];
    /** Options as given. */
    options: ColliderOptions;
}

/** A recording; see the module comment. */
export interface XpbdReplay {
    /** {@link REPLAY_FORMAT_VERSION} when written by this build. */
    formatVersion: number;
    /** The world's defaults version: a replayer refuses to play it under another. */
    defaultsVersion: number;
    /** The world's options as given. */
    world: XpbdWorldOptions;
    /** Every body, in the world's order. */
    bodies: XpbdReplayBody[];
    /** Every collider that was in the world during the recording. */
    colliders: XpbdReplayCollider[];
    /** The world's state when the recording started (its colliders come from the first step's patches). */
    initial: XpbdSnapshot;
    /** The steps. */
    steps: XpbdReplayStep[];
    /** Every body's positions after the last step. */
    final: Float64Array[];
}

/** A world built from a replay, and its colliders by id. */
export interface ReplayWorld {
    world: XpbdWorld;
    colliders: Map<number, Collider>;
}

/**
 * Builds the world a replay describes, without its state (restore `replay.initial` next). Throws an
 * {@link XpbdDataError} when a body, collider or option cannot be built (a defaults version this build does not
 * know: `"version"`; anything else: `"invalid"`).
 */
export function buildReplayWorld(replay: Pick<XpbdReplay, "world" | "bodies" | "colliders">): ReplayWorld {
    const world = built("the world", () => new XpbdWorld({ ...replay.world, timing: false }));
    replay.bodies.forEach((b, i) => {
        const descriptor = {
            positions: b.positions,
            particleMasses: b.masses,
            triangles: b.triangles,
            stretch: b.stretch,
            shear: b.shear,
            bend: b.bend,
            tets: b.tets,
        };
        world.addBody(built(`body ${i}`, () => new SoftBody(descriptor, b.options)));
    });
    const colliders = new Map<number, Collider>();
    for (const c of replay.colliders) {
        if (colliders.has(c.id)) {
            throw new XpbdDataError("malformed", `replay collider id ${c.id} is used twice`);
        }
        colliders.set(
            c.id,
            built(`collider ${c.id}`, () => new Collider(c.shapes, c.options)),
        );
    }
    return { world, colliders };
}

function built<T>(what: string, build: () => T): T {
    try {
        return build();
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new XpbdDataError(/defaultsVersion/.test(message) ? "version" : "invalid", `replay ${what} cannot be built: ${message}`);
    }
}

/** The array a body patch changes, or null for the other targets. */
function bodyArray(body: SoftBody, target: ReplayTarget): Float64Array | null {
    switch (target) {
        case ReplayTarget.Positions:
            return body.positions;
        case ReplayTarget.PreviousPositions:
            return body.previousPositions;
        case ReplayTarget.Velocities:
            return body.velocities;
        case ReplayTarget.ValidPositions:
            return body._validPositions;
        case ReplayTarget.ExternalForces:
            return body.externalForces;
        case ReplayTarget.Masses:
            return body.masses;
        case ReplayTarget.PinWeights:
            return body.pins.weights;
        case ReplayTarget.PinTargetsStart:
            return body.pins.targetsStart;
        case ReplayTarget.PinTargetsEnd:
            return body.pins.targetsEnd;
        default:
            return null;
    }
}

/** The body arrays a recorder compares, in patch order. */
export const BODY_ARRAY_TARGETS: readonly ReplayTarget[] = [
    ReplayTarget.Positions,
    ReplayTarget.PreviousPositions,
    ReplayTarget.Velocities,
    ReplayTarget.ValidPositions,
    ReplayTarget.ExternalForces,
    ReplayTarget.Masses,
    ReplayTarget.PinWeights,
    ReplayTarget.PinTargetsStart,
    ReplayTarget.PinTargetsEnd,
];

/** The array of `body` that `target` names (a body array target). */
export function bodyTargetArray(body: SoftBody, target: ReplayTarget): Float64Array {
    return bodyArray(body, target) as Float64Array;
}

/**
 * Throws an {@link XpbdDataError} unless `patch` can be applied to `replayWorld`: a known target, an existing body or
 * collider, positions within the target, the right number of values, and values the target may hold.
 */
export function checkPatch(replayWorld: ReplayWorld, patch: XpbdReplayPatch, where: string): void {
    const { world, colliders } = replayWorld;
    const { target, index, indices, values } = patch;
    let length: number;
    if (target === ReplayTarget.World) {
        length = WORLD_INPUT_COUNT;
    } else if (target === ReplayTarget.ColliderOrder) {
        const seen = new Set<number>();
        for (const id of values) {
            if (!colliders.has(id) || seen.has(id)) {
                throw new XpbdDataError("malformed", `${where}: collider order names collider ${id}, unknown or twice`);
            }
            seen.add(id);
        }
        if (indices !== null) {
            throw new XpbdDataError("malformed", `${where}: a collider order is always whole`);
        }
        return;
    } else if (target === ReplayTarget.ColliderInputs) {
        if (!colliders.has(index)) {
            throw new XpbdDataError("malformed", `${where}: there is no collider ${index}`);
        }
        length = COLLIDER_INPUT_COUNT;
    } else {
        const body = world.bodies[index];
        if (!body) {
            throw new XpbdDataError("malformed", `${where}: there is no body ${index}`);
        }
        const array = bodyArray(body, target);
        if (array === null && target !== ReplayTarget.BodyScalars) {
            throw new XpbdDataError("malformed", `${where}: unknown target ${String(target)}`);
        }
        length = array ? array.length : BODY_SCALAR_COUNT;
    }
    if (indices === null ? values.length !== length : values.length !== indices.length) {
        throw new XpbdDataError(
            "malformed",
            `${where}: ${values.length} values for ${indices === null ? length : indices.length} positions`,
        );
    }
    for (let k = 0; k < values.length; k++) {
        const at = indices === null ? k : indices[k];
        if (!(at < length)) {
            throw new XpbdDataError("malformed", `${where}: position ${at} is past the end of the target (${length})`);
        }
        checkValue(target, at, values[k], where);
    }
}

function checkValue(target: ReplayTarget, at: number, value: number, where: string): void {
    switch (target) {
        case ReplayTarget.World:
            return checkWorldInput(at, value, where);
        case ReplayTarget.BodyScalars:
            return checkBodyScalar(at, value, where);
        case ReplayTarget.ColliderInputs:
            return checkColliderInput(at, value, where);
        case ReplayTarget.Masses:
            if (!(value > 0) || !Number.isFinite(value)) {
                throw new XpbdDataError("invalid", `${where}: mass ${value} of particle ${at} must be positive and finite`);
            }
            return;
        case ReplayTarget.PinWeights:
            if (!(value >= 0 && value <= 1)) {
                throw new XpbdDataError("invalid", `${where}: pin weight ${value} of particle ${Math.floor(at)} is outside [0, 1]`);
            }
            return;
        default:
            if (!CONTAINED.has(target) && !Number.isFinite(value)) {
                throw new XpbdDataError("invalid", `${where}: ${ReplayTarget[target]}[${at}] is ${value}; it must be finite`);
            }
    }
}

/** Applies a patch (checked with {@link checkPatch}) to the world. */
export function applyPatch(replayWorld: ReplayWorld, patch: XpbdReplayPatch): void {
    const { world, colliders } = replayWorld;
    const { target, index, indices, values } = patch;
    if (target === ReplayTarget.ColliderOrder) {
        for (const collider of world.colliders.slice()) {
            world.removeCollider(collider);
        }
        for (const id of values) {
            world.addCollider(colliders.get(id) as Collider);
        }
        return;
    }
    const write =
        target === ReplayTarget.World
            ? (k: number, v: number) => writeWorldInput(world, k, v)
            : target === ReplayTarget.ColliderInputs
              ? (k: number, v: number) => writeColliderInput(colliders.get(index) as Collider, k, v)
              : target === ReplayTarget.BodyScalars
                ? (k: number, v: number) => writeBodyScalar(world.bodies[index], k, v)
                : arrayWriter(bodyTargetArray(world.bodies[index], target));
    for (let k = 0; k < values.length; k++) {
        write(indices === null ? k : indices[k], values[k]);
    }
}

function arrayWriter(array: Float64Array): (k: number, v: number) => void {
    return (k, v) => (array[k] = v);
}

/** CRC-32 of every body's positions and velocities: the state a replay compares after each step. */
export function stateChecksum(world: XpbdWorld): number {
    let crc = 0;
    for (const body of world.bodies) {
        crc = crc32Of(body.positions, crc);
        crc = crc32Of(body.velocities, crc);
    }
    return crc;
}
