/**
 * Snapshots as compact bytes: {@link serializeSnapshot} and {@link parseSnapshot}, in the container of
 * `binaryContainer.ts` (kind "SNAP"). Sections:
 *
 * - `WRLD` (one): f64 time, gravity ×3, wind ×3, air density, last step's air ×4; u32 substeps, iterations, body
 *   count, and collider count (0xffffffff: the colliders are the host's).
 * - `BODY` (one per body): u32 index, particle count n, fingerprint, flags (1 asleep, 2 wake requested, 4 pins
 *   dirty); f64 seconds slow; then f64 arrays positions, previous positions, velocities, valid positions, external
 *   forces (3n each), pin weights (n), pin targets at the start and the end of the step (3n each).
 * - `TOPO` (one per body that may tear, after the `BODY` sections): u32 index, particle count n, triangle count t,
 *   stretch pairs s, shear pairs h, bend elements b, particles made by tearing, flags (1 exhausted); u32 arrays
 *   triangles (3t), stretch (2s), shear (2h), bend (4b); f64 arrays rest positions (3n), masses (n); n bytes of
 *   torn flags. See `XpbdTopologySnapshot`.
 * - `load` (ancillary; one per body with contact impulses summed while it was slow): u32 index, u32 0; f64 ×3 (see
 *   `XpbdBodySnapshot.slowImpulse`; zero without the section).
 * - `COLL` (one when the world's colliders were saved): u32 count, u32 0; per collider u32 shape count, u32 0 and
 *   20 f64 (see `XpbdColliderSnapshot.state`).
 * - `opts` (ancillary, optional): the options as UTF-8 JSON.
 */
import { isAncillary, PayloadWriter, readContainer, writeContainer, type ContainerSection, type PayloadReader } from "./binaryContainer.js";
import { XpbdDataError } from "./snapshotError.js";
import type { XpbdTopologySnapshot } from "./topologySnapshot.js";
import {
    SNAPSHOT_FORMAT_VERSION,
    validateSnapshot,
    type XpbdBodySnapshot,
    type XpbdColliderSnapshot,
    type XpbdSnapshot,
} from "./worldSnapshot.js";

/** Default size limit of {@link parseSnapshot} (bytes): 256 MiB, a million-particle body with room to spare. */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;

/** Options of {@link parseSnapshot}. */
export interface ParseSnapshotOptions {
    /** Largest input accepted, in bytes. Default {@link DEFAULT_SNAPSHOT_MAX_BYTES}. */
    maxBytes?: number;
}

const NO_COLLIDERS = 0xffffffff;
const FLAG_SLEEPING = 1;
const FLAG_WAKE = 2;
const FLAG_PINS_DIRTY = 4;
const FLAG_EXHAUSTED = 1;

/** Writes a snapshot as bytes (validated first: a snapshot that could not be restored is not written). */
export function serializeSnapshot(snapshot: XpbdSnapshot): ArrayBuffer {
    return writeContainer("SNAP", SNAPSHOT_FORMAT_VERSION, snapshot.defaultsVersion, snapshotSections(snapshot));
}

