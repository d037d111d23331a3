// Measures what a steady-state step with soft contacts allocates, in plain Node with --expose-gc, on the compiled
// dist/, and what reading the contacts after a step allocates, and prints the figures as JSON
// (test/core/softContactAllocation.test.ts reads them). The scene: a cloth with
// self-collision folded over a sphere, and a jelly lying in a hammock pinned by its corners, all kept awake.
import { createClothGrid, tetEdges, tetrahedralize } from "../../dist/meshing/index.js";
import { Collider, SoftBody, XpbdWorld } from "../../dist/core/index.js";
import { allocationPerCall, collectionsDuring, warmUp } from "../../scripts/allocationProbe.mjs";

const DT = 1 / 60;

function cloth(segments, origin, mass, options) {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: segments, segmentsY: segments, plane: "xz", origin });
    const t = grid.topology;
    return {
        body: new SoftBody(
            { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass },
            options,
        ),
        columns: grid.columns,
    };
}

const world = new XpbdWorld({ timing: false });
const fold = cloth(16, [0.3, 0.9, 0.2], 0.3, { thickness: 0.005, selfCollision: true, allowSleep: false }).body;
world.addBody(fold);
world.addCollider(new Collider([{ kind: "sphere", center: [0, 0.2, 0], radius: 0.2 }]));
world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));

const hammock = cloth(12, [3, 1, 0], 0.5, { allowSleep: false });
for (const corner of [0, hammock.columns - 1, hammock.columns * (hammock.columns - 1), hammock.columns * hammock.columns - 1]) {
    hammock.body.setPinWeight(corner, 1);
}
world.addBody(hammock.body);
const positions = [];
for (let k = 0; k < 8; k++) {
    positions.push(3 + (k & 1 ? 1 : -1) * 0.15, 1.2 + (k & 2 ? 0.3 : 0), (k & 4 ? 1 : -1) * 0.15);
}
const indices = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
const tets = tetrahedralize(positions, indices, { resolution: 3 });
const jelly = new SoftBody(
    {
        positions: tets.positions,
        tets: tets.tets,
        stretch: tetEdges(tets.tets, tets.positions.length / 3),
        triangles: tets.surfaceTriangles,
        mass: 1,
    },
    { allowSleep: false },
);
world.addBody(jelly);

const step = () => world.step(DT);
// Let the cloth fold and the jelly land first.
for (let s = 0; s < 180; s++) {
    step();
}
const warmup = warmUp(step, { maxCalls: 40_000 });
const steady = allocationPerCall(step, 2000, 3);
const gcEvents = collectionsDuring(step, 5000);
// Reading the contacts between steps (what the Inspector's contacts view does every frame), into Float32 buffers.
const capacity = 4096;
const points = new Float32Array(3 * capacity);
const normals = new Float32Array(3 * capacity);
const kinds = new Uint8Array(capacity);
let read = 0;
const readContacts = () => {
    read = world.writeContacts(points, normals, kinds, capacity) + world.writeContacts(points, normals, kinds, capacity, jelly);
};
warmUp(readContacts, { allowance: 0, maxCalls: 40_000 });
const reading = allocationPerCall(readContacts, 2000, 3);
console.log(
    JSON.stringify({
        warmup,
        bytesPerStep: steady.bytesPerCall,
        gcEvents,
        softContacts: world.stats.softContacts,
        bytesPerRead: reading.bytesPerCall,
        contactsRead: read,
        contactCount: world.contactCount() + world.contactCount(jelly),
        finite: world.bodies.every((body) => body.positions.every(Number.isFinite)),
    }),
);
