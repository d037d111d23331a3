/**
 * The render-mesh kernels (`GpuRenderMeshWriter`) against the CPU's render write-back (`RenderMeshSync`) on the same
 * particle positions, in the mesh's local frame through a mesh transform with rotation, non-uniform scaling and
 * translation: a cloth with split vertices (a UV seam that shades smoothly, a folded crease that stays hard) and
 * authored normals facing against the winding; and a jelly (a sphere with its UV seam and poles, filled with tets by
 * the soft body's meshing) whose render vertices follow their tets' barycentric weights, as `applyTetBinding`; and a
 * jelly without tets (the same sphere, its lattice's surface held by shape matching) thrown, spinning and squashed,
 * whose render vertices follow their surface triangles' weights and offsets along the triangles' frames, as
 * `applySurfaceBinding`.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Vector3, type Matrix } from "@babylonjs/core/Maths/math.vector";
import type { FloatArray } from "@babylonjs/core/types";
import { SoftBody, XpbdWorld } from "../../src/core/index";
import { GpuRenderMeshWriter, GpuSoftBodySolver, packRenderMesh, type RenderMeshMapping } from "../../src/gpu/index";
import { COPY_SRC, STORAGE, createBuffer } from "../../src/gpu/bodyBuffers";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import {
    applySurfaceBinding,
    applyTetBinding,
    applyWeldBinding,
    buildClothTopology,
    computeVertexNormals,
    finishSteps,
    softBodyMeshingSteps,
    type SoftBodyMeshing,
    tetEdges,
} from "../../src/meshing/index";
import { readMeshData } from "../../src/babylon/meshData";
import { RenderMeshSync } from "../../src/babylon/renderMeshSync";
import { describeGpu } from "./support/gpuDevice";
import { readFloats } from "./support/readBack";

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
    place(mesh);
    return mesh;
}

/** Turns a mesh by a rotation, a non-uniform scaling and a translation. */
function place(mesh: Mesh): void {
    mesh.position.set(0.3, 1.2, -0.5);
    mesh.rotation.set(0.4, 0.7, -0.2);
    mesh.scaling.set(1.5, 0.8, 1.2);
    mesh.computeWorldMatrix(true);
}

/**
 * Per render vertex and axis, its exact local coordinate (f64, from the world positions `world`) and a bound on how
 * far the kernel's and the CPU's values may be apart. A 4-term dot product in f32 rounds by at most 4U of the sum of
 * its terms' magnitudes; the CPU (f64, then stored as f32) rounds once, by U of that; a world coordinate j that the
 * GPU has within ±worldError_j of `world` adds Σ_j |m_ja|·worldError_j. Bound per coordinate: 5U·Σ|terms| + that.
 */
function localBounds(m: ArrayLike<number>, world: Float64Array, worldError: Float64Array): { exact: Float64Array; bound: Float64Array } {
    const exact = new Float64Array(world.length);
    const bound = new Float64Array(world.length);
    for (let i = 0; i < world.length; i += 3) {
        for (let a = 0; a < 3; a++) {
            const terms = [m[a] * world[i], m[4 + a] * world[i + 1], m[8 + a] * world[i + 2], m[12 + a]];
            exact[i + a] = terms.reduce((sum, t) => sum + t, 0);
            bound[i + a] =
                5 * U * terms.reduce((sum, t) => sum + Math.abs(t), 0) +
                [0, 1, 2].reduce((sum, j) => sum + Math.abs(m[4 * j + a]) * worldError[i + j], 0);
        }
    }
    return { exact, bound };
}

/** The kernel's output against the CPU's, each as the worst error over its bound (≤ 1 passes). */
interface Agreement {
    positionWorst: number;
    normalWorst: number;
    normalLargest: number;
}

/**
 * Compares the kernel's positions and normals with the CPU's. Normals: both sum the same triangles' cross products
 * c = e1 × e2 in the same order. A corner differs by D ≤ √3·(largest coordinate bound) between the two, an edge by
 * 2D plus the GPU's rounding of it (U·|e|), and a cross product by |Δe1||e2| + |e1||Δe2| + |Δe1||Δe2| plus the
 * GPU's rounding (3U·|e1||e2|). Each side's sum of k terms rounds by k·U·Σ|c|. Normalising divides by |N| (a vector
 * error of ΔN turns the unit vector by at most 2|ΔN|/|N|), plus about 6U of rounding in the normalisation itself.
 * Also expects the vertices of a smoothing group to have bit-identical normals (they read the same triangles in the
 * same order).
 */