/** The sections of a snapshot, for a container of any kind (a replay embeds one). */
export function snapshotSections(snapshot: XpbdSnapshot): { tag: string; payload: Uint8Array }[] {
    validateSnapshot(snapshot);
    const world = new PayloadWriter()
        .f64(snapshot.time)
        .f64s(snapshot.gravity)
        .f64s(snapshot.wind)
        .f64(snapshot.airDensity)
        .f64s(snapshot.lastAir)
        .u32(snapshot.substeps)
        .u32(snapshot.iterations)
        .u32(snapshot.bodies.length)
        .u32(snapshot.colliders === null ? NO_COLLIDERS : snapshot.colliders.length);
    const sections = [{ tag: "WRLD", payload: world.result() }];
    snapshot.bodies.forEach((body, index) => {
        const flags = (body.sleeping ? FLAG_SLEEPING : 0) | (body.wakeRequested ? FLAG_WAKE : 0) | (body.pinsDirty ? FLAG_PINS_DIRTY : 0);
        const w = new PayloadWriter().u32(index).u32(body.particleCount).u32(body.fingerprint).u32(flags).f64(body.slowTime);
        for (const array of bodyArrays(body)) {
            w.f64s(array);
        }
        sections.push({ tag: "BODY", payload: w.result() });
    });
    snapshot.bodies.forEach((body, index) => {
        if (body.slowImpulse.some((j) => j !== 0)) {
            sections.push({ tag: "load", payload: new PayloadWriter().u32(index).u32(0).f64s(body.slowImpulse).result() });
        }
    });
    snapshot.bodies.forEach((body, index) => {
        if (body.topology !== null) {
            sections.push({ tag: "TOPO", payload: topologyPayload(index, body.particleCount, body.topology) });
        }
    });
    if (snapshot.colliders !== null) {
        const w = new PayloadWriter().u32(snapshot.colliders.length).u32(0);
        for (const collider of snapshot.colliders) {
            w.u32(collider.shapeCount).u32(0).f64s(collider.state);
        }
        sections.push({ tag: "COLL", payload: w.result() });
    }
    if (snapshot.options !== "") {
        sections.push({ tag: "opts", payload: new TextEncoder().encode(snapshot.options) });
    }
    return sections;
}

/**
 * Reads a snapshot from untrusted bytes. Each problem has its own {@link XpbdDataError}: not bytes or not a snapshot
 * (`"malformed"`), too large for `maxBytes` (`"oversized"`), cut short (`"truncated"`), a changed byte (`"corrupted"`,
 * by CRC-32), a format or defaults version this build does not know (`"version"`), a broken structure
 * (`"malformed"`) or a value no world can hold, such as NaN (`"invalid"`). Whether it fits a given world (body and
 * particle counts, topology) is checked when it is restored.
 */
export function parseSnapshot(data: ArrayBuffer | ArrayBufferView, options: ParseSnapshotOptions = {}): XpbdSnapshot {
    const container = readContainer(data, "SNAP", SNAPSHOT_FORMAT_VERSION, options.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES, "snapshot");
    return readSnapshotSections(container.sections, container.defaultsVersion, "snapshot");
}

/**
 * Builds a snapshot from the sections `WRLD`, `BODY`, `TOPO`, `load`, `COLL` and `opts` of a container (other known
 * sections are the caller's: pass only those); validates it before returning.
 */
export function readSnapshotSections(sections: readonly ContainerSection[], defaultsVersion: number, what: string): XpbdSnapshot {
    let world: ContainerSection | undefined;
    let colliders: ContainerSection | undefined;
    let options = "";
    const bodies: ContainerSection[] = [];
    const topologies: ContainerSection[] = [];
    const loads: ContainerSection[] = [];
    for (const section of sections) {
        switch (section.tag) {
            case "WRLD":
                world = once(world, section, what);
                break;
            case "BODY":
                bodies.push(section);
                break;
            case "TOPO":
                topologies.push(section);
                break;
            case "load":
                loads.push(section);
                break;
            case "COLL":
                colliders = once(colliders, section, what);
                break;
            case "opts":
                options = readText(section);
                break;
            default:
                if (!isAncillary(section.tag)) {
                    throw new XpbdDataError(
                        "version",
                        `${what} has a section "${section.tag}" that this build of babylon-xpbd cannot read (written by a newer version?)`,
                    );
                }
        }
    }
    if (!world) {
        throw new XpbdDataError("malformed", `${what} has no WRLD section`);
    }
    const r = world.payload;
    const time = r.f64();
    const gravity = r.f64s(3);
    const wind = r.f64s(3);
    const airDensity = r.f64();
    const lastAir = r.f64s(4);
    const substeps = r.u32();
    const iterations = r.u32();
    const bodyCount = r.u32();
    const colliderCount = r.u32();
    r.end();
    if (bodies.length !== bodyCount) {
        throw new XpbdDataError("malformed", `${what} says it holds ${bodyCount} bodies, it has ${bodies.length} BODY sections`);
    }
    const snapshot: XpbdSnapshot = {
        formatVersion: SNAPSHOT_FORMAT_VERSION,
        defaultsVersion,
        time,
        gravity,
        wind,
        airDensity,
        lastAir,
        substeps,
        iterations,
        bodies: readBodies(bodies, topologies, loads, what),
        colliders: readColliders(colliders, colliderCount, what),
        options,
    };
    validateSnapshot(snapshot, what);
    return snapshot;
}

