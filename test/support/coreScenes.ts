import { createClothGrid } from "../../src/meshing/clothGrid";
import { tetEdges } from "../../src/meshing/tetEdges";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { Collider, ColliderMotion } from "../../src/core/collider";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";
import { XpbdWorld } from "../../src/core/xpbdWorld";

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

/** The cloth's mass (kg) in {@link boxOnHammock}. */
export const HAMMOCK_MASS = 0.5;
/** Half the edge (m) of the box in {@link boxOnHammock}. */
export const HAMMOCK_BOX_HALF = 0.15;

/**
 * The held contacts' scene: a 1.2 m, {@link HAMMOCK_MASS} kg cloth (24² segments, 1 cm thick) at y = 1 pinned by its
 * four corners, and a dynamic 0.3 m box of `mass` under gravity (9.81 m/s²) placed 0.5 mm above it, slightly off
 * centre so that the support is not symmetric by construction. The world (no air) holds the box; the caller adds the
 * cloth to it, or steps the cloth on the GPU.
 */
export function boxOnHammock(mass: number, clothOptions: SoftBodyOptions = {}): { world: XpbdWorld; body: SoftBody; box: Collider } {
    const { body } = clothBody(24, { size: 1.2, mass: HAMMOCK_MASS, plane: "xz", origin: [0, 1, 0], thickness: 0.01, ...clothOptions });
    for (const p of [0, 24, 600, 624]) {
        body.setPinWeight(p, 1);
    }
    const world = new XpbdWorld({ airDensity: 0 });
    const half = HAMMOCK_BOX_HALF;
    const inertia = (mass * (2 * half) ** 2) / 6;
    const box = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [half, half, half] }], {
        motion: ColliderMotion.Dynamic,
        mass,
        inertia: [inertia, inertia, inertia],
    });
    box.acceleration.set([0, -9.81, 0]);
    box.setPose(0.02, 1 + 0.01 + half + 0.0005, -0.03, 0, 0, 0, 1);
    world.addCollider(box);
    return { world, body, box };
}

/**
 * How far the bottom of {@link boxOnHammock}'s box is above the highest of the `count` particles in `x` (`stride`
 * numbers apart) under it (m; negative: sunk into the cloth).
 */
export function clearanceUnder(x: ArrayLike<number>, stride: number, count: number, box: Collider): number {
    const half = HAMMOCK_BOX_HALF;
    let top = -Infinity;
    for (let p = 0; p < count; p++) {
        if (Math.abs(x[stride * p] - box.position[0]) < half && Math.abs(x[stride * p + 2] - box.position[2]) < half) {
            top = Math.max(top, x[stride * p + 1]);
        }
    }
    return box.position[1] - half - top;
}

/** A chain of `n` particles from `start` along `direction` with `spacing` m, stretch i–i+1 and bend i–i+2. */
export function chain(
    n: number,
    start: number[],
    direction: number[],
    spacing: number,
    mass: number,
    options: SoftBodyOptions = {},
): SoftBody {
    const positions: number[] = [];
    const stretch: number[] = [];
    const shear: number[] = [];
    for (let i = 0; i < n; i++) {
        positions.push(start[0] + direction[0] * spacing * i, start[1] + direction[1] * spacing * i, start[2] + direction[2] * spacing * i);
        if (i + 1 < n) {
            stretch.push(i, i + 1);
        }
        if (i + 2 < n) {
            shear.push(i, i + 2);
        }
    }
    return new SoftBody({ positions, stretch, shear, mass }, { allowSleep: false, ...options });
}

/** A dynamic 10 cm cube of `mass` kg at `position`. */
export function cube(mass: number, position: number[]): Collider {
    const inertia = (mass * (0.1 * 0.1 + 0.1 * 0.1)) / 12;
    const collider = new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.05, 0.05, 0.05] }], {
        motion: ColliderMotion.Dynamic,
        mass,
        inertia: [inertia, inertia, inertia],
    });
    collider.setPose(position[0], position[1], position[2], 0, 0, 0, 1);
    return collider;
}
