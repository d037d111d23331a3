// The soak run (`npm run soak`): the stress scene (scripts/stressScene.mjs: 12 soft bodies and 43 Havok bodies on a
// NullEngine with the real Havok WASM), plus a gusting wind on the cloths and each cloth hung by two corners from a
// hook that a Babylon animation moves, stepped at 60 Hz for ten simulated minutes. It checks that nothing is lost on
// the way: every soft impostor and Havok body still exists, is finite and stays above the ground, no step needed the
// plugin's containment (a restore after a non-finite or runaway state), and the heap after a forced collection did
// not grow. It prints the figures and exits with status 1 when an invariant failed (test/reliability/soak.test.ts
// runs a short version in CI). It imports the compiled ES modules in dist/ and needs `node --expose-gc`.
//
// Environment: SOAK_STEPS frames (one 1/60 s Havok and XPBD step each; default 36000), SOAK_HEAP_EVERY steps between
// heap samples (default 3600, a simulated minute), SOAK_JSON=1 prints the figures as one JSON object instead of text.
import { GCProfiler, getHeapStatistics } from "node:v8";
import { performance } from "node:perf_hooks";
import { CLOTH_SEGMENTS, GROUND_SIZE, loadHavok, stressScene } from "./stressScene.mjs";

// Loaded after stressScene.mjs registered the resolve hook that Babylon's deep imports need.
const { Animation } = await import("@babylonjs/core/Animations/animation");
await import("@babylonjs/core/Animations/animatable"); // scene.beginDirectAnimation
const { Vector3 } = await import("@babylonjs/core/Maths/math.vector");
const { TransformNode } = await import("@babylonjs/core/Meshes/transformNode");
const { CreateBox } = await import("@babylonjs/core/Meshes/Builders/boxBuilder");
const { PhysicsShapeType } = await import("@babylonjs/core/Physics/v2/IPhysicsEnginePlugin");
const { PhysicsAggregate } = await import("@babylonjs/core/Physics/v2/physicsAggregate");

const STEPS = Number(process.env.SOAK_STEPS ?? 36_000);
const JSON_OUTPUT = process.env.SOAK_JSON === "1";
/** The boxes' fall and the first drape take a few seconds; kinetic energy is reported from then on (10 s). */
const SETTLE_STEPS = 600;
/**
 * Where every body must stay: above the ground's square (anything past its edge or below it falls for ever), and
 * below 6 m (the highest box starts at 5.5 m; nothing in the scene can lift a body above its start).
 */
const BOUNDS = { min: [-GROUND_SIZE / 2, -0.5, -GROUND_SIZE / 2], max: [GROUND_SIZE / 2, 6, GROUND_SIZE / 2] };
/**
 * Heap growth allowed from the end of the settling phase to the end of the run, both after a forced collection.
 * What still grows after settling is compiled code (late optimisations: a heap-snapshot diff between steps 1,800 and
 * 7,200 showed about 0.1 MB, all code and deoptimisation data, levelling off). A leak of 30 bytes per step (one small
 * object) would pass it over the 35,400 steps of the full run; the CI run's 1,400 catch only leaks of 750 bytes.
 */
const HEAP_TOLERANCE_BYTES = 1 << 20;
const HEAP_SAMPLE_STEPS = Number(process.env.SOAK_HEAP_EVERY ?? 3600);
const mb = (bytes) => Number((bytes / 1e6).toFixed(3));

if (typeof globalThis.gc !== "function") {
    throw new Error("run with node --expose-gc");
}
if (!(Number.isInteger(STEPS) && STEPS > SETTLE_STEPS)) {
    throw new Error(`SOAK_STEPS must be an integer above ${SETTLE_STEPS}, got ${process.env.SOAK_STEPS}`);
}

/** Heap bytes in use after a full collection. */
function heapAfterGc() {
    globalThis.gc();
    return getHeapStatistics().used_heap_size;
}

