import { CreateBoxVertexData } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphereVertexData } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { CreateTorusVertexData } from "@babylonjs/core/Meshes/Builders/torusBuilder";
import { buildClothTopology } from "../../src/meshing/clothTopology";
import { tetQuality } from "../../src/meshing/tetGeometry";
import { tetVolume as tetSignedVolume } from "../../src/core/volumeConstraints";
import { tetrahedralize, type TetMesh } from "../../src/meshing/tetrahedralize";

const meshes = {
    box: CreateBoxVertexData({ size: 1 }),
    sphere: CreateSphereVertexData({ diameter: 1, segments: 32 }),
    torus: CreateTorusVertexData({ diameter: 1, thickness: 0.3, tessellation: 32 }),
};

/**
 * Relative volume error at resolutions 6 / 10 / 16, measured when this was written:
 * box −3.0% / −1.5% / −0.8%, sphere −3.4% / −1.3% / −0.6%, torus −15.8% / −4.6% / −3.1%.
 * Bounds at the default resolution (10) leave ~0.5% of slack over those figures.
 */
const maxErrorAtDefault = { box: 0.02, sphere: 0.018, torus: 0.052 };

function checkTetMesh(m: TetMesh): void {
    const { positions, tets } = m;
    let volume = 0,
        minQuality = Infinity,
        minVolume = Infinity;
    for (let t = 0; t < tets.length; t += 4) {
        const v = tetSignedVolume(positions, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]);
        minVolume = Math.min(minVolume, v);
        volume += v;
        minQuality = Math.min(minQuality, tetQuality(positions, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]));
    }
    expect(minVolume).toBeGreaterThan(0);
    expect(m.stats.tetCount).toBe(tets.length / 4);
    expect(m.stats.particleCount).toBe(positions.length / 3);
    expect(m.stats.volume).toBeCloseTo(volume, 12);
    expect(m.stats.minQuality).toBeCloseTo(minQuality, 12);
    // Snapping never lets a tet drop below quality 0.1 unless it improves it: the floor stays well above 0.
    expect(minQuality).toBeGreaterThan(0.09);
    // Every particle is used by a tet.
    const used = new Uint8Array(positions.length / 3);
    for (const v of tets) used[v] = 1;
    expect(used.every((u) => u === 1)).toBe(true);
    // The boundary is a closed surface (possibly pinched along an edge where two tets touch only there, as in the
    // torus tube at resolution 6) with Babylon winding: the outward normal is (p0 − p1) × (p2 − p1), so the
    // divergence-theorem volume with the usual (b − a) × (c − a) convention is minus the tet volume.
    const surface = buildClothTopology(positions, m.surfaceTriangles);
    expect(surface.report.boundaryEdgeCount).toBe(0);
    let surfaceVolume = 0;
    const s = m.surfaceTriangles;
    for (let i = 0; i < s.length; i += 3) surfaceVolume += tetSignedVolume(positions, s[0], s[i], s[i + 1], s[i + 2]);
    expect(-surfaceVolume / volume).toBeCloseTo(1, 9);
}

