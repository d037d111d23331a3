// The core benchmark (`npm run bench`): cloth grids and a tet block at 60 Hz and the default quality, one line per
// scene, plus the build-time figures of src/meshing. It imports the compiled ES modules in dist/ (the script
// `bench` compiles them first). Figures, not assertions: the same run prints the peers (scripts/bench-peers.mjs).
import { buildClothTopology, createClothGrid, latticeSurface, tetEdges, tetrahedralize } from "../dist/meshing/index.js";
import { Collider, complianceFromStiffness, enclosedVolume, SoftBody, XpbdWorld } from "../dist/core/index.js";
import { allocationPerCall, collectionsDuring, warmUp } from "./allocationProbe.mjs";
import { benchmarkCloth } from "./benchmarkCloth.mjs";

const DT = 1 / 60;
const stepsOverride = process.env.BENCH_STEPS ? Number(process.env.BENCH_STEPS) : undefined;
// BENCH_KERNELS=js runs the hot loops in JavaScript (SoftBodyOptions.wasmKernels false): the same results, for comparison.
const wasmKernels = process.env.BENCH_KERNELS !== "js";

/** Median of a list of numbers. */
function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

/** Max length / rest length over the structural (horizontal and vertical) edges of a grid of `columns` columns. */
function maxStructuralStretch(body, columns) {
    const x = body.positions;
    const rows = body.particleCount / columns;
    const rest = 1 / (columns - 1);
    let worst = 0;
    for (let j = 0; j < rows; j++) {
        for (let i = 0; i < columns; i++) {
            const a = j * columns + i;
            for (const b of [i + 1 < columns ? a + 1 : -1, j + 1 < rows ? a + columns : -1]) {
                if (b >= 0) {
                    const ratio = Math.hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]) / rest;
                    worst = Math.max(worst, ratio);
                }
            }
        }
    }
    return worst;
}

/**
 * Warms up (until the JIT has settled, see `warmUp`), then runs `steps` steps (rounded up to whole batches of 10),
 * timing them and counting the garbage collections meanwhile. Then the allocation of the steady-state step is
 * measured directly over up to 1,000 steps, with the step timer on and off (`timing: false`).
 */
function measure(world, steps) {
    const step = () => world.step(DT);
    const warmup = warmUp(step);
    // Timed in batches of 10 steps: reading the clock allocates, and this loop must not disturb what it counts.
    const batch = 10;
    const times = new Float64Array(Math.ceil(steps / batch));
    let k = 0;
    const timedBatch = () => {
        const start = performance.now();
        for (let s = 0; s < batch; s++) {
            world.step(DT);
        }
        times[k++] = (performance.now() - start) / batch;
    };
    const gcEvents = collectionsDuring(timedBatch, times.length);
    const probe = Math.min(steps, 1000);
    const withClock = allocationPerCall(step, probe);
    world.timing = false;
    const withoutClock = allocationPerCall(step, probe);
    world.timing = true;
    return {
        steps: times.length * batch,
        msPerStep: median(times),
        gcEvents,
        warmup,
        bytesWithClock: withClock.bytesPerCall,
        bytesWithoutClock: withoutClock.bytesPerCall,
    };
}

/** The allocation fields of a scene line, from {@link measure}'s result. */
function allocation(result) {
    return {
        gc_events: result.gcEvents,
        warmup_steps: result.warmup,
        bytes_per_step: result.bytesWithClock.toFixed(1),
        bytes_per_step_no_clock: result.bytesWithoutClock.toFixed(1),
    };
}

function line(fields) {
    console.log(
        Object.entries(fields)
            .map(([k, v]) => `${k}=${v}`)
            .join(" "),
    );
}

function clothScene(segments, steps) {
    const { grid, body } = benchmarkCloth(segments, { wasmKernels });
    const world = new XpbdWorld();
    world.addBody(body);
    const result = measure(world, steps);
    line({
        scene: `cloth${segments}`,
        solver: "babylon-xpbd",
        kernels: body.kernelMemory ? "wasm" : "js",
        particles: body.particleCount,
        constraints: body.stretch.count + body.shear.count + body.bend.count + body.tethers.count,
        steps: result.steps,
        ms_per_step: result.msPerStep.toFixed(3),
        max_stretch: maxStructuralStretch(body, grid.columns).toFixed(4),
        ...allocation(result),
    });
}

/**
 * The folding cloth of the soft contact tests: a 32×32 cloth, 1 m square and 5 mm thick, dropped off-centre onto a
 * 0.2 m sphere on the ground, kept awake; timed once it has fallen into folds (2 s), with and without self-collision.
 */
