/**
 * The Inspector's "Tear edges" heatmap on a cloth that tears (real Havok scene, NullEngine): the particles on both
 * sides of every tear show red, the rest blue; the overlay follows the render mesh as it gains vertices, and
 * switching it off gives back the mesh's own colours, for the new vertices too.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { ImpostorOverlay } from "../../src/inspector/impostorOverlay";

describe("the tear heatmap", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("shows the tear edges in red and follows the mesh as it gains vertices", () => {
        const plugin = new XpbdPlugin(h.scene, { substeps: 10 });
        const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 16, segmentsY: 8 });
        const mesh = new Mesh("banner", h.scene);
        const authored = new Float32Array(4 * grid.columns * grid.rows).map((_, i) => [0.2, 0.4, 0.6, 1][i % 4]);
        Object.assign(new VertexData(), { positions: grid.positions, indices: grid.indices, colors: authored }).applyToMesh(mesh, true);
        const cloth = new ClothImpostor(mesh, { mass: 0.2, tearRatio: 1.5 }, plugin);
        const left = new TransformNode("left", h.scene);
        const right = new TransformNode("right", h.scene);
        const border = (column: number) => Array.from({ length: grid.rows }, (_, j) => j * grid.columns + column);
        cloth.pinTo(border(0), left);
        cloth.pinTo(border(grid.columns - 1), right);

        const overlay = new ImpostorOverlay(cloth);
        overlay.kind = "tear";
        overlay.setMode("residual");
        const red = () => {
            const colors = overlay.state.mode === "residual" ? mesh.getVerticesData(VertexBuffer.ColorKind)! : [];
            let count = 0;
            for (let v = 0; v < colors.length / 4; v++) count += colors[4 * v] === 1 && colors[4 * v + 2] === 0 ? 1 : 0;
            return count;
        };
        expect(red()).toBe(0);
        const vertices = mesh.getTotalVertices();
        for (let f = 1; f <= 90; f++) {
            left.position.x = -f / 60;
            right.position.x = f / 60;
            h.step();
            overlay.update();
        }
        const split = cloth.body.tearing!.tornParticles;
        expect(split).toBeGreaterThan(3);
        expect(mesh.getTotalVertices()).toBe(vertices + split);
        // Red exactly on the vertices of torn particles: the split ones and the ones made (each has its own vertex here).
        const colors = mesh.getVerticesData(VertexBuffer.ColorKind)!;
        expect(colors.length).toBe(4 * mesh.getTotalVertices());
        const torn = cloth.body.tearing!.torn;
        for (let v = 0; v < mesh.getTotalVertices(); v++) {
            expect(colors[4 * v]).toBe(torn[cloth.vertexToParticle[v]]);
        }
        // Both sides of every split (a particle split twice counts once).
        expect(red()).toBeGreaterThan(split);
        expect(overlay.state.max).toBe(1);

        // Off: the mesh's own colours come back, on every vertex, the split ones copying theirs.
        overlay.setMode("none");
        const restored = mesh.getVerticesData(VertexBuffer.ColorKind)!;
        expect(restored.length).toBe(4 * mesh.getTotalVertices());
        expect(Array.from(restored)).toEqual(Array.from({ length: restored.length }, (_, i) => Math.fround([0.2, 0.4, 0.6, 1][i % 4])));
    });
});