describe("tetrahedralize", () => {
    test.each(Object.keys(meshes) as (keyof typeof meshes)[])("%s: positive tets, volume converges to the mesh volume", (name) => {
        const { positions, indices } = meshes[name];
        const errors: number[] = [];
        for (const resolution of [6, 10, 16]) {
            const m = tetrahedralize(positions!, indices!, { resolution });
            checkTetMesh(m);
            expect(m.warnings).toEqual([]);
            errors.push(Math.abs(m.stats.volume / m.stats.meshVolume - 1));
        }
        expect(errors[1]).toBeLessThan(errors[0]);
        expect(errors[2]).toBeLessThan(errors[1]);
        expect(errors[1]).toBeLessThan(maxErrorAtDefault[name]);
    });

    test("mesh volumes are exact for the box and match the analytic sphere within tessellation error", () => {
        const box = tetrahedralize(meshes.box.positions!, meshes.box.indices!);
        expect(box.stats.meshVolume).toBeCloseTo(1, 12);
        const sphere = tetrahedralize(meshes.sphere.positions!, meshes.sphere.indices!);
        // A 32-segment UV sphere encloses ~99.4% of the exact ball.
        expect(sphere.stats.meshVolume / (Math.PI / 6)).toBeGreaterThan(0.99);
        expect(sphere.stats.meshVolume / (Math.PI / 6)).toBeLessThan(1);
    });

    test("either input winding gives the same tets", () => {
        const { positions, indices } = meshes.sphere;
        const flipped = Array.from(indices!);
        for (let i = 0; i < flipped.length; i += 3) [flipped[i + 1], flipped[i + 2]] = [flipped[i + 2], flipped[i + 1]];
        const a = tetrahedralize(positions!, indices!, { resolution: 6 });
        const b = tetrahedralize(positions!, flipped, { resolution: 6 });
        expect(b.stats.tetCount).toBe(a.stats.tetCount);
        expect(b.stats.volume).toBeCloseTo(a.stats.volume, 12);
    });

    test("without snapping the tets are untouched BCC lattice tets (quality ≈ 0.93)", () => {
        const m = tetrahedralize(meshes.sphere.positions!, meshes.sphere.indices!, { snapToSurface: false });
        expect(m.stats.minQuality).toBeCloseTo(0.9295, 3);
        expect(m.stats.snappedVertices).toBe(0);
    });

    describe("bad input", () => {
        const box = meshes.box;
        test("empty mesh", () => {
            expect(() => tetrahedralize([], [])).toThrow("tetrahedralize: mesh is empty (0 vertices, 0 triangles)");
        });
        test("NaN / Infinity position names the vertex", () => {
            const p = Array.from(box.positions!);
            p[3 * 5 + 2] = NaN;
            expect(() => tetrahedralize(p, box.indices!)).toThrow("tetrahedralize: vertex 5 has a non-finite z coordinate (NaN)");
            p[3 * 5 + 2] = Infinity;
            expect(() => tetrahedralize(p, box.indices!)).toThrow("vertex 5 has a non-finite z coordinate (Infinity)");
        });
        test("index out of range names the slot", () => {
            const idx = Array.from(box.indices!);
            idx[7] = 24;
            expect(() => tetrahedralize(box.positions!, idx)).toThrow("tetrahedralize: index 7 (triangle 2) is 24, out of range [0, 24)");
            idx[7] = -1;
            expect(() => tetrahedralize(box.positions!, idx)).toThrow("index 7 (triangle 2) is -1");
        });
        test("indices length not a multiple of 3", () => {
            expect(() => tetrahedralize(box.positions!, Array.from(box.indices!).slice(0, 35))).toThrow(
                "tetrahedralize: indices length 35 is not a multiple of 3",
            );
        });
        test("open mesh throws unless allowOpen, which warns and does a best effort", () => {
            const open = Array.from(box.indices!).slice(3); // one triangle missing: its 3 edges are boundary edges
            expect(() => tetrahedralize(box.positions!, open)).toThrow("tetrahedralize: mesh is not closed (3 boundary edges)");
            const m = tetrahedralize(box.positions!, open, { allowOpen: true });
            expect(m.warnings.length).toBe(1);
            expect(m.warnings[0]).toContain("not closed (3 boundary edges)");
            checkTetMesh(m);
            // The winding number still fills most of the box (the missing half-face is a small hole).
            expect(m.stats.volume).toBeGreaterThan(0.9);
        });
        test("bad resolution", () => {
            expect(() => tetrahedralize(box.positions!, box.indices!, { resolution: 0 })).toThrow("resolution must be an integer");
            expect(() => tetrahedralize(box.positions!, box.indices!, { resolution: 2.5 })).toThrow("resolution must be an integer");
        });
    });
});
