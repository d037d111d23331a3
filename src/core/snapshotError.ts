/**
 * Why a snapshot or replay was refused: `"malformed"` (not our data, or its structure is broken), `"truncated"`,
 * `"oversized"` (over the size limit), `"corrupted"` (the checksum does not match), `"version"` (a format or defaults
 * version this build cannot use, or another than the scene's), `"mismatch"` (it belongs to another scene: body
 * count, particle count or topology), `"invalid"` (a value no simulation can hold: NaN, infinity, out of range).
 */
export type XpbdDataErrorReason = "malformed" | "truncated" | "oversized" | "corrupted" | "version" | "mismatch" | "invalid";

/**
 * The error `parseSnapshot`, `restoreWorldState`, `parseReplay` and the replayer throw for data they refuse. Nothing
 * was changed when it is thrown: a snapshot is applied whole or not at all.
 */
export class XpbdDataError extends Error {
    /**
     * @param reason - what kind of problem (see {@link XpbdDataErrorReason})
     * @param message - what was wrong, naming the part of the data
     */
    public constructor(
        /** What kind of problem. */
        public readonly reason: XpbdDataErrorReason,
        message: string,
    ) {
        super(message);
        this.name = "XpbdDataError";
    }

    /** Returns "XpbdDataError". */
    public getClassName(): string {
        return "XpbdDataError";
    }
}