function readBodies(
    sections: readonly ContainerSection[],
    topologies: readonly ContainerSection[],
    loads: readonly ContainerSection[],
    what: string,
): XpbdBodySnapshot[] {
    const bodies: XpbdBodySnapshot[] = new Array<XpbdBodySnapshot>(sections.length);
    for (const section of sections) {
        const r = section.payload;
        const index = r.u32();
        if (index >= sections.length || bodies[index] !== undefined) {
            throw new XpbdDataError("malformed", `${what} BODY section has index ${index}, out of range or repeated`);
        }
        const n = r.u32();
        const fingerprint = r.u32();
        const flags = r.u32();
        if ((flags & ~(FLAG_SLEEPING | FLAG_WAKE | FLAG_PINS_DIRTY)) !== 0) {
            throw new XpbdDataError("malformed", `${what} body ${index} has unknown flags ${flags}`);
        }
        // Checked against what is left before anything is allocated: a huge count in a small file is malformed.
        const needed = 8 + 8 * 22 * n;
        if (needed !== r.remaining) {
            throw new XpbdDataError(
                "malformed",
                `${what} body ${index} says ${n} particles, which need ${needed} more bytes; its section has ${r.remaining}`,
            );
        }
        const slowTime = r.f64();
        const [positions, previousPositions, velocities, validPositions, externalForces] = [0, 1, 2, 3, 4].map(() => r.f64s(3 * n));
        const pinWeights = r.f64s(n);
        const pinTargetsStart = r.f64s(3 * n);
        const pinTargetsEnd = r.f64s(3 * n);
        r.end();
        bodies[index] = {
            particleCount: n,
            fingerprint,
            sleeping: (flags & FLAG_SLEEPING) !== 0,
            wakeRequested: (flags & FLAG_WAKE) !== 0,
            pinsDirty: (flags & FLAG_PINS_DIRTY) !== 0,
            slowTime,
            slowImpulse: new Float64Array(3),
            positions,
            previousPositions,
            velocities,
            validPositions,
            externalForces,
            pinWeights,
            pinTargetsStart,
            pinTargetsEnd,
            topology: null,
        };
    }
    for (const section of topologies) {
        const r = section.payload;
        const index = r.u32();
        const body = index < bodies.length ? bodies[index] : undefined;
        if (body === undefined || body.topology !== null) {
            throw new XpbdDataError("malformed", `${what} TOPO section has index ${index}, out of range or repeated`);
        }
        body.topology = readTopology(r, body.particleCount, `${what} body ${index}`);
    }
    const loaded = new Uint8Array(bodies.length);
    for (const section of loads) {
        const r = section.payload;
        const index = r.u32();
        if (index >= bodies.length || loaded[index] === 1 || r.u32() !== 0) {
            throw new XpbdDataError("malformed", `${what} load section has index ${index}, out of range or repeated`);
        }
        loaded[index] = 1;
        bodies[index].slowImpulse = r.f64s(3);
        r.end();
    }
    return bodies;
}

