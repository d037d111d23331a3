/**
 * Pin weights as JSON, to reuse painted weights in code:
 * `cloth.setPinWeights(JSON.parse(text).weights)` (one weight per render vertex).
 */
import type { SoftImpostor } from "../babylon/softImpostor.js";

/** The exported document. */
export interface PinWeightsDocument {
    /** The render mesh's name (informative). */
    mesh: string;
    /** Render vertices; `weights.length`. */
    vertexCount: number;
    /** Pin weight per render vertex, rounded to 4 decimals. */
    weights: number[];
}

/** The impostor's pin weights as a JSON document. */
export function exportPinWeights(impostor: SoftImpostor): string {
    const weights = Array.from(impostor.getPinWeights(), (w) => Math.round(w * 1e4) / 1e4);
    const doc: PinWeightsDocument = { mesh: impostor.mesh.name, vertexCount: weights.length, weights };
    return JSON.stringify(doc);
}

/**
 * Applies pin weights from JSON: a {@link PinWeightsDocument} or a bare array, one weight in [0, 1] per render vertex.
 * The text is untrusted (pasted by a user): only the `weights` array is read, as numbers, and text longer than such a
 * document can be is refused before it is parsed. Nothing else in it is used or kept.
 * @throws Error with a readable message when the text is not such a document
 */
export function importPinWeights(impostor: SoftImpostor, text: string): void {
    if (typeof text !== "string") {
        throw new TypeError(`expected the JSON text, got ${typeof text}`);
    }
    const count = impostor.vertexToParticle.length;
    // Refused before parsing, so a pasted payload cannot make the parser allocate without bound: an exported document
    // takes at most 8 characters a weight ("0.1234, ") plus the mesh name.
    const limit = 4096 + 16 * count;
    if (text.length > limit) {
        throw new Error(`the text is ${text.length} characters, more than the ${limit} that ${count} weights can take`);
    }
    let parsed: unknown;
    try {
        parsed = JSON.parse(text);
    } catch (error) {
        throw new Error(`not JSON: ${(error as Error).message}`);
    }
    const weights = Array.isArray(parsed) ? parsed : (parsed as Partial<PinWeightsDocument> | null)?.weights;
    if (!Array.isArray(weights)) {
        throw new Error('expected an array of weights or an object with a "weights" array');
    }
    if (weights.length !== count) {
        throw new Error(`expected ${count} weights (one per render vertex), got ${weights.length}`);
    }
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) {
        const w = weights[i];
        if (typeof w !== "number" || !(w >= 0 && w <= 1)) {
            throw new Error(`weight ${i} must be a number in [0, 1], got ${JSON.stringify(w)}`);
        }
        values[i] = w;
    }
    impostor.setPinWeights(values);
}
