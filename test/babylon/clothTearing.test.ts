/**
 * ClothImpostor tearing in a real Havok scene (NullEngine): a banner pulled apart by two animated handle nodes tears
 * along a line between them, its render mesh opens with it (as many more vertices as particles split, indices and
 * normals following), onTearObservable reports the torn edges, and the capacity report, the options and the
 * determinism hold.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Logger } from "@babylonjs/core/Misc/logger";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import type { XpbdCapacityEvent } from "../../src/babylon/stepEvents";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor, type ClothImpostorOptions, type ClothTearEvent } from "../../src/babylon/clothImpostor";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { computeVertexNormals } from "../../src/meshing/renderBinding";
import { exactSum, pieces } from "../support/pulledCloth";

const SEGMENTS = 20;

interface Banner {
    cloth: ClothImpostor;
    mesh: Mesh;
    left: TransformNode;
    right: TransformNode;
    /** Render vertices of the left and right borders (held by the handles). */
    leftVertices: number[];
    rightVertices: number[];
    /** Copies of every tear event. */
    tears: { edges: number[]; particleEdges: number[]; particlesSplit: number; verticesAdded: number; bodySplits: number }[];
    plugin: XpbdPlugin;
}

/** A 1 m × 0.5 m banner at y = 1.5 (a seamless grid mesh with uvs), its left and right borders pinned to two nodes. */
function banner(h: HavokScene, options: ClothImpostorOptions): Banner {
    const plugin = new XpbdPlugin(h.scene, { substeps: 10 });
    const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: SEGMENTS, segmentsY: SEGMENTS / 2 });
    const data = new VertexData();
    data.positions = grid.positions;
    data.indices = grid.indices;
    data.uvs = grid.uvs;
    data.normals = grid.normals;
    const mesh = new Mesh("banner", h.scene);
    data.applyToMesh(mesh, true);
    mesh.position.y = 1.5;
    const cloth = new ClothImpostor(mesh, { mass: 0.2, ...options }, plugin);
    const left = new TransformNode("left", h.scene);
    const right = new TransformNode("right", h.scene);
    const leftVertices: number[] = [];
    const rightVertices: number[] = [];
    for (let j = 0; j < grid.rows; j++) {
        leftVertices.push(j * grid.columns);
        rightVertices.push(j * grid.columns + grid.columns - 1);
    }
    cloth.pinTo(leftVertices, left);
    cloth.pinTo(rightVertices, right);
    const tears: Banner["tears"] = [];
    cloth.onTearObservable.add((e: ClothTearEvent) => {
        tears.push({
            edges: Array.from(e.edges.subarray(0, 2 * e.edgeCount)),
            particleEdges: Array.from(e.particleEdges.subarray(0, 2 * e.edgeCount)),
            particlesSplit: e.particlesSplit,
            verticesAdded: e.verticesAdded,
            bodySplits: e.impostor.body.tearing!.tearCount,
        });
    });
    return { cloth, mesh, left, right, leftVertices, rightVertices, tears, plugin };
}

/** Moves the handles apart along x at `speed` m/s each, one frame per call; returns after `frames` frames. */
function pullApart(h: HavokScene, b: Banner, speed: number, frames: number): void {
    for (let f = 1; f <= frames; f++) {
        b.left.position.x = -speed * f * (1 / 60);
        b.right.position.x = speed * f * (1 / 60);
        h.step();
    }
}

