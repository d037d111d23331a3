/**
 * The WebGPU backend drawing a soft body (a jelly bound to its tets, and one without tets, its render vertices tied to
 * its surface triangles) from GPU buffers, as it draws a cloth: on the drawing engine's device the render kernels write its vertex buffers and nothing else is read back than the state
 * every `DRAWN_READ_INTERVAL` steps; the bounding box holds every vertex the GPU draws until the next read; and when
 * the body goes back to the CPU, the mesh gets ordinary vertex buffers again, written from the last state read back.
 *
 * The drawing engine is the scene's NullEngine given `createStorageBuffer` over the Dawn device (all a `GpuDrawnMesh`
 * asks of a `WebGPUEngine`), and the backend is stepped here (not by the plugin's loop) so that each read-back can be
 * waited for.
 */
import { Logger } from "@babylonjs/core/Misc/logger";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { createHavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { DRAWN_READ_INTERVAL, GpuBackend } from "../../src/babylon/gpuBackend";
import { GpuDrawnMesh } from "../../src/babylon/gpuDrawnMesh";
import { RenderMeshSync } from "../../src/babylon/renderMeshSync";
import { applySurfaceBinding, applyTetBinding } from "../../src/meshing/index";
import { describeGpu } from "./support/gpuDevice";
import { drawingEngine, settle } from "./support/drawingEngine";
import { readFloats } from "./support/readBack";

/** The two kinds of jelly: filled with tets, or its lattice's surface held by shape matching. */
const MODELS = [
    { model: "tets", options: {} },
    { model: "surface only", options: { tetrahedra: false, shapeMatching: 0.6 } },
];

describeGpu("a soft body drawn from GPU buffers by the WebGPU backend", (testDevice) => {
    // The spies on the prototypes count one test's calls only.
    afterEach(() => jest.restoreAllMocks());

    test.each(MODELS)(
        "$model: reads its state back every 6 steps, keeps every drawn vertex inside its bounds, and hands back to CPU buffers",
        async ({ model, options }) => {
            const device = testDevice();
            const h = await createHavokScene();
            const warn = jest.spyOn(Logger, "Warn").mockImplementation(() => {});
            const xpbd = new XpbdPlugin(h.scene, { backend: "cpu" });
            const mesh = CreateSphere("jelly", { diameter: 0.6, segments: 6 }, h.scene);
            mesh.position.set(0.3, 2, -0.5);
            mesh.rotation.set(0.4, 0.7, -0.2);
            mesh.scaling.set(1.5, 0.8, 1.2);
            const jelly = new SoftBodyImpostor(
                mesh,
                { mass: 1, resolution: 4, stretchStiffness: 0.5, allowSleep: false, ...options },
                xpbd,
            );
            const { binding, surfaceBinding } = jelly;
            expect(binding === null).toBe(model !== "tets");
            // Thrown up and spinning (6 rad/s about a tilted axis): its vertices outside the tets, extrapolated from them,
            // move further than any particle; those off its surface triangles swing with the triangles' frames.
            const body = jelly.body;
            const omega = [2, 5, 1.5];
            for (let p = 0; p < body.particleCount; p++) {
                const r = [0, 1, 2].map((k) => body.positions[3 * p + k] - [0.3, 2, -0.5][k]);
                body.velocities[3 * p] = 1 + omega[1] * r[2] - omega[2] * r[1];
                body.velocities[3 * p + 1] = 2 + omega[2] * r[0] - omega[0] * r[2];
                body.velocities[3 * p + 2] = omega[0] * r[1] - omega[1] * r[0];
            }
            const drawing = drawingEngine(h.engine, device);
            const backend = new GpuBackend(device, xpbd.world, drawing.engine);
            await backend.compiled;
            const drawnMargins = jest.spyOn(GpuDrawnMesh.prototype, "refreshBounds");
            const meshMargins = jest.spyOn(RenderMeshSync.prototype, "refreshGpuBounds");
            const dt = 1 / 60;

            // On the GPU and drawn from storage buffers: no CPU copy of the positions.
            backend.step([jelly], dt);
            const drawn = backend.drawnMesh(jelly)!;
            expect(backend.runs(jelly)).toBe(true);
            expect(drawn).not.toBeNull();
            expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)!.getData()).toBeNull();
            const gpuPositions = drawn.positions.getBuffer().underlyingResource as GPUBuffer;
            const n = mesh.getTotalVertices();

            const steps = 8 * DRAWN_READ_INTERVAL;
            const readsBefore = backend.stateReadCount;
            let tightest = Infinity;
            const point = new Vector3();
            for (let s = 1; s < steps; s++) {
                jelly.updateRenderMesh();
                // Every vertex as the GPU drew it this frame lies in the bounding box (from the last state read back,
                // grown by how far the body may move until the next).
                const local = await readFloats(device, gpuPositions, 12 * n);
                const world = mesh.getWorldMatrix();
                const box = mesh.getBoundingInfo().boundingBox;
                for (let v = 0; v < n; v++) {
                    Vector3.TransformCoordinatesFromFloatsToRef(local[3 * v], local[3 * v + 1], local[3 * v + 2], world, point);
                    for (let a = 0; a < 3; a++) {
                        const x = point.asArray()[a];
                        tightest = Math.min(tightest, x - box.minimumWorld.asArray()[a], box.maximumWorld.asArray()[a] - x);
                    }
                }
                backend.step([jelly], dt);
                await settle(device);
            }
            const reads = backend.stateReadCount - readsBefore;
            // One read in each interval of steps, not one a step: the states of steps 6, 12, … 48 (the first step was
            // before the loop).
            expect(reads).toBe(steps / DRAWN_READ_INTERVAL);
            expect(tightest).toBeGreaterThanOrEqual(0);
            // Each margin reaches the mesh scaled by the binding's motion scale, the largest Σ|w| of a vertex (> 1 with
            // tets, the sphere's vertices lie outside the lattice's tets; 1 on surface triangles), plus, without tets, the
            // turn reach: twice the longest offset from a triangle, which a turning frame may carry that far.
            const weights = binding?.weights ?? surfaceBinding!.weights;
            const corners = weights.length / n;
            let motionScale = 0;
            for (let v = 0; v < n; v++) {
                let reach = 0;
                for (let k = 0; k < corners; k++) {
                    reach += Math.abs(weights[corners * v + k]);
                }
                motionScale = Math.max(motionScale, reach);
            }
            let turnReach = 0;
            for (let v = 0; surfaceBinding !== null && v < n; v++) {
                turnReach = Math.max(turnReach, 2 * Math.hypot(...surfaceBinding.offsets.subarray(3 * v, 3 * v + 3)));
            }
            if (binding !== null) {
                expect(motionScale).toBeGreaterThan(1.2);
            } else {
                expect(motionScale).toBeCloseTo(1, 6);
                expect(turnReach).toBeGreaterThan(0.02);
            }
            expect(drawnMargins.mock.calls.length).toBe(reads + 1);
            expect(meshMargins.mock.calls.length).toBe(reads + 1);
            drawnMargins.mock.calls.forEach(([margin], k) => {
                expect(meshMargins.mock.calls[k][0]).toBeCloseTo(margin * motionScale + turnReach, 5);
            });
            console.log(
                `jelly (${model}) drawn from GPU buffers (${n} vertices, motion scale ${motionScale.toFixed(3)}, turn reach ` +
                    `${(1000 * turnReach).toFixed(1)} mm): ${reads} state read-backs in ${steps} steps; the drawn vertices stayed ` +
                    `${(1000 * tightest).toFixed(1)} mm or more inside the bounding box`,
            );

            // What the GPU draws is the binding applied to the state: the state after every step so far read back,
            // the mesh written from it, against the CPU's binding of it in f64. renderMesh.test.ts bounds the
            // difference by float32 roundings (under 10⁻⁶ m at this size); 10⁻⁵ m here checks only the wiring.
            await backend.readAll();
            jelly.updateRenderMesh();
            const drawnNow = await readFloats(device, gpuPositions, 12 * n);
            const expectedWorld = new Float64Array(3 * n);
            if (binding !== null) {
                applyTetBinding(binding, body.positions, expectedWorld);
            } else {
                applySurfaceBinding(surfaceBinding!, body.positions, expectedWorld);
            }
            const inverseNow = mesh.getWorldMatrix().clone().invert();
            let drawnWorst = 0;
            for (let v = 0; v < n; v++) {
                Vector3.TransformCoordinatesFromFloatsToRef(
                    expectedWorld[3 * v],
                    expectedWorld[3 * v + 1],
                    expectedWorld[3 * v + 2],
                    inverseNow,
                    point,
                );
                for (let a = 0; a < 3; a++) {
                    drawnWorst = Math.max(drawnWorst, Math.abs(drawnNow[3 * v + a] - point.asArray()[a]));
                }
            }
            console.log(`jelly (${model}): the drawn vertices within ${drawnWorst.toExponential(2)} m of the binding applied to the state`);
            expect(drawnWorst).toBeLessThan(1e-5);

            // A feature the GPU lacks sends it to the CPU: ordinary vertex buffers again, the storage ones released, and
            // the CPU writes the mesh from the last state read back.
            body.holdAsleep = true;
            backend.step([jelly], dt);
            expect(backend.runs(jelly)).toBe(false);
            expect(backend.drawnMesh(jelly)).toBeNull();
            expect(xpbd.world.bodies).toContain(body);
            expect(drawing.released()).toBe(2);
            expect(warn).toHaveBeenCalledTimes(1);
            expect(String(warn.mock.calls[0][0])).toContain("level of detail");
            jelly.updateRenderMesh();
            expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)!.getData()).not.toBeNull();
            const expected = new Float64Array(3 * n);
            if (binding !== null) {
                applyTetBinding(binding, body.positions, expected);
            } else {
                applySurfaceBinding(surfaceBinding!, body.positions, expected);
            }
            const inverse = mesh.getWorldMatrix().clone().invert();
            const local = mesh.getVerticesData(VertexBuffer.PositionKind)!;
            let worst = 0;
            for (let v = 0; v < n; v++) {
                Vector3.TransformCoordinatesFromFloatsToRef(expected[3 * v], expected[3 * v + 1], expected[3 * v + 2], inverse, point);
                for (let a = 0; a < 3; a++) {
                    worst = Math.max(worst, Math.abs(local[3 * v + a] - point.asArray()[a]));
                }
            }
            // Stored as f32 local coordinates of about 1 m: within a few ulps.
            expect(worst).toBeLessThan(1e-6);
            // And back to the GPU and to GPU buffers without it.
            body.holdAsleep = false;
            backend.step([jelly], dt);
            expect(backend.drawnMesh(jelly)).not.toBeNull();
            expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)!.getData()).toBeNull();

            backend.dispose();
            expect(drawing.released()).toBe(4);
            h.dispose();
        },
        120_000,
    );
});