function topologyPayload(index: number, n: number, t: XpbdTopologySnapshot): Uint8Array {
    return new PayloadWriter()
        .u32(index)
        .u32(n)
        .u32(t.triangles.length / 3)
        .u32(t.stretch.length / 2)
        .u32(t.shear.length / 2)
        .u32(t.bend.length / 4)
        .u32(t.tornParticles)
        .u32(t.exhausted ? FLAG_EXHAUSTED : 0)
        .u32s(t.triangles)
        .u32s(t.stretch)
        .u32s(t.shear)
        .u32s(t.bend)
        .f64s(t.restPositions)
        .f64s(t.masses)
        .bytes(t.torn)
        .result();
}

function readTopology(r: PayloadReader, n: number, name: string): XpbdTopologySnapshot {
    if (r.u32() !== n) {
        throw new XpbdDataError("malformed", `${name} TOPO section disagrees with its BODY section on the number of particles`);
    }
    const [triangles, stretch, shear, bend] = [3, 2, 2, 4].map((arity) => arity * r.u32());
    const tornParticles = r.u32();
    const flags = r.u32();
    if ((flags & ~FLAG_EXHAUSTED) !== 0) {
        throw new XpbdDataError("malformed", `${name} topology has unknown flags ${flags}`);
    }
    // Checked against what is left before anything is allocated, as for BODY.
    const needed = 4 * (triangles + stretch + shear + bend) + 8 * 4 * n + n;
    if (needed !== r.remaining) {
        throw new XpbdDataError("malformed", `${name} topology needs ${needed} more bytes; its section has ${r.remaining}`);
    }
    const topology: XpbdTopologySnapshot = {
        triangles: Int32Array.from(r.u32s(triangles)),
        stretch: Int32Array.from(r.u32s(stretch)),
        shear: Int32Array.from(r.u32s(shear)),
        bend: Int32Array.from(r.u32s(bend)),
        restPositions: r.f64s(3 * n),
        masses: r.f64s(n),
        torn: r.bytes(n),
        tornParticles,
        exhausted: (flags & FLAG_EXHAUSTED) !== 0,
    };
    r.end();
    return topology;
}

function readColliders(section: ContainerSection | undefined, count: number, what: string): XpbdColliderSnapshot[] | null {
    if (count === NO_COLLIDERS) {
        if (section) {
            throw new XpbdDataError("malformed", `${what} has a COLL section but says its colliders are the host's`);
        }
        return null;
    }
    if (!section) {
        throw new XpbdDataError("malformed", `${what} says it holds ${count} colliders but has no COLL section`);
    }
    const r = section.payload;
    if (r.u32() !== count) {
        throw new XpbdDataError("malformed", `${what} COLL section disagrees with WRLD on the number of colliders`);
    }
    r.u32();
    if (r.remaining !== count * (8 + 8 * 20)) {
        throw new XpbdDataError("malformed", `${what} COLL section has ${r.remaining} bytes for ${count} colliders`);
    }
    const colliders: XpbdColliderSnapshot[] = [];
    for (let c = 0; c < count; c++) {
        const shapeCount = r.u32();
        r.u32();
        colliders.push({ shapeCount, state: r.f64s(20) });
    }
    r.end();
    return colliders;
}

function bodyArrays(body: XpbdBodySnapshot): Float64Array[] {
    return [
        body.positions,
        body.previousPositions,
        body.velocities,
        body.validPositions,
        body.externalForces,
        body.pinWeights,
        body.pinTargetsStart,
        body.pinTargetsEnd,
    ];
}

function once(previous: ContainerSection | undefined, section: ContainerSection, what: string): ContainerSection {
    if (previous) {
        throw new XpbdDataError("malformed", `${what} has two ${section.tag} sections`);
    }
    return section;
}

function readText(section: ContainerSection): string {
    try {
        return new TextDecoder("utf-8", { fatal: true }).decode(section.payload.bytes(section.payload.remaining));
    } catch {
        throw new XpbdDataError("malformed", `${section.payload.name} is not UTF-8 text`);
    }
}
