// The hanging cloth the benchmarks compare engines on, and the pieces of it that more than one script uses:
// scripts/bench-peers.mjs (our default against Jolt and Bullet) and scripts/bench-frontier.mjs (cost against
// stretch, ours against Jolt with long-range attachments).
//   Cloth: n×n quads ((n+1)² particles), 1 m × 1 m in the xy plane, total mass 1 kg lumped per quad (each quad gives
//   a quarter of its mass to each corner), top-left and top-right corners pinned, gravity 9.81 m/s², 1/60 s steps.
//   Particle (i, j) is index j·(n+1) + i: column i (x from -0.5), row j (row 0 at the top, y = +0.5). This is also
//   the order of createClothGrid (src/meshing/clothGrid.ts), so maxStretch reads our SoftBody.positions directly.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const DT = 1 / 60;
export const GRAVITY = 9.81;

/** Grid geometry shared by all engines: positions, lumped masses, pinned particles, structural edges. */
export function clothGrid(n) {
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

/** Max over the structural (horizontal and vertical) edges of current length / rest length; NaN if any is NaN. */
export function maxStretch(grid, current) {
    let max = 0;
    const e = grid.structural;
    for (let k = 0; k < e.length; k += 2) {
        const a = 3 * e[k],
            b = 3 * e[k + 1];
        const len = Math.hypot(current[b] - current[a], current[b + 1] - current[a + 1], current[b + 2] - current[a + 2]);
        max = Math.max(max, len / grid.restLength);
    }
    return max;
}

/** Median of a list of numbers (mean of the two middle values for an even count). */
export function median(values) {
    const s = Float64Array.from(values).sort();
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ---------------------------------------------------------------------------------------------------------------
// Jolt Physics. Entry point "jolt-physics/wasm-compat": the WASM binary is embedded, so it loads in Node offline.
export const JOLT = {
    numIterations: 5, // SoftBodyCreationSettings::mNumIterations default (Jolt runs them as XPBD sub-steps)
    stretchCompliance: 0, // VertexAttributes::mCompliance default: stiff stretch
    shearCompliance: 0, // VertexAttributes::mShearCompliance default
    bendCompliance: 1e-5, // default is FLT_MAX (no bend); 1e-5 as Jolt's cloth examples
    bendType: "Distance", // CreateConstraints default (EBendType_Dihedral turned NaN at 64² and 128² in this scene)
    linearDamping: 0.1, // default
    allowSleeping: false, // a hanging cloth would otherwise fall asleep and steps become free
    collisionSteps: 1,
};

/** Loads Jolt (single thread) once; returns the module and the installed jolt-physics version. */
export async function loadJolt() {
    const { default: initJolt } = await import("jolt-physics/wasm-compat");
    const Jolt = await initJolt();
    return { Jolt, version: require("jolt-physics/package.json").version };
}

/** The Jolt settings common to every Jolt cloth, as printed in the scripts' setup lines (stderr). */
export function joltSettingsText() {
    return (
        `CreateConstraints(mCompliance=${JOLT.stretchCompliance}, mShearCompliance=${JOLT.shearCompliance}, mBendCompliance=${JOLT.bendCompliance}, ` +
        `EBendType_${JOLT.bendType}), Optimize(), mLinearDamping=${JOLT.linearDamping}, mAllowSleeping=${JOLT.allowSleeping}, ` +
        `JoltInterface.Step(1/60, ${JOLT.collisionSteps}), no other bodies`
    );
}

/**
 * A Jolt world holding the cloth of `grid` as one soft body. `lraType`: the SoftBodySharedSettings ELRAType
 * ("None", or "EuclideanDistance" for long-range attachments, tethers to the pinned vertices); `numIterations`:
 * SoftBodyCreationSettings::mNumIterations; `gravity`: m/s², default straight down the cloth's plane. Returns step() (one 1/60 s step), readPositions() (a Float64Array of
 * xyz per particle, in grid order), constraints (edges + bends + LRA + volume) and destroy().
 */
export function createJoltCloth(Jolt, grid, { lraType = "None", numIterations = JOLT.numIterations, gravity: g = [0, -GRAVITY, 0] } = {}) {
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
    const gravity = new Jolt.Vec3(g[0], g[1], g[2]);
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
            const p00 = j * c + i,
                p10 = p00 + 1,
                p01 = p00 + c,
                p11 = p01 + 1;
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
    attributes.mLRAType = Jolt[`SoftBodySharedSettings_ELRAType_${lraType}`];
    shared.CreateConstraints(attributes, 1, Jolt[`SoftBodySharedSettings_EBendType_${JOLT.bendType}`]);
    Jolt.destroy(attributes);
    shared.Optimize();
    const constraints =
        shared.mEdgeConstraints.size() +
        shared.mDihedralBendConstraints.size() +
        shared.mLRAConstraints.size() +
        shared.mVolumeConstraints.size();

    const position = new Jolt.RVec3(0, 0, 0);
    const rotation = new Jolt.Quat(0, 0, 0, 1);
    const creation = new Jolt.SoftBodyCreationSettings(shared, position, rotation, 1);
    creation.mNumIterations = numIterations;
    creation.mLinearDamping = JOLT.linearDamping;
    creation.mAllowSleeping = JOLT.allowSleeping;
    creation.mUpdatePosition = false;
    const body = bodyInterface.CreateSoftBody(creation);
    Jolt.destroy(creation);
    Jolt.destroy(position);
    Jolt.destroy(rotation);
    bodyInterface.AddBody(body.GetID(), Jolt.EActivation_Activate);
    const motion = Jolt.castObject(body.GetMotionProperties(), Jolt.SoftBodyMotionProperties);

    return {
        constraints,
        step: () => jolt.Step(DT, JOLT.collisionSteps),
        readPositions() {
            const vertices = motion.GetVertices();
            const current = new Float64Array(grid.count * 3);
            for (let p = 0; p < grid.count; p++) {
                const x = vertices.at(p).mPosition;
                current[3 * p] = x.GetX();
                current[3 * p + 1] = x.GetY();
                current[3 * p + 2] = x.GetZ();
            }
            return current;
        },
        destroy() {
            bodyInterface.RemoveBody(body.GetID());
            bodyInterface.DestroyBody(body.GetID());
            Jolt.destroy(jolt);
        },
    };
}
