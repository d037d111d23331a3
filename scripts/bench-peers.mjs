// Peer benchmark: the hanging-cloth scenes of scripts/bench.mjs run in other engines installed from npm, printed
// in the same line format with solver=<peer>, so one run can compare figures.
//   Scenes: cloth of n×n quads (n = 32, 64, 128; (n+1)² particles), 1 m × 1 m in the xy plane, total mass 1 kg
//   lumped per quad (each quad gives a quarter of its mass to each corner), top-left and top-right corners pinned
//   (inverse mass 0), gravity 9.81 m/s², one 1/60 s step per frame, N steps (600 / 300 / 120, or env BENCH_STEPS).
//   Peers: Jolt Physics (jolt-physics, WASM; lines "jolt" and "jolt-lra", the latter with Jolt's long-range
//   attachments) and Bullet soft bodies (ammojs-typed, WASM). Settings: JOLT (scripts/peerCloth.mjs) and BULLET below,
//   also printed on stderr.
//   ms_per_step = median wall time of one engine step (performance.now around each step, every step measured).
//   max_stretch = after the last step, max over the structural (horizontal and vertical grid) edges of
//   current length / rest length, with positions read back from the engine.
//   constraints = number of constraints the engine holds for the cloth (edges + bends, as that engine defines them).
//   gc_events = PerformanceObserver "gc" entries that started during the measured steps.
// Lines go to stdout; everything else to stderr. The cloth, the Jolt cloth and the stretch measure are shared with
// scripts/bench-frontier.mjs through scripts/peerCloth.mjs.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { clothGrid, createJoltCloth, DT, GRAVITY, JOLT, joltSettingsText, loadJolt, maxStretch, median } from "./peerCloth.mjs";

const require = createRequire(import.meta.url);
const SIZES = [32, 64, 128];
const DEFAULT_STEPS = { 32: 600, 64: 300, 128: 120 };
const stepsFor = (n) => {
    const env = Number.parseInt(process.env.BENCH_STEPS ?? "", 10);
    return env > 0 ? env : DEFAULT_STEPS[n];
};

/** Runs `steps` calls of `step()`, timing each, and counts GC entries that started inside the measured window. */
async function measure(step, steps) {
    const gcStarts = [];
    const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) gcStarts.push(entry.startTime);
    });
    observer.observe({ entryTypes: ["gc"] });
    const times = new Float64Array(steps);
    const t0 = performance.now();
    for (let s = 0; s < steps; s++) {
        const a = performance.now();
        step();
        times[s] = performance.now() - a;
    }
    const t1 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the observer deliver its entries
    for (const entry of observer.takeRecords?.() ?? []) gcStarts.push(entry.startTime);
    observer.disconnect();
    const gcEvents = gcStarts.filter((t) => t >= t0 && t <= t1).length;
    return { msPerStep: median(times), gcEvents };
}

// ---------------------------------------------------------------------------------------------------------------
// Jolt Physics (settings JOLT in scripts/peerCloth.mjs).
// Two Jolt lines per scene: "jolt" with the default mLRAType None, and "jolt-lra" with EuclideanDistance long-range
// attachments (tethers to the pinned vertices), Jolt's documented remedy for the stretch of hanging cloth.
const JOLT_VARIANTS = [
    { solver: "jolt", lraType: "None" },
    { solver: "jolt-lra", lraType: "EuclideanDistance" },
];

async function runJolt(grids, report) {
    const { Jolt, version } = await loadJolt();
    process.stderr.write(
        `# peer jolt-physics@${version} (wasm-compat, single thread): SoftBodyCreationSettings.mNumIterations=${JOLT.numIterations} (default), ` +
            `mLRAType=None for solver=jolt / EuclideanDistance for solver=jolt-lra, ${joltSettingsText()}\n`,
    );
    for (const grid of grids)
        for (const variant of JOLT_VARIANTS) {
            const cloth = createJoltCloth(Jolt, grid, { lraType: variant.lraType, numIterations: JOLT.numIterations });
            const steps = stepsFor(grid.n);
            const { msPerStep, gcEvents } = await measure(cloth.step, steps);
            const stretch = maxStretch(grid, cloth.readPositions());
            report({ solver: variant.solver, grid, constraints: cloth.constraints, steps, msPerStep, stretch, gcEvents });
            cloth.destroy();
        }
}

// ---------------------------------------------------------------------------------------------------------------
// Bullet soft bodies through ammojs-typed (Emscripten build of ammo.js; "ammojs-typed/wasm" loads its .wasm file
// from disk in Node). Cloth from btSoftBodyHelpers.CreatePatch (structural links + one triangulation diagonal per
// quad, alternating), then generateBendingConstraints(2): links between nodes two links apart, which covers the
// other (shear) diagonal of each quad and the skip-one bend links. Values as Bullet's SoftDemo / three.js ammo cloth.
const BULLET = {
    piterations: 10, // btSoftBody::Config position iterations (Bullet default 1; three.js ammo cloth example: 10)
    viterations: 10, // velocity iterations (three.js ammo cloth example)
    structuralKLST: 1, // material 0 linear stiffness (default 1: stiff stretch)
    bendKLST: 0.4, // material of the distance-2 links (Bullet SoftDemo)
};

