/**
 * Replays as compact bytes: {@link serializeReplay} and {@link parseReplay}, in the container of
 * `binaryContainer.ts` (kind "RPLY"). Sections:
 *
 * - `RHDR` (one): UTF-8 JSON `{ world, bodies: [{ options }], colliders: [{ id, shapes, options }] }`.
 * - `BDEF` (one per body): u32 index, particle count n, and the lengths of the triangle, stretch, shear, bend and tet
 *   index lists; f64 rest positions (3n) and masses (n); u32 indices of each list.
 * - the initial state as a snapshot's sections (`WRLD`, `BODY`; see `snapshotFormat.ts`).
 * - `STEP` (one per step): f64 dt, u32 checksum, u32 patch count; per patch u32 target, index, 1 when sparse (else
 *   0), value count, the u32 positions when sparse, the f64 values.
 * - `LAST` (one): u32 body count; per body u32 3n and f64 final positions.
 */
import { LATEST_DEFAULTS_VERSION } from "./defaults.js";
import { isAncillary, PayloadWriter, readContainer, writeContainer, type ContainerSection, type PayloadReader } from "./binaryContainer.js";
import { REPLAY_FORMAT_VERSION, ReplayTarget, type XpbdReplay, type XpbdReplayBody, type XpbdReplayStep } from "./replayData.js";
import { DEFAULT_SNAPSHOT_MAX_BYTES, readSnapshotSections, snapshotSections } from "./snapshotFormat.js";
import { XpbdDataError } from "./snapshotError.js";

/** Options of {@link parseReplay}. */
export interface ParseReplayOptions {
    /** Largest input accepted, in bytes. Default 256 MiB. */
    maxBytes?: number;
}

const SNAPSHOT_TAGS = new Set(["WRLD", "BODY", "TOPO", "load", "COLL", "opts"]);
const LISTS = ["triangles", "stretch", "shear", "bend", "tets"] as const;

/** Writes a replay as bytes. */
export function serializeReplay(replay: XpbdReplay): ArrayBuffer {
    const header = { world: replay.world, bodies: replay.bodies.map((b) => ({ options: b.options })), colliders: replay.colliders };
    const sections: { tag: string; payload: Uint8Array }[] = [{ tag: "RHDR", payload: new TextEncoder().encode(JSON.stringify(header)) }];
    replay.bodies.forEach((body, index) => {
        const n = body.masses.length;
        const w = new PayloadWriter().u32(index).u32(n);
        for (const list of LISTS) {
            w.u32(body[list].length);
        }
        w.f64s(body.positions).f64s(body.masses);
        for (const list of LISTS) {
            for (const i of body[list]) {
                w.u32(i);
            }
        }
        sections.push({ tag: "BDEF", payload: w.result() });
    });
    sections.push(...snapshotSections(replay.initial));
    for (const step of replay.steps) {
        const w = new PayloadWriter().f64(step.dt).u32(step.checksum).u32(step.patches.length);
        for (const patch of step.patches) {
            w.u32(patch.target)
                .u32(patch.index)
                .u32(patch.indices ? 1 : 0)
                .u32(patch.values.length);
            for (const i of patch.indices ?? []) {
                w.u32(i);
            }
            w.f64s(patch.values);
        }
        sections.push({ tag: "STEP", payload: w.result() });
    }
    const last = new PayloadWriter().u32(replay.final.length);
    for (const positions of replay.final) {
        last.u32(positions.length).f64s(positions);
    }
    sections.push({ tag: "LAST", payload: last.result() });
    return writeContainer("RPLY", REPLAY_FORMAT_VERSION, replay.defaultsVersion, sections);
}

/**
 * Reads a replay from untrusted bytes, with the errors of `parseSnapshot` (an `XpbdDataError` whose reason says what
 * was wrong). Whether every change fits the recorded world is checked by the `XpbdReplayer` that plays it.
 */