const hk = await loadHavok();
const { engine, scene, xpbd, cloths, jellies, statics, boxes } = stressScene(hk);
// A fence round the ground (1.5 m high, inside the bounds): a jelly thrown by its swinging cloth can tumble for metres
// (a bouncy cube on the ground loses about a joule a second), and this run checks that nothing is lost, not how far a
// throw carries.
const FENCE_HEIGHT = 1.5;
const FENCE_THICKNESS = 0.2;
const fenceAt = GROUND_SIZE / 2 - FENCE_THICKNESS / 2;
for (const [x, z, width, depth] of [
    [fenceAt, 0, FENCE_THICKNESS, GROUND_SIZE],
    [-fenceAt, 0, FENCE_THICKNESS, GROUND_SIZE],
    [0, fenceAt, GROUND_SIZE, FENCE_THICKNESS],
    [0, -fenceAt, GROUND_SIZE, FENCE_THICKNESS],
]) {
    const wall = CreateBox("fence", { width, height: FENCE_HEIGHT, depth }, scene);
    wall.position.set(x, FENCE_HEIGHT / 2, z);
    statics.push(new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0, friction: 0.6 }, scene));
}
const impostors = [...cloths, ...jellies];
const aggregates = [...statics, ...boxes];

// Each cloth hangs by the corners of its +z edge from a hook above that edge, which bobs and swings (4 s loop, a
// different pace per station), so the pin drivers move targets in every step.
const BOB_FRAMES = 240;
const hookY = new Animation("hookY", "position.y", 60, Animation.ANIMATIONTYPE_FLOAT, Animation.ANIMATIONLOOPMODE_CYCLE);
hookY.setKeys([
    { frame: 0, value: 1.4 },
    { frame: BOB_FRAMES / 2, value: 1.8 },
    { frame: BOB_FRAMES, value: 1.4 },
]);
const hookTurn = new Animation("hookTurn", "rotation.y", 60, Animation.ANIMATIONTYPE_FLOAT, Animation.ANIMATIONLOOPMODE_CYCLE);
hookTurn.setKeys([
    { frame: 0, value: 0 },
    { frame: BOB_FRAMES / 4, value: 0.5 },
    { frame: (3 * BOB_FRAMES) / 4, value: -0.5 },
    { frame: BOB_FRAMES, value: 0 },
]);
cloths.forEach((cloth, s) => {
    const p = cloth.body.positions;
    const a = 3 * cloth.vertexToParticle[0];
    const b = 3 * cloth.vertexToParticle[CLOTH_SEGMENTS];
    const hook = new TransformNode(`hook${s}`, scene);
    hook.position.set((p[a] + p[b]) / 2, p[a + 1], p[a + 2]);
    cloth.pinTo([0, CLOTH_SEGMENTS], hook);
    scene.beginDirectAnimation(hook, [hookY, hookTurn], 0, BOB_FRAMES, true, 0.8 + 0.1 * s);
});

// A gusting wind along +x, slightly towards +z: from 2 to 5 m/s and back every 7 s. On the cloths only: a jelly still
// tumbling from its fall keeps rolling before such a wind (about 2 m/s) and leaves the ground in seconds, a true
// motion that would only test the bounds; a resting jelly holds (friction 0.63 against the ground).
for (const jelly of jellies) {
    jelly.windScale = 0;
}
const wind = new Vector3();
function gust(step) {
    const speed = 3.5 + 1.5 * Math.sin((2 * Math.PI * step) / 420);
    xpbd.wind = wind.set(speed, 0, 0.3 * speed);
}

let steps = 0;
xpbd.onAfterStepObservable.add(() => steps++);
/** The first step at which each invariant failed, by message. */
const failures = new Map();
function fail(step, message) {
    if (!failures.has(message)) {
        failures.set(message, step);
    }
}

/** The frame being stepped (1-based). */
let frame = 0;
let restores = 0;
for (const impostor of impostors) {
    impostor.onInvalidStateObservable.add(() => {
        restores++;
        fail(frame, `${impostor.mesh.name} was restored (non-finite or runaway state)`);
    });
}

let farthest = 0;
let farthestName = "";
/** Checks that a point is finite and inside {@link BOUNDS}, and tracks the farthest distance from the origin. */
function checkPoint(step, name, x, y, z) {
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
        fail(step, `${name} is not finite`);
        return;
    }
    if (x < BOUNDS.min[0] || y < BOUNDS.min[1] || z < BOUNDS.min[2] || x > BOUNDS.max[0] || y > BOUNDS.max[1] || z > BOUNDS.max[2]) {
        fail(step, `${name} left the bounds`);
    }
    const distance = Math.hypot(x, y, z);
    if (distance > farthest) {
        farthest = distance;
        farthestName = name;
    }
}

/** Every soft particle and every Havok body's node: finite and in bounds. */
function checkBodies(step) {
    for (const impostor of impostors) {
        const p = impostor.body.positions;
        for (let i = 0; i < p.length; i += 3) {
            checkPoint(step, impostor.mesh.name, p[i], p[i + 1], p[i + 2]);
        }
    }
    for (const { transformNode } of aggregates) {
        const p = transformNode.position; // unparented: position is world
        checkPoint(step, transformNode.name, p.x, p.y, p.z);
    }
}

