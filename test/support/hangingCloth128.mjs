// Runs a 128×128, 1 kg, 1 m cloth hanging from its two top corners for 1 s at the default quality and prints the
// figures as JSON. It runs in plain Node (jest's sandbox slows this solver down about tenfold) on the library compiled
// to the folder given as the first argument (test/support/compileSources.ts), dist/ without one.
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.argv[2] ?? path.join(import.meta.dirname, "../../dist");
const { createClothGrid } = await import(pathToFileURL(path.join(root, "meshing/index.js")).href);
const { SoftBody, XpbdWorld } = await import(pathToFileURL(path.join(root, "core/index.js")).href);

const grid = createClothGrid({ width: 1, height: 1, segmentsX: 128, segmentsY: 128 });
const t = grid.topology;
const body = new SoftBody({ positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 1 });
body.allowSleep = false;
body.setPinWeight(0, 1);
body.setPinWeight(grid.columns - 1, 1);
const world = new XpbdWorld();
world.addBody(body);
for (let s = 0; s < 60; s++) {
    world.step(1 / 60);
}
console.log(
    JSON.stringify({
        finite: body.positions.every(Number.isFinite),
        maxEdgeRatio: world.stats.maxEdgeRatio,
        meanEdgeRatio: world.stats.meanEdgeRatio,
        lowest: Math.min(...Array.from({ length: body.particleCount }, (_, p) => body.positions[3 * p + 1])),
    }),
);
