import { createClothGrid } from "../../src/meshing/clothGrid";
import { buildClothTopology } from "../../src/meshing/clothTopology";
import { TearBinding } from "../../src/meshing/tearBinding";
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";

/** Tears a cloth built from `positions`/`indices` by pulling its left and right borders apart; returns the body. */
function tear(
    positions: ArrayLike<number>,
    indices: ArrayLike<number>,
): { body: SoftBody; topology: ReturnType<typeof buildClothTopology> } {
    const topology = buildClothTopology(positions, indices);
    const body = new SoftBody(
        {
            positions: topology.positions,
            triangles: topology.triangles,
            stretch: topology.stretch,
            shear: topology.shear,
            bend: topology.bend,
            mass: 0.2,
        },
        { tearRatio: 1.5, allowSleep: false },
    );
    const world = new XpbdWorld({ substeps: 10 });
    world.addBody(body);
    const side: number[] = [];
    for (let p = 0; p < body.particleCount; p++) {
        const x = body.positions[3 * p];
        if (Math.abs(Math.abs(x) - 0.5) < 1e-6) {
            body.setPinWeight(p, 1);
            side.push(p);
        }
    }
    const start = Float64Array.from(body.positions);
    for (let s = 1; s <= 90; s++) {
        for (const p of side) body.setPinTarget(p, start[3 * p] * (1 + s / 60), start[3 * p + 1], start[3 * p + 2]);
        world.step(1 / 60);
    }
    return { body, topology };
}

/** Every render triangle that has a simulation triangle uses exactly that triangle's particles, corner for corner. */
function expectFollows(binding: TearBinding, body: SoftBody, topology: ReturnType<typeof buildClothTopology>): void {
    topology.triangleSource.forEach((t, s) => {
        for (let k = 0; k < 3; k++) {
            expect(binding.renderToParticle[binding.indices[3 * t + k]]).toBe(body.triangles[3 * s + k]);
        }
    });
}

describe("TearBinding", () => {
    it("splits a render vertex for every particle split on a seamless grid, and each triangle follows its particles", () => {
        const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 16, segmentsY: 8 });
        const { body, topology } = tear(grid.positions, grid.indices);
        const binding = new TearBinding(grid.indices, topology);
        const vertices = binding.vertexCount;
        const change = binding.follow(body.triangles);
        console.log(`${body.tearing!.tornParticles} particles split; ${change.added} render vertices added`);
        expect(body.tearing!.tornParticles).toBeGreaterThan(5);
        expect(change.added).toBe(body.tearing!.tornParticles);
        expect(binding.vertexCount).toBe(vertices + change.added);
        expectFollows(binding, body, topology);
        // A copy descends from a vertex of the mesh, at the same rest place as its particle.
        for (let v = vertices; v < binding.vertexCount; v++) {
            const origin = binding.vertexOrigin[v];
            expect(origin).toBeLessThan(vertices);
            for (let k = 0; k < 3; k++) {
                expect(body.restPositions[3 * binding.renderToParticle[v] + k]).toBeCloseTo(grid.positions[3 * origin + k], 6);
            }
        }
        // Nothing changes when nothing tore since.
        expect(binding.follow(body.triangles)).toEqual({ added: 0, sources: new Int32Array(0), indicesChanged: false });
    });

    it("follows a mesh with a seam and a back side (render vertices sharing particles, duplicate triangles)", () => {
        // Two copies of each grid vertex (front and back faces), and the back faces wound the other way.
        const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 12, segmentsY: 6 });
        const n = grid.positions.length / 3;
        const positions = new Float32Array(2 * grid.positions.length);
        positions.set(grid.positions);
        positions.set(grid.positions, grid.positions.length);
        const indices: number[] = Array.from(grid.indices);
        for (let k = 0; k < grid.indices.length; k += 3) {
            indices.push(n + grid.indices[k], n + grid.indices[k + 2], n + grid.indices[k + 1]);
        }
        const { body, topology } = tear(positions, indices);
        expect(topology.report.duplicateTriangles.length).toBe(grid.indices.length / 3);
        const binding = new TearBinding(indices, topology);
        const change = binding.follow(body.triangles);
        expect(body.tearing!.tornParticles).toBeGreaterThan(3);
        // Front and back both open: two render vertices per particle split.
        expect(change.added).toBe(2 * body.tearing!.tornParticles);
        expectFollows(binding, body, topology);
        // The back faces follow the triangles they repeat.
        for (let t = grid.indices.length / 3; t < indices.length / 3; t++) {
            const front = t - grid.indices.length / 3;
            const particles = (tri: number) =>
                [0, 1, 2].map((k) => binding.renderToParticle[binding.indices[3 * tri + k]]).sort((a, b) => a - b);
            expect(particles(t)).toEqual(particles(front));
        }
    });

    it("moves a render vertex over whole when all its triangles go to the new particle (a seam along the tear)", () => {
        // A UV seam down the middle column: the triangles right of it use copies of the middle vertices.
        const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 16, segmentsY: 8 });
        const columns = grid.columns;
        const n = grid.positions.length / 3;
        const middle = (columns - 1) / 2;
        const positions = Array.from(grid.positions);
        const copyOf = new Map<number, number>();
        for (let j = 0; j < grid.rows; j++) {
            const v = j * columns + middle;
            copyOf.set(v, n + j);
            positions.push(grid.positions[3 * v], grid.positions[3 * v + 1], grid.positions[3 * v + 2]);
        }
        const indices = Array.from(grid.indices);
        for (let t = 0; t < indices.length; t += 3) {
            const right = [0, 1, 2].some((k) => indices[t + k] % columns > middle);
            for (let k = 0; right && k < 3; k++) indices[t + k] = copyOf.get(indices[t + k]) ?? indices[t + k];
        }
        const { body, topology } = tear(positions, indices);
        const binding = new TearBinding(indices, topology);
        const change = binding.follow(body.triangles);
        console.log(`seam along the tear: ${body.tearing!.tornParticles} particles split; ${change.added} render vertices added`);
        expect(change.added).toBeLessThan(body.tearing!.tornParticles);
        expectFollows(binding, body, topology);
    });
});
