/**
 * Pin weights as JSON round-trip, and the import treats its text as untrusted: malformed, oversized and hostile
 * payloads are refused with a readable error and change nothing.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { exportPinWeights, importPinWeights } from "../../src/inspector/pinWeightsJson";
import { createHavokScene, type HavokScene } from "../support/havokScene";

describe("pin weights JSON", () => {
    let h: HavokScene;
    let cloth: ClothImpostor;
    beforeEach(async () => {
        h = await createHavokScene();
        const xpbd = new XpbdPlugin(h.scene);
        cloth = new ClothImpostor(CreateGround("flag", { width: 1, height: 1, subdivisions: 4 }, h.scene), {}, xpbd);
    });
    afterEach(() => h.dispose());

    test("round-trips: exported weights import back onto the same vertices (rounded to 4 decimals)", () => {
        cloth.setPinWeight(0, 1);
        cloth.setPinWeight(4, 0.123456);
        const text = exportPinWeights(cloth);
        cloth.setPinWeights(new Float32Array(25));
        importPinWeights(cloth, text);
        expect(cloth.getPinWeight(0)).toBe(1);
        expect(cloth.getPinWeight(4)).toBeCloseTo(0.1235, 6);
        expect(cloth.getPinWeight(12)).toBe(0);
    });

    test.each([
        ["not JSON", "{weights: [", /not JSON/],
        ["no weights", '{"mesh": "flag"}', /expected an array of weights/],
        ["the wrong count", "[0, 1]", /expected 25 weights \(one per render vertex\), got 2/],
        [
            "a weight out of range",
            JSON.stringify(Array.from({ length: 25 }, (_, i) => (i === 3 ? 2 : 0))),
            /weight 3 must be a number in \[0, 1\], got 2/,
        ],
        [
            "a string weight",
            JSON.stringify(Array.from({ length: 25 }, (_, i) => (i === 7 ? "1" : 0))),
            /weight 7 must be a number in \[0, 1\], got "1"/,
        ],
        ["an oversized payload", `[${"0,".repeat(1_000_000)}0]`, /more than the 4496 that 25 weights can take/],
        ["a non-string", 42 as unknown as string, /expected the JSON text, got number/],
    ])("refuses %s and changes nothing", (_, text, message) => {
        cloth.setPinWeight(0, 1);
        expect(() => importPinWeights(cloth, text)).toThrow(message);
        expect(Array.from(cloth.getPinWeights())).toEqual(Array.from({ length: 25 }, (_, i) => (i === 0 ? 1 : 0)));
    });

    test("a payload with __proto__ and constructor keys pollutes no prototype and is applied as plain weights", () => {
        const weights = Array.from({ length: 25 }, (_, i) => (i === 2 ? 0.5 : 0));
        const hostile = `{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "weights": ${JSON.stringify(weights)}}`;
        importPinWeights(cloth, hostile);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
        expect(cloth.getPinWeight(2)).toBe(0.5);
    });
});
