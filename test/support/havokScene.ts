/**
 * Integration-test harness: a headless Babylon scene stepped by the real Havok WASM.
 *
 * Stepping model (verified against @babylonjs/core 9.35 / @babylonjs/havok 1.3.14 in test/babylon/havokHarness.test.ts):
 * - The plugin is `new HavokPlugin(false, hk)`: Havok ignores the frame time it is handed and always advances by
 *   `havok.getTimeStep()` (1/60 s unless `timeStep` is given). A `HavokPlugin(true)` would step by the frame time,
 *   and NullEngine's `getDeltaTime()` is 0, which Babylon clamps to `Scene.MinDeltaTime` = 1 ms.
 * - `step(n)` calls `scene.render()` n times (the harness adds a camera, which `render()` requires). Each render runs
 *   animations → `onBeforePhysicsObservable` → Havok step + transform sync → `onAfterPhysicsObservable` → world
 *   matrices → `onBeforeRenderObservable`, like a real frame. Without a sub time step that is exactly one Havok step.
 * - With `physicsEngine.setSubTimeStep(ms)` Babylon accumulates the frame time and runs `while (acc > ms)` Havok
 *   steps per render, firing the before/after-physics observables around each. Feed real frame times with
 *   `setFrameTime(ms)` (it overrides `engine.getDeltaTime`; Babylon clamps the value to [1, 1000] ms).
 */
