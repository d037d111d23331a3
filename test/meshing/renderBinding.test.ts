import { CreateBoxVertexData } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphereVertexData } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { closestPointOnTriangle } from "../../src/core/closestPointOnTriangle";
import { buildClothTopology } from "../../src/meshing/clothTopology";
import { applyTetBinding, applyWeldBinding, bindToTets, computeVertexNormals } from "../../src/meshing/renderBinding";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";

/** x ↦ A·x + t with a sheared, non-uniformly scaled, rotated A (det > 0). */
const A = [1.2, 0.3, -0.1, -0.2, 0.9, 0.4, 0.15, -0.25, 1.1];
const T = [0.5, -2, 3];
function affine(src: ArrayLike<number>): Float64Array {
    const out = new Float64Array(src.length);
    for (let i = 0; i < src.length; i += 3) {
        for (let r = 0; r < 3; r++) out[i + r] = A[3 * r] * src[i] + A[3 * r + 1] * src[i + 1] + A[3 * r + 2] * src[i + 2] + T[r];
    }
    return out;
}
function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
    return m;
}

describe("tet binding", () => {
    const sphere = CreateSphereVertexData({ diameter: 1, segments: 24 });
    const render = sphere.positions!;
    const sim = tetrahedralize(render, sphere.indices!, { resolution: 6 });
    const binding = bindToTets(render, sim.positions, sim.tets);

    test("reproduces the rest positions", () => {
        const out = new Float32Array(render.length);
        applyTetBinding(binding, sim.positions, out);
        // Float32 output: 1e-6 is ~17 ulps at radius 0.5.
        expect(maxDifference(out, render)).toBeLessThan(1e-6);
        const out64 = new Float64Array(render.length);
        applyTetBinding(binding, sim.positions, out64);
        expect(maxDifference(out64, render)).toBeLessThan(1e-12);
    });

    test("follows an affine map of the particles exactly (weights are affine, even extrapolated)", () => {
        const out = new Float64Array(render.length);
        applyTetBinding(binding, affine(sim.positions), out);
        expect(maxDifference(out, affine(render))).toBeLessThan(1e-5);
    });

    test("render vertices outside the tets bind to a nearby tet, with no weight outside [−0.5, 1.5]", () => {
        expect(binding.report.unboundVertices.length).toBe(0);
        expect(binding.report.anomalousVertices.length).toBe(0);
        // The snapped tet surface is inscribed in the sphere: many render vertices are just outside it.
        expect(binding.report.outsideVertexCount).toBeGreaterThan(0);
        // Bound within one lattice cell (diameter 1 / resolution 6) of the tets.
        expect(binding.report.maxOutsideDistance).toBeLessThan(1 / 6);
        // The grid search binds to a tet at most half a grid cell farther than the true nearest one (brute force).
        const p = sim.positions,
            t = sim.tets,
            query = new Float64Array(3),
            scratch = new Float64Array(4);
        // Grid cell of bindToTets: longest tet-mesh extent / round(∛(tets / 2)); the extent is below 1 (diameter).
        const halfCell = 0.5 / Math.round(Math.cbrt(t.length / 4 / 2));
        const distanceToTet = (tet: number, x: number, y: number, z: number): number => {
            query.set([x, y, z]);
            let best = Infinity;
            for (const [i, j, k] of [
                [0, 1, 2],
                [0, 1, 3],
                [0, 2, 3],
                [1, 2, 3],
            ]) {
                const a = 3 * t[4 * tet + i],
                    b = 3 * t[4 * tet + j],
                    c = 3 * t[4 * tet + k];
                closestPointOnTriangle(p, a, b, c, query, scratch);
                best = Math.min(best, scratch[3]);
            }
            return Math.sqrt(best);
        };
        for (let v = 0; v < render.length / 3; v += 7) {
            const w = binding.weights.subarray(4 * v, 4 * v + 4);
            if (Math.min(...w) >= -1e-9) continue;
            const [x, y, z] = [render[3 * v], render[3 * v + 1], render[3 * v + 2]];
            let brute = Infinity;
            for (let tet = 0; tet < t.length / 4; tet++) brute = Math.min(brute, distanceToTet(tet, x, y, z));
            expect(distanceToTet(binding.tetIndex[v], x, y, z)).toBeLessThanOrEqual(brute + halfCell);
        }
    });

    test("interior points land in a tet that contains them", () => {
        const points: number[] = [];
        for (let i = 0; i < 200; i++) {
            const r = 0.35 * Math.cbrt((i + 0.5) / 200),
                theta = i * 2.399963,
                z = 1 - (2 * ((i * 37) % 200) + 1) / 200;
            const s = Math.sqrt(1 - z * z);
            points.push(r * s * Math.cos(theta), r * s * Math.sin(theta), r * z);
        }
        const b = bindToTets(points, sim.positions, sim.tets);
        expect(b.report.outsideVertexCount).toBe(0);
        for (let v = 0; v < 200; v++) {
            expect(Math.min(...b.weights.subarray(4 * v, 4 * v + 4))).toBeGreaterThanOrEqual(-1e-9);
            let sum = 0;
            for (let k = 0; k < 4; k++) sum += b.weights[4 * v + k];
            expect(sum).toBeCloseTo(1, 12);
        }
    });

    test("reports far-away vertices as anomalous and non-finite ones as unbound (left untouched)", () => {
        const b = bindToTets([0, 0, 0, 10, 0, 0, NaN, 0, 0], sim.positions, sim.tets);
        expect(Array.from(b.report.anomalousVertices)).toEqual([1]);
        expect(Array.from(b.report.unboundVertices)).toEqual([2]);
        expect(b.tetIndex[2]).toBe(-1);
        const out = new Float64Array([7, 7, 7, 7, 7, 7, 7, 7, 7]);
        applyTetBinding(b, sim.positions, out);
        expect(Array.from(out.subarray(6))).toEqual([7, 7, 7]);
        expect(out[3]).toBeCloseTo(10, 9);
    });

    test("bad tets throw", () => {
        expect(() => bindToTets(render, sim.positions, [])).toThrow("bindToTets: tets length 0");
        expect(() => bindToTets(render, sim.positions, [0, 1, 2, 1e6])).toThrow("bindToTets: tet index 3 (tet 0) is 1000000");
    });
});

