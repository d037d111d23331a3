import { CreateBoxVertexData } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphereVertexData } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { CreateTorusVertexData } from "@babylonjs/core/Meshes/Builders/torusBuilder";
import { buildClothTopology } from "../../src/meshing/clothTopology";

function uniquePositionCount(positions: ArrayLike<number>, tolerance: number): number {
    const keys = new Set<string>();
    for (let i = 0; i < positions.length; i += 3) {
        keys.add([0, 1, 2].map((k) => Math.round(positions[i + k] / tolerance)).join(","));
    }
    return keys.size;
}

function eulerCharacteristic(t: ReturnType<typeof buildClothTopology>): number {
    return t.positions.length / 3 - t.stretch.length / 2 + t.triangles.length / 3;
}

describe("buildClothTopology", () => {
    test("box: 24 seam vertices weld to the 8 corners; closed, V − E + F = 2", () => {
        const box = CreateBoxVertexData({ size: 2 });
        const t = buildClothTopology(box.positions!, box.indices!);
        expect(box.positions!.length / 3).toBe(24);
        expect(t.positions.length / 3).toBe(8);
        expect(t.triangles.length / 3).toBe(12);
        expect(t.stretch.length / 2).toBe(18);
        expect(eulerCharacteristic(t)).toBe(2);
        expect(t.report.boundaryEdgeCount).toBe(0);
        expect(t.report.nonManifoldEdges.length).toBe(0);
        // Every edge of a closed manifold has two triangles: one bend element each.
        expect(t.bend.length / 4).toBe(18);
        expect(t.report.inconsistentEdgeCount).toBe(0);
        // Render vertex i sits exactly on its particle.
        for (let v = 0; v < 24; v++) {
            for (let k = 0; k < 3; k++) expect(t.positions[3 * t.renderToParticle[v] + k]).toBe(box.positions![3 * v + k]);
        }
    });

    test("sphere: seams and poles weld to the unique positions; pole triangles dropped as degenerate", () => {
        const sphere = CreateSphereVertexData({ diameter: 1, segments: 16 });
        const t = buildClothTopology(sphere.positions!, sphere.indices!);
        const unique = uniquePositionCount(sphere.positions!, 1e-6);
        expect(t.positions.length / 3).toBe(unique);
        expect(t.positions.length / 3).toBeLessThan(sphere.positions!.length / 3);
        expect(eulerCharacteristic(t)).toBe(2);
        expect(t.report.boundaryEdgeCount).toBe(0);
        expect(t.report.nonManifoldEdges.length).toBe(0);
        expect(t.report.isolatedParticles.length).toBe(0);
        expect(t.report.degenerateTriangles.length + t.triangles.length / 3).toBe(sphere.indices!.length / 3);
        // Closed manifold: 2E = 3F, and one bend element per edge.
        expect(t.stretch.length / 2).toBe((3 * t.triangles.length) / 6);
        expect(t.bend.length / 4).toBe(t.stretch.length / 2);
        expect(t.report.inconsistentEdgeCount).toBe(0);
    });

    test("torus: genus 1, V − E + F = 0", () => {
        const torus = CreateTorusVertexData({ diameter: 1, thickness: 0.3, tessellation: 12 });
        const t = buildClothTopology(torus.positions!, torus.indices!);
        expect(t.positions.length / 3).toBe(12 * 12);
        expect(eulerCharacteristic(t)).toBe(0);
        expect(t.report.boundaryEdgeCount).toBe(0);
    });

    test("bend elements follow the [a, b, c, d] convention and keep the mesh winding", () => {
        const sphere = CreateSphereVertexData({ diameter: 1, segments: 8 });
        const t = buildClothTopology(sphere.positions!, sphere.indices!);
        const directed = new Set<string>();
        for (let i = 0; i < t.triangles.length; i += 3) {
            for (let k = 0; k < 3; k++) directed.add(`${t.triangles[i + k]}>${t.triangles[i + ((k + 1) % 3)]}`);
        }
        for (let i = 0; i < t.bend.length; i += 4) {
            const [a, b, c, d] = t.bend.subarray(i, i + 4);
            // Triangle (a, c, d) traverses c→d and d→a; triangle (b, d, c) traverses d→c and c→b.
            expect(directed.has(`${c}>${d}`) && directed.has(`${d}>${a}`)).toBe(true);
            expect(directed.has(`${d}>${c}`) && directed.has(`${c}>${b}`)).toBe(true);
        }
    });

    test("quad strip: stretch, shear (other diagonal) and boundary counts", () => {
        // Two quads side by side: 0-1-2 / 3-4-5, each split along one diagonal.
        const positions = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0];
        const indices = [0, 4, 3, 0, 1, 4, 1, 5, 4, 1, 2, 5];
        const t = buildClothTopology(positions, indices);
        expect(t.stretch.length / 2).toBe(9);
        expect(t.report.boundaryEdgeCount).toBe(6);
        expect(t.bend.length / 4).toBe(3);
        // Interior edges 0-4, 1-4, 1-5 give the opposite-vertex pairs 3-1, 0-5 and 4-2.
        const shear = Array.from({ length: t.shear.length / 2 }, (_, i) => `${t.shear[2 * i]}-${t.shear[2 * i + 1]}`).sort();
        expect(shear).toEqual(["0-5", "1-3", "2-4"]);
    });

    test("non-manifold edge: listed, no bend or shear from it, no crash", () => {
        // Three triangles sharing edge 0-1 (a "book" with three pages).
        const positions = [0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1];
        const indices = [0, 1, 2, 1, 0, 3, 0, 1, 4];
        const t = buildClothTopology(positions, indices);
        expect(Array.from(t.report.nonManifoldEdges)).toEqual([0, 1]);
        expect(t.bend.length).toBe(0);
        expect(t.shear.length).toBe(0);
        expect(t.report.boundaryEdgeCount).toBe(6);
    });

    test("duplicate and degenerate triangles dropped and reported; isolated particles listed", () => {
        const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 5, 5, 5, 2, 0, 0];
        // t0 ok; t1 = t0 reversed (duplicate after welding vertex 3 onto 1); t2 collapses (1 and 3 weld); t3 collinear.
        const indices = [0, 1, 2, 0, 2, 3, 0, 1, 3, 0, 1, 5];
        const t = buildClothTopology(positions, indices);
        expect(t.positions.length / 3).toBe(5);
        expect(Array.from(t.report.duplicateTriangles)).toEqual([1]);
        expect(Array.from(t.report.degenerateTriangles)).toEqual([2, 3]);
        expect(t.triangles.length / 3).toBe(1);
        expect(Array.from(t.triangleSource)).toEqual([0]);
        // Particle 3 is (5, 5, 5), particle 4 is (2, 0, 0): neither is in a kept triangle.
        expect(Array.from(t.report.isolatedParticles)).toEqual([3, 4]);
    });

    test("bad input throws clear errors", () => {
        expect(() => buildClothTopology([], [])).toThrow("buildClothTopology: mesh is empty");
        expect(() => buildClothTopology([0, 0, 0, 1, 0, 0, 0, NaN, 0], [0, 1, 2])).toThrow(
            "buildClothTopology: vertex 2 has a non-finite y coordinate (NaN)",
        );
        expect(() => buildClothTopology([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 7])).toThrow(
            "buildClothTopology: index 2 (triangle 0) is 7, out of range [0, 3)",
        );
        expect(() => buildClothTopology([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1])).toThrow("indices length 2 is not a multiple of 3");
    });
});