/** Soft impostors and Havok bodies that still exist (not disposed, still registered with their plugin or engine). */
function countBodies() {
    const havok = new Set(xpbd.physicsEngine.getBodies());
    return {
        soft: impostors.filter((i) => !i.isDisposed && xpbd.impostors.includes(i)).length,
        havok: aggregates.filter(({ body, transformNode }) => !body.isDisposed && !transformNode.isDisposed() && havok.has(body)).length,
        softInPlugin: xpbd.impostors.length,
        havokInEngine: havok.size,
    };
}

// The boxes are 0.25 m cubes: their inertia is isotropic, so ½ I |ω|² is exact whatever the orientation.
const boxMass = boxes.map(({ body }) => body.getMassProperties());
const velocity = new Vector3();
/** Kinetic energy (J) of the dynamic Havok boxes, linear and angular. */
function havokKineticEnergy() {
    let energy = 0;
    for (let b = 0; b < boxes.length; b++) {
        const { mass, inertia } = boxMass[b];
        boxes[b].body.getLinearVelocityToRef(velocity);
        energy += 0.5 * mass * velocity.lengthSquared();
        boxes[b].body.getAngularVelocityToRef(velocity);
        energy += 0.5 * inertia.x * velocity.lengthSquared();
    }
    return energy;
}

/** Kinetic energy (J) of the soft bodies. */
function softKineticEnergy() {
    let energy = 0;
    for (const impostor of impostors) {
        energy += impostor.body.kineticEnergy();
    }
    return energy;
}

const start = countBodies();
const heapStart = heapAfterGc();
let heapSettled = 0;
const stepMs = new Float64Array(STEPS);
/** Kinetic energy (J): the largest of the whole run (the fall), the least and largest after settling, the last. */
const kinetic = { softPeak: 0, havokPeak: 0, softMin: Infinity, softMax: 0, havokMin: Infinity, havokMax: 0, soft: 0, havok: 0 };
const collections = {};
let profiler = new GCProfiler();
profiler.start();
/** Adds the running profiler's collections to {@link collections}. */
function countCollections() {
    for (const { gcType } of profiler.stop().statistics) {
        collections[gcType] = (collections[gcType] ?? 0) + 1;
    }
}
/** Heap after a forced collection, by step, at the end of settling and then every simulated minute. */
const heapSamples = [];
function sampleHeap(step) {
    countCollections(); // the forced collection is not counted
    const bytes = heapAfterGc();
    heapSamples.push([step, mb(bytes)]);
    profiler = new GCProfiler();
    profiler.start();
    return bytes;
}
const began = performance.now();
for (let f = 0; f < STEPS; f++) {
    frame = f + 1;
    gust(f);
    const t0 = performance.now();
    scene.render();
    stepMs[f] = performance.now() - t0;
    checkBodies(frame);
    kinetic.soft = softKineticEnergy();
    kinetic.havok = havokKineticEnergy();
    kinetic.softPeak = Math.max(kinetic.softPeak, kinetic.soft);
    kinetic.havokPeak = Math.max(kinetic.havokPeak, kinetic.havok);
    if (frame <= SETTLE_STEPS) {
        if (frame === SETTLE_STEPS) {
            heapSettled = sampleHeap(frame);
        }
        continue;
    }
    if (frame % HEAP_SAMPLE_STEPS === 0 && frame < STEPS) {
        sampleHeap(frame);
    }
    kinetic.softMin = Math.min(kinetic.softMin, kinetic.soft);
    kinetic.softMax = Math.max(kinetic.softMax, kinetic.soft);
    kinetic.havokMin = Math.min(kinetic.havokMin, kinetic.havok);
    kinetic.havokMax = Math.max(kinetic.havokMax, kinetic.havok);
}
const wallS = (performance.now() - began) / 1000;
countCollections();
const heapEnd = heapAfterGc();
const end = countBodies();

if (steps !== STEPS) {
    fail(STEPS, `${steps} XPBD steps ran in ${STEPS} frames`);
}
for (const key of Object.keys(start)) {
    if (end[key] !== start[key]) {
        fail(STEPS, `${key} bodies: ${start[key]} at the start, ${end[key]} at the end`);
    }
}
if (heapEnd - heapSettled > HEAP_TOLERANCE_BYTES) {
    fail(STEPS, `heap grew by ${(heapEnd - heapSettled) / 1e6} MB after settling (tolerance ${HEAP_TOLERANCE_BYTES / 1e6} MB)`);
}