async function runBullet(grids, report) {
    const { default: AmmoFactory } = await import("ammojs-typed/wasm");
    const Ammo = await AmmoFactory();
    const version = require("ammojs-typed/package.json").version;
    process.stderr.write(
        `# peer ammojs-typed@${version} (Bullet 2.x soft body, wasm): btSoftBodyHelpers.CreatePatch(res=n+1, fixeds=corner00|corner10, gendiags=true), ` +
            `generateBendingConstraints(2, kLST=${BULLET.bendKLST}), material0 kLST=${BULLET.structuralKLST}, ` +
            `piterations=${BULLET.piterations}, viterations=${BULLET.viterations}, other Config defaults, setMass per node, ` +
            `btSoftRigidDynamicsWorld.stepSimulation(1/60, 0), deactivation disabled, no other bodies\n`,
    );
    for (const grid of grids) {
        const collisionConfiguration = new Ammo.btSoftBodyRigidBodyCollisionConfiguration();
        const dispatcher = new Ammo.btCollisionDispatcher(collisionConfiguration);
        const broadphase = new Ammo.btDbvtBroadphase();
        const solver = new Ammo.btSequentialImpulseConstraintSolver();
        const softSolver = new Ammo.btDefaultSoftBodySolver();
        const world = new Ammo.btSoftRigidDynamicsWorld(dispatcher, broadphase, solver, collisionConfiguration, softSolver);
        const g = new Ammo.btVector3(0, -GRAVITY, 0);
        world.setGravity(g);
        world.getWorldInfo().set_m_gravity(g);

        const c = grid.cols;
        const corner = (p) => new Ammo.btVector3(grid.positions[3 * p], grid.positions[3 * p + 1], grid.positions[3 * p + 2]);
        const c00 = corner(0),
            c10 = corner(grid.n),
            c01 = corner(grid.n * c),
            c11 = corner(grid.n * c + grid.n);
        const helpers = new Ammo.btSoftBodyHelpers();
        const cloth = helpers.CreatePatch(world.getWorldInfo(), c00, c10, c01, c11, c, c, 1 | 2, true);
        for (const v of [c00, c10, c01, c11]) Ammo.destroy(v);
        const cfg = cloth.get_m_cfg();
        cfg.set_piterations(BULLET.piterations);
        cfg.set_viterations(BULLET.viterations);
        cloth.get_m_materials().at(0).set_m_kLST(BULLET.structuralKLST);
        const bendMaterial = cloth.appendMaterial();
        bendMaterial.set_m_kLST(BULLET.bendKLST);
        const bendLinks = cloth.generateBendingConstraints(2, bendMaterial);
        for (let p = 0; p < grid.count; p++) {
            cloth.setMass(p, grid.pinned.includes(p) ? 0 : grid.masses[p]);
        }
        cloth.setActivationState(4); // DISABLE_DEACTIVATION
        world.addSoftBody(cloth, 1, -1);
        // CreatePatch with gendiags: 2·n·(n+1) structural links + n² diagonals; plus the distance-2 links.
        const constraints = 2 * grid.n * c + grid.n * grid.n + bendLinks;

        const steps = stepsFor(grid.n);
        const { msPerStep, gcEvents } = await measure(() => world.stepSimulation(DT, 0), steps);

        const nodes = cloth.get_m_nodes();
        const current = new Float64Array(grid.count * 3);
        for (let p = 0; p < grid.count; p++) {
            const x = nodes.at(p).get_m_x();
            current[3 * p] = x.x();
            current[3 * p + 1] = x.y();
            current[3 * p + 2] = x.z();
        }
        report({ solver: "bullet", grid, constraints, steps, msPerStep, stretch: maxStretch(grid, current), gcEvents });

        world.removeSoftBody(cloth);
        Ammo.destroy(cloth);
        for (const o of [world, softSolver, solver, broadphase, dispatcher, collisionConfiguration, g, helpers]) Ammo.destroy(o);
    }
}

// ---------------------------------------------------------------------------------------------------------------
function printLine(r) {
    process.stdout.write(
        `scene=cloth${r.grid.n}x${r.grid.n} solver=${r.solver} particles=${r.grid.count} constraints=${r.constraints} steps=${r.steps} ` +
            `ms_per_step=${r.msPerStep.toFixed(3)} max_stretch=${r.stretch.toFixed(4)} gc_events=${r.gcEvents}\n`,
    );
}

const grids = SIZES.map(clothGrid);
const peers = [
    ["jolt", runJolt],
    ["bullet", runBullet],
];
for (const [name, run] of peers) {
    try {
        await run(grids, printLine);
    } catch (error) {
        process.stderr.write(`# peer ${name} skipped: ${error?.stack ?? error}\n`);
    }
}