describe("ClothImpostor tearing", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("tears along a line between two handles pulled apart, the render mesh opening with it", () => {
        const b = banner(h, { tearRatio: 1.5 });
        const { cloth, mesh } = b;
        const vertices = mesh.getTotalVertices();
        const particles = cloth.body.particleCount;
        const mass = exactSum(cloth.body.masses, particles);
        pullApart(h, b, 0.75, 90);
        const body = cloth.body;
        const split = body.particleCount - particles;
        const reported = b.tears.reduce((sum, t) => sum + t.particlesSplit, 0);
        console.log(
            `${b.tears.length} tear events, ${b.tears.reduce((s, t) => s + t.particleEdges.length / 2, 0)} torn edges, ` +
                `${split} particles split, ${mesh.getTotalVertices() - vertices} render vertices added`,
        );
        expect(split).toBeGreaterThan(5);
        // Every split was reported, after the step that made it, and the mesh has one more vertex for each.
        expect(reported).toBe(split);
        for (const t of b.tears) expect(t.bodySplits).toBe(t.particlesSplit);
        expect(mesh.getTotalVertices()).toBe(vertices + split);
        expect(b.tears.reduce((sum, t) => sum + t.verticesAdded, 0)).toBe(split);
        expect(cloth.vertexToParticle.length).toBe(vertices + split);
        // A line between the handles: two pieces, one per handle; every torn edge within two quads of x = 0 at rest.
        const label = pieces(cloth.body);
        const leftPiece = label[cloth.vertexToParticle[b.leftVertices[0]]];
        const rightPiece = label[cloth.vertexToParticle[b.rightVertices[0]]];
        expect(leftPiece).not.toBe(rightPiece);
        for (const t of b.tears) {
            for (let k = 0; k < t.particleEdges.length; k += 2) {
                const [p, q] = [t.particleEdges[k], t.particleEdges[k + 1]];
                expect(Math.abs((body.restPositions[3 * p] + body.restPositions[3 * q]) / 2)).toBeLessThanOrEqual(2 / SEGMENTS);
                // The render vertices the event names followed those particles.
                expect(t.edges[k]).toBeGreaterThanOrEqual(0);
                expect(t.edges[k + 1]).toBeGreaterThanOrEqual(0);
            }
        }
        // Mass conserved exactly; nothing non-finite.
        expect(exactSum(body.masses, body.particleCount)).toBe(mass);
        expect(body.positions.subarray(0, 3 * body.particleCount).every(Number.isFinite)).toBe(true);
        // Turn the right handle a quarter turn about the vertical: the right piece then faces another way than the
        // left one, so a normal shared across the tear would show.
        for (let f = 1; f <= 40; f++) {
            b.right.rotation.y = (Math.PI / 2) * Math.min(1, f / 20);
            h.step();
        }
        // The render mesh: every vertex where its particle is, and the index buffer is the split one.
        cloth.updateRenderMesh();
        const positions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
        const world = mesh.computeWorldMatrix(true);
        const inverse = world.clone().invert();
        for (let v = 0; v < mesh.getTotalVertices(); v++) {
            const p = cloth.vertexToParticle[v];
            const x = body.positions[3 * p];
            const y = body.positions[3 * p + 1];
            const z = body.positions[3 * p + 2];
            const m = inverse.m;
            expect(positions[3 * v]).toBeCloseTo(x * m[0] + y * m[4] + z * m[8] + m[12], 5);
            expect(positions[3 * v + 1]).toBeCloseTo(x * m[1] + y * m[5] + z * m[9] + m[13], 5);
        }
        const indices = mesh.getIndices()!;
        const t = body.triangles;
        for (let k = 0; k < t.length; k++) {
            // The grid's render triangles are its simulation triangles, corner for corner.
            expect(cloth.vertexToParticle[indices[k]]).toBe(t[k]);
        }
        // Normals: each vertex shaded from its own side's triangles, unit length, as computed afresh on the torn mesh.
        const normals = mesh.getVerticesData(VertexBuffer.NormalKind)!;
        const expected = new Float32Array(normals.length);
        computeVertexNormals(positions, indices, expected);
        let worst = 0;
        for (let i = 0; i < normals.length; i += 3) {
            const length = Math.hypot(normals[i], normals[i + 1], normals[i + 2]);
            expect(Math.abs(length - 1)).toBeLessThan(1e-5);
            // The sign follows the mesh's authored normals (one sign for the whole mesh).
            worst = Math.max(
                worst,
                1 - Math.abs(normals[i] * expected[i] + normals[i + 1] * expected[i + 1] + normals[i + 2] * expected[i + 2]),
            );
        }
        expect(worst).toBeLessThan(1e-5);
        // The uvs of each added vertex are those of the vertex it was split from (same rest place).
        const uvs = mesh.getVerticesData(VertexBuffer.UVKind)!;
        expect(uvs.length).toBe(2 * mesh.getTotalVertices());
        for (let v = vertices; v < mesh.getTotalVertices(); v++) {
            const p = cloth.vertexToParticle[v];
            expect(uvs[2 * v]).toBeCloseTo(body.restPositions[3 * p] + 0.5, 5);
        }
    });

    it("restores a state saved before the tear (the mesh closes, the same tear follows) and a torn one into a fresh scene", async () => {
        const b = banner(h, { tearRatio: 1.5 });
        const { cloth, mesh } = b;
        const particles = cloth.body.particleCount;
        const vertices = mesh.getTotalVertices();
        const before = b.plugin.saveState();
        pullApart(h, b, 0.75, 90);
        const torn = b.plugin.saveState();
        const tornPositions = cloth.body.positions.slice(0, 3 * cloth.body.particleCount);
        const tornCount = cloth.body.particleCount;
        expect(tornCount).toBeGreaterThan(particles + 5);

        /** Every render vertex follows a particle the body has, and sits where it is; the render triangles are the body's. */
        const expectMeshFollowsBody = (c: ClothImpostor, m: Mesh) => {
            c.updateRenderMesh();
            const body = c.body;
            const positions = m.getVerticesData(VertexBuffer.PositionKind)!;
            const inverse = m.computeWorldMatrix(true).clone().invert().m;
            let worst = 0;
            for (let v = 0; v < m.getTotalVertices(); v++) {
                const p = c.vertexToParticle[v];
                expect(p).toBeLessThan(body.particleCount);
                const [x, y, z] = [body.positions[3 * p], body.positions[3 * p + 1], body.positions[3 * p + 2]];
                worst = Math.max(
                    worst,
                    Math.abs(positions[3 * v] - (x * inverse[0] + y * inverse[4] + z * inverse[8] + inverse[12])),
                    Math.abs(positions[3 * v + 1] - (x * inverse[1] + y * inverse[5] + z * inverse[9] + inverse[13])),
                );
            }
            expect(worst).toBeLessThan(1e-5);
            const indices = m.getIndices()!;
            for (let k = 0; k < body.triangles.length; k++) {
                expect(c.vertexToParticle[indices[k]]).toBe(body.triangles[k]);
            }
        };

        // Back to before the tear: whole again (one piece), and its mesh closed over the vertices the tear added.
        b.plugin.restoreState(before);
        b.left.position.x = 0;
        b.right.position.x = 0;
        expect(cloth.body.particleCount).toBe(particles);
        expect(new Set(pieces(cloth.body)).size).toBe(1);
        expectMeshFollowsBody(cloth, mesh);
        // The same pull tears it the same way again, bit for bit.
        pullApart(h, b, 0.75, 90);
        expect(cloth.body.particleCount).toBe(tornCount);
        expect(Array.from(cloth.body.positions.subarray(0, 3 * tornCount))).toEqual(Array.from(tornPositions));

        // The torn state into a fresh scene built the same way: the body is torn, its mesh opens along the tear.
        const h2 = await createHavokScene();
        try {
            const fresh = banner(h2, { tearRatio: 1.5 });
            fresh.plugin.restoreState(torn);
            expect(fresh.cloth.body.particleCount).toBe(tornCount);
            expect(fresh.mesh.getTotalVertices()).toBe(vertices + tornCount - particles);
            expectMeshFollowsBody(fresh.cloth, fresh.mesh);
            expect(Array.from(fresh.cloth.body.positions.subarray(0, 3 * tornCount))).toEqual(Array.from(tornPositions));
        } finally {
            h2.dispose();
        }
    });

    it("with tearing off, the same pull only stretches the cloth", () => {
        const b = banner(h, {});
        const vertices = b.mesh.getTotalVertices();
        const particles = b.cloth.body.particleCount;
        let stretched = 0;
        for (let f = 1; f <= 90; f++) {
            pullApart(h, b, 0, 0);
            b.left.position.x = -0.75 * f * (1 / 60);
            b.right.position.x = 0.75 * f * (1 / 60);
            h.step();
            stretched = Math.max(stretched, b.plugin.stats.maxEdgeRatio);
        }
        expect(b.cloth.tearRatio).toBeUndefined();
        expect(b.tears).toEqual([]);
        expect(b.mesh.getTotalVertices()).toBe(vertices);
        expect(b.cloth.body.particleCount).toBe(particles);
        expect(new Set(pieces(b.cloth.body)).size).toBe(1);
        expect(stretched).toBeGreaterThan(1.5);
    });

    it("gives bit-identical tears and meshes for the same inputs", async () => {
        const run = (scene: HavokScene) => {
            const b = banner(scene, { tearRatio: 1.4 });
            pullApart(scene, b, 1, 60);
            b.cloth.updateRenderMesh();
            return {
                tears: b.tears,
                positions: Float32Array.from(b.mesh.getVerticesData(VertexBuffer.PositionKind)!),
                indices: Array.from(b.mesh.getIndices()!),
            };
        };
        const first = run(h);
        const other = await createHavokScene();
        try {
            const second = run(other);
            expect(first.tears.length).toBeGreaterThan(0);
            expect(second.tears).toEqual(first.tears);
            expect(second.indices).toEqual(first.indices);
            expect(Buffer.from(second.positions.buffer).equals(Buffer.from(first.positions.buffer))).toBe(true);
        } finally {
            other.dispose();
        }
    });

    it("reports running out of tear particles once, then stops tearing", () => {
        const warn = jest.spyOn(Logger, "Warn").mockImplementation(() => undefined);
        try {
            const b = banner(h, { tearRatio: 1.3, maxTearParticles: 4 });
            const reports: XpbdCapacityEvent[] = [];
            b.plugin.onCapacityExceededObservable.add((e) => reports.push({ ...e }));
            pullApart(h, b, 1, 90);
            expect(b.cloth.body.particleCount).toBe(b.cloth.body.particleCapacity);
            expect(b.tears.reduce((sum, t) => sum + t.particlesSplit, 0)).toBe(4);
            expect(reports).toEqual([{ kind: "tearParticles", impostor: b.cloth, capacity: 4, dropped: 0 }]);
            expect(warn.mock.calls.filter(([message]) => /tear particles/.test(String(message)))).toHaveLength(1);
            expect(b.cloth.getOptions()).toMatchObject({ tearRatio: 1.3, maxTearParticles: 4 });
        } finally {
            warn.mockRestore();
        }
    });

    it("checks its options, and its ratio changes only on a cloth built to tear", () => {
        const grid = createClothGrid({ width: 1, height: 1, segmentsX: 4, segmentsY: 4 });
        const make = (options: ClothImpostorOptions) => () => {
            const mesh = new Mesh("m", h.scene);
            Object.assign(new VertexData(), { positions: grid.positions, indices: grid.indices }).applyToMesh(mesh);
            return new ClothImpostor(mesh, options, XpbdPlugin.FromScene(h.scene) ?? new XpbdPlugin(h.scene));
        };
        expect(make({ tearRatio: 1 })).toThrow(/ClothImpostor: tearRatio must be greater than 1, got 1/);
        expect(make({ tearRatio: 2, maxTearParticles: 0 })).toThrow(/ClothImpostor: maxTearParticles must be a positive integer/);
        const plain = make({})();
        expect(() => (plain.tearRatio = 2)).toThrow(/only be changed on a cloth built with one/);
        expect(plain.getOptions().tearRatio).toBeUndefined();
        const tearing = make({ tearRatio: 2 })();
        tearing.tearRatio = 1.2;
        expect(tearing.body.tearing!.tearRatio).toBe(1.2);
        expect(() => (tearing.tearRatio = 0.5)).toThrow(RangeError);
        // Default capacity: as many particles again.
        expect(tearing.getOptions()).toMatchObject({ tearRatio: 1.2, maxTearParticles: 25 });
    });

    it("runs the docs example: a ground mesh hung by its top corners, torn in two by pulling them apart", () => {
        const scene = h.scene;
        const log: string[] = [];
        // From docs/plugin.md, "Tearing".
        const xpbd = new XpbdPlugin(scene);
        const s = 20; // quads per side
        const banner = CreateGround("banner", { width: 2, height: 1.2, subdivisions: s }, scene);
        banner.rotation.x = -Math.PI / 2; // hanging, facing the default camera: its last row of vertices on top
        banner.position.y = 2;
        const cloth = new ClothImpostor(banner, { mass: 0.5, tearRatio: 1.5 }, xpbd);
        const left = new TransformNode("left", scene);
        const right = new TransformNode("right", scene);
        cloth.pinTo([s * (s + 1)], left); // top-left corner
        cloth.pinTo([(s + 1) * (s + 1) - 1], right); // top-right corner
        scene.onBeforeRenderObservable.add(() => {
            left.position.x -= 0.01;
            right.position.x += 0.01;
        });
        cloth.onTearObservable.add(({ edgeCount, particlesSplit, verticesAdded }) =>
            log.push(`${edgeCount} edges tore: ${particlesSplit} particles split, ${verticesAdded} vertices added`),
        );
        // End of the example.
        h.step(120);
        console.log(`docs example: ${log.length} tear events, ${cloth.body.tearing!.tornParticles} particles split; first: ${log[0]}`);
        expect(log.length).toBeGreaterThan(0);
        const label = pieces(cloth.body);
        expect(label[cloth.vertexToParticle[s * (s + 1)]]).not.toBe(label[cloth.vertexToParticle[(s + 1) * (s + 1) - 1]]);
        expect(banner.getTotalVertices()).toBe((s + 1) * (s + 1) + cloth.body.tearing!.tornParticles);
    });
});
