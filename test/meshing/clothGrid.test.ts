import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { computeVertexNormals } from "../../src/meshing/renderBinding";

describe("createClothGrid", () => {
    test.each([true, false])("element counts of a 4×3 grid (alternating diagonals: %s)", (alternateDiagonals) => {
        const g = createClothGrid({ width: 2, height: 1.5, segmentsX: 4, segmentsY: 3, alternateDiagonals });
        const sx = 4,
            sy = 3;
        expect(g.positions.length / 3).toBe((sx + 1) * (sy + 1));
        expect(g.indices.length / 3).toBe(2 * sx * sy);
        const horizontal = sx * (sy + 1),
            vertical = (sx + 1) * sy,
            diagonals = sx * sy;
        expect(g.topology.stretch.length / 2).toBe(horizontal + vertical + diagonals);
        expect(g.topology.shear.length / 2).toBe(sx * sy);
        // Interior edges = all edges minus the border.
        expect(g.topology.bend.length / 4).toBe(horizontal + vertical + diagonals - 2 * (sx + sy));
        expect(g.topology.report.boundaryEdgeCount).toBe(2 * (sx + sy));
        expect(Array.from(g.topology.renderToParticle)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        // Shear pairs are the other diagonal: length √(0.5² + 0.5²), and never a stretch edge.
        const edges = new Set<string>();
        for (let i = 0; i < g.topology.stretch.length; i += 2) edges.add(`${g.topology.stretch[i]}-${g.topology.stretch[i + 1]}`);
        for (let i = 0; i < g.topology.shear.length; i += 2) {
            const a = g.topology.shear[i],
                b = g.topology.shear[i + 1];
            expect(edges.has(`${Math.min(a, b)}-${Math.max(a, b)}`)).toBe(false);
            const d = Math.hypot(...[0, 1, 2].map((k) => g.positions[3 * a + k] - g.positions[3 * b + k]));
            expect(d).toBeCloseTo(Math.SQRT1_2, 6);
        }
    });

    test("xy plane: row 0 at the top, centred on origin, normals −z matching Babylon's ComputeNormals", () => {
        const g = createClothGrid({ width: 2, height: 1, segmentsX: 8, segmentsY: 4, origin: [1, 2, 3] });
        expect(Array.from(g.positions.subarray(0, 3))).toEqual([0, 2.5, 3]);
        expect(Array.from(g.positions.subarray(g.positions.length - 3))).toEqual([2, 1.5, 3]);
        const ours = new Float32Array(g.positions.length);
        computeVertexNormals(g.positions, g.indices, ours);
        const babylon: number[] = [];
        VertexData.ComputeNormals(g.positions, g.indices, babylon);
        for (let i = 0; i < ours.length; i++) {
            expect(ours[i]).toBeCloseTo(g.normals[i], 6);
            expect(babylon[i]).toBeCloseTo(g.normals[i], 6);
        }
        expect(g.normals[2]).toBe(-1);
    });

    test("xz plane: normals +y, matching Babylon's ComputeNormals", () => {
        const g = createClothGrid({ width: 1, height: 1, segmentsX: 5, segmentsY: 5, plane: "xz" });
        const babylon: number[] = [];
        VertexData.ComputeNormals(g.positions, g.indices, babylon);
        for (let i = 0; i < babylon.length; i++) expect(babylon[i]).toBeCloseTo(g.normals[i], 6);
        expect(g.normals[1]).toBe(1);
        expect(g.positions[2]).toBeCloseTo(0.5, 6);
    });

    test("rejects bad sizes", () => {
        expect(() => createClothGrid({ width: 0, height: 1, segmentsX: 2, segmentsY: 2 })).toThrow("createClothGrid");
        expect(() => createClothGrid({ width: 1, height: 1, segmentsX: 2.5, segmentsY: 2 })).toThrow("createClothGrid");
    });

    test("rejects a misspelt option instead of ignoring it", () => {
        const options = { width: 1, height: 1, segmentsX: 2, segmentsY: 2, center: [0, 1, 0] };
        expect(() => createClothGrid(options as never)).toThrow(/createClothGrid has no option "center" \(its options: .*origin/);
        expect(createClothGrid({ width: 1, height: 1, segmentsX: 2, segmentsY: 2, origin: [0, 1, 0] }).positions[1]).toBeCloseTo(1.5, 6);
    });
});
