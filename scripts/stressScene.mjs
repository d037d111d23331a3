// The playground's stress demo (playground/demos/stress.ts) rebuilt from the library's public API, without its UI,
// on a NullEngine with the real Havok WASM: the one scene that `npm run bench:plugin` (scripts/bench-plugin.mjs) times
// and `npm run soak` (scripts/soak.mjs) runs for ten simulated minutes. It imports the compiled ES modules in dist/.
import { readFileSync } from "node:fs";
import { createRequire, register } from "node:module";

// Static imports are linked before this line runs, so everything that imports Babylon is loaded dynamically below;
// importers of this module may import it statically.
register("./babylonResolveHook.mjs", import.meta.url);

const { NullEngine } = await import("@babylonjs/core/Engines/nullEngine");
const { Scene } = await import("@babylonjs/core/scene");
const { TargetCamera } = await import("@babylonjs/core/Cameras/targetCamera");
const { Quaternion, Vector3 } = await import("@babylonjs/core/Maths/math.vector");
const { Logger } = await import("@babylonjs/core/Misc/logger");
const { CreateBox } = await import("@babylonjs/core/Meshes/Builders/boxBuilder");
const { CreateGround } = await import("@babylonjs/core/Meshes/Builders/groundBuilder");
const { CreateSphere } = await import("@babylonjs/core/Meshes/Builders/sphereBuilder");
const { Mesh } = await import("@babylonjs/core/Meshes/mesh");
const { VertexData } = await import("@babylonjs/core/Meshes/mesh.vertexData");
const { PhysicsShapeType } = await import("@babylonjs/core/Physics/v2/IPhysicsEnginePlugin");
const { PhysicsAggregate } = await import("@babylonjs/core/Physics/v2/physicsAggregate");
const { HavokPlugin } = await import("@babylonjs/core/Physics/v2/Plugins/havokPlugin");
// Side effects: without these, scene.enablePhysics does nothing under deep imports.
await import("@babylonjs/core/Physics/joinedPhysicsEngineComponent");
await import("@babylonjs/core/Physics/v2/physicsEngineComponent");
const { default: HavokPhysics } = await import("@babylonjs/havok");
const { ClothImpostor, SoftBodyImpostor, XpbdPlugin } = await import("../dist/index.js");
const { createClothGrid } = await import("../dist/meshing/index.js");

/** Side of the square ground (m), centred on the origin at y = 0. */
export const GROUND_SIZE = 20;
/** Quads along each side of a station's cloth; its render vertex (i, j) is `j · (CLOTH_SEGMENTS + 1) + i`. */
export const CLOTH_SEGMENTS = 12;

/** The Havok WASM module; `HavokPhysics()` would fetch the .wasm by URL, which fails in Node. */
export async function loadHavok() {
    const bytes = readFileSync(createRequire(import.meta.url).resolve("@babylonjs/havok/lib/esm/HavokPhysics.wasm"));
    // Exact copy: a Node Buffer may be a view into a larger pooled ArrayBuffer.
    return HavokPhysics({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

/**
 * The stress demo's scene: a static ground box; six stations, each a static sphere with a 12×12-quad free cloth
 * falling on it and a soft cube (resolution 3); six dynamic 0.3 kg Havok boxes raining on each station. XPBD at the
 * demo's medium tier, the default quality (5 substeps × 1 iteration). `scene.render()` runs one fixed 1/60 s frame.
 *
 * @param hk - the Havok module ({@link loadHavok})
 * @returns the engine, scene and plugin; the soft impostors (`cloths`, `jellies`, one per station) and the Havok
 * aggregates (`statics`: the ground and the spheres; `boxes`: the dynamic boxes), in station order
 */
export function stressScene(hk) {
    Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
    const engine = new NullEngine();
    const scene = new Scene(engine);
    new TargetCamera("camera", new Vector3(0, 5, -11), scene); // scene.render() needs one
    scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(false, hk));
    scene.useConstantAnimationDeltaTime = true;
    const ground = CreateGround("ground", { width: GROUND_SIZE, height: GROUND_SIZE }, scene);
    const statics = [new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.8 }, scene)];
    const cloths = [];
    const jellies = [];
    const boxes = [];

    const xpbd = new XpbdPlugin(scene);
    let station = 0;
    for (const z of [-1.6, 1.6]) {
        for (const x of [-3.2, 0, 3.2]) {
            const sphere = CreateSphere(`sphere${station}`, { diameter: 0.9, segments: 16 }, scene);
            sphere.position.set(x, 0.45, z);
            statics.push(new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0 }, scene));

            const grid = createClothGrid({
                width: 1.3,
                height: 1.3,
                segmentsX: CLOTH_SEGMENTS,
                segmentsY: CLOTH_SEGMENTS,
                plane: "xz",
                origin: [x, 1.4, z],
            });
            const data = new VertexData();
            data.positions = grid.positions;
            data.indices = grid.indices;
            data.uvs = grid.uvs;
            data.normals = grid.normals;
            const cloth = new Mesh(`cloth${station}`, scene);
            data.applyToMesh(cloth, true);
            cloths.push(new ClothImpostor(cloth, { mass: 0.3, bendStiffness: 0.2, friction: 0.6 }, xpbd));

            const cube = CreateBox(`jelly${station}`, { size: 0.45 }, scene);
            cube.position.set(x + 0.85, 2.2, z - 0.3);
            cube.rotation.set(0.4, 0.3 * station, 0.2);
            jellies.push(new SoftBodyImpostor(cube, { mass: 1, stretchStiffness: 0.8, resolution: 3, damping: 2 }, xpbd));

            for (let b = 0; b < 6; b++) {
                const angle = b * 2.39996 + station;
                const box = CreateBox(`box${station}_${b}`, { size: 0.25 }, scene);
                box.position.set(x + 0.5 * Math.cos(angle), 3 + 0.5 * b, z + 0.5 * Math.sin(angle));
                box.rotationQuaternion = Quaternion.RotationYawPitchRoll(angle, 0.5 * b, 0.3);
                boxes.push(new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 0.3, friction: 0.6 }, scene));
            }
            station++;
        }
    }
    return { engine, scene, xpbd, cloths, jellies, statics, boxes };
}
