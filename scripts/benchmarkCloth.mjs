// The benchmark cloth of ours, shared by bench.mjs, bench-frontier.mjs and bench-ab.mjs: createClothGrid 1 m × 1 m of
// n × n quads, 1 kg, its two top corners pinned with weight 1, never sleeping. It imports the compiled ES modules in
// dist/ (or, given `library`, uses those of another build: see bench-ab.mjs).
import * as meshing from "../dist/meshing/index.js";
import * as core from "../dist/core/index.js";

/**
 * The n × n benchmark cloth built with `bodyOptions`: `{ grid, body }`. `library`: `{ createClothGrid, SoftBody }`
 * of the build to use (default this one's).
 */
export function benchmarkCloth(n, bodyOptions = {}, library = { createClothGrid: meshing.createClothGrid, SoftBody: core.SoftBody }) {
    const grid = library.createClothGrid({ width: 1, height: 1, segmentsX: n, segmentsY: n });
    const t = grid.topology;
    const body = new library.SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 1 },
        bodyOptions,
    );
    body.setPinWeight(0, 1);
    body.setPinWeight(grid.columns - 1, 1);
    body.allowSleep = false;
    return { grid, body };
}
