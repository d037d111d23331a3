// Measures what a step with swept contacts allocates, in plain Node with --expose-gc, on the compiled dist/, and
// prints the figures as JSON (test/core/sweptContacts.test.ts reads them). The scene: particles bouncing at 20 m/s
// (7 cm per substep) between two static 5 cm walls 1 m apart, without gravity, so every bounce is swept.
import { Collider, SoftBody, XpbdWorld } from "../../dist/core/index.js";
import { allocationPerCall, collectionsDuring, warmUp } from "../../scripts/allocationProbe.mjs";

const DT = 1 / 60;

const world = new XpbdWorld({ timing: false });
world.gravity.fill(0);
for (const x of [-0.525, 0.525]) {
    world.addCollider(new Collider([{ kind: "box", center: [x, 0, 0], halfExtents: [0.025, 1, 1] }], { restitution: 1 }));
}
// One body per particle: within one body the deformation damping would take out their opposite velocities.
const bodies = [];
for (let k = 0; k < 16; k++) {
    const body = new SoftBody(
        { positions: [((k * 0.37) % 0.8) - 0.4, (k % 4) * 0.1 - 0.15, Math.floor(k / 4) * 0.1 - 0.15] },
        { allowSleep: false },
    );
    body.setLinearVelocity(k % 2 === 0 ? 20 : -20, 0, 0);
    world.addBody(body);
    bodies.push(body);
}
const body = bodies[0];

let bounces = 0;
let heading = body.velocities[0] > 0;
const step = () => {
    world.step(DT);
    if (body.velocities[0] > 0 !== heading) {
        heading = !heading;
        bounces++;
    }
};
const warmup = warmUp(step, { maxCalls: 40_000 });
bounces = 0;
const steady = allocationPerCall(step, 2000, 3);
const gcEvents = collectionsDuring(step, 5000);
console.log(
    JSON.stringify({
        warmup,
        bytesPerStep: steady.bytesPerCall,
        gcEvents,
        bounces,
        // Every particle still between the walls' near faces, its thickness (1 cm) before them.
        between: bodies.every((b) => Math.abs(b.positions[0]) <= 0.49 + 1e-9),
    }),
);
