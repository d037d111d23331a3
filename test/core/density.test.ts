import { SoftBody } from "../../src/core/softBody";
import { tetVolume } from "../../src/core/volumeConstraints";
import { boxMesh } from "../support/coreScenes";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { createClothGrid } from "../../src/meshing/clothGrid";

describe("density in a soft body descriptor", () => {
    test("a cloth weighs density × area, spread by area", () => {
        // 1.5 m × 0.5 m at 0.45 kg/m² (denim) is 0.3375 kg.
        const t = createClothGrid({ width: 1.5, height: 0.5, segmentsX: 6, segmentsY: 2 }).topology;
        const body = new SoftBody({ positions: t.positions, triangles: t.triangles, density: 0.45 });
        expect(body.totalMass).toBeCloseTo(0.3375, 14);
        // An interior particle shares more triangles than a corner one: masses follow area.
        expect(body.masses[8]).toBeGreaterThan(body.masses[0]);
    });

    test("a tet body weighs density × tet volume", () => {
        const box = boxMesh([0.4, 0.2, 0.3]);
        const tets = tetrahedralize(box.positions, box.indices, { resolution: 3 });
        const body = new SoftBody({ positions: tets.positions, tets: tets.tets, triangles: tets.surfaceTriangles, density: 1000 });
        let volume = 0;
        for (let k = 0; k < tets.tets.length; k += 4) {
            volume += tetVolume(tets.positions, tets.tets[k], tets.tets[k + 1], tets.tets[k + 2], tets.tets[k + 3]);
        }
        expect(body.totalMass).toBeCloseTo(1000 * volume, 9);
    });

    test("bad densities are refused with the option's name", () => {
        const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0];
        expect(() => new SoftBody({ positions, triangles: [0, 1, 2], density: 0 })).toThrow(
            "density must be a positive finite number, got 0",
        );
        expect(() => new SoftBody({ positions, triangles: [0, 1, 2], density: 2, mass: 1 })).toThrow("give mass or density, not both");
        expect(() => new SoftBody({ positions, density: 2 })).toThrow("density needs tets (kg/m³) or triangles (kg/m²)");
        expect(() => new SoftBody({ positions: [0, 0, 0, 1, 0, 0, 2, 0, 0], triangles: [0, 1, 2], density: 2 })).toThrow(
            "has no volume or area",
        );
    });
});
