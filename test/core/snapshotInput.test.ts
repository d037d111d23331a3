/**
 * Snapshots are untrusted input: each kind of bad data has its own clear error, nothing is half-applied, and no NaN
 * ever reaches the world.
 */
import { crc32 } from "../../src/core/checksum";
import { LATEST_DEFAULTS_VERSION } from "../../src/core/defaults";
import { XpbdDataError } from "../../src/core/snapshotError";
import { parseSnapshot, serializeSnapshot } from "../../src/core/snapshotFormat";
import { captureWorldState, restoreWorldState, type XpbdSnapshot } from "../../src/core/worldSnapshot";
import { futureRelease } from "../support/futureDefaults";
import { seededRandom } from "../support/seededRandom";
import { fullState, snapshotScene } from "../support/snapshotScene";
import type * as core from "../../src/core/index";

const scene = snapshotScene();
for (let s = 0; s < 30; s++) {
    scene.drive(s);
    scene.world.step(1 / 60);
}
const good = serializeSnapshot(captureWorldState(scene.world));

/** The error `f` throws (failing when it throws none or another kind). */
function errorOf(f: () => unknown): XpbdDataError {
    try {
        f();
    } catch (error) {
        // By name too: a module registry of its own (futureRelease) has its own class.
        if (error instanceof XpbdDataError || (error as Error).name === "XpbdDataError") return error as XpbdDataError;
        throw error;
    }
    throw new Error("no error was thrown");
}

/** A copy of `good` changed by `edit`, its checksum recomputed (a well-formed file that lies). */
function forged(edit: (view: DataView, bytes: Uint8Array) => void): ArrayBuffer {
    const bytes = new Uint8Array(good.slice(0));
    const view = new DataView(bytes.buffer);
    edit(view, bytes);
    view.setUint32(24, crc32(bytes.subarray(32)), true);
    return bytes.buffer;
}

/** Byte offset of the first section with `tag`. */
function sectionOffset(tag: string): number {
    const view = new DataView(good);
    for (let offset = 32; offset < good.byteLength;) {
        const found = String.fromCharCode(...new Uint8Array(good, offset, 4));
        if (found === tag) return offset;
        offset += 8 + Math.ceil(view.getUint32(offset + 4, true) / 8) * 8;
    }
    throw new Error(`no ${tag}`);
}

