/**
 * Babylon-layer faults against the real Havok WASM: disposal in every order (also mid-frame), pin targets and
 * colliders that vanish, meshes that already have a Havok body, teleports, extreme and changing time steps, physics
 * re-enabled, two scenes side by side, and capacities overflowed. Each must leave the render loop running (or throw
 * a documented, clear error), keep every soft position and render vertex finite, and release every observer.
 */
import { Logger } from "@babylonjs/core/Misc/logger";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { PhysicsMotionType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, loadHavok, observerCounts, type HavokScene } from "../support/havokScene";
import type { XpbdCapacityEvent } from "../../src/babylon/stepEvents";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import type { SoftImpostor } from "../../src/babylon/softImpostor";

/** Babylon's `Observable.remove` unregisters on a zero-delay timeout. */
function settle(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Whether every soft position and every render-mesh position and normal is finite. */
function allFinite(impostor: SoftImpostor): boolean {
    const finite = (a: ArrayLike<number> | null): boolean => {
        if (!a) {
            return true;
        }
        for (let i = 0; i < a.length; i++) {
            if (!Number.isFinite(a[i])) {
                return false;
            }
        }
        return true;
    };
    return (
        finite(impostor.body.positions) &&
        finite(impostor.body.velocities) &&
        finite(impostor.mesh.getVerticesData(VertexBuffer.PositionKind)) &&
        finite(impostor.mesh.getVerticesData(VertexBuffer.NormalKind))
    );
}

/** A 1 m, 8×8-quad cloth lying flat at height `y`. */
function sheet(h: HavokScene, xpbd: XpbdPlugin, y = 1, name = "sheet"): ClothImpostor {
    const mesh = CreateGround(name, { width: 1, height: 1, subdivisions: 8 }, h.scene);
    mesh.position.y = y;
    return new ClothImpostor(mesh, { mass: 0.3 }, xpbd);
}

describe("Babylon-layer faults against real Havok", () => {
    let h: HavokScene;
    let warnings: string[];
    let warn: jest.SpyInstance;
    beforeEach(async () => {
        h = await createHavokScene({ frameTimeMs: 1000 / 60 });
        warnings = [];
        warn = jest.spyOn(Logger, "Warn").mockImplementation((message: string | unknown[]) => void warnings.push(String(message)));
    });
    afterEach(() => {
        warn.mockRestore();
        if (!h.scene.isDisposed) {
            h.dispose();
        }
    });

    it("disposing the mesh before the impostor disposes it once; a later impostor.dispose() and updateRenderMesh() do nothing", async () => {
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        const before = observerCounts(h, [mesh]);
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = new ClothImpostor(mesh, {}, xpbd);
        let disposed = 0;
        cloth.onDisposeObservable.add(() => disposed++);
        h.step(3);
        mesh.dispose();
        expect(cloth.isDisposed).toBe(true);
        expect(() => cloth.dispose()).not.toThrow();
        expect(() => cloth.updateRenderMesh()).not.toThrow();
        expect(disposed).toBe(1);
        expect(xpbd.impostors.length).toBe(0);
        expect(xpbd.world.bodies.length).toBe(0);
        expect(() => h.step(3)).not.toThrow();
        xpbd.dispose();
        await settle();
        expect(observerCounts(h, [mesh])).toEqual(before);
    });

    it("disposing the scene mid-frame disposes the plugin and impostors; only Babylon's own documented error escapes, and none after the render", async () => {
        // Babylon's scene.render() goes on with the frame it is in: a scene disposed before onAfterRenderObservable
        // makes Babylon itself throw (it steps the physics engine it just released, or looks for the camera).
        const inFrame = [
            "onAfterStepObservable",
            "onSleepObservable",
            "onBeforePhysicsObservable",
            "onAfterPhysicsObservable",
            "onBeforeRenderObservable",
        ];
        for (const where of [...inFrame, "onAfterRenderObservable"]) {
            const s = await createHavokScene({ frameTimeMs: 1000 / 60 });
            const engineObservers = [s.engine.onBeginFrameObservable, s.engine.onEndFrameObservable, s.engine.onDisposeObservable].map(
                (o) => o.observers.length,
            );
            const xpbd = new XpbdPlugin(s.scene);
            const cloth = sheet(s, xpbd, 0.3);
            const jelly = new SoftBodyImpostor(CreateBox("jelly", { size: 0.4 }, s.scene), { resolution: 2 }, xpbd);
            jelly.mesh.position.x = 2;
            createBody(s.scene, { kind: "box", extents: [6, 0.2, 6] }, { motionType: PhysicsMotionType.STATIC });
            const dispose = (): void => s.scene.dispose();
            if (where === "onAfterStepObservable") {
                xpbd.onAfterStepObservable.add(dispose);
            } else if (where === "onSleepObservable") {
                cloth.onSleepObservable.add(dispose);
            } else {
                s.scene[where as "onBeforePhysicsObservable"].add(dispose);
            }
            let thrown: unknown = null;
            for (let frame = 0; frame < 600 && !s.scene.isDisposed; frame++) {
                try {
                    s.step();
                } catch (error) {
                    thrown = error;
                }
            }
            expect([where, s.scene.isDisposed]).toEqual([where, true]);
            if (inFrame.includes(where)) {
                // Thrown by Babylon's own frame code (a Scene method), with no frame of the plugin's on the stack.
                const stack = String((thrown as Error).stack).split("\n");
                expect([where, /at Scene\./.test(stack[1]), stack.some((line) => /[\\/]src[\\/]babylon[\\/]/.test(line))]).toEqual([
                    where,
                    true,
                    false,
                ]);
            } else {
                expect([where, thrown]).toEqual([where, null]);
            }
            expect(xpbd.isDisposed && cloth.isDisposed && jelly.isDisposed).toBe(true);
            expect(xpbd.world.bodies.length + xpbd.world.colliders.length).toBe(0);
            expect(XpbdPlugin.FromScene(s.scene) === null).toBe(true);
            expect(() => s.step(2)).not.toThrow();
            expect(() => xpbd.dispose()).not.toThrow();
            expect(
                [s.engine.onBeginFrameObservable, s.engine.onEndFrameObservable, s.engine.onDisposeObservable].map(
                    (o) => o.observers.length,
                ),
            ).toEqual(engineObservers);
            s.engine.dispose();
        }
        // With impostors alive, outside a frame: nothing thrown, everything released.
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd);
        h.step(2);
        expect(() => h.scene.dispose()).not.toThrow();
        expect(xpbd.isDisposed && cloth.isDisposed).toBe(true);
        expect(xpbd.world.bodies.length + xpbd.world.colliders.length).toBe(0);
        expect(XpbdPlugin.FromScene(h.scene) === null).toBe(true);
        expect(() => xpbd.dispose()).not.toThrow();
        h.engine.dispose();
    });

    it("a cloth pinned to a node that is disposed keeps those particles where the node last put them, with one warning", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd, 2);
        const box = CreateBox("handle", { size: 0.1 }, h.scene);
        box.position.set(0.5, 2, 0.5);
        const aggregate = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 0 }, h.scene);
        const corner = 80; // the +x corner of the 8×8 ground that the box holds
        const p = cloth.vertexToParticle[corner];
        cloth.pinTo([corner], box);
        h.step(10);
        // Disposing the Havok body leaves the node: it still drives the pin.
        aggregate.dispose();
        box.position.x = 0.7;
        h.step(5);
        expect(cloth.body.positions[3 * p]).toBeCloseTo(0.7, 6);
        const last = Vector3.FromArray(cloth.body.positions, 3 * p);
        box.dispose();
        expect(() => h.step(60)).not.toThrow();
        expect(
            Vector3.FromArray(cloth.body.positions, 3 * p)
                .subtract(last)
                .length(),
        ).toBeLessThan(1e-6);
        expect(cloth.getPinWeight(corner)).toBe(1);
        expect(warnings.filter((w) => /pinTo target "handle" of mesh "sheet" was disposed/.test(w))).toHaveLength(1);
        expect(allFinite(cloth)).toBe(true);
        // Unpinned, the corner falls.
        cloth.unpin([corner]);
        h.step(30);
        expect(cloth.body.positions[3 * p + 1]).toBeLessThan(1.9);
    });

    it("a cloth lying on a Havok body that is disposed (between frames or mid-step) falls on, without a throw", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd, 0.5);
        const table = createBody(
            h.scene,
            { kind: "box", extents: [2, 0.2, 2] },
            { motionType: PhysicsMotionType.STATIC, position: [0, 0.2, 0] },
        );
        const crate = createBody(
            h.scene,
            { kind: "box", extents: [0.3, 0.3, 0.3] },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 0.8, 0], mass: 5 },
        );
        h.step(90);
        expect(cloth.getCenterOfMass().y).toBeGreaterThan(0.25);
        // The crate presses on the cloth, so the bridge holds a changed gravity factor for Havok's step: disposing the
        // body from an observer between the soft step and Havok's must not leave it to be restored on a dead body.
        const once = xpbd.onAfterStepObservable.add(() => {
            crate.body.dispose();
            xpbd.onAfterStepObservable.remove(once);
        });
        expect(() => h.step()).not.toThrow();
        table.body.dispose();
        expect(() => h.step(60)).not.toThrow();
        expect(xpbd.world.colliders.length).toBe(0);
        expect(cloth.getCenterOfMass().y).toBeLessThan(-1);
        expect(allFinite(cloth)).toBe(true);
    });

    it("disposing the plugin from its own onAfterStepObservable gives a crate on the cloth its gravity factor back", async () => {
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        mesh.position.y = 0.5;
        const before = observerCounts(h, [mesh]);
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = new ClothImpostor(mesh, {}, xpbd);
        createBody(h.scene, { kind: "box", extents: [2, 0.2, 2] }, { motionType: PhysicsMotionType.STATIC, position: [0, 0.2, 0] });
        const crate = createBody(
            h.scene,
            { kind: "box", extents: [0.3, 0.3, 0.3] },
            { motionType: PhysicsMotionType.DYNAMIC, position: [0, 0.8, 0], mass: 5 },
        );
        h.step(90);
        let changed = false;
        xpbd.onAfterStepObservable.add(() => {
            // The bridge carries the cloth's support in the crate's gravity factor until Havok has stepped.
            changed = crate.body.getGravityFactor() !== 1;
            xpbd.dispose();
        });
        expect(() => h.step()).not.toThrow();
        expect(changed).toBe(true);
        expect(crate.body.getGravityFactor()).toBe(1);
        expect(xpbd.isDisposed && cloth.isDisposed).toBe(true);
        expect(() => h.step(5)).not.toThrow();
        await settle();
        expect(observerCounts(h, [mesh])).toEqual(before);
    });

    it("pinTo a disposed node, or a missing one, throws an error naming pinTo and the node", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd);
        const gone = new TransformNode("gone", h.scene);
        gone.dispose();
        expect(() => cloth.pinTo([0], gone)).toThrow(/ClothImpostor\.pinTo: target "gone" is disposed/);
        expect(() => cloth.pinTo([0], null as unknown as TransformNode)).toThrow(/ClothImpostor\.pinTo: target is null/);
        expect(cloth.getPinWeight(0)).toBe(0);
    });

    it("a mesh that already has a Havok body cannot become an impostor (a clear error naming the mesh); a body added later is ignored, with one warning", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const aggregated = CreateGround("flag", { width: 1, height: 1, subdivisions: 4 }, h.scene);
        const aggregate = new PhysicsAggregate(aggregated, PhysicsShapeType.BOX, { mass: 1 }, h.scene);
        expect(() => new ClothImpostor(aggregated, {}, xpbd)).toThrow(/ClothImpostor: mesh "flag" already has a Havok physics body/);
        const ball = CreateSphere("ball", { diameter: 0.5, segments: 4 }, h.scene);
        createBody(h.scene, { kind: "sphere", radius: 0.25 }, { motionType: PhysicsMotionType.DYNAMIC, node: ball });
        expect(() => new SoftBodyImpostor(ball, { resolution: 2 }, xpbd)).toThrow(
            /SoftBodyImpostor: mesh "ball" already has a Havok physics body/,
        );
        expect(xpbd.impostors.length).toBe(0);
        expect(() => h.step(5)).not.toThrow();
        // Its body disposed, the mesh can become cloth.
        aggregate.dispose();
        const flag = new ClothImpostor(aggregated, {}, xpbd);
        expect(() => h.step(5)).not.toThrow();
        expect(allFinite(flag)).toBe(true);
        // A body given to the mesh afterwards is not a collider of the soft bodies (the cloth would meet a rigid copy
        // of itself), with one warning; the mesh is still drawn where the cloth is, wherever Havok moves its node.
        const late = new PhysicsAggregate(aggregated, PhysicsShapeType.BOX, { mass: 1 }, h.scene);
        expect(() => h.step(30)).not.toThrow();
        expect(xpbd.getColliderForBody(late.body) === null).toBe(true);
        expect(warnings.filter((w) => /ignore the physics body of "flag": that mesh is simulated by an impostor/.test(w))).toHaveLength(1);
        const shown = Vector3.TransformCoordinates(
            Vector3.FromArray(aggregated.getVerticesData(VertexBuffer.PositionKind) as Float32Array, 0),
            aggregated.computeWorldMatrix(true),
        );
        expect(Vector3.Distance(shown, Vector3.FromArray(flag.body.positions, 3 * flag.vertexToParticle[0]))).toBeLessThan(1e-2);
        expect(allFinite(flag)).toBe(true);
    });

    it("teleporting the mesh moves only where it is drawn from: the body stays, the render mesh still shows it, finite", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd, 1);
        h.step(5);
        const before = cloth.getCenterOfMass();
        cloth.mesh.position.set(1e4, -50, 3);
        cloth.mesh.rotation.set(0.3, 1, 2);
        h.step(1);
        const after = cloth.getCenterOfMass();
        // One step of free fall: the body did not jump with its node.
        expect(Vector3.Distance(before, after)).toBeLessThan(0.05);
        // The render mesh, placed by its new world matrix, still shows the simulated positions (to float32 precision).
        const world = cloth.mesh.computeWorldMatrix(true);
        const local = (): Float32Array => cloth.mesh.getVerticesData(VertexBuffer.PositionKind) as Float32Array;
        const shown = Vector3.TransformCoordinates(Vector3.FromArray(local(), 0), world);
        const simulated = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0]);
        expect(Vector3.Distance(shown, simulated)).toBeLessThan(1e-2);
        h.step(30);
        expect(allFinite(cloth)).toBe(true);
        // Moved again while the body sleeps (no step to trigger a write): the next frame still redraws it in place.
        cloth.sleepTime = 0;
        cloth.setPinWeights(new Array(cloth.vertexToParticle.length).fill(1));
        h.step(5);
        expect(cloth.sleeping).toBe(true);
        cloth.mesh.position.set(-3, 7, 2);
        h.step(1);
        const again = Vector3.TransformCoordinates(Vector3.FromArray(local(), 0), cloth.mesh.computeWorldMatrix(true));
        expect(Vector3.Distance(again, Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0]))).toBeLessThan(1e-2);
    });

    it("frame times and Havok time steps from 1e-5 s to 1 s, and 0: no throw, no NaN, soft time stays Havok time", async () => {
        // Fixed time step (HavokPlugin(false)): every step is exactly what Havok advances by.
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd, 1);
        const jelly = new SoftBodyImpostor(CreateBox("jelly", { size: 0.4 }, h.scene), { resolution: 2 }, xpbd);
        createBody(h.scene, { kind: "box", extents: [4, 0.2, 4] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        cloth.setPinWeight(0, 1);
        let havokTime = 0;
        h.scene.onAfterPhysicsObservable.add(() => (havokTime += h.havok.getTimeStep()));
        // 0: Havok stands still, and so does the soft world (no step of zero length).
        for (const seconds of [1e-5, 1e-4, 1e-3, 1 / 60, 0.1, 0.5, 1, 1e-5, 0, 1]) {
            h.havok.setTimeStep(seconds);
            expect(() => h.step(5)).not.toThrow();
            expect([seconds, allFinite(cloth) && allFinite(jelly)]).toEqual([seconds, true]);
        }
        expect(xpbd.world.time).toBeCloseTo(havokTime, 9);
        // Frame time (HavokPlugin(true)): Babylon clamps it to [1, 1000] ms, Havok's step to at most 0.1 s.
        const hk = await loadHavok();
        const s = await createHavokScene();
        s.scene.disablePhysicsEngine();
        s.scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, hk));
        const byFrame = new XpbdPlugin(s.scene);
        const flag = sheet(s, byFrame, 1);
        flag.setPinWeight(0, 1);
        // A free-falling Havok body measures Havok's own clock: v = g·t.
        const clock = createBody(
            s.scene,
            { kind: "sphere", radius: 0.1 },
            { motionType: PhysicsMotionType.DYNAMIC, position: [50, 1000, 0] },
        );
        clock.body.setLinearDamping(0);
        for (const ms of [0.01, 0.1, 1, 16, 100, 1000, 0.01]) {
            s.setFrameTime(ms);
            expect(() => s.step(5)).not.toThrow();
            expect([ms, allFinite(flag)]).toEqual([ms, true]);
        }
        expect(Math.abs(byFrame.world.time + clock.body.getLinearVelocity().y / 9.81)).toBeLessThan(0.005);
        s.dispose();
    });

    it("physicsEngine.setSubTimeStep changed at run time: soft time keeps equal to Havok time, finite", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = sheet(h, xpbd, 1);
        cloth.setPinWeight(0, 1);
        let havokTime = 0;
        h.scene.onAfterPhysicsObservable.add(() => (havokTime += h.havok.getTimeStep()));
        for (const [sub, frame] of [
            [0, 16],
            [10, 25],
            [1, 16],
            [0, 33],
            [50, 16],
            [5, 1000],
            [0, 1],
        ]) {
            h.physicsEngine.setSubTimeStep(sub);
            h.setFrameTime(frame);
            expect(() => h.step(4)).not.toThrow();
        }
        expect(xpbd.world.time).toBeCloseTo(havokTime, 9);
        expect(allFinite(cloth)).toBe(true);
    });

    it("physics disabled disposes the plugin and its impostors (one warning); a new plugin works on the re-enabled physics", async () => {
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        mesh.position.y = 1;
        const before = observerCounts(h, [mesh]);
        const xpbd = new XpbdPlugin(h.scene);
        const cloth = new ClothImpostor(mesh, {}, xpbd);
        h.step(5);
        h.scene.disablePhysicsEngine();
        expect(() => h.step(3)).not.toThrow();
        expect(xpbd.isDisposed && cloth.isDisposed).toBe(true);
        expect(XpbdPlugin.FromScene(h.scene) === null).toBe(true);
        expect(warnings.filter((w) => /physics engine .*disposed/.test(w))).toHaveLength(1);
        await settle();
        // Every observer the plugin and its impostor added is gone.
        expect(observerCounts(h, [mesh])).toEqual(before);

        h.scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(false, await loadHavok()));
        const again = new XpbdPlugin(h.scene);
        const cloth2 = new ClothImpostor(mesh, {}, again);
        const y0 = cloth2.getCenterOfMass().y;
        expect(() => h.step(10)).not.toThrow();
        expect(cloth2.getCenterOfMass().y).toBeLessThan(y0 - 0.01);
        expect(allFinite(cloth2)).toBe(true);

        // Re-enabled before any frame ran: the stale plugin gives way to a new one at once.
        h.scene.disablePhysicsEngine();
        h.scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(false, await loadHavok()));
        const third = new XpbdPlugin(h.scene);
        expect(again.isDisposed).toBe(true);
        sheet(h, third, 1, "third");
        expect(() => h.step(5)).not.toThrow();
        expect(third.world.time).toBeGreaterThan(0);
    });

    it("two scenes, each with its own plugin, step independently: a body in one never touches cloth in the other", async () => {
        const b = await createHavokScene({ frameTimeMs: 1000 / 60 });
        // No air, so that B falls freely.
        const xa = new XpbdPlugin(h.scene, { airDensity: 0 });
        const xb = new XpbdPlugin(b.scene, { airDensity: 0 });
        const clothA = sheet(h, xa, 0.5, "a");
        const clothB = sheet(b, xb, 0.5, "b");
        createBody(h.scene, { kind: "box", extents: [2, 0.2, 2] }, { motionType: PhysicsMotionType.STATIC });
        expect(XpbdPlugin.FromScene(h.scene) === xa).toBe(true);
        expect(XpbdPlugin.FromScene(b.scene) === xb).toBe(true);
        for (let frame = 0; frame < 60; frame++) {
            h.step();
            if (frame % 2 === 0) {
                b.step();
            }
        }
        expect(xa.world.colliders.length).toBe(1);
        expect(xb.world.colliders.length).toBe(0);
        expect(xa.world.time).toBeCloseTo(1, 9);
        expect(xb.world.time).toBeCloseTo(0.5, 9);
        // A rests on its table; B, with nothing under it, has fallen 0.5·g·t² ≈ 1.2 m.
        expect(clothA.getCenterOfMass().y).toBeGreaterThan(0.1);
        expect(clothB.getCenterOfMass().y).toBeLessThan(-0.5);
        b.dispose();
        expect(xb.isDisposed).toBe(true);
        expect(xa.isDisposed).toBe(false);
        expect(() => h.step(5)).not.toThrow();
        expect(allFinite(clothA)).toBe(true);
    });

    describe("capacity overflow reaches onCapacityExceededObservable, with one warning per kind", () => {
        it("contacts per particle", () => {
            const xpbd = new XpbdPlugin(h.scene);
            const events: XpbdCapacityEvent[] = [];
            xpbd.onCapacityExceededObservable.add((e) => events.push({ ...e }));
            // Ten overlapping spheres under every particle: more candidates than 4 per particle.
            for (let k = 0; k < 10; k++) {
                createBody(
                    h.scene,
                    { kind: "sphere", radius: 2 },
                    { motionType: PhysicsMotionType.STATIC, position: [0, -1.5 - 0.01 * k, 0] },
                );
            }
            const cloth = sheet(h, xpbd, 0.55);
            h.step(10);
            // Compared as plain values: a failing diff would try to print the whole scene.
            expect(events.map((e) => [e.kind, e.impostor === cloth, e.capacity, e.dropped])).toEqual([
                ["contacts", true, cloth.body.contacts.capacity, 0],
            ]);
            expect(warnings.filter((w) => /contacts/.test(w) && /capacity/.test(w))).toHaveLength(1);
            expect(allFinite(cloth)).toBe(true);
        });

        it("broad-phase grid cells", () => {
            const xpbd = new XpbdPlugin(h.scene, { gridCapacity: 8 });
            const events: XpbdCapacityEvent[] = [];
            xpbd.onCapacityExceededObservable.add((e) => events.push({ ...e }));
            // Twenty small spheres under the cloth need more than eight grid entries.
            for (let i = 0; i < 5; i++) {
                for (let k = 0; k < 4; k++) {
                    createBody(
                        h.scene,
                        { kind: "sphere", radius: 0.1 },
                        { motionType: PhysicsMotionType.STATIC, position: [-0.4 + 0.2 * i, 0, -0.3 + 0.2 * k] },
                    );
                }
            }
            const cloth = sheet(h, xpbd, 0.3);
            h.step(40);
            expect(events).toEqual([{ kind: "grid", impostor: null, capacity: 8, dropped: 0 }]);
            expect(warnings.filter((w) => /grid/.test(w) && /capacity/.test(w))).toHaveLength(1);
            // The shapes left out of the grid still hold the cloth up.
            expect(cloth.getCenterOfMass().y).toBeGreaterThan(0);
            expect(allFinite(cloth)).toBe(true);
        });

        it("events per step", () => {
            const xpbd = new XpbdPlugin(h.scene, { eventCapacity: 4 });
            const events: XpbdCapacityEvent[] = [];
            xpbd.onCapacityExceededObservable.add((e) => events.push({ ...e }));
            const cloths: ClothImpostor[] = [];
            for (let k = 0; k < 8; k++) {
                const c = sheet(h, xpbd, 1, `c${k}`);
                c.setPinWeights(new Array(c.vertexToParticle.length).fill(1));
                cloths.push(c);
            }
            // Eight pinned cloths fall asleep in the same step: eight sleep events into a queue of four.
            h.step(60);
            expect(cloths.every((c) => c.sleeping)).toBe(true);
            expect(events.filter((e) => e.kind === "events")).toEqual([{ kind: "events", impostor: null, capacity: 4, dropped: 4 }]);
            expect(warnings.filter((w) => /events/.test(w) && /capacity/.test(w))).toHaveLength(1);
        });
    });
});
