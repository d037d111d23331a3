import { applySurfaceBinding, bindToSurface, dominantSurfaceParticles, latticeSurface } from "../../src/meshing/surfaceBinding";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { boxMesh } from "../support/coreScenes";
import { seededRandom } from "../support/seededRandom";

describe("surface binding (render vertices on a surface of particles)", () => {
    const box = boxMesh([0.4, 0.3, 0.2]);
    const tets = tetrahedralize(box.positions, box.indices, { resolution: 4 });
    const surface = latticeSurface(tets);

    test("the lattice's surface keeps only the particles its triangles use, renumbered", () => {
        const used = new Set(tets.surfaceTriangles);
        expect(surface.positions.length / 3).toBe(used.size);
        expect(Math.max(...surface.triangles)).toBe(used.size - 1);
        expect(surface.triangles.length).toBe(tets.surfaceTriangles.length);
        for (let k = 0; k < surface.triangles.length; k++) {
            const p = tets.surfaceTriangles[k];
            const q = surface.triangles[k];
            expect(Array.from(surface.positions.subarray(3 * q, 3 * q + 3))).toEqual(Array.from(tets.positions.subarray(3 * p, 3 * p + 3)));
        }
    });

    test("a rigid motion of the particles moves every bound vertex with it, exactly; each maps to a corner of its triangle", () => {
        const random = seededRandom(3);
        // Points near the surface, inside and outside it, and the box's own corners.
        const points = [...box.positions, ...Array.from({ length: 90 }, () => (random() - 0.5) * 0.5)];
        const binding = bindToSurface(points, surface.positions, surface.triangles);
        const angle = 0.8;
        const [c, s] = [Math.cos(angle), Math.sin(angle)];
        const move = (x: number, y: number, z: number): number[] => [c * x + s * z + 1, y - 2, -s * x + c * z + 0.5];
        const moved = new Float64Array(surface.positions.length);
        for (let p = 0; p < moved.length; p += 3)
            moved.set(move(surface.positions[p], surface.positions[p + 1], surface.positions[p + 2]), p);
        const out = new Float64Array(points.length);
        applySurfaceBinding(binding, moved, out);
        let error = 0;
        for (let v = 0; v < points.length; v += 3) {
            const expected = move(points[v], points[v + 1], points[v + 2]);
            error = Math.max(error, Math.hypot(out[v] - expected[0], out[v + 1] - expected[1], out[v + 2] - expected[2]));
        }
        expect(error).toBeLessThan(1e-12);
        const corners = dominantSurfaceParticles(binding);
        for (let v = 0; v < corners.length; v++) {
            const t = binding.triangle[v];
            expect(Array.from(surface.triangles.subarray(t, t + 3))).toContain(corners[v]);
        }
    });
});