function agreement(
    gpu: { positions: Float32Array; normals: Float32Array },
    cpu: { positions: ArrayLike<number>; normals: ArrayLike<number> },
    local: { exact: Float64Array; bound: Float64Array },
    mapping: RenderMeshMapping,
): Agreement {
    const { exact, bound: positionBound } = local;
    const n = exact.length / 3;
    let positionWorst = 0;
    for (let i = 0; i < 3 * n; i++) {
        positionWorst = Math.max(positionWorst, Math.abs(gpu.positions[i] - cpu.positions[i]) / positionBound[i]);
    }
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
        const error = Math.hypot(...[0, 1, 2].map((k) => gpu.normals[3 * v + k] - cpu.normals[3 * v + k]));
        normalWorst = Math.max(normalWorst, error / bound);
        normalLargest = Math.max(normalLargest, error);
        for (let k = 0; k < 3; k++) {
            expect(gpu.normals[3 * v + k]).toBe(gpu.normals[3 * s + k]);
        }
    }
    return { positionWorst, normalWorst, normalLargest };
}

/**
 * A 0.6 m UV sphere placed by {@link place} (its seam and poles duplicate vertices that shade as one), read as a
 * render mesh and meshed as a soft body at resolution 4, with tets or as a surface only.
 */
function sphereJelly(tetrahedra: boolean): {
    engine: NullEngine;
    scene: Scene;
    mesh: Mesh;
    data: ReturnType<typeof readMeshData>;
    meshing: SoftBodyMeshing;
} {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const mesh = CreateSphere("jelly", { diameter: 0.6, segments: 6 }, scene);
    place(mesh);
    const data = readMeshData(mesh, "test");
    const meshing = finishSteps(softBodyMeshingSteps({ positions: data.worldPositions, indices: data.indices, resolution: 4, tetrahedra }));
    return { engine, scene, mesh, data, meshing };
}

/** Has the kernels write the mesh of `sync` from the solver's particles through `mapping`, and reads it back. */
async function kernelOutput(
    device: GPUDevice,
    solver: GpuSoftBodySolver,
    mapping: RenderMeshMapping,
    inverseWorld: ArrayLike<number>,
): Promise<{ positions: Float32Array; normals: Float32Array; motionScale: number; turnReach: number }> {
    const n = mapping.normalSource.length;
    const outPositions = createBuffer(device, 12 * n, STORAGE | COPY_SRC, "test positions");
    const outNormals = createBuffer(device, 12 * n, STORAGE | COPY_SRC, "test normals");
    const writer = new GpuRenderMeshWriter(device, solver.particlePositions, solver.body.particleCount, mapping, outPositions, outNormals);
    writer.write(inverseWorld);
    const positions = await readFloats(device, outPositions, 12 * n);
    const normals = await readFloats(device, outNormals, 12 * n);
    writer.dispose();
    outPositions.destroy();
    outNormals.destroy();
    return { positions, normals, motionScale: writer.motionScale, turnReach: writer.turnReach };
}

/**
 * The kernels' write of `mesh` from the solver's particles through `binding`'s mapping, and the CPU's from the same
 * (float32) particles read back: `apply` writes their world positions into `sync.worldPositions` (kept in `world`),
 * then `sync` draws the mesh (`cpu`).
 */
async function bothWrites(
    device: GPUDevice,
    solver: GpuSoftBodySolver,
    mesh: Mesh,
    sync: RenderMeshSync,
    binding: Parameters<RenderMeshSync["gpuMapping"]>[0],
    apply: (particles: Float32Array, out: Float64Array) => void,
): Promise<{
    mapping: RenderMeshMapping;
    inverse: Matrix;
    gpu: Awaited<ReturnType<typeof kernelOutput>>;
    particles: Float32Array;
    world: Float64Array;
    cpu: { positions: FloatArray; normals: FloatArray };
}> {
    const mapping = sync.gpuMapping(binding);
    const inverse = mesh.computeWorldMatrix(true).clone().invert();
    const gpu = await kernelOutput(device, solver, mapping, inverse.m);
    const particles = await solver.readPositions();
    apply(particles, sync.worldPositions);
    const world = Float64Array.from(sync.worldPositions);
    sync.update();
    const cpu = {
        positions: mesh.getVerticesData(VertexBuffer.PositionKind)!,
        normals: mesh.getVerticesData(VertexBuffer.NormalKind)!,
    };
    return { mapping, inverse, gpu, particles, world, cpu };
}

