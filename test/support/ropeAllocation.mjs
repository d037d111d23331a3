// Measures what a step of ropes tied to colliders allocates, in plain Node with --expose-gc, on the compiled dist/,
// and prints the figures as JSON (test/core/ropeAllocation.test.ts reads them). A rope pinned at its top holds a
// swinging dynamic box (held solve, two-way attachment, carry), and a free rope is tied to a static post.
import { buildRopeChain } from "../../dist/meshing/index.js";
import { Collider, ColliderMotion, SoftBody, XpbdWorld } from "../../dist/core/index.js";
import { allocationPerCall, collectionsDuring, warmUp } from "../../scripts/allocationProbe.mjs";

const DT = 1 / 60;
const world = new XpbdWorld({ airDensity: 0, substeps: 10, timing: false });

function rope(points, segments) {
    const chain = buildRopeChain(points, 0.1, segments);
    const body = new SoftBody(
        { positions: chain.positions, stretch: chain.stretch, shear: chain.bend, particleMasses: chain.masses },
        { allowSleep: false, thickness: 0.01 },
    );
    world.addBody(body);
    return body;
}

const hanging = rope([0, 2, 0, 0, 1, 0], 20);
hanging.setPinWeight(0, 1);
const inertia = 0.01 / 6;
const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.05, 0.05, 0.05] }], {
    motion: ColliderMotion.Dynamic,
    mass: 1,
    inertia: [inertia, inertia, inertia],
});
box.setPose(0, 0.95, 0, 0, 0, 0, 1);
box.acceleration[1] = -9.81;
box.linearVelocity[0] = 1;
world.addCollider(box);
hanging.attachments.attach(20, box, 0, 0.05, 0);

const post = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.05 }]);
post.setPose(1, 2, 0, 0, 0, 0, 1);
world.addCollider(post);
const free = rope([1, 2.05, 0, 2, 2.05, 0], 20);
free.attachments.attach(0, post, 0, 0.05, 0);

// The box swings on in the core alone (it keeps the pose and velocity each step leaves it); the rope's damping
// slows it, so every 300 steps the host gives it a push (sideways and a turn).
let frame = 0;
const step = () => {
    if (frame++ % 300 === 0) {
        box.setVelocity(1, 0, 0.3, 0, 2, 0);
    }
    world.step(DT);
};
const warmup = warmUp(step, { allowance: 0, maxCalls: 40_000 });
const perStep = allocationPerCall(step, 2000, 3);
const gcEvents = collectionsDuring(step, 5000);
let finite = true;
for (const body of world.bodies) {
    finite &&= body.positions.every(Number.isFinite);
}
console.log(
    JSON.stringify({
        warmup,
        bytesPerStep: perStep.bytesPerCall,
        gcEvents,
        finite,
        swing: Math.hypot(box.linearVelocity[0], box.linearVelocity[2]) + Math.abs(box.position[0]),
        held: box.impulse[1],
    }),
);
