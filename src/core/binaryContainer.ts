/**
 * The binary container of snapshots and replays: a 32-byte header, then tagged sections. Read as untrusted input:
 * every length is checked against the bytes that are there before anything is read or allocated.
 *
 * Header (little-endian): `"XPBD"`, the kind (`"SNAP"` or `"RPLY"`), u16 format version, u16 header size (32), u32
 * defaults version, u32 total byte length, u32 section count, u32 CRC-32 of every byte after the header, u32 zero.
 * Section: a 4-character tag, u32 payload length, the payload, zero padding to a multiple of 8 bytes.
 *
 * Tags starting with an upper-case letter are critical: a reader that does not know one refuses the data (it was
 * written by a newer build and cannot be restored without it). Tags starting with a lower-case letter are ancillary
 * and skipped by readers that do not know them (see docs/snapshots.md, "Adding a section").
 */
import { crc32 } from "./checksum.js";
import { XpbdDataError } from "./snapshotError.js";

/** Bytes of the header. */
export const HEADER_BYTES = 32;
const MAGIC = 0x44425058; // "XPBD" read as a little-endian u32

/** One section of a container. */
export interface ContainerSection {
    /** Four ASCII characters. */
    tag: string;
    /** Its payload. */
    payload: PayloadReader;
}

/** A container as read: its versions and sections, in file order. */
export interface Container {
    formatVersion: number;
    defaultsVersion: number;
    sections: ContainerSection[];
}

/** Builds a section payload: little-endian numbers appended to a growing buffer. */
export class PayloadWriter {
    private _bytes = new Uint8Array(256);
    private _view = new DataView(this._bytes.buffer);
    private _length = 0;

    /** Bytes written. */
    public get length(): number {
        return this._length;
    }

    /** Appends an unsigned 32-bit integer. */
    public u32(value: number): this {
        this._reserve(4).setUint32(this._length - 4, value, true);
        return this;
    }

    /** Appends a float64. */
    public f64(value: number): this {
        this._reserve(8).setFloat64(this._length - 8, value, true);
        return this;
    }

    /** Appends every element of `values` as float64. */
    public f64s(values: ArrayLike<number>): this {
        const view = this._reserve(8 * values.length);
        let offset = this._length - 8 * values.length;
        for (let i = 0; i < values.length; i++, offset += 8) {
            view.setFloat64(offset, values[i], true);
        }
        return this;
    }

    /** Appends every element of `values` as an unsigned 32-bit integer. */
    public u32s(values: ArrayLike<number>): this {
        const view = this._reserve(4 * values.length);
        let offset = this._length - 4 * values.length;
        for (let i = 0; i < values.length; i++, offset += 4) {
            view.setUint32(offset, values[i], true);
        }
        return this;
    }

    /** Appends raw bytes. */
    public bytes(values: Uint8Array): this {
        this._reserve(values.length);
        this._bytes.set(values, this._length - values.length);
        return this;
    }

    /** The bytes written (a view). */
    public result(): Uint8Array {
        return this._bytes.subarray(0, this._length);
    }

    private _reserve(count: number): DataView {
        const needed = this._length + count;
        if (needed > this._bytes.length) {
            const grown = new Uint8Array(Math.max(needed, 2 * this._bytes.length));
            grown.set(this._bytes.subarray(0, this._length));
            this._bytes = grown;
            this._view = new DataView(grown.buffer);
        }
        this._length = needed;
        return this._view;
    }
}

/** Reads a section payload; every read is bounds-checked and a short payload is a `"malformed"` error naming the section. */
export class PayloadReader {
    private _offset = 0;

    /**
     * @param view - the payload
     * @param name - how errors name it ("snapshot section BODY")
     */
    public constructor(
        private readonly _view: DataView,
        public readonly name: string,
    ) {}

    /** Payload length in bytes. */
    public get byteLength(): number {
        return this._view.byteLength;
    }

    /** Bytes not read yet. */
    public get remaining(): number {
        return this._view.byteLength - this._offset;
    }

