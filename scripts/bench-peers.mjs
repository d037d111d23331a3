// Peer benchmark: the hanging-cloth scenes of scripts/bench.mjs run in other engines installed from npm, printed
// in the same line format with solver=<peer>, so one run can compare figures.
//   Scenes: cloth of n×n quads (n = 32, 64, 128; (n+1)² particles), 1 m × 1 m in the xy plane, total mass 1 kg
//   lumped per quad (each quad gives a quarter of its mass to each corner), top-left and top-right corners pinned
//   (inverse mass 0), gravity 9.81 m/s², one 1/60 s step per frame, N steps (600 / 300 / 120, or env BENCH_STEPS).
//   Peers: Jolt Physics (jolt-physics, WASM; lines "jolt" and "jolt-lra", the latter with Jolt's long-range
//   attachments) and Bullet soft bodies (ammojs-typed, WASM). Settings: JOLT and BULLET below, also printed on stderr.
//   ms_per_step = median wall time of one engine step (performance.now around each step, every step measured).
//   max_stretch = after the last step, max over the structural (horizontal and vertical grid) edges of
//   current length / rest length, with positions read back from the engine.
//   constraints = number of constraints the engine holds for the cloth (edges + bends, as that engine defines them).
//   gc_events = PerformanceObserver "gc" entries that started during the measured steps.
// Lines go to stdout; everything else to stderr.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const SIZES = [32, 64, 128];
const DEFAULT_STEPS = { 32: 600, 64: 300, 128: 120 };
const DT = 1 / 60;
const GRAVITY = 9.81;
const stepsFor = (n) => {
    const env = Number.parseInt(process.env.BENCH_STEPS ?? "", 10);
    return env > 0 ? env : DEFAULT_STEPS[n];
};

/** Grid geometry shared by all peers. Particle (i, j): column i (x from -0.5), row j (row 0 at the top, y = +0.5). */
function clothGrid(n) {
    const cols = n + 1;
    const count = cols * cols;
    const positions = new Float64Array(count * 3);
    const masses = new Float64Array(count);
    const quadMass = 1 / (n * n);
    for (let j = 0; j < cols; j++) {
        for (let i = 0; i < cols; i++) {
            const p = j * cols + i;
            positions[3 * p] = -0.5 + i / n;
            positions[3 * p + 1] = 0.5 - j / n;
            positions[3 * p + 2] = 0;
            const quads = (i > 0 && i < n ? 2 : 1) * (j > 0 && j < n ? 2 : 1);
            masses[p] = (quads * quadMass) / 4;
        }
    }
    const pinned = [0, n]; // top-left, top-right
    const structural = [];
    for (let j = 0; j < cols; j++) {
        for (let i = 0; i < cols; i++) {
            const p = j * cols + i;
            if (i < n) structural.push(p, p + 1);
            if (j < n) structural.push(p, p + cols);
        }
    }
    return { n, cols, count, positions, masses, pinned, structural: Int32Array.from(structural), restLength: 1 / n };
}

function maxStretch(grid, current) {
    let max = 0;
    const e = grid.structural;
    for (let k = 0; k < e.length; k += 2) {
        const a = 3 * e[k], b = 3 * e[k + 1];
        const len = Math.hypot(current[b] - current[a], current[b + 1] - current[a + 1], current[b + 2] - current[a + 2]);
        max = Math.max(max, len / grid.restLength);
    }
    return max;
}

