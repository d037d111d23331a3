import { createClothGrid } from "../../src/meshing/clothGrid";
import { tetEdges } from "../../src/meshing/tetEdges";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";

/** A square cloth of `segments`² quads, `size` metres wide, as a core body (particle i = grid vertex i). */
export function clothBody(
    segments: number,
    options: SoftBodyOptions & { size?: number; mass?: number; plane?: "xy" | "xz"; origin?: [number, number, number] } = {},
): { body: SoftBody; columns: number } {
    const { size = 1, mass = 1, plane = "xy", origin = [0, 0, 0], ...bodyOptions } = options;
    const grid = createClothGrid({ width: size, height: size, segmentsX: segments, segmentsY: segments, plane, origin });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass },
        bodyOptions,
    );
    return { body, columns: grid.columns };
}

/** The 8 corners and 12 triangles of an axis-aligned box centred on `center`. */
export function boxMesh(
    size: [number, number, number],
    center: [number, number, number] = [0, 0, 0],
): { positions: number[]; indices: number[] } {
    const positions: number[] = [];
    for (let k = 0; k < 8; k++) {
        positions.push(
            center[0] + ((k & 1 ? 1 : -1) * size[0]) / 2,
            center[1] + ((k & 2 ? 1 : -1) * size[1]) / 2,
            center[2] + ((k & 4 ? 1 : -1) * size[2]) / 2,
        );
    }
    // Two triangles per face, outward with (b − a) × (c − a).
    const indices = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
    return { positions, indices };
}

/** A tetrahedralised box (runtime tetrahedralisation at `resolution`) as a core body. */
export function tetBlock(
    size: [number, number, number],
    center: [number, number, number],
    options: SoftBodyOptions & { mass?: number; resolution?: number } = {},
): SoftBody {
    const { mass = 1, resolution = 4, ...bodyOptions } = options;
    const box = boxMesh(size, center);
    const tets = tetrahedralize(box.positions, box.indices, { resolution });
    const edges = tetEdges(tets.tets, tets.positions.length / 3);
    return new SoftBody(
        { positions: tets.positions, tets: tets.tets, stretch: edges, triangles: tets.surfaceTriangles, mass },
        bodyOptions,
    );
}

/** Lowest particle height (y). */
export function minY(body: SoftBody): number {
    let low = Infinity;
    for (let i = 1; i < body.positions.length; i += 3) {
        low = Math.min(low, body.positions[i]);
    }
    return low;
}
