// The benchmark cloth of ours, shared by bench.mjs and bench-frontier.mjs: createClothGrid 1 m × 1 m of n × n quads,
// 1 kg, its two top corners pinned with weight 1, never sleeping. It imports the compiled ES modules in dist/.
import { createClothGrid } from "../dist/meshing/index.js";
import { SoftBody } from "../dist/core/index.js";

/** The n × n benchmark cloth built with `bodyOptions`: `{ grid, body }`. */
export function benchmarkCloth(n, bodyOptions = {}) {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: n, segmentsY: n });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 1 },
        bodyOptions,
    );
    body.setPinWeight(0, 1);
    body.setPinWeight(grid.columns - 1, 1);
    body.allowSleep = false;
    return { grid, body };
}
