/**
 * XpbdPlugin.timings: per-phase milliseconds written only while `profile` is on, each non-negative, the phases of a
 * frame fitting inside that frame's wall time, and the core phase enclosing the core's own step timer.
 */
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import type { XpbdPluginTimings } from "../../src/babylon/pluginTimings";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";

const PHASES = ["pinTargetsMs", "colliderSyncMs", "coreStepMs", "impulsesMs", "eventsMs", "havokStepMs", "renderSyncMs"] as const;

/** A cloth pinned to an animated node, falling on a dynamic box that rests on a static floor. */
function scene(h: HavokScene, profile?: boolean): XpbdPlugin {
    createBody(h.scene, { kind: "box", extents: [10, 1, 10] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.5, 0] });
    createBody(
        h.scene,
        { kind: "box", extents: [0.6, 0.6, 0.6] },
        { motionType: PhysicsMotionType.DYNAMIC, position: [0, 0.3, 0], mass: 1 },
    );
    const xpbd = new XpbdPlugin(h.scene, profile === undefined ? { substeps: 4 } : { substeps: 4, profile });
    const sheet = CreateGround("sheet", { width: 1, height: 1, subdivisions: 8 }, h.scene);
    sheet.position.y = 0.7;
    const cloth = new ClothImpostor(sheet, { mass: 0.2 }, xpbd);
    const pole = new TransformNode("pole", h.scene);
    cloth.pinTo([0], pole);
    h.scene.onBeforeAnimationsObservable.add(() => (pole.position.x += 0.001));
    return xpbd;
}

describe("XpbdPlugin.timings", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("stays at zero while profile is off (the default)", () => {
        const xpbd = scene(h);
        expect(xpbd.profile).toBe(false);
        h.step(5);
        const t = xpbd.timings;
        for (const phase of PHASES) {
            expect(t[phase]).toBe(0);
        }
        expect(t.steps).toBe(0);
        expect(t.renderSyncs).toBe(0);
    });

    it("times every phase of each frame: non-negative, inside the frame's wall time, the core phase enclosing stats.stepMs", () => {
        const xpbd = scene(h, true);
        const t: XpbdPluginTimings = xpbd.timings;
        h.step(10);
        let contacts = 0;
        for (let frame = 0; frame < 30; frame++) {
            const steps = t.steps;
            const renders = t.renderSyncs;
            const start = performance.now();
            h.step();
            const wall = performance.now() - start;
            expect(t.steps).toBe(steps + 1);
            expect(t.renderSyncs).toBe(renders + 1);
            let sum = 0;
            for (const phase of PHASES) {
                expect(Number.isFinite(t[phase])).toBe(true);
                expect(t[phase]).toBeGreaterThanOrEqual(0);
                sum += t[phase];
            }
            // Every phase is a disjoint interval inside scene.render().
            expect(sum).toBeLessThanOrEqual(wall);
            expect(t.coreStepMs).toBeGreaterThan(0);
            expect(t.coreStepMs).toBeGreaterThanOrEqual(xpbd.stats.stepMs);
            expect(t.colliderSyncMs).toBeGreaterThan(0);
            expect(t.renderSyncMs).toBeGreaterThan(0);
            contacts += xpbd.stats.contacts;
        }
        expect(contacts).toBeGreaterThan(0);
        const overhead = t.pinTargetsMs + t.colliderSyncMs + t.impulsesMs + t.eventsMs + t.renderSyncMs;
        console.log(
            `last frame: havok ${t.havokStepMs.toFixed(3)} ms, core ${t.coreStepMs.toFixed(3)} ms, plugin ${overhead.toFixed(3)} ms ` +
                `(pins ${t.pinTargetsMs.toFixed(3)}, sync ${t.colliderSyncMs.toFixed(3)}, impulses ${t.impulsesMs.toFixed(3)}, ` +
                `events ${t.eventsMs.toFixed(3)}, render ${t.renderSyncMs.toFixed(3)})`,
        );

        xpbd.profile = false;
        const frozen = { ...t };
        h.step(3);
        expect(xpbd.timings).toEqual(frozen);
    });
});
