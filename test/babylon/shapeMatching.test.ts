/**
 * Shape matching through the impostors (real Havok, NullEngine): a closed cloth that would slump keeps its shape on
 * a Havok floor, the option maps to the core's compliance, and changing it is checked like every other option.
 */
import { CreateIcoSphere } from "@babylonjs/core/Meshes/Builders/icoSphereBuilder";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { enclosedVolume } from "../../src/core/enclosedVolume";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { complianceFromStiffness } from "../../src/core/stiffness";
import type { SoftBody } from "../../src/core/softBody";
import { parametersAsCode } from "../../src/inspector/parameterSnippet";
import { applySurfaceBinding } from "../../src/meshing/surfaceBinding";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";

/** Volume the body's triangles enclose (m³), in `x` (default: its positions). */
function volumeOf(body: SoftBody, x: ArrayLike<number> = body.positions): number {
    return Math.abs(enclosedVolume(body.triangles, x));
}

describe("shape matching on the impostors", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    /** A 0.4 m, 1 kg closed cloth ball of stretch and shear stiffness 0, dropped on a Havok floor at x. */
    function ball(xpbd: XpbdPlugin, x: number, shapeMatching?: number): ClothImpostor {
        const mesh = CreateIcoSphere(`ball${x}`, { radius: 0.2, subdivisions: 3, updatable: true }, h.scene);
        mesh.position.set(x, 0.3, 0);
        return new ClothImpostor(
            mesh,
            {
                mass: 1,
                stretchStiffness: 0,
                shearStiffness: 0,
                bendStiffness: 0,
                allowSleep: false,
                ...(shapeMatching !== undefined ? { shapeMatching } : {}),
            },
            xpbd,
        );
    }

    it("a closed cloth ball with shapeMatching 0.6 keeps ≥ 90% of its volume on a Havok floor; without it, it slumps", () => {
        const xpbd = new XpbdPlugin(h.scene);
        createBody(h.scene, { kind: "box", extents: [6, 0.2, 6] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const matched = ball(xpbd, -1, 0.6);
        const plain = ball(xpbd, 1);
        const rest = [matched, plain].map((c) => volumeOf(c.body, c.body.restPositions));
        h.step(180);
        const [withIt, without] = [matched, plain].map((c, i) => volumeOf(c.body) / rest[i]);
        console.log(`volume after 3 s: ${withIt.toFixed(3)} with shapeMatching 0.6, ${without.toFixed(3)} without`);
        expect(withIt).toBeGreaterThanOrEqual(0.9);
        expect(without).toBeLessThan(0.5);
        expect(matched.body.shapeMatching!.compliance).toBe(complianceFromStiffness(0.6, "shape"));
    });

    it("runs the docs example: a closed cloth toy held in shape by shape matching alone", () => {
        const scene = h.scene;
        const xpbd = new XpbdPlugin(scene);
        createBody(scene, { kind: "box", extents: [4, 0.2, 4] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        // From docs/plugin.md, "Shape matching".
        const toy = CreateIcoSphere("toy", { radius: 0.2, subdivisions: 3, updatable: true }, scene);
        toy.position.y = 1;
        const jelly = new ClothImpostor(toy, { mass: 1, stretchStiffness: 0, shearStiffness: 0, shapeMatching: 0.6 }, xpbd);
        jelly.body.bend.enabled = false; // shape matching holds the shape: bending would only cost time
        // End of the example.
        const rest = volumeOf(jelly.body, jelly.body.restPositions);
        h.step(180);
        const volume = volumeOf(jelly.body) / rest;
        console.log(`docs example: volume after falling 0.8 m and resting: ${volume.toFixed(3)}`);
        expect(volume).toBeGreaterThanOrEqual(0.9);
        expect(Math.min(...Array.from({ length: jelly.body.particleCount }, (_, p) => jelly.body.positions[3 * p + 1]))).toBeGreaterThan(0);
    });

    it("a SoftBodyImpostor without tetrahedra: only the lattice's surface particles, held by shape matching, rendered through them", () => {
        const xpbd = new XpbdPlugin(h.scene);
        createBody(h.scene, { kind: "box", extents: [6, 0.2, 6] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const solidBox = CreateBox("solid", { size: 0.3, updatable: true }, h.scene);
        solidBox.position.set(-1, 0.35, 0);
        const hollowBox = CreateBox("hollow", { size: 0.3, updatable: true }, h.scene);
        hollowBox.position.set(1, 0.35, 0);
        hollowBox.rotation.y = 0.5;
        const options = { mass: 2, stretchStiffness: 0.7, shapeMatching: 0.6, resolution: 5, allowSleep: false };
        const solid = new SoftBodyImpostor(solidBox, options, xpbd);
        const hollow = new SoftBodyImpostor(hollowBox, { ...options, tetrahedra: false }, xpbd);
        expect(hollow.tetrahedra).toBe(false);
        expect(hollow.body.volume.count).toBe(0);
        expect(hollow.binding).toBeNull();
        expect(hollow.body.particleCount).toBeLessThan(solid.body.particleCount);
        expect(hollow.body.totalMass).toBeCloseTo(2, 12);
        expect(hollow.getOptions().tetrahedra).toBe(false);
        // Before a step the render mesh is where it was built: the binding reproduces every vertex.
        const before = Float64Array.from(hollowBox.getVerticesData("position")!);
        const world = hollowBox.computeWorldMatrix(true);
        const rendered = new Float64Array(before.length);
        applySurfaceBinding(hollow.surfaceBinding!, hollow.body.positions, rendered);
        let error = 0;
        for (let v = 0; v < before.length / 3; v++) {
            const p = Vector3.TransformCoordinates(Vector3.FromArray(before, 3 * v), world);
            error = Math.max(error, Math.hypot(rendered[3 * v] - p.x, rendered[3 * v + 1] - p.y, rendered[3 * v + 2] - p.z));
        }
        expect(error).toBeLessThan(1e-6);
        const rest = volumeOf(hollow.body, hollow.body.restPositions);
        h.step(180);
        const kept = volumeOf(hollow.body) / rest;
        console.log(
            `surface-only soft body: ${hollow.body.particleCount} particles (${solid.body.particleCount} with tets), volume kept ${kept.toFixed(3)}, ` +
                `top of the render mesh at ${hollowBox.getBoundingInfo().boundingBox.maximumWorld.y.toFixed(3)} m`,
        );
        expect(kept).toBeGreaterThanOrEqual(0.9);
        expect(() => new SoftBodyImpostor(CreateBox("bare", { size: 0.3 }, h.scene), { tetrahedra: false }, xpbd)).toThrow(
            /tetrahedra: false needs shapeMatching/,
        );
    });

    it("is an option of both impostors, read back by getOptions and copied as code; bad values are clear errors", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const box = CreateBox("jelly", { size: 0.3 }, h.scene);
        const jelly = new SoftBodyImpostor(box, { resolution: 3, shapeMatching: 0.6 }, xpbd);
        expect(jelly.shapeMatching).toBe(0.6);
        expect(jelly.getOptions().shapeMatching).toBe(0.6);
        expect(parametersAsCode(jelly)).toMatch(/shapeMatching: 0\.6/);
        jelly.shapeMatching = 0.8;
        expect(jelly.body.shapeMatching!.compliance).toBe(complianceFromStiffness(0.8, "shape"));
        expect(() => (jelly.shapeMatching = 1.5)).toThrow(/SoftBodyImpostor: shapeMatching/);
        const plain = new SoftBodyImpostor(CreateBox("plain", { size: 0.3 }, h.scene), { resolution: 3 }, xpbd);
        expect(plain.shapeMatching).toBeUndefined();
        expect(plain.getOptions().shapeMatching).toBeUndefined();
        expect(() => (plain.shapeMatching = 0.5)).toThrow(/only be changed on an impostor built with it/);
        expect(
            () => new ClothImpostor(CreateIcoSphere("bad", { radius: 0.2, subdivisions: 2 }, h.scene), { shapeMatching: -0.1 }, xpbd),
        ).toThrow(/ClothImpostor: shapeMatching/);
    });
});
