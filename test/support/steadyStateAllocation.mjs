// Measures what a steady-state step allocates, in plain Node with --expose-gc, on the compiled dist/, and prints
// the figures as JSON (test/core/steadyStateAllocation.test.ts reads them). The scene exercises every part of the
// step: a cloth with moving kinematic pins and a soft pin, wind, stretch/shear/bend/tethers; a jelly with volume;
// static, kinematic and dynamic colliders of every shape kind; friction and restitution.
import { createClothGrid, tetEdges, tetrahedralize } from "../../dist/build/index.js";
import { Collider, ColliderMotion, SoftBody, XpbdWorld } from "../../dist/core/index.js";
import { allocationPerCall, collectionsDuring, warmUp } from "../../scripts/allocationProbe.mjs";

const DT = 1 / 60;

function boxMesh(sx, sy, sz, y) {
    const positions = [];
    for (let k = 0; k < 8; k++) {
        positions.push(((k & 1 ? 1 : -1) * sx) / 2, y + (k & 2 ? 1 : 0) * sy, ((k & 4 ? 1 : -1) * sz) / 2);
    }
    const indices = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
    return { positions, indices };
}

const world = new XpbdWorld({ wind: [1.5, 0, 0.5] });

const grid = createClothGrid({ width: 1, height: 1, segmentsX: 12, segmentsY: 12 });
const t = grid.topology;
const cloth = new SoftBody({ positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.5 });
cloth.translate(0, 1.2, 0);
cloth.allowSleep = false;
cloth.restitution = 0.3;
cloth.setPinWeight(0, 1);
cloth.setPinWeight(grid.columns - 1, 1);
cloth.setPinWeight(Math.floor(grid.columns / 2), 0.5);
world.addBody(cloth);

const box = boxMesh(0.4, 0.3, 0.4, 0.6);
const tets = tetrahedralize(box.positions, box.indices, { resolution: 5 });
const jelly = new SoftBody(
    { positions: tets.positions, tets: tets.tets, stretch: tetEdges(tets.tets, tets.positions.length / 3), triangles: tets.surfaceTriangles, mass: 2 },
);
jelly.translate(0, 0, 0.8);
jelly.allowSleep = false;
world.addBody(jelly);

const hull = boxMesh(0.3, 0.3, 0.3, -0.15);
world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }], { restitution: 0.2 }));
world.addCollider(new Collider([{ kind: "sphere", center: [0.2, 0.9, 0.1], radius: 0.15 }]));
world.addCollider(new Collider([{ kind: "capsule", pointA: [-0.3, 0.8, -0.2], pointB: [-0.1, 0.8, 0.2], radius: 0.05 }]));
world.addCollider(new Collider([{ kind: "cylinder", pointA: [0.4, 0.7, -0.2], pointB: [0.4, 0.7, 0.2], radius: 0.05 }]));
world.addCollider(new Collider([{ kind: "convexHull", positions: hull.positions, indices: hull.indices }], { motion: ColliderMotion.Kinematic }));
world.addCollider(new Collider([{ kind: "mesh", positions: [-1, 0.05, -1, 1, 0.05, -1, 0, 0.05, 1], indices: [0, 2, 1] }]));
const dynamic = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.4, 0.1, 0.4] }], { motion: ColliderMotion.Dynamic, mass: 50 });
world.addCollider(dynamic);
const kinematic = world.colliders[4];

/** One frame as a host engine runs it: move pins and the kinematic body, put the dynamic body back, step. */
let frame = 0;
function hostStep() {
    const time = frame++ * DT;
    const swing = 0.1 * Math.sin(time);
    cloth.setPinTarget(0, -0.5 + swing, 1.7, 0);
    cloth.setPinTarget(grid.columns - 1, 0.5 + swing, 1.7, 0);
    kinematic.setPose(0.3 * Math.sin(0.5 * time), 1.0, 0.25, 0, 0, 0, 1);
    kinematic.setVelocity(0.15 * Math.cos(0.5 * time), 0, 0, 0, 0.2, 0);
    dynamic.setPose(0, 0.2, 0.8, 0, 0, 0, 1);
    dynamic.setVelocity(0, 0, 0, 0, 0, 0);
    world.step(DT);
}

// Warm up until a 100-step window allocates no more than the two clock reads of each step (2 × 16 bytes) and some
// slack, with the default clock on as users run it; then measure with and without the clock, and count collections.
const warmup = warmUp(hostStep, { allowance: 40, maxCalls: 40_000 });
const withClock = allocationPerCall(hostStep, 2000);
const clock = world.clock;
world.clock = null;
const withoutClock = allocationPerCall(hostStep, 2000);
world.clock = clock;
const gcEvents = collectionsDuring(hostStep, 10_000);
let finite = true;
for (const body of world.bodies) {
    finite &&= body.positions.every(Number.isFinite);
}
console.log(
    JSON.stringify({
        warmup,
        bytesWithClock: withClock.bytesPerCall,
        bytesWithoutClock: withoutClock.bytesPerCall,
        gcEvents,
        finite,
        contacts: world.stats.contacts,
        clothKinematicPins: cloth.pins.kinematicCount,
        clothSoftPins: cloth.pins.softCount,
        dynamicImpulse: Math.hypot(...dynamic.impulse),
    }),
);
