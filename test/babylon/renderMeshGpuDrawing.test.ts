/**
 * `RenderMeshSync` while the GPU draws its mesh (`drawFromGpu`, what the WebGPU backend's `GpuDrawnMesh` uses): each
 * update hands the writer the mesh's current inverse world matrix and uploads nothing; the bounding box comes from
 * the state read back, grown by the margin asked for, in world units through a scaled and rotated mesh; and
 * `drawFromCpu` gives the mesh ordinary vertex buffers holding the last state read back.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { readMeshData } from "../../src/babylon/meshData";
import { RenderMeshSync } from "../../src/babylon/renderMeshSync";

test("drawing from GPU buffers: the writer gets the inverse world matrix, the bounds the read-back state plus the margin", () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 4 }, scene);
    mesh.position.set(1, 2, 3);
    mesh.rotation.set(0.3, -0.5, 0.2);
    // Shrunk: a world margin taken as local units would grow the box by less than itself.
    mesh.scaling.set(0.4, 0.3, 0.5);
    mesh.computeWorldMatrix(true);
    const data = readMeshData(mesh, "test");
    const sync = new RenderMeshSync(mesh, data);
    const n = data.vertexCount;
    const written: Float32Array[] = [];
    const writer = { write: (inverseWorld: ArrayLike<number>) => void written.push(Float32Array.from(inverseWorld)) };
    // Stand-ins for the storage buffers (a NullEngine has none): nothing must be uploaded into them.
    const positions = new VertexBuffer(engine, new Float32Array(3 * n), VertexBuffer.PositionKind, { updatable: true });
    const normals = new VertexBuffer(engine, new Float32Array(3 * n), VertexBuffer.NormalKind, { updatable: true });
    sync.drawFromGpu(writer, positions, normals);
    expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)).toBe(positions);
    expect(mesh.getVertexBuffer(VertexBuffer.NormalKind)).toBe(normals);

    // A read-back: the cloth 1 m lower and sagging in the middle.
    const world = sync.worldPositions;
    for (let v = 0; v < n; v++) {
        world[3 * v] = data.worldPositions[3 * v];
        world[3 * v + 1] = data.worldPositions[3 * v + 1] - 1 - 0.2 * Math.sin((Math.PI * v) / n);
        world[3 * v + 2] = data.worldPositions[3 * v + 2];
    }
    // The bounds of the state itself first (margin 0), then with a margin.
    sync.refreshGpuBounds(0);
    sync.update();
    const tight = mesh.getBoundingInfo().boundingBox;
    const [tightLow, tightHigh] = [tight.minimumWorld.clone(), tight.maximumWorld.clone()];
    const margin = 0.1;
    sync.refreshGpuBounds(margin);
    expect(sync.needsWorldPositions).toBe(true);
    sync.update();
    const inverse = mesh.getWorldMatrix().clone().invert();
    expect(written).toHaveLength(2);
    expect(Array.from(written[1])).toEqual(Array.from(inverse.m));
    expect(Array.from(positions.getData() as Float32Array).every((x) => x === 0)).toBe(true);

    // Every point read back, moved by up to the margin along any axis, is inside the world bounding box, which grew
    // by at least the margin on every side, and by no more than a few margins (the local margin is the world one
    // times ‖M⁻¹‖_F = 4.6 here, seen through M's rows: Σ|row| ≤ √3 · 0.5).
    const box = mesh.getBoundingInfo().boundingBox;
    for (let v = 0; v < n; v++) {
        for (let axis = 0; axis < 3; axis++) {
            expect(box.minimumWorld.asArray()[axis]).toBeLessThanOrEqual(world[3 * v + axis] - margin);
            expect(box.maximumWorld.asArray()[axis]).toBeGreaterThanOrEqual(world[3 * v + axis] + margin);
        }
    }
    for (let axis = 0; axis < 3; axis++) {
        const grewLow = tightLow.asArray()[axis] - box.minimumWorld.asArray()[axis];
        const grewHigh = box.maximumWorld.asArray()[axis] - tightHigh.asArray()[axis];
        for (const grew of [grewLow, grewHigh]) {
            expect(grew).toBeGreaterThanOrEqual(margin * (1 - 1e-6));
            expect(grew).toBeLessThan(10 * margin);
        }
    }

    // The next frame: the writer again, no world positions needed, the bounds kept.
    const minimum = box.minimumWorld.clone();
    expect(sync.needsWorldPositions).toBe(false);
    sync.update();
    expect(written).toHaveLength(3);
    expect(mesh.getBoundingInfo().boundingBox.minimumWorld.equals(minimum)).toBe(true);

    // Back to the CPU: ordinary vertex buffers with the state read back, in the local frame, and unit normals.
    sync.drawFromCpu();
    expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)).not.toBe(positions);
    const local = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const point = new Vector3();
    for (let v = 0; v < n; v++) {
        Vector3.TransformCoordinatesFromFloatsToRef(world[3 * v], world[3 * v + 1], world[3 * v + 2], inverse, point);
        for (let axis = 0; axis < 3; axis++) {
            expect(local[3 * v + axis]).toBeCloseTo(point.asArray()[axis], 5);
        }
    }
    const normal = mesh.getVerticesData(VertexBuffer.NormalKind)!;
    expect(Math.hypot(normal[0], normal[1], normal[2])).toBeCloseTo(1, 5);
    scene.dispose();
    engine.dispose();
});