test("packRenderMesh: a welded vertex is its particle with weights 1, 0, 0, 0; a tet's point its corners; unbound vertices are refused", () => {
    const triangle = { normalSource: [0, 1, 2], triangles: [0, 1, 2], normalSign: 1 };
    const welded = packRenderMesh({ ...triangle, vertices: { vertexToParticle: [2, 0, 1] } }, 3);
    expect(Array.from(welded.vertices.subarray(0, 4))).toEqual([2, 2, 2, 2]);
    expect(Array.from(welded.weights.subarray(0, 4))).toEqual([1, 0, 0, 0]);
    expect(welded.motionScale).toBe(1);
    const tets = { tets: [0, 1, 2, 3], tetIndex: [0, 0, 0], weights: [0.5, 0.5, 0, 0, 1.5, -0.5, 0, 0, 0.25, 0.25, 0.25, 0.25] };
    const embedded = packRenderMesh({ ...triangle, vertices: tets }, 4);
    expect(Array.from(embedded.vertices.subarray(8, 12))).toEqual([0, 1, 2, 3]);
    expect(Array.from(embedded.weights.subarray(4, 8))).toEqual([1.5, -0.5, 0, 0]);
    // The extrapolated vertex moves up to twice as far as its corners.
    expect(embedded.motionScale).toBe(2);
    expect(() => packRenderMesh({ ...triangle, vertices: { ...tets, tetIndex: [0, -1, 0] } }, 4)).toThrow(/vertex 1 has tet -1.*unbound/);
    expect(() => packRenderMesh({ ...triangle, vertices: tets }, 3)).toThrow(/corner particle 3 \(of 3\)/);
    expect(welded.surface).toBe(false);
    expect(embedded.turnReach).toBe(0);
});

test("packRenderMesh: a surface-bound vertex is its triangle's corners and weights (the fourth 0) and its offset", () => {
    const triangle = { normalSource: [0, 1], triangles: [0, 1, 1], normalSign: 1 };
    const surface = {
        triangles: [0, 1, 2, 2, 1, 3],
        triangle: [3, 0],
        weights: [0.2, 0.3, 0.5, 1, 0, 0],
        offsets: [0.01, -0.02, 0.03, 0, 0, -0.05],
    };
    const packed = packRenderMesh({ ...triangle, vertices: surface }, 4);
    expect(packed.surface).toBe(true);
    expect(Array.from(packed.vertices.subarray(0, 4))).toEqual([2, 1, 3, 2]);
    expect(Array.from(packed.weights.subarray(0, 4))).toEqual(Array.from(Float32Array.of(0.2, 0.3, 0.5, 0)));
    expect(Array.from(packed.offsets)).toEqual(Array.from(Float32Array.of(0.01, -0.02, 0.03, 0, 0, 0, -0.05, 0)));
    expect(packed.motionScale).toBeCloseTo(1, 6);
    // A frame that turns half a turn carries the longest offset (5 cm) across twice its length.
    expect(packed.turnReach).toBeCloseTo(0.1, 7);
    expect(() => packRenderMesh({ ...triangle, vertices: { ...surface, triangle: [3, 4] } }, 4)).toThrow(/vertex 1 has triangle index 4/);
    expect(() => packRenderMesh({ ...triangle, vertices: { ...surface, offsets: [0, 0, NaN, 0, 0, 0] } }, 4)).toThrow(
        /vertex 0 has offset/,
    );
});