function median(values) {
    const s = Float64Array.from(values).sort();
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

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
// Jolt Physics. Entry point "jolt-physics/wasm-compat": the WASM binary is embedded, so it loads in Node offline.
const JOLT = {
    numIterations: 5, // SoftBodyCreationSettings::mNumIterations default (Jolt runs them as XPBD sub-steps)
    stretchCompliance: 0, // VertexAttributes::mCompliance default: stiff stretch
    shearCompliance: 0, // VertexAttributes::mShearCompliance default
    bendCompliance: 1e-5, // default is FLT_MAX (no bend); 1e-5 as Jolt's cloth examples
    bendType: "Distance", // CreateConstraints default (EBendType_Dihedral turned NaN at 64² and 128² in this scene)
    linearDamping: 0.1, // default
    allowSleeping: false, // a hanging cloth would otherwise fall asleep and steps become free
    collisionSteps: 1,
};
// Two Jolt lines per scene: "jolt" with the default mLRAType None, and "jolt-lra" with EuclideanDistance long-range
// attachments (tethers to the pinned vertices), Jolt's documented remedy for the stretch of hanging cloth.
const JOLT_VARIANTS = [
    { solver: "jolt", lraType: "None" },
    { solver: "jolt-lra", lraType: "EuclideanDistance" },
];

async function runJolt(grids, report) {
    const { default: initJolt } = await import("jolt-physics/wasm-compat");
    const Jolt = await initJolt();
    const version = require("jolt-physics/package.json").version;
    process.stderr.write(
        `# peer jolt-physics@${version} (wasm-compat, single thread): SoftBodyCreationSettings.mNumIterations=${JOLT.numIterations} (default), ` +
            `CreateConstraints(mCompliance=${JOLT.stretchCompliance}, mShearCompliance=${JOLT.shearCompliance}, mBendCompliance=${JOLT.bendCompliance}, ` +
            `EBendType_${JOLT.bendType}, mLRAType=None for solver=jolt / EuclideanDistance for solver=jolt-lra), Optimize(), ` +
            `mLinearDamping=${JOLT.linearDamping}, mAllowSleeping=${JOLT.allowSleeping}, JoltInterface.Step(1/60, ${JOLT.collisionSteps}), no other bodies\n`,
    );
    for (const grid of grids) for (const variant of JOLT_VARIANTS) {
        const settings = new Jolt.JoltSettings();
        settings.mMaxWorkerThreads = 0;
        const objectFilter = new Jolt.ObjectLayerPairFilterTable(2);
        objectFilter.EnableCollision(0, 1);
        objectFilter.EnableCollision(1, 1);
        const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
        bpInterface.MapObjectToBroadPhaseLayer(0, new Jolt.BroadPhaseLayer(0));
        bpInterface.MapObjectToBroadPhaseLayer(1, new Jolt.BroadPhaseLayer(1));
        settings.mObjectLayerPairFilter = objectFilter;
        settings.mBroadPhaseLayerInterface = bpInterface;
        settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, objectFilter, 2);
        const jolt = new Jolt.JoltInterface(settings);
        Jolt.destroy(settings);
        const system = jolt.GetPhysicsSystem();
        const bodyInterface = system.GetBodyInterface();
        const gravity = new Jolt.Vec3(0, -GRAVITY, 0);
        system.SetGravity(gravity);
        Jolt.destroy(gravity);

        const shared = new Jolt.SoftBodySharedSettings();
        const v = new Jolt.SoftBodySharedSettingsVertex();
        for (let p = 0; p < grid.count; p++) {
            v.mPosition.x = grid.positions[3 * p];
            v.mPosition.y = grid.positions[3 * p + 1];
            v.mPosition.z = grid.positions[3 * p + 2];
            v.mInvMass = grid.pinned.includes(p) ? 0 : 1 / grid.masses[p];
            shared.mVertices.push_back(v);
        }
        Jolt.destroy(v);
        const f = new Jolt.SoftBodySharedSettingsFace(0, 0, 0, 0);
        const c = grid.cols;
        for (let j = 0; j < grid.n; j++) {
            for (let i = 0; i < grid.n; i++) {
                const p00 = j * c + i, p10 = p00 + 1, p01 = p00 + c, p11 = p01 + 1;
                f.set_mVertex(0, p00);
                f.set_mVertex(1, p01);
                f.set_mVertex(2, p11);
                shared.AddFace(f);
                f.set_mVertex(1, p11);
                f.set_mVertex(2, p10);
                shared.AddFace(f);
            }
        }
        Jolt.destroy(f);
        const attributes = new Jolt.SoftBodySharedSettingsVertexAttributes();
        attributes.mCompliance = JOLT.stretchCompliance;
        attributes.mShearCompliance = JOLT.shearCompliance;
        attributes.mBendCompliance = JOLT.bendCompliance;
        attributes.mLRAType = Jolt[`SoftBodySharedSettings_ELRAType_${variant.lraType}`];
        shared.CreateConstraints(attributes, 1, Jolt[`SoftBodySharedSettings_EBendType_${JOLT.bendType}`]);
        Jolt.destroy(attributes);
        shared.Optimize();
        const constraints =
            shared.mEdgeConstraints.size() + shared.mDihedralBendConstraints.size() + shared.mLRAConstraints.size() + shared.mVolumeConstraints.size();

        const position = new Jolt.RVec3(0, 0, 0);
        const rotation = new Jolt.Quat(0, 0, 0, 1);
        const creation = new Jolt.SoftBodyCreationSettings(shared, position, rotation, 1);
        creation.mNumIterations = JOLT.numIterations;
        creation.mLinearDamping = JOLT.linearDamping;
        creation.mAllowSleeping = JOLT.allowSleeping;
        creation.mUpdatePosition = false;
        const body = bodyInterface.CreateSoftBody(creation);
        Jolt.destroy(creation);
        Jolt.destroy(position);
        Jolt.destroy(rotation);
        bodyInterface.AddBody(body.GetID(), Jolt.EActivation_Activate);
        const motion = Jolt.castObject(body.GetMotionProperties(), Jolt.SoftBodyMotionProperties);

        const steps = stepsFor(grid.n);
        const { msPerStep, gcEvents } = await measure(() => jolt.Step(DT, JOLT.collisionSteps), steps);

        const vertices = motion.GetVertices();
        const current = new Float64Array(grid.count * 3);
        for (let p = 0; p < grid.count; p++) {
            const x = vertices.at(p).mPosition;
            current[3 * p] = x.GetX();
            current[3 * p + 1] = x.GetY();
            current[3 * p + 2] = x.GetZ();
        }
        report({ solver: variant.solver, grid, constraints, steps, msPerStep, stretch: maxStretch(grid, current), gcEvents });

        bodyInterface.RemoveBody(body.GetID());
        bodyInterface.DestroyBody(body.GetID());
        Jolt.destroy(jolt);
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
        const c00 = corner(0), c10 = corner(grid.n), c01 = corner(grid.n * c), c11 = corner(grid.n * c + grid.n);
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
