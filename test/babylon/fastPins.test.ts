/**
 * Fast pins (real Havok scene stepping): a cape pinned to a node whirling at 10 m/s keeps its length at the default
 * quality, through the cloth impostor's default strain limit.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor, type ClothImpostorOptions } from "../../src/babylon/clothImpostor";

/**
 * A 0.6 × 1 m, 0.3 kg cape of 12 × 20 quads, its top row pinned to a node on a circle of radius `radius` m whose
 * angular speed ramps from 0 to `omega` rad/s in 1 s and then holds, in still air, for `seconds` s. The node turns
 * with the circle, so the top edge stays along its tangent (the cape moves edge first, as on a spinning character's
 * shoulders, and the air folds it back). Returns the peak and the last max edge ratio.
 */
function whirlingCape(
    h: HavokScene,
    options: ClothImpostorOptions,
    { radius = 1.6, omega = 6, seconds = 4 } = {},
): { peak: number; last: number; cloth: ClothImpostor } {
    const xpbd = new XpbdPlugin(h.scene);
    const node = new TransformNode("shoulders", h.scene);
    node.position.set(radius, 2, 0);
    const mesh = CreateGround("cape", { width: 0.6, height: 1, subdivisionsX: 12, subdivisionsY: 20 }, h.scene);
    mesh.parent = node;
    mesh.position.y = -0.5;
    mesh.rotation.set(-Math.PI / 2, Math.PI / 2, 0); // hanging below the node, its width along z
    mesh.computeWorldMatrix(true);
    const cloth = new ClothImpostor(mesh, { mass: 0.3, ...options }, xpbd);
    const positions = mesh.getVerticesData("position")!;
    const top: number[] = [];
    const world = mesh.getWorldMatrix();
    for (let v = 0; v < positions.length / 3; v++) {
        // The top row: the vertices at the node's height.
        const y = positions[3 * v] * world.m[1] + positions[3 * v + 1] * world.m[5] + positions[3 * v + 2] * world.m[9] + world.m[13];
        if (Math.abs(y - 2) < 1e-6) {
            top.push(v);
        }
    }
    expect(top).toHaveLength(13);
    cloth.pinTo(top, node, 1);
    let angle = 0;
    let time = 0;
    h.scene.onAfterAnimationsObservable.add(() => {
        time += 1 / 60;
        angle += omega * Math.min(1, time) * (1 / 60);
        node.position.set(radius * Math.cos(angle), 2, radius * Math.sin(angle));
        node.rotation.y = -angle;
    });
    let peak = 0;
    for (let s = 0; s < 60 * seconds; s++) {
        h.step();
        peak = Math.max(peak, cloth.body.stats.maxEdgeRatio);
    }
    return { peak, last: cloth.body.stats.maxEdgeRatio, cloth };
}

describe("fast pins", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("a cape whirled at 10 m/s (6 g) stays within ×1.10 at the default quality", () => {
        const { peak, last, cloth } = whirlingCape(h, {});
        console.log(`whirling cape (default strain limit ${cloth.body.strainLimit}): peak ×${peak.toFixed(4)}, last ×${last.toFixed(4)}`);
        expect(cloth.body.strainLimit).toBe(1.08);
        expect(peak).toBeLessThanOrEqual(1.1);
        // It really is whirled and trails: its centre of mass is off the circle and below the node.
        expect(cloth.getCenterOfMass().y).toBeLessThan(1.9);
    });

    it("without the strain limit the same cape stretches past ×1.15 (the load is real)", () => {
        const { peak } = whirlingCape(h, { strainLimit: 0 });
        console.log(`whirling cape without a strain limit: peak ×${peak.toFixed(4)}`);
        expect(peak).toBeGreaterThan(1.15);
    });

    it.each([
        [1.2, 8, "9.6 m/s, 7.8 g"],
        [1, 3, "3 m/s, 0.9 g"],
    ])("a whirl on %p m at %p rad/s (%s) stays within ×1.10 too", (radius, omega) => {
        const { peak } = whirlingCape(h, {}, { radius, omega, seconds: 3 });
        console.log(`whirling cape: ${omega} rad/s on ${radius} m, peak ×${peak.toFixed(4)}`);
        expect(peak).toBeLessThanOrEqual(1.1);
    });

    it("refuses a strain limit that is neither 0 nor a finite ratio above 1, when built and when set later", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 2 }, h.scene);
        expect(() => new ClothImpostor(mesh, { strainLimit: 1 }, xpbd)).toThrow(
            "ClothImpostor: strainLimit must be 0 (off) or a finite edge ratio greater than 1, got 1",
        );
        const cloth = new ClothImpostor(mesh, {}, xpbd);
        expect(() => (cloth.strainLimit = 0.5)).toThrow(
            "ClothImpostor: strainLimit must be 0 (off) or a finite edge ratio greater than 1, got 0.5",
        );
        cloth.strainLimit = 1.2;
        expect(cloth.body.strainLimit).toBe(1.2);
        expect(cloth.getOptions().strainLimit).toBe(1.2);
    });
});
