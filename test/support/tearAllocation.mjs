// Measures what a tearing cloth allocates, in plain Node with --expose-gc on the compiled dist/, and prints the figures
// as JSON (test/core/tearAllocation.test.ts reads them): the steady state of a cloth that may tear but does not (it
// swings from two moving corners in the wind), and whole runs of a cloth pulled apart by two handles, tear steps and
// all, once the JIT has seen enough of them.
import { createClothGrid } from "../../dist/meshing/index.js";
import { Collider, SoftBody, XpbdWorld } from "../../dist/core/index.js";
import { allocationPerCall, warmUp } from "../../scripts/allocationProbe.mjs";

const DT = 1 / 60;

function cloth(segments, tearRatio) {
    const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: segments, segmentsY: segments / 2 });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.3 },
        { tearRatio, allowSleep: false },
    );
    return { body, columns: grid.columns, rows: grid.rows };
}

// 1. Steady state: tearing on, nothing tears. Two moving corner pins, wind, a sphere the cloth brushes.
const steady = new XpbdWorld({ wind: [0.5, 0, 2], timing: false });
const swinging = cloth(16, 1.5);
steady.addBody(swinging.body);
steady.addCollider(new Collider([{ kind: "sphere", center: [0, -0.2, 0.15], radius: 0.2 }]));
swinging.body.setPinWeight(0, 1);
swinging.body.setPinWeight(swinging.columns - 1, 1);
let frame = 0;
function steadyStep() {
    const swing = 0.05 * Math.sin(frame++ * DT);
    swinging.body.setPinTarget(0, -0.5 + swing, 0.25, 0);
    swinging.body.setPinTarget(swinging.columns - 1, 0.5 + swing, 0.25, 0);
    steady.step(DT);
}
const warmup = warmUp(steadyStep, { allowance: 0, maxCalls: 40_000 });
const steadyBytes = allocationPerCall(steadyStep, 2000, 3).bytesPerCall;

// 2. Tearing: a cloth pulled apart by its left and right columns until it is in two, 120 steps per run (it tears
// in its first four steps).
function pullRun() {
    const world = new XpbdWorld({ substeps: 5, timing: false });
    const { body, columns, rows } = cloth(24, 1.5);
    world.addBody(body);
    const handles = [];
    for (let j = 0; j < rows; j++) {
        handles.push(j * columns, j * columns + columns - 1);
    }
    for (const p of handles) body.setPinWeight(p, 1);
    const start = Float64Array.from(body.positions);
    let step = 0;
    return {
        body,
        step() {
            const d = ++step * DT;
            for (let k = 0; k < handles.length; k++) {
                const p = handles[k];
                body.setPinTarget(p, start[3 * p] + (k % 2 === 0 ? -d : d), start[3 * p + 1], start[3 * p + 2]);
            }
            world.step(DT);
            return body.tearing.tearCount;
        },
    };
}

const WARM_RUNS = 80;
let current = pullRun();
let from = 0;
let to = 120;
let tearSteps = 0;
let splits = 0;
function someSteps() {
    for (let s = from; s < to; s++) {
        const count = current.step();
        tearSteps += count > 0 ? 1 : 0;
        splits += count;
    }
}
for (let r = 0; r < WARM_RUNS; r++) {
    current = pullRun();
    someSteps();
}
// Measured: each run is built and takes its first step (the world's first step sets up its broad phase) outside the
// windows; then steps 1–4, where it tears, and steps 5–119, where its two pieces hang from the moving handles. The
// least of five runs is kept for each window (a late JIT optimisation shows in one run, not in all).
let tearBytes = NaN;
let afterBytes = NaN;
let measured = { tearSteps: 0, splits: 0 };
for (let attempt = 0; attempt < 5; attempt++) {
    current = pullRun();
    current.step();
    tearSteps = 0;
    splits = 0;
    [from, to] = [1, 5];
    const tearing = allocationPerCall(someSteps, 1).bytesPerCall;
    [from, to] = [5, 120];
    const after = allocationPerCall(someSteps, 1).bytesPerCall / (to - from);
    if (Number.isNaN(tearBytes) || tearing < tearBytes) {
        tearBytes = tearing;
        measured = { tearSteps, splits };
    }
    afterBytes = Number.isNaN(afterBytes) ? after : Math.min(afterBytes, after);
}

console.log(JSON.stringify({ warmup, steadyBytes, tearBytes, afterBytes, ...measured }));