describe("weld binding and normals", () => {
    test("cloth render vertices follow their particles", () => {
        const box = CreateBoxVertexData({ size: 1 });
        const topology = buildClothTopology(box.positions!, box.indices!);
        const out = new Float32Array(box.positions!.length);
        applyWeldBinding(topology.renderToParticle, topology.positions, out);
        expect(maxDifference(out, box.positions!)).toBe(0);
        applyWeldBinding(topology.renderToParticle, affine(topology.positions), out);
        expect(maxDifference(out, affine(box.positions!))).toBeLessThan(1e-6);
    });

    test("computeVertexNormals matches Babylon's VertexData.ComputeNormals (box exactly, sphere closely)", () => {
        for (const data of [CreateBoxVertexData({ size: 1 }), CreateSphereVertexData({ diameter: 1, segments: 16 })]) {
            const positions = data.positions!,
                indices = data.indices!;
            const ours = new Float32Array(positions.length);
            computeVertexNormals(positions, indices, ours);
            const babylon: number[] = [];
            VertexData.ComputeNormals(positions, indices, babylon);
            let minDot = Infinity;
            for (let i = 0; i < ours.length; i += 3) {
                // A vertex only in zero-area triangles (the sphere's pole vertex 0) gets (0, 0, 0) from both.
                if (babylon[i] === 0 && babylon[i + 1] === 0 && babylon[i + 2] === 0) {
                    expect([ours[i], ours[i + 1], ours[i + 2]]).toEqual([0, 0, 0]);
                    continue;
                }
                minDot = Math.min(minDot, ours[i] * babylon[i] + ours[i + 1] * babylon[i + 1] + ours[i + 2] * babylon[i + 2]);
            }
            // Area vs unit-normal weighting differs slightly on the sphere's uneven triangles, never in direction.
            expect(minDot).toBeGreaterThan(0.999);
        }
        const box = CreateBoxVertexData({ size: 1 });
        const ours = new Float64Array(box.positions!.length);
        computeVertexNormals(box.positions!, box.indices!, ours);
        expect(maxDifference(ours, box.normals!)).toBeLessThan(1e-6);
    });
});
