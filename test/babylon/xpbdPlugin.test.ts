/**
 * XpbdPlugin lifecycle on a real Havok scene: soft time follows Havok time (fixed steps, sub time steps, frame
 * deltas), clear errors, and disposal leaves no observer behind.
 */
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import { createBody, createHavokScene, loadHavok, observerCounts, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import type { SoftImpostor } from "../../src/babylon/softImpostor";

describe("XpbdPlugin lifecycle", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("an impostor built without a plugin joins the one of its mesh's scene, and says so when there is none", () => {
        const sheet = CreateGround("sheet", { width: 0.5, height: 0.5, subdivisions: 4 }, h.scene);
        const cube = CreateBox("cube", { size: 0.3 }, h.scene);
        expect(() => new ClothImpostor(sheet)).toThrow(/ClothImpostor: the scene of mesh "sheet" has no XpbdPlugin/);
        expect(() => new SoftBodyImpostor(cube, { resolution: 2 })).toThrow(/SoftBodyImpostor: the scene of mesh "cube" has no XpbdPlugin/);
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = new ClothImpostor(sheet);
        const jelly = new SoftBodyImpostor(cube, { resolution: 2 });
        expect(cloth.plugin).toBe(xpbd);
        expect(jelly.plugin).toBe(xpbd);
        expect(xpbd.impostors).toEqual([cloth, jelly]);
        xpbd.dispose();
        const other = CreateGround("other", { width: 0.5, height: 0.5, subdivisions: 2 }, h.scene);
        expect(() => new ClothImpostor(other)).toThrow(/has no XpbdPlugin/);
    });

    it("after 1,000 steps with setSubTimeStep, soft time equals Havok time", () => {
        const xpbd = new XpbdPlugin(h.scene, { substeps: 4, iterations: 1 });
        const mesh = CreateGround("cloth", { width: 0.5, height: 0.5, subdivisions: 4 }, h.scene);
        new ClothImpostor(mesh, {}, xpbd);
        let havokTime = 0;
        h.scene.onAfterPhysicsObservable.add(() => (havokTime += h.havok.getTimeStep()));
        h.physicsEngine.setSubTimeStep(10);
        let steps = 0;
        xpbd.onAfterStepObservable.add(() => steps++);
        const frameTimes = [25, 7, 16, 40, 3];
        for (let frame = 0; steps < 1000; frame++) {
            h.setFrameTime(frameTimes[frame % frameTimes.length]);
            h.step();
        }
        console.log(`${steps} steps: soft time ${xpbd.world.time} s, Havok time ${havokTime} s`);
        expect(xpbd.world.time).toBeCloseTo(havokTime, 9);
    });

    it("with HavokPlugin(true), each step advances by the sub time step Havok itself uses", async () => {
        const hk = await loadHavok();
        const engine = new NullEngine();
        const scene = new Scene(engine);
        scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, hk));
        const physicsEngine = scene.getPhysicsEngine()!;
        physicsEngine.setSubTimeStep(5);
        let frameMs = 17;
        engine.getDeltaTime = () => frameMs;
        const falling = createBody(
            scene,
            { kind: "sphere", radius: 0.1 },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 1000, 0] },
        );
        falling.body.setLinearDamping(0);
        const xpbd = new XpbdPlugin(scene);
        for (let frame = 0; frame < 200; frame++) {
            frameMs = frame % 3 === 0 ? 33 : 9;
            scene.animate();
        }
        // A free-falling Havok body measures Havok's own clock: v = g·t.
        const havokTime = -falling.body.getLinearVelocity().y / 9.81;
        console.log(
            `HavokPlugin(true) + 5 ms sub steps: soft time ${xpbd.world.time.toFixed(6)} s, Havok free-fall clock ${havokTime.toFixed(6)} s`,
        );
        expect(Math.abs(xpbd.world.time - havokTime)).toBeLessThan(0.005);
        scene.dispose();
        engine.dispose();
    });

    it("throws clear errors: no physics, mesh without indices, disposed mesh, bad options", () => {
        const engine = new NullEngine();
        const bare = new Scene(engine);
        expect(() => new XpbdPlugin(bare)).toThrow(/physics is not enabled/);
        bare.dispose();
        engine.dispose();

        const xpbd = new XpbdPlugin(h.scene);
        expect(() => new XpbdPlugin(h.scene)).toThrow(/already has an XpbdPlugin/);
        const unindexed = new Mesh("soup", h.scene);
        const data = new VertexData();
        data.positions = [0, 0, 0, 1, 0, 0, 0, 0, 1];
        data.applyToMesh(unindexed);
        expect(() => new ClothImpostor(unindexed, {}, xpbd)).toThrow(/has no indices/);
        const gone = CreateGround("gone", { width: 1, height: 1, subdivisions: 2 }, h.scene);
        gone.dispose();
        expect(() => new ClothImpostor(gone, {}, xpbd)).toThrow(/is disposed/);
        const ok = CreateGround("ok", { width: 1, height: 1, subdivisions: 2 }, h.scene);
        expect(() => new ClothImpostor(ok, { stretchStiffness: 1.5 }, xpbd)).toThrow(/stretchStiffness must be in \[0, 1\]/);
        expect(() => new ClothImpostor(ok, { friction: -1 }, xpbd)).toThrow(/friction must be/);
        expect(() => new SoftBodyImpostor(CreateBox("b", { size: 1 }, h.scene), { resolution: 0 }, xpbd)).toThrow(/resolution/);
        expect(() => new SoftBodyImpostor(ok, {}, xpbd)).toThrow(/not closed/);
        expect(xpbd.impostors).toHaveLength(0);
    });

    it("dispose() removes every observer; disposing the mesh disposes its impostor; scene.dispose() disposes the plugin", async () => {
        const mesh = CreateBox("jelly", { size: 0.5 }, h.scene);
        const before = observerCounts(h, [mesh]);
        const xpbd = new XpbdPlugin(h.scene);
        const added: SoftImpostor[] = [];
        const removed: SoftImpostor[] = [];
        xpbd.onImpostorAddedObservable.add((i) => added.push(i));
        xpbd.onImpostorRemovedObservable.add((i) => removed.push(i));
        const jelly = new SoftBodyImpostor(mesh, { resolution: 3 }, xpbd);
        const cloth = new ClothImpostor(CreateGround("c", { width: 1, height: 1, subdivisions: 3 }, h.scene), {}, xpbd);
        h.step(3);
        expect(added).toEqual([jelly, cloth]);
        expect(observerCounts(h, [mesh])).not.toEqual(before);

        cloth.mesh.dispose();
        expect(cloth.isDisposed).toBe(true);
        expect(removed).toEqual([cloth]);
        expect(xpbd.world.bodies).toEqual([jelly.body]);

        jelly.dispose();
        xpbd.dispose();
        // Babylon's Observable.remove unregisters on a zero-delay timeout.
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(observerCounts(h, [mesh])).toEqual(before);
        expect(xpbd.world.bodies).toHaveLength(0);
        expect(xpbd.world.colliders).toHaveLength(0);

        const again = new XpbdPlugin(h.scene);
        new ClothImpostor(CreateGround("d", { width: 1, height: 1, subdivisions: 3 }, h.scene), {}, again);
        h.scene.dispose();
        expect(again.isDisposed).toBe(true);
        expect(again.impostors).toHaveLength(0);
    });

    it("mirrors Havok bodies added and removed at any time as colliders", () => {
        const xpbd = new XpbdPlugin(h.scene);
        h.step();
        expect(xpbd.world.colliders).toHaveLength(0);
        const a = createBody(h.scene, { kind: "box", extents: [1, 1, 1] }, { motionType: PhysicsMotionType.STATIC });
        const b = createBody(h.scene, { kind: "sphere", radius: 0.5 }, { motionType: PhysicsMotionType.DYNAMIC, position: [3, 0, 0] });
        h.step();
        expect(xpbd.world.colliders.map((c) => c.userData)).toEqual([a.body, b.body]);
        expect(xpbd.getColliderForBody(b.body)?.mass).toBeCloseTo(b.body.getMassProperties().mass!, 6);
        a.body.dispose();
        h.step();
        expect(xpbd.world.colliders.map((c) => c.userData)).toEqual([b.body]);
    });
});
