/**
 * The Inspector's contacts view (real Havok scene, NullEngine): a jelly dropped on a cloth lying on a Havok ground.
 * The view's line mesh holds, per contact of the body's last step, a segment from the contact point along its normal
 * and a cross at the point, coloured by kind; it follows the session's frames and is disposed when switched off,
 * when its impostor is disposed and when the session closes.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { Observable } from "@babylonjs/core/Misc/observable";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ContactKind } from "../../src/core/index";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { CONTACT_COLORS } from "../../src/inspector/contactsOverlay";
import { XpbdInspectorSession } from "../../src/inspector/inspectorSession";

describe("the contacts view", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("draws each contact of the body's last step, by kind, and is disposed when off, with its impostor and the session", () => {
        const plugin = new XpbdPlugin(h.scene);
        createBody(h.scene, { kind: "box", extents: [4, 0.2, 4] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const grid = createClothGrid({ width: 1, height: 1, segmentsX: 16, segmentsY: 16, plane: "xz", origin: [0, 0.05, 0] });
        const clothMesh = new Mesh("cloth", h.scene);
        Object.assign(new VertexData(), { positions: grid.positions, indices: grid.indices }).applyToMesh(clothMesh, true);
        const cloth = new ClothImpostor(clothMesh, { mass: 0.3 }, plugin);
        const cube = CreateBox("jelly", { size: 0.3 }, h.scene);
        cube.position.y = 0.4;
        const jelly = new SoftBodyImpostor(cube, { mass: 1, resolution: 3 }, plugin);
        const session = new XpbdInspectorSession(h.scene, { get: () => null, set: () => {}, onChanged: new Observable<void>() });

        session.showContacts(jelly, true);
        session.showContacts(cloth, true);
        const view = session.contacts(jelly);
        const mesh = view.mesh!;
        expect(mesh.reservedDataStore).toEqual({ hidden: true });
        h.step(60);

        // Read back in the same frame the view was drawn in.
        const world = plugin.world;
        const count = world.contactCount(jelly.body);
        const points = new Float32Array(3 * count);
        const normals = new Float32Array(3 * count);
        const kinds = new Uint8Array(count);
        world.writeContacts(points, normals, kinds, count, jelly.body);
        console.log(`jelly on cloth on ground: ${JSON.stringify(view.counts)} (cloth: ${JSON.stringify(session.contacts(cloth).counts)})`);
        expect(view.counts.soft).toBeGreaterThan(10);
        expect(view.counts.collider).toBe(jelly.body.stats.contacts);
        expect(view.counts.self).toBe(0);
        expect(view.counts.collider + view.counts.soft).toBe(count);
        expect(session.contacts(cloth).counts.collider).toBe(cloth.body.stats.contacts);
        expect(session.contacts(cloth).counts.collider).toBeGreaterThan(10);
        expect(mesh.subMeshes[0].indexCount).toBe(6 * count);
        const positions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
        const colors = mesh.getVerticesData(VertexBuffer.ColorKind)!;
        let worstPoint = 0;
        let worstTip = 0;
        let worstColor = 0;
        for (let c = 0; c < count; c++) {
            for (let a = 0; a < 3; a++) {
                worstPoint = Math.max(worstPoint, Math.abs(positions[18 * c + a] - points[3 * c + a]));
                worstTip = Math.max(
                    worstTip,
                    Math.abs(positions[18 * c + 3 + a] - (points[3 * c + a] + view.normalLength * normals[3 * c + a])),
                );
                worstColor = Math.max(worstColor, Math.abs(colors[24 * c + 4 + a] - CONTACT_COLORS[kinds[c] as ContactKind][a]));
            }
        }
        expect(worstPoint).toBe(0);
        expect(worstTip).toBeLessThan(1e-6);
        expect(worstColor).toBeLessThan(1e-7);

        // Off: the lines are gone; the cloth's view is not.
        session.showContacts(jelly, false);
        expect(mesh.isDisposed()).toBe(true);
        expect(h.scene.meshes).not.toContain(mesh);
        expect(view.counts).toEqual({ collider: 0, soft: 0, self: 0 });
        // With its impostor, and with the session.
        session.showContacts(jelly, true);
        const again = session.contacts(jelly).mesh!;
        jelly.dispose();
        expect(again.isDisposed()).toBe(true);
        const clothLines = session.contacts(cloth).mesh!;
        h.step();
        session.dispose();
        expect(clothLines.isDisposed()).toBe(true);
        expect(h.scene.meshes.filter((m) => m.name.includes("xpbd contacts"))).toEqual([]);
    });
});