let maxStep = 0;
for (let f = 1; f < STEPS; f++) {
    if (stepMs[f] > stepMs[maxStep]) {
        maxStep = f;
    }
}
let maxSettled = SETTLE_STEPS;
for (let f = SETTLE_STEPS + 1; f < STEPS; f++) {
    if (stepMs[f] > stepMs[maxSettled]) {
        maxSettled = f;
    }
}
const sortedMs = Float64Array.from(stepMs).sort();
const figures = {
    steps,
    simulatedSeconds: Number((steps / 60).toFixed(1)),
    wallSeconds: Number(wallS.toFixed(1)),
    restoreEvents: restores,
    softBodies: { start: start.soft, end: end.soft },
    havokBodies: { start: start.havok, end: end.havok },
    kineticEnergy: {
        soft: { runMax: kinetic.softPeak, min: kinetic.softMin, max: kinetic.softMax, end: kinetic.soft },
        havok: { runMax: kinetic.havokPeak, min: kinetic.havokMin, max: kinetic.havokMax, end: kinetic.havok },
    },
    heapMB: { start: mb(heapStart), settled: mb(heapSettled), end: mb(heapEnd), toleranceAfterSettling: mb(HEAP_TOLERANCE_BYTES) },
    heapSamplesMB: heapSamples,
    collections,
    stepMs: {
        median: Number(sortedMs[STEPS >> 1].toFixed(3)),
        p999: Number(sortedMs[Math.floor(STEPS * 0.999)].toFixed(2)),
        max: Number(stepMs[maxStep].toFixed(2)),
        maxAtStep: maxStep + 1,
        maxAfterSettling: Number(stepMs[maxSettled].toFixed(2)),
        maxAfterSettlingAtStep: maxSettled + 1,
    },
    farthest: { distance: Number(farthest.toFixed(3)), body: farthestName, bounds: BOUNDS },
    failures: [...failures].map(([message, step]) => `step ${step}: ${message}`),
};

scene.dispose();
engine.dispose();

if (JSON_OUTPUT) {
    console.log(JSON.stringify(figures));
} else {
    const j = (value) => (typeof value === "number" ? value.toPrecision(4) : value);
    const ke = figures.kineticEnergy;
    const gcs = Object.entries(collections).map(([type, n]) => `${n} ${type}`);
    console.log(`steps                ${steps} (${figures.simulatedSeconds} s simulated at 60 Hz, ${figures.wallSeconds} s wall)`);
    console.log(`restore events       ${restores}`);
    console.log(`soft bodies          ${start.soft} at the start, ${end.soft} at the end`);
    console.log(`Havok bodies         ${start.havok} at the start, ${end.havok} at the end`);
    for (const [name, e] of [
        ["soft bodies", ke.soft],
        ["Havok boxes", ke.havok],
    ]) {
        console.log(
            `kinetic energy (J)   ${name}: max ${j(e.runMax)} in the run; after step ${SETTLE_STEPS} ` +
                `min ${j(e.min)} max ${j(e.max)}; end ${j(e.end)}`,
        );
    }
    console.log(
        `heap used (MB)       ${figures.heapMB.start} at the start, ${figures.heapMB.settled} after step ${SETTLE_STEPS}, ` +
            `${figures.heapMB.end} at the end (after forced collections)`,
    );
    console.log(`heap by step (MB)    ${heapSamples.map(([step, m]) => `${step}: ${m}`).join(", ")}`);
    console.log(`collections          ${gcs.length > 0 ? gcs.join(", ") : "none"}`);
    console.log(
        `step time (ms)       median ${figures.stepMs.median}, 99.9th percentile ${figures.stepMs.p999}, max ${figures.stepMs.max} (step ${figures.stepMs.maxAtStep}), ` +
            `max after step ${SETTLE_STEPS} ${figures.stepMs.maxAfterSettling} (step ${figures.stepMs.maxAfterSettlingAtStep})`,
    );
    console.log(
        `farthest body        ${figures.farthest.distance} m from the origin (${farthestName}); bounds x, z ±${BOUNDS.max[0]}, y ${BOUNDS.min[1]}…${BOUNDS.max[1]} m`,
    );
    console.log(figures.failures.length === 0 ? "invariants           all held" : `FAILED\n${figures.failures.join("\n")}`);
}
process.exitCode = figures.failures.length === 0 ? 0 : 1;