    /** Reads an unsigned 32-bit integer. */
    public u32(): number {
        this._need(4);
        const value = this._view.getUint32(this._offset, true);
        this._offset += 4;
        return value;
    }

    /** Reads `count` unsigned 32-bit integers. */
    public u32s(count: number): Uint32Array {
        this._need(4 * count);
        const out = new Uint32Array(count);
        for (let i = 0; i < count; i++, this._offset += 4) {
            out[i] = this._view.getUint32(this._offset, true);
        }
        return out;
    }

    /** Reads a float64. */
    public f64(): number {
        this._need(8);
        const value = this._view.getFloat64(this._offset, true);
        this._offset += 8;
        return value;
    }

    /** Reads `count` float64 into a new array (checked to fit before it is allocated). */
    public f64s(count: number): Float64Array {
        this._need(8 * count);
        const out = new Float64Array(count);
        for (let i = 0; i < count; i++, this._offset += 8) {
            out[i] = this._view.getFloat64(this._offset, true);
        }
        return out;
    }

    /** Reads `count` raw bytes (a copy). */
    public bytes(count: number): Uint8Array {
        this._need(count);
        const out = new Uint8Array(this._view.buffer, this._view.byteOffset + this._offset, count).slice();
        this._offset += count;
        return out;
    }

    /** Throws unless every byte was read (a payload longer than its content says is malformed). */
    public end(): void {
        if (this.remaining !== 0) {
            throw new XpbdDataError("malformed", `${this.name} has ${this.remaining} bytes more than its content`);
        }
    }

    private _need(count: number): void {
        if (!(count >= 0) || count > this.remaining) {
            throw new XpbdDataError(
                "malformed",
                `${this.name} is too short: ${count} more bytes needed at byte ${this._offset}, ${this.remaining} left`,
            );
        }
    }
}

/** Writes a container of `kind` ("SNAP" or "RPLY") holding `sections`. */
export function writeContainer(
    kind: string,
    formatVersion: number,
    defaultsVersion: number,
    sections: readonly { tag: string; payload: Uint8Array }[],
): ArrayBuffer {
    let total = HEADER_BYTES;
    for (const section of sections) {
        total += 8 + padded(section.payload.length);
    }
    const bytes = new Uint8Array(total);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    writeTag(view, 4, kind);
    view.setUint16(8, formatVersion, true);
    view.setUint16(10, HEADER_BYTES, true);
    view.setUint32(12, defaultsVersion, true);
    view.setUint32(16, total, true);
    view.setUint32(20, sections.length, true);
    let offset = HEADER_BYTES;
    for (const section of sections) {
        writeTag(view, offset, section.tag);
        view.setUint32(offset + 4, section.payload.length, true);
        bytes.set(section.payload, offset + 8);
        offset += 8 + padded(section.payload.length);
    }
    view.setUint32(24, crc32(bytes.subarray(HEADER_BYTES)), true);
    return bytes.buffer;
}

/**
 * Reads the header and the section table of untrusted `data`, checking, in this order: that it is bytes, its size
 * against `maxBytes`, the magic and kind, the format version (at most `formatVersion`), the length, the checksum,
 * and that the sections fill the data exactly.
 * @param what - "snapshot" or "replay", for the errors
 */
