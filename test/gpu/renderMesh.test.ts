/**
 * The render-mesh kernel (`GpuRenderMeshWriter`) against the CPU's render write-back (`RenderMeshSync`) on the same
 * particle positions: a cloth with split vertices (a UV seam that shades smoothly, a folded crease that stays hard),
 * authored normals facing against the winding, and a mesh transform with rotation, non-uniform scaling and
 * translation, so positions and normals are compared in the mesh's local frame.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { SoftBody, XpbdWorld } from "../../src/core/index";
import { GpuRenderMeshWriter, GpuSoftBodySolver } from "../../src/gpu/index";
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE, createBuffer } from "../../src/gpu/bodyBuffers";
import { applyWeldBinding, buildClothTopology, computeVertexNormals } from "../../src/meshing/index";
import { readMeshData } from "../../src/babylon/meshData";
import { RenderMeshSync } from "../../src/babylon/renderMeshSync";
import { describeGpu } from "./support/gpuDevice";

/** f32's unit roundoff: one rounding changes a value x by at most U·|x|. */
const U = 2 ** -24;
/** Quads per side. */
const Q = 12;
/** Columns whose vertices are split in two: a UV seam (both sides flat) and the crease of the fold. */
const SEAM = 4;
const CREASE = 8;
/** The fold beyond the crease (rad): far from the 0.99 cosine that joins smoothing groups. */
const FOLD = 0.9;

/** A 1 m cloth of Q² quads with split vertices along two columns, folded up beyond the second; normals against the winding. */
function splitCloth(scene: Scene): Mesh {
    const positions: number[] = [];
    const ids: number[][][] = [];
    for (let i = 0; i <= Q; i++) {
        ids.push([]);
        const copies = i === SEAM || i === CREASE ? 2 : 1;
        for (let side = 0; side < copies; side++) {
            const column: number[] = [];
            for (let j = 0; j <= Q; j++) {
                const x = i / Q;
                const z = j / Q;
                const c = CREASE / Q;
                const folded = i > CREASE || (i === CREASE && side === 1);
                column.push(positions.length / 3);
                positions.push(folded ? c + (x - c) * Math.cos(FOLD) : x, folded ? (x - c) * Math.sin(FOLD) : 0, z);
            }
            ids[i].push(column);
        }
    }
    const indices: number[] = [];
    for (let i = 0; i < Q; i++) {
        for (let j = 0; j < Q; j++) {
            // A quad's left edge is its column's last copy, its right edge the next column's first.
            const left = ids[i][ids[i].length - 1];
            const right = ids[i + 1][0];
            indices.push(left[j], right[j], right[j + 1], left[j], right[j + 1], left[j + 1]);
        }
    }
    const normals = new Float32Array(positions.length);
    computeVertexNormals(positions, indices, normals);
    const data = new VertexData();
    data.positions = positions;
    data.indices = indices;
    data.normals = normals.map((v) => -v);
    const mesh = new Mesh("split cloth", scene);
    data.applyToMesh(mesh, true);
    mesh.position.set(0.3, 1.2, -0.5);
    mesh.rotation.set(0.4, 0.7, -0.2);
    mesh.scaling.set(1.5, 0.8, 1.2);
    mesh.computeWorldMatrix(true);
    return mesh;
}

/** Reads `bytes` of `buffer` back as floats. */
async function readFloats(device: GPUDevice, buffer: GPUBuffer, bytes: number): Promise<Float32Array> {
    const staging = createBuffer(device, bytes, MAP_READ | COPY_DST, "test read-back");
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    return out;
}

