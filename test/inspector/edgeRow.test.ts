import { createClothGrid } from "../../src/meshing/index";
import { boundaryNeighbours, edgeRowAt } from "../../src/inspector/edgeRow";
import { heatColor } from "../../src/inspector/heatColor";

describe("edgeRowAt", () => {
    // 5×4 quads in the xz plane: 6 columns, 5 rows; row 0 at +z.
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: 5, segmentsY: 4, plane: "xz" });
    const identity = Int32Array.from({ length: grid.columns * grid.rows }, (_, i) => i);
    const neighbours = boundaryNeighbours(grid.indices, identity);
    const at = (i: number, j: number): [number, number, number] => {
        const v = j * grid.columns + i;
        return [grid.positions[3 * v], grid.positions[3 * v + 1], grid.positions[3 * v + 2]];
    };

    test("the boundary has every border vertex and no interior one", () => {
        expect(neighbours.size).toBe(2 * grid.columns + 2 * (grid.rows - 2));
        expect(neighbours.has(1 * grid.columns + 1)).toBe(false);
    });

    test("a click near the middle of a border selects that whole border, corners included", () => {
        const row = edgeRowAt(neighbours, grid.positions, grid.positions, at(2, 0)).sort((a, b) => a - b);
        expect(row).toEqual([0, 1, 2, 3, 4, 5]);
        const column = edgeRowAt(neighbours, grid.positions, grid.positions, at(5, 2)).sort((a, b) => a - b);
        expect(column).toEqual([5, 11, 17, 23, 29]);
    });

    test("a closed surface has no rows", () => {
        const tetra = [0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0];
        expect(boundaryNeighbours(tetra, Int32Array.from([0, 1, 2, 3])).size).toBe(0);
    });
});

describe("heatColor", () => {
    test("maps 0 to blue and 1 to red, with red = t in between (readable back), clamped", () => {
        const out = new Float32Array(4);
        heatColor(0, out, 0);
        expect(Array.from(out)).toEqual([0, 0, 1, 1]);
        heatColor(1, out, 0);
        expect(Array.from(out)).toEqual([1, 0, 0, 1]);
        heatColor(0.25, out, 0);
        expect(Array.from(out)).toEqual([0.25, 0.75, 0.75, 1]);
        heatColor(7, out, 0);
        expect(out[0]).toBe(1);
        heatColor(-1, out, 0);
        expect(out[0]).toBe(0);
    });
});
