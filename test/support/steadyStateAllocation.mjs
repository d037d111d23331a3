// Measures what a steady-state step allocates, in plain Node with --expose-gc, on the compiled dist/, and prints
// the figures as JSON (test/core/steadyStateAllocation.test.ts reads them). The scene exercises every part of the
// step: a cloth with moving kinematic pins and a soft pin, wind, stretch/shear/bend/tethers; a jelly with volume;
// static, kinematic and dynamic colliders of every shape kind; friction and restitution; a body solved in fewer
// substeps than the world.
import { createClothGrid, tetEdges, tetrahedralize } from "../../dist/meshing/index.js";
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

const world = new XpbdWorld({ wind: [1, 0, 3] });

const grid = createClothGrid({ width: 1, height: 1, segmentsX: 12, segmentsY: 12 });
const t = grid.topology;
const cloth = new SoftBody({ positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.5 });
cloth.translate(0, 0.7, 0);
cloth.allowSleep = false;
cloth.restitution = 0.3;
cloth.setPinWeight(0, 1);
cloth.setPinWeight(grid.columns - 1, 1);
cloth.setPinWeight(Math.floor(grid.columns / 2), 0.5);
world.addBody(cloth);

const box = boxMesh(0.4, 0.3, 0.4, 0.32);
const tets = tetrahedralize(box.positions, box.indices, { resolution: 5 });
const jelly = new SoftBody({
    positions: tets.positions,
    tets: tets.tets,
    stretch: tetEdges(tets.tets, tets.positions.length / 3),
    triangles: tets.surfaceTriangles,
    mass: 2,
});
jelly.translate(0, 0, 0.8);
jelly.allowSleep = false;
// Solved in 3 of the world's 5 substeps (a level of detail): the longer substeps of its own allocate nothing either.
jelly.substeps = 3;
world.addBody(jelly);

const hull = boxMesh(0.2, 0.2, 0.2, -0.1);
// The wind presses the cloth onto an open mesh sheet behind it (z = 0.12) and against a wall (solid where x ≥ 0.55).
// A sphere, a capsule, a cylinder and a kinematic hull sit in the sheet and bulge towards the cloth.
world.addCollider(new Collider([{ kind: "plane", normal: [-1, 0, 0], offset: -0.55 }], { restitution: 0.2 }));
world.addCollider(new Collider([{ kind: "sphere", center: [0.25, 0.85, 0.12], radius: 0.1 }]));
world.addCollider(new Collider([{ kind: "capsule", pointA: [-0.4, 0.55, 0.12], pointB: [-0.05, 0.55, 0.12], radius: 0.07 }]));
world.addCollider(new Collider([{ kind: "cylinder", pointA: [0.05, 0.45, 0.12], pointB: [0.4, 0.45, 0.12], radius: 0.04 }]));
world.addCollider(
    new Collider([{ kind: "convexHull", positions: hull.positions, indices: hull.indices }], { motion: ColliderMotion.Kinematic }),
);
world.addCollider(
    new Collider([
        { kind: "mesh", positions: [-0.6, 0.25, 0.12, 0.6, 0.25, 0.12, 0.6, 1.15, 0.12, -0.6, 1.15, 0.12], indices: [0, 1, 2, 0, 2, 3] },
    ]),
);
const dynamic = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.6, 0.1, 0.6] }], {
    motion: ColliderMotion.Dynamic,
    mass: 50,
});
world.addCollider(dynamic);
const kinematic = world.colliders[4];

/**
 * The dynamic box is tilted 4° about a horizontal diagonal. Exactly axis-aligned, its contact normals are all 0 and
 * ±1, V8 speculates on small integers, and the first contact past an edge, thousands of steps after warm-up,
 * deoptimises the box query once (seen: one scavenge). That is a JIT event, not a steady-state allocation; see
 * docs/benchmarks.md.
 */
const TILT = [Math.sin(Math.PI / 90) * Math.SQRT1_2, 0, Math.sin(Math.PI / 90) * Math.SQRT1_2, Math.cos(Math.PI / 90)];

/** Contact candidates per collider (one shape each, so broad-phase slot = collider), counted after every step. */
const candidates = new Int32Array(world.colliders.length);

/**
 * One frame as a host engine runs it: move the pins and the kinematic body, set the dynamic body's pose and velocity
 * (a stand-in for a rigid-body engine, which would integrate it), step.
 */
let frame = 0;
function hostStep() {
    const time = frame++ * DT;
    const swing = 0.1 * Math.sin(time);
    cloth.setPinTarget(0, -0.5 + swing, 1.2, 0);
    cloth.setPinTarget(grid.columns - 1, 0.5 + swing, 1.2, 0);
    kinematic.setPose(-0.25 + 0.05 * Math.sin(0.5 * time), 0.8, 0.12, 0, 0, 0, 1);
    kinematic.setVelocity(0.025 * Math.cos(0.5 * time), 0, 0, 0, 0, 0);
    dynamic.setPose(0, 0.2, 0.8, TILT[0], TILT[1], TILT[2], TILT[3]);
    dynamic.setVelocity(0, 0, 0, 0, 0, 0);
    world.step(DT);
    for (const body of world.bodies) {
        for (let k = 0; k < body.contacts.count; k++) {
            candidates[body.contacts.slots[k]]++;
        }
    }
}

// Warm up until a 200-step window allocates no more than the two clock reads of each step (2 × 16 bytes) and a
// byte of slack, with the step timer on as users run it. Then measure with and without the timer (the least of three
// 2,000-step windows each), and count collections; the candidate counts cover exactly these measured steps.
const warmup = warmUp(hostStep, { maxCalls: 40_000 });
candidates.fill(0);
const withClock = allocationPerCall(hostStep, 2000, 3);
world.timing = false;
const withoutClock = allocationPerCall(hostStep, 2000, 3);
world.timing = true;
const gcEvents = collectionsDuring(hostStep, 10_000);
// Every collider is really in play: over 300 more steps, which ones take an impulse.
const touched = new Float64Array(world.colliders.length);
for (let s = 0; s < 300; s++) {
    hostStep();
    world.colliders.forEach((collider, c) => {
        touched[c] += Math.hypot(collider.impulse[0], collider.impulse[1], collider.impulse[2]);
    });
}
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
        candidates: Array.from(candidates),
        touched: Array.from(touched),
        colliders: world.colliders.length,
        clothKinematicPins: cloth.pins.kinematicCount,
        clothSoftPins: cloth.pins.softCount,
        dynamicImpulse: Math.hypot(...dynamic.impulse),
    }),
);