describe("parseSnapshot refuses bad data, each kind with its own error", () => {
    test("a changed byte: corrupted (CRC-32)", () => {
        const bytes = new Uint8Array(good.slice(0));
        bytes[Math.floor(bytes.length / 2)] ^= 0x10;
        const error = errorOf(() => parseSnapshot(bytes));
        expect(error.reason).toBe("corrupted");
        expect(error.message).toMatch(/^snapshot is corrupted: its checksum is 0x[0-9a-f]{8}, the data gives 0x[0-9a-f]{8}/);
    });

    test("cut short: truncated, with the sizes", () => {
        expect(errorOf(() => parseSnapshot(good.slice(0, good.byteLength - 100))).message).toBe(
            `snapshot is truncated: its header says ${good.byteLength} bytes, only ${good.byteLength - 100} are there`,
        );
        expect(errorOf(() => parseSnapshot(good.slice(0, 10)))).toMatchObject({ reason: "truncated" });
    });

    test("over the size limit: oversized, before anything is read", () => {
        const error = errorOf(() => parseSnapshot(good, { maxBytes: 1000 }));
        expect(error.reason).toBe("oversized");
        expect(error.message).toBe(`snapshot is ${good.byteLength} bytes, over the limit of 1000 (maxBytes)`);
    });

    test("not a snapshot: malformed", () => {
        expect(errorOf(() => parseSnapshot("XPBD" as unknown as ArrayBuffer)).message).toBe(
            "a snapshot is an ArrayBuffer (or a typed array), got string",
        );
        expect(errorOf(() => parseSnapshot(new TextEncoder().encode('{"bodies": []} and some more text')))).toMatchObject({
            reason: "malformed",
            message: 'not a babylon-xpbd snapshot: it does not start with "XPBD"',
        });
        const replay = new Uint8Array(good.slice(0));
        replay.set([0x52, 0x50, 0x4c, 0x59], 4); // "RPLY"
        expect(errorOf(() => parseSnapshot(replay)).message).toBe("not a snapshot: the data is a replay");
        expect(errorOf(() => parseSnapshot(new Uint8Array([...new Uint8Array(good), 0, 0, 0, 0]))).message).toMatch(
            /has 4 bytes after its end/,
        );
    });

    test("a format or defaults version this build does not know: version", () => {
        const newer = new Uint8Array(good.slice(0));
        new DataView(newer.buffer).setUint16(8, 2, true);
        expect(errorOf(() => parseSnapshot(newer))).toMatchObject({
            reason: "version",
            message: "snapshot format version 2 cannot be read by this build of babylon-xpbd, which reads versions 1 to 1",
        });
        const future = new Uint8Array(good.slice(0));
        new DataView(future.buffer).setUint32(12, 7, true);
        expect(errorOf(() => parseSnapshot(future))).toMatchObject({
            reason: "version",
            message: `snapshot was saved with defaults version 7, which this build of babylon-xpbd does not know (1 to ${LATEST_DEFAULTS_VERSION})`,
        });
        // A critical section this build does not know (a newer feature's), appended: refused. An ancillary one is skipped.
        const withSection = (tag: string) => {
            const bytes = new Uint8Array(good.byteLength + 16);
            bytes.set(new Uint8Array(good));
            const view = new DataView(bytes.buffer);
            bytes.set(
                [...tag].map((c) => c.charCodeAt(0)),
                good.byteLength,
            );
            view.setUint32(good.byteLength + 4, 8, true);
            view.setUint32(16, bytes.length, true);
            view.setUint32(20, view.getUint32(20, true) + 1, true);
            view.setUint32(24, crc32(bytes.subarray(32)), true);
            return bytes;
        };
        expect(errorOf(() => parseSnapshot(withSection("FUTR"))).message).toBe(
            'snapshot has a section "FUTR" that this build of babylon-xpbd cannot read (written by a newer version?)',
        );
        expect(parseSnapshot(withSection("note")).bodies.length).toBe(3);
    });

    test("a well-formed file with a NaN, an infinity or a pin weight of 2 in it: invalid", () => {
        const body = sectionOffset("BODY") + 8;
        const nan = forged((view) => view.setFloat64(body + 24 + 8 * 5, NaN, true));
        expect(errorOf(() => parseSnapshot(nan))).toMatchObject({
            reason: "invalid",
            message: "snapshot body 0 positions[5] is NaN; it must be finite and within ±1000000000000 (no NaN enters the world)",
        });
        const n = scene.cloth.particleCount;
        const infinite = forged((view) => view.setFloat64(body + 24 + 8 * (6 * n + 1), -Infinity, true));
        expect(errorOf(() => parseSnapshot(infinite)).message).toMatch(/^snapshot body 0 velocities\[1\] is -Infinity/);
        const weight = forged((view) => view.setFloat64(body + 24 + 8 * (15 * n), 2, true));
        expect(errorOf(() => parseSnapshot(weight)).message).toBe("snapshot body 0 pin weight of particle 0 is 2, outside [0, 1]");
        const far = forged((view) => view.setFloat64(body + 24, 1e13, true));
        expect(errorOf(() => parseSnapshot(far)).reason).toBe("invalid");
    });

    test("counts that do not match the bytes: malformed, before anything is allocated", () => {
        const body = sectionOffset("BODY") + 8;
        const huge = forged((view) => view.setUint32(body + 4, 0x7fffffff, true));
        expect(errorOf(() => parseSnapshot(huge)).message).toMatch(
            /^snapshot body 0 says 2147483647 particles, which need \d+ more bytes; its section has \d+$/,
        );
        const world = sectionOffset("WRLD") + 8;
        const bodies = forged((view) => view.setUint32(world + 8 * 12 + 8, 4, true));
        expect(errorOf(() => parseSnapshot(bodies)).message).toBe("snapshot says it holds 4 bodies, it has 3 BODY sections");
        const sectionLength = forged((view) => view.setUint32(sectionOffset("WRLD") + 4, 1 << 30, true));
        expect(errorOf(() => parseSnapshot(sectionLength)).message).toMatch(
            /^snapshot section WRLD claims 1073741824 bytes, only \d+ are left$/,
        );
    });

    test("random damage (flipped bytes, cuts) only ever gives an XpbdDataError, and never a NaN", () => {
        const random = seededRandom(14);
        const reasons = new Map<string, number>();
        for (let trial = 0; trial < 300; trial++) {
            let bytes = new Uint8Array(good.slice(0));
            if (trial % 3 === 0) {
                bytes = bytes.slice(0, Math.floor(random() * bytes.length));
            } else {
                for (let k = 0; k < 1 + (trial % 4); k++) bytes[Math.floor(random() * bytes.length)] ^= 1 + Math.floor(random() * 255);
            }
            try {
                const parsed = parseSnapshot(bytes);
                // Damage the checks cannot see (the header's unused word): the data is still whole.
                expect(parsed.bodies.every((b) => b.positions.every(Number.isFinite))).toBe(true);
                reasons.set("accepted", (reasons.get("accepted") ?? 0) + 1);
            } catch (error) {
                expect(error).toBeInstanceOf(XpbdDataError);
                const reason = (error as XpbdDataError).reason;
                reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
            }
        }
        console.log(`300 damaged snapshots: ${[...reasons].map(([r, n]) => `${n} ${r}`).join(", ")}`);
        expect(reasons.get("corrupted")).toBeGreaterThan(100);
    });
});