import { readFileSync } from "fs";
import { Logger } from "@babylonjs/core/Misc/logger";
import HavokPhysics, { type HavokPhysicsWithBindings } from "@babylonjs/havok";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TargetCamera } from "@babylonjs/core/Cameras/targetCamera";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import {
    PhysicsShape,
    PhysicsShapeBox,
    PhysicsShapeCapsule,
    PhysicsShapeContainer,
    PhysicsShapeConvexHull,
    PhysicsShapeCylinder,
    PhysicsShapeHeightField,
    PhysicsShapeMesh,
    PhysicsShapeSphere,
} from "@babylonjs/core/Physics/v2/physicsShape";
import type { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
// Side effects: without these `scene.enablePhysics` is undefined / does nothing under deep imports.
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent";
import "@babylonjs/core/Physics/v2/physicsEngineComponent";
import type { QuaternionTuple, Vector3Tuple } from "../../src/core/colliderShapeDescriptor";

let havokInstance: Promise<HavokPhysicsWithBindings> | undefined;

/**
 * The Havok WASM module, loaded once per test file (jest gives each file its own module registry).
 * `HavokPhysics()` would fetch the .wasm by URL, which fails in Node, so the bytes are handed over directly.
 */
export function loadHavok(): Promise<HavokPhysicsWithBindings> {
    if (!havokInstance) {
        const bytes = readFileSync(require.resolve("@babylonjs/havok/lib/esm/HavokPhysics.wasm"));
        // Exact copy: a Node Buffer may be a view into a larger pooled ArrayBuffer.
        const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        havokInstance = HavokPhysics({ wasmBinary });
    }
    return havokInstance;
}

/** Options of {@link createHavokScene}. */
export interface HavokSceneOptions {
    /** World gravity; default `[0, -9.81, 0]`. */
    gravity?: Vector3Tuple;
    /** Seconds advanced by every Havok step; default 1/60. */
    timeStep?: number;
    /** Milliseconds reported by `engine.getDeltaTime()`; default 0 (NullEngine's own value). */
    frameTimeMs?: number;
}

/** A headless scene with Havok physics v2; see the module comment for the stepping model. */
export interface HavokScene {
    /** Its `getDeltaTime` is overridden to report the frame time set by `setFrameTime`. */
    engine: NullEngine;
    /** Has a camera (for `render()`) and physics v2 enabled. */
    scene: Scene;
    /** The plugin instance (fixed time step). */
    havok: HavokPlugin;
    /** The scene's physics v2 engine (`setSubTimeStep`, `getTimeStep`). */
    physicsEngine: PhysicsEngine;
    /** Renders `n` frames (default 1); each is one Havok step unless a sub time step is set. */
    step(n?: number): void;
    /** Sets the frame time in milliseconds that the next renders report through `engine.getDeltaTime()`. */
    setFrameTime(ms: number): void;
    /** Disposes the scene (and with it the physics engine) and the engine. */
    dispose(): void;
}

/** Creates a NullEngine scene with physics v2 on the real Havok WASM, stepping by a fixed time step. */
export async function createHavokScene(options: HavokSceneOptions = {}): Promise<HavokScene> {
    const hk = await loadHavok();
    // Silences the per-engine version banner; warnings and errors still print.
    Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
    const engine = new NullEngine();
    const scene = new Scene(engine);
    new TargetCamera("harnessCamera", new Vector3(0, 5, -10), scene);
    const havok = new HavokPlugin(false, hk);
    if (options.timeStep !== undefined) {
        havok.setTimeStep(options.timeStep);
    }
    scene.enablePhysics(Vector3.FromArray(options.gravity ?? [0, -9.81, 0]), havok);
    const physicsEngine = scene.getPhysicsEngine() as PhysicsEngine;
    let frameTimeMs = options.frameTimeMs ?? 0;
    engine.getDeltaTime = () => frameTimeMs;
    return {
        engine,
        scene,
        havok,
        physicsEngine,
        step(n = 1) {
            for (let i = 0; i < n; i++) {
                scene.render();
            }
        },
        setFrameTime(ms) {
            frameTimeMs = ms;
        },
        dispose() {
            scene.dispose();
            engine.dispose();
        },
    };
}

/** A shape to build with {@link createShape}; sizes follow the Babylon `PhysicsShape*` constructors. */
export type ShapeSpec =
    | { kind: "sphere"; radius: number; center?: Vector3Tuple }
    /** `extents` are full side lengths, as Babylon takes them. */
    | { kind: "box"; extents: Vector3Tuple; center?: Vector3Tuple; rotation?: QuaternionTuple }
    | { kind: "capsule"; pointA: Vector3Tuple; pointB: Vector3Tuple; radius: number }
    | { kind: "cylinder"; pointA: Vector3Tuple; pointB: Vector3Tuple; radius: number }
    /** Hull / mesh of the mesh's vertices, baked in the mesh's own frame with its absolute scaling. */
    | { kind: "convexHull"; mesh: Mesh }
    | { kind: "mesh"; mesh: Mesh }
    /** Heights row by row from the +z edge, x increasing along a row (`heights[(samplesZ-1-iz)*samplesX + ix]`); centred on the body origin. */
    | { kind: "heightField"; sizeX: number; sizeZ: number; samplesX: number; samplesZ: number; heights: Float32Array }
    | {
          kind: "container";
          children: { shape: ShapeSpec | PhysicsShape; translation?: Vector3Tuple; rotation?: QuaternionTuple }[];
      };

/** Builds a Babylon `PhysicsShape*` from a {@link ShapeSpec} (children of containers may be prebuilt shapes). */
export function createShape(scene: Scene, spec: ShapeSpec): PhysicsShape {
    switch (spec.kind) {
        case "sphere":
            return new PhysicsShapeSphere(Vector3.FromArray(spec.center ?? [0, 0, 0]), spec.radius, scene);
        case "box":
            return new PhysicsShapeBox(
                Vector3.FromArray(spec.center ?? [0, 0, 0]),
                Quaternion.FromArray(spec.rotation ?? [0, 0, 0, 1]),
                Vector3.FromArray(spec.extents),
                scene,
            );
        case "capsule":
            return new PhysicsShapeCapsule(Vector3.FromArray(spec.pointA), Vector3.FromArray(spec.pointB), spec.radius, scene);
        case "cylinder":
            return new PhysicsShapeCylinder(Vector3.FromArray(spec.pointA), Vector3.FromArray(spec.pointB), spec.radius, scene);
        case "convexHull":
            return new PhysicsShapeConvexHull(spec.mesh, scene);
        case "mesh":
            return new PhysicsShapeMesh(spec.mesh, scene);
        case "heightField":
            return new PhysicsShapeHeightField(spec.sizeX, spec.sizeZ, spec.samplesX, spec.samplesZ, spec.heights, scene);
        case "container": {
            const container = new PhysicsShapeContainer(scene);
            for (const child of spec.children) {
                const shape = child.shape instanceof PhysicsShape ? child.shape : createShape(scene, child.shape);
                container.addChild(
                    shape,
                    Vector3.FromArray(child.translation ?? [0, 0, 0]),
                    Quaternion.FromArray(child.rotation ?? [0, 0, 0, 1]),
                );
            }
            return container;
        }
    }
}

/** Options of {@link createBody}. */
export interface BodyOptions {
    /** STATIC 0, ANIMATED 1, DYNAMIC 2. */
    motionType: PhysicsMotionType;
    /** World position of the body's node; default origin. */
    position?: Vector3Tuple;
    /** World rotation of the body's node; default identity. */
    rotation?: QuaternionTuple;
    /** Overrides the mass Havok derives from the shape's volume and density. */
    mass?: number;
    /** An existing node to attach the body to (e.g. the mesh a hull was built from); default a new TransformNode. */
    node?: TransformNode;
}

/** A body made by {@link createBody}. */
export interface TestBody {
    /** The node the body drives. */
    node: TransformNode;
    body: PhysicsBody;
    /** The body's shape (the one passed in, or the one built from the spec). */
    shape: PhysicsShape;
}

/** Creates a `PhysicsBody` with the given shape (a spec or a prebuilt shape, which may be shared between bodies). */
export function createBody(scene: Scene, shape: ShapeSpec | PhysicsShape, options: BodyOptions): TestBody {
    const node = options.node ?? new TransformNode("body", scene);
    node.position = Vector3.FromArray(options.position ?? [0, 0, 0]);
    node.rotationQuaternion = Quaternion.FromArray(options.rotation ?? [0, 0, 0, 1]);
    node.computeWorldMatrix(true);
    const body = new PhysicsBody(node, options.motionType, false, scene);
    const physicsShape = shape instanceof PhysicsShape ? shape : createShape(scene, shape);
    body.shape = physicsShape;
    if (options.mass !== undefined) {
        body.setMassProperties({ mass: options.mass });
    }
    return { node, body, shape: physicsShape };
}

/** Observer counts of everything the plugin or an impostor could hook into. */
export function observerCounts(h: HavokScene, meshes: Mesh[] = []): number[] {
    const s = h.scene;
    const e = h.engine;
    return [
        s.onBeforePhysicsObservable,
        s.onAfterPhysicsObservable,
        s.onBeforeRenderObservable,
        s.onAfterRenderObservable,
        s.onDisposeObservable,
        e.onBeginFrameObservable,
        e.onEndFrameObservable,
        e.onDisposeObservable,
        ...meshes.map((m) => m.onDisposeObservable),
    ].map((o) => o?.observers.length ?? 0);
}