function foldScene(selfCollision, steps) {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: 32, segmentsY: 32, plane: "xz", origin: [0.3, 0.9, 0.2] });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.3 },
        { wasmKernels, thickness: 0.005, selfCollision, allowSleep: false },
    );
    const world = new XpbdWorld();
    world.addBody(body);
    world.addCollider(new Collider([{ kind: "sphere", center: [0, 0.2, 0], radius: 0.2 }]));
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    for (let s = 0; s < 120; s++) {
        world.step(DT);
    }
    const result = measure(world, steps);
    line({
        scene: "cloth32_fold",
        solver: "babylon-xpbd",
        self_collision: selfCollision,
        particles: body.particleCount,
        steps: result.steps,
        ms_per_step: result.msPerStep.toFixed(3),
        soft_contacts: world.stats.softContacts,
        soft_candidates: world.stats.softContactCandidates,
        ...allocation(result),
    });
}

/** A tetrahedralised box of `size` (bottom at `bottom`) resting on a ground plane, timed as the scene `name`. */
function softBoxScene(name, size, bottom, resolution, mass, steps) {
    const box = boxMesh(size[0], size[1], size[2], bottom);
    const tets = tetrahedralize(box.positions, box.indices, { resolution });
    const body = new SoftBody(
        {
            positions: tets.positions,
            tets: tets.tets,
            stretch: tetEdges(tets.tets, tets.positions.length / 3),
            triangles: tets.surfaceTriangles,
            mass,
        },
        { wasmKernels },
    );
    const world = onGround(body);
    const result = measure(world, steps);
    line({
        scene: name,
        solver: "babylon-xpbd",
        kernels: body.kernelMemory ? "wasm" : "js",
        particles: body.particleCount,
        constraints: body.stretch.count + body.volume.count,
        steps: result.steps,
        ms_per_step: result.msPerStep.toFixed(3),
        max_stretch: world.stats.maxEdgeRatio.toFixed(4),
        ...allocation(result),
        volume_ratio: world.stats.volumeRatio.toFixed(4),
    });
}

/**
 * The jelly without tetrahedra: the surface of the same tet lattice (its particles only, as a closed cloth with the
 * cloth defaults) held in shape by shape matching at stiffness 0.6 (`shapeMatching: 0.6` on an impostor); with
 * `bending` false its bending is switched off, which shape matching makes unneeded (the cheapest jelly).
 */
function surfaceJellyScene(name, size, bottom, resolution, mass, steps, bending = true) {
    const box = boxMesh(size[0], size[1], size[2], bottom);
    const tets = tetrahedralize(box.positions, box.indices, { resolution });
    const surface = latticeSurface(tets);
    const t = buildClothTopology(surface.positions, surface.triangles);
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass },
        { wasmKernels, shapeMatchingCompliance: complianceFromStiffness(0.6, "shape") },
    );
    body.bend.enabled = bending;
    const world = onGround(body);
    const rest = enclosedVolume(body.triangles, body.restPositions);
    const result = measure(world, steps);
    line({
        scene: name,
        solver: "babylon-xpbd",
        kernels: body.kernelMemory ? "wasm" : "js",
        particles: body.particleCount,
        constraints: body.stretch.count + body.shear.count + (bending ? body.bend.count : 0),
        steps: result.steps,
        ms_per_step: result.msPerStep.toFixed(3),
        max_stretch: world.stats.maxEdgeRatio.toFixed(4),
        ...allocation(result),
        volume_ratio: (enclosedVolume(body.triangles, body.positions) / rest).toFixed(4),
    });
}

/** A default world holding `body` (which never sleeps) above a ground plane at y = 0. */
function onGround(body) {
    body.allowSleep = false;
    const world = new XpbdWorld();
    world.addBody(body);
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    return world;
}

/** An axis-aligned box mesh (8 corners, 12 outward triangles) with its bottom at height `y`. */
function boxMesh(sx, sy, sz, y) {
    const positions = [];
    for (let k = 0; k < 8; k++) {
        positions.push(((k & 1 ? 1 : -1) * sx) / 2, y + (k & 2 ? 1 : 0) * sy, ((k & 4 ? 1 : -1) * sz) / 2);
    }
    const indices = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
    return { positions, indices };
}