describe("restoreWorldState refuses a snapshot of another scene, and writes nothing", () => {
    const before = () => fullState(scene.world);
    const sameBits = (a: BigUint64Array, b: BigUint64Array) => a.length === b.length && a.every((v, i) => v === b[i]);

    test("another particle count: mismatch, naming the body", () => {
        const other = snapshotScene(10);
        const state = before();
        const error = errorOf(() => restoreWorldState(scene.world, captureWorldState(other.world)));
        expect(error).toMatchObject({ reason: "mismatch", message: "snapshot body 0 has 121 particles, the world's body 0 has 169" });
        expect(sameBits(before(), state)).toBe(true);
    });

    test("the same particle count but another mesh: mismatch, by fingerprint", () => {
        const other = snapshotScene();
        other.cloth.restPositions[0] += 1e-9;
        const error = errorOf(() => restoreWorldState(scene.world, captureWorldState(other.world)));
        expect(error.reason).toBe("mismatch");
        expect(error.message).toMatch(
            /^snapshot body 0 was saved from another body than the world's body 0: both have 169 particles, but their rest shape or constraints differ \(fingerprint 0x[0-9a-f]{8}, 0x[0-9a-f]{8} here\)$/,
        );
    });

    test("another number of bodies or colliders: mismatch", () => {
        const snapshot = captureWorldState(scene.world);
        expect(errorOf(() => restoreWorldState(scene.world, { ...snapshot, bodies: snapshot.bodies.slice(1) })).message).toBe(
            "the snapshot holds 2 bodies, the world has 3",
        );
        expect(errorOf(() => restoreWorldState(scene.world, { ...snapshot, colliders: snapshot.colliders!.slice(1) })).message).toBe(
            "the snapshot holds 3 colliders, the world has 4",
        );
    });

    test("a NaN in the last body of an in-memory snapshot: invalid, and the first bodies are not touched either", () => {
        const snapshot = captureWorldState(snapshotScene().world); // the scene at step 0: different positions
        snapshot.bodies[2].velocities[7] = NaN;
        const state = before();
        expect(errorOf(() => restoreWorldState(scene.world, snapshot)).message).toBe(
            "snapshot body 2 velocities[7] is NaN; it must be finite (no NaN enters the world)",
        );
        expect(sameBits(before(), state)).toBe(true);
        expect(errorOf(() => restoreWorldState(scene.world, { ...snapshot, bodies: [{} as XpbdSnapshot["bodies"][0]] })).reason).toBe(
            "malformed",
        );
    });

    test("saved with defaults version 1, restored into a world of a later version: version", () => {
        const future = futureRelease((next) => (next.world.substeps = 8), ["../../src/core/index"]).load<typeof core>(
            "../../src/core/index",
        );
        const world = new future.XpbdWorld();
        const error = errorOf(() => future.restoreWorldState(world, captureWorldState(new future.XpbdWorld({ defaultsVersion: 1 }))));
        expect(error.message).toBe(
            `the snapshot was saved with defaults version 1, this world uses version ${future.LATEST_DEFAULTS_VERSION} (restore it into a scene built with defaultsVersion: 1)`,
        );
    });
});