export function parseReplay(data: ArrayBuffer | ArrayBufferView, options: ParseReplayOptions = {}): XpbdReplay {
    const container = readContainer(data, "RPLY", REPLAY_FORMAT_VERSION, options.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES, "replay");
    const version = container.defaultsVersion;
    if (!(version >= 1 && version <= LATEST_DEFAULTS_VERSION)) {
        throw new XpbdDataError(
            "version",
            `replay was recorded with defaults version ${version}, which this build of babylon-xpbd does not know ` +
                `(1 to ${LATEST_DEFAULTS_VERSION}): play it with the release that recorded it, or a newer one`,
        );
    }
    let header: ContainerSection | undefined;
    let last: ContainerSection | undefined;
    const definitions: ContainerSection[] = [];
    const steps: XpbdReplayStep[] = [];
    const snapshot: ContainerSection[] = [];
    for (const section of container.sections) {
        if (section.tag === "RHDR") {
            header = header ? duplicate(section) : section;
        } else if (section.tag === "LAST") {
            last = last ? duplicate(section) : section;
        } else if (section.tag === "BDEF") {
            definitions.push(section);
        } else if (section.tag === "STEP") {
            steps.push(readStep(section.payload, steps.length + 1));
        } else if (SNAPSHOT_TAGS.has(section.tag)) {
            snapshot.push(section);
        } else if (!isAncillary(section.tag)) {
            throw new XpbdDataError(
                "version",
                `replay has a section "${section.tag}" that this build of babylon-xpbd cannot read (written by a newer version?)`,
            );
        }
    }
    if (!header || !last) {
        throw new XpbdDataError("malformed", `replay has no ${header ? "LAST" : "RHDR"} section`);
    }
    const json = readJson(header.payload);
    const bodies = readDefinitions(definitions, json.bodies);
    const final = readFinal(last.payload);
    return {
        formatVersion: container.formatVersion,
        defaultsVersion: container.defaultsVersion,
        world: json.world,
        bodies,
        colliders: json.colliders,
        initial: readSnapshotSections(snapshot, container.defaultsVersion, "replay's initial state"),
        steps,
        final,
    };
}

interface Header {
    world: XpbdReplay["world"];
    bodies: { options: XpbdReplayBody["options"] }[];
    colliders: XpbdReplay["colliders"];
}

function readJson(r: PayloadReader): Header {
    let value: unknown;
    try {
        value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(r.bytes(r.remaining)));
    } catch {
        throw new XpbdDataError("malformed", "replay header (RHDR) is not UTF-8 JSON");
    }
    const h = value as Partial<Header> | null;
    const isObject = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x);
    if (
        !isObject(h) ||
        !isObject(h?.world) ||
        !Array.isArray(h?.bodies) ||
        !h.bodies.every((b) => isObject(b) && isObject(b.options)) ||
        !Array.isArray(h.colliders) ||
        !h.colliders.every((c) => isObject(c) && Number.isInteger(c.id) && Array.isArray(c.shapes) && isObject(c.options))
    ) {
        throw new XpbdDataError("malformed", "replay header (RHDR) does not describe a world, its bodies and colliders");
    }
    return h as Header;
}

function readDefinitions(sections: readonly ContainerSection[], headers: Header["bodies"]): XpbdReplayBody[] {
    if (sections.length !== headers.length) {
        throw new XpbdDataError("malformed", `replay header lists ${headers.length} bodies, it has ${sections.length} BDEF sections`);
    }
    const bodies = new Array<XpbdReplayBody>(sections.length);
    for (const section of sections) {
        const r = section.payload;
        const index = r.u32();
        if (index >= sections.length || bodies[index] !== undefined) {
            throw new XpbdDataError("malformed", `replay BDEF section has index ${index}, out of range or repeated`);
        }
        const n = r.u32();
        const lengths = LISTS.map(() => r.u32());
        const needed = 8 * 4 * n + 4 * lengths.reduce((sum, length) => sum + length, 0);
        if (needed !== r.remaining) {
            throw new XpbdDataError("malformed", `replay body ${index} needs ${needed} more bytes, its BDEF section has ${r.remaining}`);
        }
        const positions = r.f64s(3 * n);
        const masses = r.f64s(n);
        const lists = lengths.map((length) => Int32Array.from({ length }, () => r.u32()));
        r.end();
        bodies[index] = {
            options: headers[index].options,
            positions,
            masses,
            triangles: lists[0],
            stretch: lists[1],
            shear: lists[2],
            bend: lists[3],
            tets: lists[4],
        };
    }
    return bodies;
}

function readStep(r: PayloadReader, number: number): XpbdReplayStep {
    const dt = r.f64();
    const checksum = r.u32();
    const count = r.u32();
    const patches: XpbdReplayStep["patches"] = [];
    for (let p = 0; p < count; p++) {
        const target = r.u32();
        const index = r.u32();
        const sparse = r.u32();
        const length = r.u32();
        if (!(target in ReplayTarget) || sparse > 1) {
            throw new XpbdDataError("malformed", `replay step ${number}, change ${p + 1}: unknown target ${target} or flag ${sparse}`);
        }
        // Checked against the bytes left before anything is allocated.
        if ((sparse ? 12 : 8) * length > r.remaining) {
            throw new XpbdDataError("malformed", `replay step ${number}, change ${p + 1}: ${length} values do not fit its section`);
        }
        const indices = sparse ? Uint32Array.from({ length }, () => r.u32()) : null;
        patches.push({ target, index, indices, values: r.f64s(length) });
    }
    r.end();
    return { dt, checksum, patches };
}

function readFinal(r: PayloadReader): Float64Array[] {
    const count = r.u32();
    const final: Float64Array[] = [];
    for (let b = 0; b < count; b++) {
        const length = r.u32();
        final.push(r.f64s(length));
    }
    r.end();
    return final;
}

function duplicate(section: ContainerSection): never {
    throw new XpbdDataError("malformed", `replay has two ${section.tag} sections`);
}
