/** CRC-32 (IEEE 802.3, the one zip and PNG use) of snapshot and replay data, and of body topology for fingerprints. */

const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) {
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    TABLE[n] = c >>> 0;
}

/**
 * Continues a CRC-32 over `bytes`: start with `crc32(bytes)`, chain with `crc32(more, previous)`.
 * @param bytes - the data
 * @param previous - the CRC of the data before `bytes` (0 to start)
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
    let c = ~previous >>> 0;
    for (let i = 0; i < bytes.length; i++) {
        c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    }
    return ~c >>> 0;
}

/** The CRC-32 of the bytes of a typed array (its own view, not the whole buffer), chained after `previous`. */
export function crc32Of(array: ArrayBufferView, previous = 0): number {
    return crc32(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), previous);
}
