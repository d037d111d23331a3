/**
 * A corpus of bad inputs through the public Babylon API, each with the behaviour it must get: a clear error that names
 * the mesh element or the option, or a documented best effort with one warning. Whatever is built simulates finite.
 */
import { Logger } from "@babylonjs/core/Misc/logger";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { createHavokScene, type HavokScene } from "../support/havokScene";

const QUAD = [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1];

describe("bad input through the public API", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    let warnings: string[];
    let warn: jest.SpyInstance;
    beforeEach(async () => {
        h = await createHavokScene({ frameTimeMs: 1000 / 60 });
        xpbd = new XpbdPlugin(h.scene);
        warnings = [];
        warn = jest.spyOn(Logger, "Warn").mockImplementation((message: string | unknown[]) => void warnings.push(String(message)));
    });
    afterEach(() => {
        warn.mockRestore();
        h.dispose();
    });

    function mesh(name: string, positions: number[], indices: number[]): Mesh {
        const m = new Mesh(name, h.scene);
        const data = new VertexData();
        data.positions = positions;
        data.indices = indices;
        data.applyToMesh(m, true);
        return m;
    }
    const ground = () => CreateGround("ground", { width: 1, height: 1, subdivisions: 4 }, h.scene);

    /** Builds a cloth, steps it and checks it stays finite. */
    function simulates(cloth: ClothImpostor): void {
        h.step(30);
        expect(cloth.body.positions.every(Number.isFinite)).toBe(true);
    }

    describe("meshes that are refused, with the element named", () => {
        test.each([
            ["an empty mesh", () => mesh("empty", [], []), /mesh "empty" has no vertex positions/],
            [
                "a NaN vertex",
                () => mesh("nan", [0, 0, 0, 1, NaN, 0, 0, 0, 1], [0, 1, 2]),
                /mesh "nan" vertex 1 has a non-finite y coordinate \(NaN\)/,
            ],
            [
                "an infinite vertex",
                () => mesh("inf", [0, 0, 0, 1, 0, 0, 0, 0, -Infinity], [0, 1, 2]),
                /vertex 2 has a non-finite z coordinate \(-Infinity\)/,
            ],
            ["an index out of range", () => mesh("oor", QUAD, [0, 1, 7]), /index 2 \(triangle 0\) is 7, out of range \[0, 4\)/],
        ])("%s", (_, make, message) => {
            expect(() => new ClothImpostor(make(), {}, xpbd)).toThrow(message);
        });

        test("an open mesh for a soft body", () => {
            expect(() => new SoftBodyImpostor(ground(), {}, xpbd)).toThrow(/not closed \(16 boundary edges\)/);
        });

        test("a resolution of 1e6 is refused before the lattice is allocated", () => {
            const started = performance.now();
            expect(() => new SoftBodyImpostor(CreateBox("box", { size: 1 }, h.scene), { resolution: 1e6 }, xpbd)).toThrow(
                /^SoftBodyImpostor: resolution must be an integer in \[1, 64\] \(got 1000000\)/,
            );
            expect(performance.now() - started).toBeLessThan(1000);
        });
    });

    describe("meshes built as a best effort, with one warning that says what was done", () => {
        test.each([
            [
                "zero-area triangles",
                [...QUAD, 2, 0, 0],
                [0, 1, 2, 0, 2, 3, 0, 1, 4],
                /1 degenerate triangles \(dropped\)/,
                "degenerateTriangles",
                1,
            ],
            ["a duplicate triangle", QUAD, [0, 1, 2, 0, 2, 3, 2, 3, 0], /1 duplicate triangles \(dropped\)/, "duplicateTriangles", 1],
            [
                "a non-manifold edge",
                [...QUAD, 0, 1, 0.5, 0, -1, 0.5],
                [0, 1, 2, 0, 2, 3, 0, 2, 4, 0, 2, 5],
                /1 non-manifold edges/,
                "nonManifoldEdges",
                2,
            ],
            ["mixed winding", QUAD, [0, 1, 2, 0, 3, 2], /1 edges where the winding flips/, "inconsistentEdgeCount", 1],
            ["a vertex in no triangle", [...QUAD, 5, 5, 5], [0, 1, 2, 0, 2, 3], /1 vertices in no triangle/, "isolatedParticles", 1],
        ] as const)("%s", (_, positions, indices, message, field, count) => {
            const cloth = new ClothImpostor(mesh("m", [...positions], [...indices]), {}, xpbd);
            expect(warnings).toHaveLength(1);
            expect(warnings[0]).toMatch(message);
            const found = cloth.topologyReport[field];
            expect(typeof found === "number" ? found : found.length).toBe(count);
            simulates(cloth);
        });

        test.each([
            ["an unwelded seam (welded)", [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1], [0, 1, 2, 3, 4, 5], 4],
            ["a single triangle", [0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 1, 2], 3],
        ])("%s needs no warning", (_, positions, indices, particles) => {
            const cloth = new ClothImpostor(mesh("m", positions, indices), {}, xpbd);
            expect(warnings).toEqual([]);
            expect(cloth.body.particleCount).toBe(particles);
            simulates(cloth);
        });

        test.each([1e-4, 1e4])("a %s m cloth simulates finite and hangs from its pins", (size) => {
            const m = CreateGround("scaled", { width: size, height: size, subdivisions: 4 }, h.scene);
            const cloth = new ClothImpostor(m, { pins: [0, 4], thickness: 0.01 * size }, xpbd);
            simulates(cloth);
            // Hung by one edge, it swings below it, within its own size.
            const y = cloth.getCenterOfMass().y;
            expect(y).toBeLessThan(0);
            expect(y).toBeGreaterThan(-size);
        });
    });

    describe("options of the wrong value or type, from plain JavaScript callers", () => {
        test.each([
            [{ mass: NaN }, RangeError, /ClothImpostor: mass must be a positive finite number, got NaN/],
            [{ mass: "2" }, TypeError, /ClothImpostor: mass must be a number, got "2" \(string\)/],
            [{ stretchStiffness: -1 }, RangeError, /ClothImpostor: stretchStiffness must be in \[0, 1\], got -1/],
            [{ bendStiffness: "0.5" }, TypeError, /ClothImpostor: bendStiffness must be a number, got "0.5"/],
            [{ damping: Infinity }, RangeError, /ClothImpostor: damping must be a finite number ≥ 0, got Infinity/],
            [{ thickness: null }, TypeError, /ClothImpostor: thickness must be a number, got null \(object\)/],
            [{ allowSleep: "no" }, TypeError, /ClothImpostor: allowSleep must be a boolean, got "no" \(string\)/],
            [{ membership: NaN }, RangeError, /ClothImpostor: membership must be a 32-bit integer mask, got NaN/],
            [{ collideWith: 2 ** 32 }, RangeError, /ClothImpostor: collideWith must be a 32-bit integer mask, got 4294967296/],
            [{ pins: [0.5] }, RangeError, /ClothImpostor: pin vertex 0.5 is out of range/],
        ])("%j", (options, type, message) => {
            const make = () => new ClothImpostor(ground(), options as never, xpbd);
            expect(make).toThrow(type);
            expect(make).toThrow(message);
        });

        test("setters and the plugin check the same way", () => {
            const cloth = new ClothImpostor(ground(), {}, xpbd);
            expect(() => (cloth.damping = "1" as never)).toThrow(/damping must be a number, got "1"/);
            expect(() => (cloth.allowSleep = 1 as never)).toThrow(/allowSleep must be a boolean, got 1 \(number\)/);
            expect(() => (cloth.mass = -1)).toThrow(/mass must be a positive finite number, got -1/);
            expect(() => cloth.setPinWeight(0, NaN)).toThrow(/must be in \[0, 1\], got NaN/);
            expect(() => (xpbd.substeps = 0)).toThrow(/substeps must be a positive integer, got 0/);
            expect(() => (xpbd.substeps = "5" as never)).toThrow(TypeError);
            expect(() => (xpbd.airDensity = -1)).toThrow(/airDensity must be a finite number ≥ 0, got -1/);
            xpbd.dispose();
            expect(() => new XpbdPlugin(h.scene, { substeps: 0 })).toThrow(/substeps must be a positive integer, got 0/);
        });
    });
});