describeGpu("the render-mesh kernel", (testDevice) => {
    test("writes the positions and normals the CPU render sync writes, in the mesh's local frame (float32 bound)", async () => {
        const device = testDevice();
        const engine = new NullEngine();
        const scene = new Scene(engine);
        const mesh = splitCloth(scene);
        const data = readMeshData(mesh, "test");
        const topology = buildClothTopology(data.worldPositions, data.indices);
        const sync = new RenderMeshSync(mesh, data);
        const body = new SoftBody(
            {
                positions: topology.positions,
                triangles: topology.triangles,
                stretch: topology.stretch,
                shear: topology.shear,
                bend: topology.bend,
                mass: 0.2,
            },
            {},
        );
        const map = topology.renderToParticle;
        // Hung by the two corners of the first column: the cloth sags and the fold swings, so no two triangles agree.
        body.setPinWeight(map[0], 1);
        body.setPinWeight(map[Q], 1);
        const solver = await GpuSoftBodySolver.create(device, body, new XpbdWorld({ substeps: 5 }));
        for (let s = 0; s < 10; s++) {
            solver.step(1 / 60);
        }
        const n = data.vertexCount;
        const outPositions = createBuffer(device, 12 * n, STORAGE | COPY_SRC, "test positions");
        const outNormals = createBuffer(device, 12 * n, STORAGE | COPY_SRC, "test normals");
        const writer = new GpuRenderMeshWriter(
            device,
            solver.particlePositions,
            body.particleCount,
            sync.gpuMapping(map),
            outPositions,
            outNormals,
        );
        const inverse = mesh.computeWorldMatrix(true).clone().invert();
        writer.write(inverse.m);
        const gpuPositions = await readFloats(device, outPositions, 12 * n);
        const gpuNormals = await readFloats(device, outNormals, 12 * n);

        // The CPU's write from the same (float32) particle positions.
        const particles = await solver.readPositions();
        applyWeldBinding(map, particles, sync.worldPositions);
        sync.update();
        const cpuPositions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
        const cpuNormals = mesh.getVerticesData(VertexBuffer.NormalKind)!;

        // Positions: a 4-term dot product in f32 rounds by at most 4U of the sum of its terms' magnitudes; the CPU
        // (f64, then stored as f32) rounds once, by U of that. Bound per coordinate: 5U·Σ|terms|.
        const m = inverse.m;
        const exact = new Float64Array(3 * n);
        const positionBound = new Float64Array(3 * n);
        let positionWorst = 0;
        for (let v = 0; v < n; v++) {
            const p = 3 * map[v];
            for (let a = 0; a < 3; a++) {
                const terms = [m[a] * particles[p], m[4 + a] * particles[p + 1], m[8 + a] * particles[p + 2], m[12 + a]];
                exact[3 * v + a] = terms.reduce((sum, t) => sum + t, 0);
                positionBound[3 * v + a] = 5 * U * terms.reduce((sum, t) => sum + Math.abs(t), 0);
                const error = Math.abs(gpuPositions[3 * v + a] - cpuPositions[3 * v + a]);
                positionWorst = Math.max(positionWorst, error / positionBound[3 * v + a]);
            }
        }

        // Normals: both sum the same triangles' cross products c = e1 × e2 in the same order. A corner differs by
        // D ≤ √3·(largest coordinate bound) between the two, an edge by 2D plus the GPU's rounding of it (U·|e|), and
        // a cross product by |Δe1||e2| + |e1||Δe2| + |Δe1||Δe2| plus the GPU's rounding (3U·|e1||e2|). Each side's
        // sum of k terms rounds by k·U·Σ|c|. Normalising divides by |N| (a vector error of ΔN turns the unit vector
        // by at most 2|ΔN|/|N|), plus about 6U of rounding in the normalisation itself.
        const mapping = sync.gpuMapping(map);
        const triangles = mapping.triangles;
        let cornerBound = 0;
        for (const b of positionBound) {
            cornerBound = Math.max(cornerBound, b);
        }
        const D = Math.sqrt(3) * cornerBound;
        const sum = new Float64Array(3 * n);
        const errorSum = new Float64Array(n);
        const magnitude = new Float64Array(n);
        const count = new Int32Array(n);
        for (let t = 0; t < triangles.length; t += 3) {
            const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
            const e1 = [0, 1, 2].map((k) => exact[3 * a + k] - exact[3 * b + k]);
            const e2 = [0, 1, 2].map((k) => exact[3 * c + k] - exact[3 * b + k]);
            const cross = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
            const l1 = Math.hypot(...e1);
            const l2 = Math.hypot(...e2);
            const d1 = 2 * D + U * l1;
            const d2 = 2 * D + U * l2;
            const error = d1 * l2 + l1 * d2 + d1 * d2 + 3 * U * l1 * l2;
            for (const v of [a, b, c]) {
                for (let k = 0; k < 3; k++) {
                    sum[3 * v + k] += cross[k];
                }
                errorSum[v] += error;
                magnitude[v] += Math.hypot(...cross);
                count[v]++;
            }
        }
        let normalWorst = 0;
        let normalLargest = 0;
        for (let v = 0; v < n; v++) {
            const s = mapping.normalSource[v];
            const length = Math.hypot(sum[3 * s], sum[3 * s + 1], sum[3 * s + 2]);
            const bound = (2 * (errorSum[s] + 2 * count[s] * U * magnitude[s])) / length + 6 * U;
            const error = Math.hypot(...[0, 1, 2].map((k) => gpuNormals[3 * v + k] - cpuNormals[3 * v + k]));
            normalWorst = Math.max(normalWorst, error / bound);
            normalLargest = Math.max(normalLargest, error);
            // Vertices of one smoothing group read the same triangles in the same order: bit-identical normals.
            for (let k = 0; k < 3; k++) {
                expect(gpuNormals[3 * v + k]).toBe(gpuNormals[3 * s + k]);
            }
        }
        // The mesh has the split vertices asked for: one smoothing group across the seam, two at the crease.
        const groups = new Set(Array.from(mapping.normalSource));
        expect(n).toBe((Q + 3) * (Q + 1));
        expect(groups.size).toBe(body.particleCount + Q + 1);
        // The authored normals face against the winding: the sign flips them, on both sides.
        expect(mapping.normalSign).toBe(-1);
        console.log(
            `render kernel vs RenderMeshSync (${n} vertices): positions within ${positionWorst.toFixed(3)} of their bound, ` +
                `normals ${normalLargest.toExponential(2)} at worst, ${normalWorst.toFixed(3)} of their bound`,
        );
        expect(positionWorst).toBeLessThanOrEqual(1);
        expect(normalWorst).toBeLessThanOrEqual(1);
        // A non-trivial comparison: the cloth moved, and the normals are unit vectors.
        expect(Math.hypot(cpuNormals[0], cpuNormals[1], cpuNormals[2])).toBeCloseTo(1, 5);
        expect(Vector3.FromArray(gpuPositions, 0).equalsWithEpsilon(Vector3.FromArray(data.localPositions, 0), 1e-6)).toBe(true);
        expect(Math.abs(gpuPositions[3 * (n - 1) + 1] - data.localPositions[3 * (n - 1) + 1])).toBeGreaterThan(0.01);

        writer.dispose();
        solver.dispose();
        outPositions.destroy();
        outNormals.destroy();
        scene.dispose();
        engine.dispose();
    }, 120_000);
});