describeGpu("the render-mesh kernels", (testDevice) => {
    test("write the positions and normals the CPU render sync writes for a cloth, in the mesh's local frame (float32 bound)", async () => {
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
        // A vertex's world position is its particle's, exactly.
        const { mapping, inverse, gpu, world, cpu } = await bothWrites(
            device,
            solver,
            mesh,
            sync,
            { vertexToParticle: map },
            (particles, out) => applyWeldBinding(map, particles, out),
        );
        const result = agreement(gpu, cpu, localBounds(inverse.m, world, new Float64Array(3 * n)), mapping);

        // The mesh has the split vertices asked for: one smoothing group across the seam, two at the crease.
        const groups = new Set(Array.from(mapping.normalSource));
        expect(n).toBe((Q + 3) * (Q + 1));
        expect(groups.size).toBe(body.particleCount + Q + 1);
        // The authored normals face against the winding: the sign flips them, on both sides.
        expect(mapping.normalSign).toBe(-1);
        console.log(
            `render kernels vs RenderMeshSync, cloth (${n} vertices): positions within ${result.positionWorst.toFixed(3)} of their bound, ` +
                `normals ${result.normalLargest.toExponential(2)} at worst, ${result.normalWorst.toFixed(3)} of their bound`,
        );
        expect(result.positionWorst).toBeLessThanOrEqual(1);
        expect(result.normalWorst).toBeLessThanOrEqual(1);
        expect(gpu.motionScale).toBe(1);
        // A non-trivial comparison: the cloth moved, and the normals are unit vectors.
        expect(Math.hypot(cpu.normals[0], cpu.normals[1], cpu.normals[2])).toBeCloseTo(1, 5);
        expect(Vector3.FromArray(gpu.positions, 0).equalsWithEpsilon(Vector3.FromArray(data.localPositions, 0), 1e-6)).toBe(true);
        expect(Math.abs(gpu.positions[3 * (n - 1) + 1] - data.localPositions[3 * (n - 1) + 1])).toBeGreaterThan(0.01);

        solver.dispose();
        scene.dispose();
        engine.dispose();
    }, 120_000);

    test("write the positions and normals the CPU render sync writes for a jelly's tet-bound mesh, in its local frame (float32 bound)", async () => {
        const device = testDevice();
        const { engine, scene, mesh, data, meshing } = sphereJelly(true);
        const tets = meshing.tets;
        const binding = meshing.binding!;
        const sync = new RenderMeshSync(mesh, data);
        const body = new SoftBody(
            {
                positions: tets.positions,
                tets: tets.tets,
                triangles: tets.surfaceTriangles,
                stretch: tetEdges(tets.tets, tets.positions.length / 3),
                mass: 1,
            },
            { stretchCompliance: 1e-3, volumeCompliance: 1e-3 },
        );
        // Hung by its highest particles: it sags and stretches under them, so its tets deform.
        let top = -Infinity;
        for (let p = 0; p < body.particleCount; p++) {
            top = Math.max(top, tets.positions[3 * p + 1]);
        }
        for (let p = 0; p < body.particleCount; p++) {
            if (tets.positions[3 * p + 1] > top - 1e-6) {
                body.setPinWeight(p, 1);
            }
        }
        const solver = await GpuSoftBodySolver.create(device, body, new XpbdWorld({ substeps: 5 }));
        for (let s = 0; s < 10; s++) {
            solver.step(1 / 60);
        }
        const n = data.vertexCount;
        const { mapping, inverse, gpu, particles, world, cpu } = await bothWrites(device, solver, mesh, sync, binding, (x, out) =>
            applyTetBinding(binding, x, out),
        );

        // The GPU's world position: the f32 weights (each within U·|w| of the binding's) times the f32 particles,
        // summed in f32 (4 terms: within 4U of Σ|terms|): within 5U·Σ|w_i||x_i| of the exact one per coordinate.
        const worldError = new Float64Array(3 * n);
        let extrapolated = 0;
        let largestReach = 0;
        for (let v = 0; v < n; v++) {
            const t = binding.tetIndex[v];
            let reach = 0;
            for (let k = 0; k < 4; k++) {
                const w = binding.weights[4 * v + k];
                const p = binding.tets[4 * t + k];
                reach += Math.abs(w);
                for (let a = 0; a < 3; a++) {
                    worldError[3 * v + a] += 5 * U * Math.abs(w * particles[3 * p + a]);
                }
            }
            largestReach = Math.max(largestReach, reach);
            extrapolated += reach > 1 + 1e-9 ? 1 : 0;
        }
        const result = agreement(gpu, cpu, localBounds(inverse.m, world, worldError), mapping);

        const groups = new Set(Array.from(mapping.normalSource)).size;
        console.log(
            `render kernels vs RenderMeshSync, jelly (${n} vertices in ${groups} smoothing groups, ${tets.tets.length / 4} tets, ` +
                `${extrapolated} vertices extrapolated, motion scale ${gpu.motionScale.toFixed(3)}): positions within ` +
                `${result.positionWorst.toFixed(3)} of their bound, normals ${result.normalLargest.toExponential(2)} at worst, ` +
                `${result.normalWorst.toFixed(3)} of their bound`,
        );
        expect(result.positionWorst).toBeLessThanOrEqual(1);
        expect(result.normalWorst).toBeLessThanOrEqual(1);
        // The seam and the poles: fewer smoothing groups than vertices.
        expect(groups).toBeLessThan(n);
        // The motion scale is the largest Σ|w| of a vertex (f32 weights: within a few U of the f64 one).
        expect(gpu.motionScale).toBeCloseTo(largestReach, 5);
        // A non-trivial comparison: the jelly sagged (its lowest point moved down, in world terms, by over 1 cm), and
        // the normals are unit vectors.
        let lowestRest = Infinity;
        let lowestNow = Infinity;
        for (let v = 0; v < n; v++) {
            lowestRest = Math.min(lowestRest, data.worldPositions[3 * v + 1]);
            lowestNow = Math.min(lowestNow, world[3 * v + 1]);
        }
        expect(lowestNow).toBeLessThan(lowestRest - 0.01);
        expect(Math.hypot(gpu.normals[0], gpu.normals[1], gpu.normals[2])).toBeCloseTo(1, 5);

        solver.dispose();
        scene.dispose();
        engine.dispose();
    }, 120_000);

    test("write the positions and normals the CPU render sync writes for a surface-only jelly thrown spinning and squashed (float32 bound)", async () => {
        const device = testDevice();
        const { engine, scene, mesh, data, meshing } = sphereJelly(false);
        const surface = meshing.surface!;
        const binding = meshing.surfaceBinding!;
        const sync = new RenderMeshSync(mesh, data);
        const body = new SoftBody(
            { positions: surface.positions, triangles: surface.triangles, stretch: surface.stretch, shear: surface.shear, mass: 1 },
            { stretchCompliance: 0.05, shapeMatchingCompliance: 0.01 },
        );
        // Thrown at 2 m/s, up at 1 m/s, spinning at 8 rad/s about a tilted axis, and squashed (pressed in along y at 4 m/s per
        // metre from the centre, bulging out along x and z): its triangles move, turn and change shape.
        const centre = [0.3, 1.2, -0.5];
        const omega = [3, 7, 2.5];
        for (let p = 0; p < body.particleCount; p++) {
            const r = [0, 1, 2].map((k) => body.positions[3 * p + k] - centre[k]);
            body.velocities[3 * p] = 2 + omega[1] * r[2] - omega[2] * r[1] + 2 * r[0];
            body.velocities[3 * p + 1] = 1 + omega[2] * r[0] - omega[0] * r[2] - 4 * r[1];
            body.velocities[3 * p + 2] = omega[0] * r[1] - omega[1] * r[0] + 2 * r[2];
        }
        const rest = Float64Array.from(body.positions);
        const solver = await GpuSoftBodySolver.create(device, body, new XpbdWorld({ substeps: 5 }));
        for (let s = 0; s < 10; s++) {
            solver.step(1 / 60);
        }
        const n = data.vertexCount;
        // The CPU's write in f64 from the same particles.
        const { mapping, inverse, gpu, particles, world, cpu } = await bothWrites(device, solver, mesh, sync, binding, (x, out) =>
            applySurfaceBinding(binding, Float64Array.from(x), out),
        );

        // The GPU's world position, per coordinate, against the exact one of the f32 particles: the weighted corners
        // as a tet's (5U·Σ|w_k x_k|: f32 weights, products, 4 sums), one rounding adding the offset term (U·|x|), and
        // the offset term's error Σ_k |o_k|·(δ_k + 5U) (f32 offsets, products, sums) for axis errors δ_k of the frame.
        // Each edge is within U·|e| of its exact value, turning it by 2U. WGSL's normalising adds at most 16U (an ulp
        // is at most 2U of a value): the dot product 3U of |e|², so 1.5U of |e|; sqrt, which WGSL lets be 4.5 ulp off
        // (inverseSqrt's 2 and a divide's 2.5), 9U; the divide, 2.5 ulp, 5U. So δt = 18U. The normal's cross product is
        // within (2 + 3√3)U·|e1||e2| of exact, of a length |e1||e2|·sin θ (θ the triangle's angle at its first corner):
        // δn = 2(2 + 3√3)U/sin θ + 16U. The in-plane axis n × t of two unit vectors: δs = δn + δt + 6U (its roundings).
        const worldError = new Float64Array(3 * n);
        let largestOffset = 0;
        for (let v = 0; v < n; v++) {
            const t = binding.triangle[v];
            const corners = [0, 1, 2].map((k) => binding.triangles[t + k]);
            const x = corners.map((p) => [0, 1, 2].map((a) => particles[3 * p + a]));
            const e1 = [0, 1, 2].map((a) => x[1][a] - x[0][a]);
            const e2 = [0, 1, 2].map((a) => x[2][a] - x[0][a]);
            const normal = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
            const sine = Math.hypot(...normal) / (Math.hypot(...e1) * Math.hypot(...e2));
            const dt = 18 * U;
            const dn = (2 * (2 + 3 * Math.sqrt(3)) * U) / sine + 16 * U;
            const axisErrors = [dt, dn + dt + 6 * U, dn];
            let frameError = 0;
            for (let k = 0; k < 3; k++) {
                frameError += Math.abs(binding.offsets[3 * v + k]) * (axisErrors[k] + 5 * U);
            }
            largestOffset = Math.max(largestOffset, Math.hypot(...binding.offsets.subarray(3 * v, 3 * v + 3)));
            for (let a = 0; a < 3; a++) {
                let corners = 0;
                for (let k = 0; k < 3; k++) {
                    corners += Math.abs(binding.weights[3 * v + k] * x[k][a]);
                }
                worldError[3 * v + a] = 5 * U * corners + U * Math.abs(world[3 * v + a]) + frameError;
            }
        }
        const result = agreement(gpu, cpu, localBounds(inverse.m, world, worldError), mapping);

        // How far the body moved, turned and changed shape: its centre's travel, and over its triangles the largest
        // turn of a normal and the largest change of an edge's length.
        const travel = [0, 1, 2].map((a) => {
            let sum = 0;
            for (let p = 0; p < body.particleCount; p++) {
                sum += particles[3 * p + a] - rest[3 * p + a];
            }
            return sum / body.particleCount;
        });
        let turn = 0;
        let strain = 0;
        const tri = binding.triangles;
        for (let t = 0; t < tri.length; t += 3) {
            const frame = (x: ArrayLike<number>): { normal: number[]; edge: number } => {
                const e1 = [0, 1, 2].map((a) => x[3 * tri[t + 1] + a] - x[3 * tri[t] + a]);
                const e2 = [0, 1, 2].map((a) => x[3 * tri[t + 2] + a] - x[3 * tri[t] + a]);
                const c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
                const length = Math.hypot(...c);
                return { normal: c.map((value) => value / length), edge: Math.hypot(...e1) };
            };
            const before = frame(rest);
            const after = frame(particles);
            const cosine = before.normal.reduce((sum, value, a) => sum + value * after.normal[a], 0);
            turn = Math.max(turn, Math.acos(Math.min(1, cosine)));
            strain = Math.max(strain, Math.abs(after.edge / before.edge - 1));
        }
        console.log(
            `render kernels vs RenderMeshSync, surface-only jelly (${n} vertices on ${tri.length / 3} triangles of ${body.particleCount} ` +
                `particles, offsets up to ${(1000 * largestOffset).toFixed(1)} mm; moved ${(1000 * Math.hypot(...travel)).toFixed(0)} mm, ` +
                `normals turned up to ${turn.toFixed(2)} rad, edges strained up to ${(100 * strain).toFixed(1)}%): positions within ` +
                `${result.positionWorst.toFixed(3)} of their bound, normals ${result.normalLargest.toExponential(2)} at worst, ` +
                `${result.normalWorst.toFixed(3)} of their bound`,
        );
        expect(result.positionWorst).toBeLessThanOrEqual(1);
        expect(result.normalWorst).toBeLessThanOrEqual(1);
        expect(gpu.motionScale).toBeCloseTo(1, 5);
        expect(gpu.turnReach).toBeCloseTo(2 * largestOffset, 5);
        // A non-trivial comparison: the offsets reach centimetres (the sphere lies off the lattice's surface), the
        // body moved, turned and changed shape, and the normals are unit vectors.
        expect(largestOffset).toBeGreaterThan(0.01);
        expect(Math.hypot(...travel)).toBeGreaterThan(0.05);
        expect(turn).toBeGreaterThan(0.5);
        expect(strain).toBeGreaterThan(0.02);
        expect(Math.hypot(gpu.normals[0], gpu.normals[1], gpu.normals[2])).toBeCloseTo(1, 5);

        solver.dispose();
        scene.dispose();
        engine.dispose();
    }, 120_000);
});
