/**
 * Impostors on skinned or morphed render meshes (real Havok scene stepping): the simulation starts from the shape the
 * mesh shows, the skeleton and morph targets are detached with one warning (so they cannot deform the simulated
 * positions again), and the render mesh then shows exactly the simulation.
 */
import { Bone } from "@babylonjs/core/Bones/bone";
import { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Logger } from "@babylonjs/core/Misc/logger";
import { MorphTarget } from "@babylonjs/core/Morph/morphTarget";
import { MorphTargetManager } from "@babylonjs/core/Morph/morphTargetManager";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";

/** Skins every vertex of `mesh` with weight 1 to one bone moved 1 m up from its bind pose (the mesh shows it there). */
function skinToRaisedBone(h: HavokScene, mesh: Mesh): Skeleton {
    const skeleton = new Skeleton("rig", "rig", h.scene);
    const bone = new Bone("root", skeleton, null, Matrix.Identity());
    bone.setPosition(new Vector3(0, 1, 0));
    const count = mesh.getTotalVertices();
    const indices = new Float32Array(4 * count);
    const weights = new Float32Array(4 * count);
    for (let v = 0; v < count; v++) weights[4 * v] = 1;
    mesh.setVerticesData(VertexBuffer.MatricesIndicesKind, indices, false, 4);
    mesh.setVerticesData(VertexBuffer.MatricesWeightsKind, weights, false, 4);
    mesh.skeleton = skeleton;
    return skeleton;
}

/** Largest distance between each render vertex (mesh local space, identity world) and its particle. */
function renderError(impostor: ClothImpostor | SoftBodyImpostor): number {
    const local = impostor.mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const x = impostor.body.positions;
    let error = 0;
    impostor.vertexToParticle.forEach((p, v) => {
        error = Math.max(error, Math.hypot(local[3 * v] - x[3 * p], local[3 * v + 1] - x[3 * p + 1], local[3 * v + 2] - x[3 * p + 2]));
    });
    return error;
}

describe("impostors on skinned or morphed meshes", () => {
    let h: HavokScene;
    let warnings: string[];
    const warn = Logger.Warn;
    beforeEach(async () => {
        h = await createHavokScene();
        warnings = [];
        Logger.Warn = (message) => void warnings.push(String(message));
    });
    afterEach(() => {
        Logger.Warn = warn;
        h.dispose();
    });

    it("a skinned cloth starts from its skinned pose, loses its skeleton with one warning, and renders the simulation", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cape", { width: 1, height: 1, subdivisions: 6 }, h.scene);
        skinToRaisedBone(h, mesh);
        const cloth = new ClothImpostor(mesh, { mass: 0.2, pins: [0, 6] }, xpbd);
        expect(mesh.skeleton).toBeNull();
        expect(warnings).toEqual([expect.stringMatching(/ClothImpostor: mesh "cape" skinned to skeleton "rig"; .*detached/)]);
        const y = cloth.body.positions.filter((_, i) => i % 3 === 1);
        expect(Math.min(...y)).toBeCloseTo(1, 6);
        expect(Math.max(...y)).toBeCloseTo(1, 6);
        h.step(30);
        expect(renderError(cloth)).toBeLessThan(1e-6);
        // It hangs from its pins at y = 1 (a skeleton left on would have drawn it 1 m higher than simulated).
        expect(Math.min(...cloth.body.positions.filter((_, i) => i % 3 === 1))).toBeLessThan(0.9);
        expect(warnings).toHaveLength(1);
    });

    it("a morphed soft body starts from its morphed shape and loses its morph targets with one warning", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const box = CreateBox("jelly", { size: 1 }, h.scene);
        const target = MorphTarget.FromMesh(box, "tall", 0.5);
        const tall = box.getVerticesData(VertexBuffer.PositionKind)!.map((value, i) => (i % 3 === 1 ? 3 * value : value));
        target.setPositions(tall);
        const manager = new MorphTargetManager(h.scene);
        manager.addTarget(target);
        box.morphTargetManager = manager;
        box.position.y = 2;
        const jelly = new SoftBodyImpostor(box, { mass: 1, resolution: 2 }, xpbd);
        expect(box.morphTargetManager).toBeNull();
        expect(warnings).toEqual([expect.stringMatching(/SoftBodyImpostor: mesh "jelly" has 1 morph targets; .*detached/)]);
        // Half way to three times as tall: 2 m, centred at y = 2.
        const y = jelly.body.positions.filter((_, i) => i % 3 === 1);
        expect(Math.max(...y) - Math.min(...y)).toBeCloseTo(2, 5);
    });

    it("a plain mesh is left alone, without a warning", () => {
        const mesh = CreateGround("plain", { width: 1, height: 1, subdivisions: 2 }, h.scene);
        new ClothImpostor(mesh, {}, new XpbdPlugin(h.scene));
        expect(warnings).toEqual([]);
    });
});