/** A torus knot of about 10,000 triangles (tube 24 × 208 segments), generated here to keep Babylon out of the bench. */
function torusKnot() {
    const radial = 24;
    const tubular = 208;
    const positions = [];
    const indices = [];
    const curve = (u) => {
        const p = 2;
        const q = 3;
        const r = 1 + 0.5 * Math.cos(q * u);
        return [r * Math.cos(p * u), 0.5 * Math.sin(q * u), r * Math.sin(p * u)];
    };
    for (let i = 0; i < tubular; i++) {
        const u = (i / tubular) * 2 * Math.PI;
        const c = curve(u);
        const n = curve(u + 1e-3);
        const t = [n[0] - c[0], n[1] - c[1], n[2] - c[2]];
        const tl = Math.hypot(...t);
        const tangent = t.map((v) => v / tl);
        // A frame around the tangent: any vector not parallel to it, then two cross products.
        const up = Math.abs(tangent[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
        let b = [tangent[1] * up[2] - tangent[2] * up[1], tangent[2] * up[0] - tangent[0] * up[2], tangent[0] * up[1] - tangent[1] * up[0]];
        const bl = Math.hypot(...b);
        b = b.map((v) => v / bl);
        const nn = [b[1] * tangent[2] - b[2] * tangent[1], b[2] * tangent[0] - b[0] * tangent[2], b[0] * tangent[1] - b[1] * tangent[0]];
        for (let j = 0; j < radial; j++) {
            const v = (j / radial) * 2 * Math.PI;
            const cx = 0.2 * Math.cos(v);
            const cy = 0.2 * Math.sin(v);
            positions.push(c[0] + cx * nn[0] + cy * b[0], c[1] + cx * nn[1] + cy * b[1], c[2] + cx * nn[2] + cy * b[2]);
        }
    }
    for (let i = 0; i < tubular; i++) {
        for (let j = 0; j < radial; j++) {
            const a = i * radial + j;
            const b2 = ((i + 1) % tubular) * radial + j;
            const c = ((i + 1) % tubular) * radial + ((j + 1) % radial);
            const d = i * radial + ((j + 1) % radial);
            indices.push(a, b2, d, b2, c, d);
        }
    }
    return { positions, indices };
}

function buildFigures() {
    const knot = torusKnot();
    const timeIt = (fn) => {
        const times = [];
        let result;
        for (let k = 0; k < 5; k++) {
            const start = performance.now();
            result = fn();
            times.push(performance.now() - start);
        }
        return { first: times[0], best: Math.min(...times), result };
    };
    const tet = timeIt(() => tetrahedralize(knot.positions, knot.indices));
    line({
        scene: "tetrahedralize-knot",
        triangles: knot.indices.length / 3,
        tets: tet.result.stats.tetCount,
        particles: tet.result.stats.particleCount,
        volume_ratio: (tet.result.stats.volume / tet.result.stats.meshVolume).toFixed(4),
        min_quality: tet.result.stats.minQuality.toFixed(3),
        first_ms: tet.first.toFixed(1),
        best_ms: tet.best.toFixed(1),
    });
    const cloth = timeIt(() => createClothGrid({ width: 1, height: 1, segmentsX: 128, segmentsY: 128 }));
    line({
        scene: "build-cloth128",
        particles: cloth.result.topology.positions.length / 3,
        first_ms: cloth.first.toFixed(1),
        best_ms: cloth.best.toFixed(1),
    });
}

const steps = stepsOverride ?? 10000;
if (!process.env.ONLY || process.env.ONLY === "cloth") clothScene(32, steps);
if (!process.env.ONLY || process.env.ONLY === "cloth") clothScene(64, steps);
if (!process.env.ONLY || process.env.ONLY === "cloth") clothScene(128, steps);
if (!process.env.ONLY || process.env.ONLY === "fold") foldScene(false, steps);
if (!process.env.ONLY || process.env.ONLY === "fold") foldScene(true, steps);
// A 1 × 0.5 × 1 m, 20 kg block (resolution 8) resting on the ground; the README's jelly: a 0.3 m, 2 kg cube
// (resolution 5) dropped from 0.2 m. Both at volume stiffness 1 (the default).
if (!process.env.ONLY || process.env.ONLY === "tet") softBoxScene("tetblock", [1, 0.5, 1], 0.3, 8, 20, steps);
if (!process.env.ONLY || process.env.ONLY === "tet") softBoxScene("jelly", [0.3, 0.3, 0.3], 0.2, 5, 2, steps);
if (!process.env.ONLY || process.env.ONLY === "tet") surfaceJellyScene("jelly_surface", [0.3, 0.3, 0.3], 0.2, 5, 2, steps);
if (!process.env.ONLY || process.env.ONLY === "tet") surfaceJellyScene("jelly_surface_nobend", [0.3, 0.3, 0.3], 0.2, 5, 2, steps, false);
if (!process.env.ONLY || process.env.ONLY === "build") buildFigures();
