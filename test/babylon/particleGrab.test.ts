/**
 * Picking and dragging in a Havok scene: `XpbdPlugin.pickParticle` finds the impostor and particle under a ray (the
 * nearest surface, a grabbable corner of the triangle hit), and `grab` / `moveGrab` / `release` drag it.
 */
import { Ray } from "@babylonjs/core/Culling/ray";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { createClothGrid } from "../../src/meshing/clothGrid";

/** A 1 m cloth facing +z at height `y` and depth `z`, its top corners pinned to a node. */
function curtain(h: HavokScene, plugin: XpbdPlugin, name: string, z: number): { cloth: ClothImpostor; columns: number } {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: 10, segmentsY: 10 });
    const data = new VertexData();
    data.positions = grid.positions;
    data.indices = grid.indices;
    const mesh = new Mesh(name, h.scene);
    data.applyToMesh(mesh, true);
    mesh.position.set(0, 1.5, z);
    const cloth = new ClothImpostor(mesh, { mass: 0.5, allowSleep: false }, plugin);
    cloth.pinTo([0, grid.columns - 1], new TransformNode(`${name}Rail`, h.scene));
    return { cloth, columns: grid.columns };
}

function particlePosition(cloth: ClothImpostor, p: number): Vector3 {
    const x = cloth.body.positions;
    return new Vector3(x[3 * p], x[3 * p + 1], x[3 * p + 2]);
}

describe("XpbdPlugin.pickParticle and SoftImpostor.grab", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("picks the nearer of two cloths, on the particle nearest the hit, and null where there is no cloth", () => {
        const plugin = new XpbdPlugin(h.scene);
        const front = curtain(h, plugin, "front", 0);
        const back = curtain(h, plugin, "back", -0.5);
        h.step(1);
        // From the camera side (+z), aimed just beside a particle of the front cloth.
        const aim = particlePosition(front.cloth, 5 * front.columns + 3).add(new Vector3(0.02, 0.01, 0));
        const origin = new Vector3(0.3, 1.4, 3);
        const pick = plugin.pickParticle(new Ray(origin, aim.subtract(origin).normalize(), 100))!;
        expect(pick.impostor).toBe(front.cloth);
        expect(pick.particle).toBe(5 * front.columns + 3);
        expect(pick.distance).toBeCloseTo(Vector3.Distance(origin, pick.point), 10);
        expect(Math.abs(pick.point.z - particlePosition(front.cloth, pick.particle).z)).toBeLessThan(0.01);
        // From behind, the back cloth is the nearer one.
        const fromBehind = plugin.pickParticle(new Ray(new Vector3(0, 1.5, -3), new Vector3(0, 0, 1), 100))!;
        expect(fromBehind.impostor).toBe(back.cloth);
        // Beside both, or too short a ray: nothing.
        expect(plugin.pickParticle(new Ray(new Vector3(3, 1.5, 3), new Vector3(0, 0, -1), 100))).toBeNull();
        expect(plugin.pickParticle(new Ray(origin, aim.subtract(origin).normalize(), 1))).toBeNull();
    });

    it("never picks a particle a pin target moves, and refuses to grab one", () => {
        const plugin = new XpbdPlugin(h.scene);
        const { cloth } = curtain(h, plugin, "front", 0);
        h.step(1);
        // Aimed right at the pinned top-left corner: the pick is another corner of that triangle.
        const corner = particlePosition(cloth, 0);
        const pick = plugin.pickParticle(new Ray(corner.add(new Vector3(0.01, -0.01, 2)), new Vector3(0, 0, -1), 100))!;
        expect(pick.impostor).toBe(cloth);
        expect(pick.particle).not.toBe(0);
        expect(cloth.isPinDriven(0)).toBe(true);
        expect(() => cloth.grab(0, corner)).toThrow("ClothImpostor.grab: particle 0 follows a pinTo target; unpin it to drag it");
    });

    it("drags a bottom corner up to a target and lets it fall on release", () => {
        const plugin = new XpbdPlugin(h.scene);
        const { cloth, columns } = curtain(h, plugin, "front", 0);
        h.step(60);
        const corner = 10 * columns;
        const target = new Vector3(0.2, 1.6, 0.5);
        cloth.grab(corner, particlePosition(cloth, corner));
        expect(cloth.grabbedParticle).toBe(corner);
        // Moved to the target over half a second, as a pointer would, then held.
        const start = particlePosition(cloth, corner);
        for (let f = 1; f <= 30; f++) {
            cloth.moveGrab(Vector3.Lerp(start, target, f / 30));
            h.step(1);
        }
        h.step(60);
        const held = Vector3.Distance(particlePosition(cloth, corner), target);
        console.log(`dragged corner: ${(held * 1000).toFixed(1)} mm from the target`);
        // A soft pin of 1.1 mm/N holding part of a 0.5 kg cloth: within 1 cm.
        expect(held).toBeLessThan(0.01);
        cloth.release();
        expect(cloth.grabbedParticle).toBe(-1);
        expect(cloth.getPinWeight(corner)).toBe(0);
        const y0 = particlePosition(cloth, corner).y;
        h.step(10);
        expect(particlePosition(cloth, corner).y).toBeLessThan(y0 - 0.05);
    });
});