export function readContainer(data: unknown, kind: string, formatVersion: number, maxBytes: number, what: string): Container {
    const bytes = asBytes(data, what);
    if (bytes.length > maxBytes) {
        throw new XpbdDataError("oversized", `${what} is ${bytes.length} bytes, over the limit of ${maxBytes} (maxBytes)`);
    }
    if (bytes.length < HEADER_BYTES) {
        throw new XpbdDataError("truncated", `${what} is truncated: ${bytes.length} bytes, less than its ${HEADER_BYTES}-byte header`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    if (view.getUint32(0, true) !== MAGIC) {
        throw new XpbdDataError("malformed", `not a babylon-xpbd ${what}: it does not start with "XPBD"`);
    }
    const found = readTag(view, 4);
    if (found !== kind) {
        const names: Record<string, string> = { SNAP: "a snapshot", RPLY: "a replay" };
        throw new XpbdDataError("malformed", `not a ${what}: the data is ${names[found] ?? `of kind "${found}"`}`);
    }
    const version = view.getUint16(8, true);
    if (version < 1 || version > formatVersion) {
        throw new XpbdDataError(
            "version",
            `${what} format version ${version} cannot be read by this build of babylon-xpbd, which reads versions 1 to ${formatVersion}`,
        );
    }
    if (view.getUint16(10, true) !== HEADER_BYTES) {
        throw new XpbdDataError("malformed", `${what} header size is ${view.getUint16(10, true)}, expected ${HEADER_BYTES}`);
    }
    const total = view.getUint32(16, true);
    if (bytes.length < total) {
        throw new XpbdDataError("truncated", `${what} is truncated: its header says ${total} bytes, only ${bytes.length} are there`);
    }
    if (bytes.length > total) {
        throw new XpbdDataError("malformed", `${what} has ${bytes.length - total} bytes after its end (its header says ${total} bytes)`);
    }
    const stored = view.getUint32(24, true);
    const computed = crc32(bytes.subarray(HEADER_BYTES));
    if (stored !== computed) {
        throw new XpbdDataError(
            "corrupted",
            `${what} is corrupted: its checksum is ${hex(stored)}, the data gives ${hex(computed)} (a byte changed on the way)`,
        );
    }
    const count = view.getUint32(20, true);
    const sections: ContainerSection[] = [];
    let offset = HEADER_BYTES;
    for (let s = 0; s < count; s++) {
        if (offset + 8 > total) {
            throw new XpbdDataError("malformed", `${what} section ${s} of ${count} starts past the end of the data`);
        }
        const tag = readTag(view, offset);
        const length = view.getUint32(offset + 4, true);
        if (length > total - offset - 8) {
            throw new XpbdDataError("malformed", `${what} section ${tag} claims ${length} bytes, only ${total - offset - 8} are left`);
        }
        const payload = new DataView(bytes.buffer, bytes.byteOffset + offset + 8, length);
        sections.push({ tag, payload: new PayloadReader(payload, `${what} section ${tag}`) });
        offset += 8 + padded(length);
    }
    if (offset !== total) {
        throw new XpbdDataError("malformed", `${what} sections end at byte ${offset}, the data at ${total}`);
    }
    return { formatVersion: version, defaultsVersion: view.getUint32(12, true), sections };
}

/** Whether a section with this tag may be skipped by a reader that does not know it. */
export function isAncillary(tag: string): boolean {
    return tag.charCodeAt(0) >= 0x61 && tag.charCodeAt(0) <= 0x7a;
}

function asBytes(data: unknown, what: string): Uint8Array {
    if (data instanceof ArrayBuffer) {
        return new Uint8Array(data);
    }
    if (ArrayBuffer.isView(data)) {
        return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    }
    const type = data === null ? "null" : typeof data === "object" ? ((data as object).constructor?.name ?? "object") : typeof data;
    throw new XpbdDataError("malformed", `a ${what} is an ArrayBuffer (or a typed array), got ${type}`);
}

function padded(length: number): number {
    return Math.ceil(length / 8) * 8;
}

function writeTag(view: DataView, offset: number, tag: string): void {
    for (let i = 0; i < 4; i++) {
        view.setUint8(offset + i, tag.charCodeAt(i));
    }
}

function readTag(view: DataView, offset: number): string {
    let tag = "";
    for (let i = 0; i < 4; i++) {
        const c = view.getUint8(offset + i);
        // Printable ASCII only, so an error message never carries control characters from hostile data.
        tag += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : "?";
    }
    return tag;
}

function hex(value: number): string {
    return `0x${value.toString(16).padStart(8, "0")}`;
}
