/**
 * Level of detail (`XpbdPluginOptions.lod`, `SoftImpostorOptions.lod`): an impostor's solver work falls with its
 * distance from the active camera, it sleeps in place beyond `far` or outside the view, and it wakes without a jump.
 */
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { TargetCamera } from "@babylonjs/core/Cameras/targetCamera";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor, type ClothImpostorOptions } from "../../src/babylon/clothImpostor";
import { XpbdLodLevel, type XpbdLodOptions } from "../../src/babylon/levelOfDetail";

const SUBSTEPS = 8;
const NEAR = 10;
const FAR = 30;

interface LodScene {
    xpbd: XpbdPlugin;
    cloth: ClothImpostor;
    camera: TargetCamera;
    /** Puts the camera `distance` metres in front of the cloth (−z), looking at it, or away from it. */
    look(distance: number, away?: boolean): void;
}

/** A 1 m cloth held flat by two pinned corners at y = 2 (so it swings down), above a floor, seen by its own camera. */
function lodScene(h: HavokScene, lod: XpbdLodOptions | undefined, clothLod?: XpbdLodOptions): LodScene {
    createBody(h.scene, { kind: "box", extents: [10, 1, 10] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.5, 0] });
    const xpbd = new XpbdPlugin(h.scene, lod === undefined ? { substeps: SUBSTEPS } : { substeps: SUBSTEPS, lod });
    const sheet = CreateGround("sheet", { width: 1, height: 1, subdivisions: 8 }, h.scene);
    sheet.position.y = 2;
    const options: ClothImpostorOptions = { mass: 0.2, allowSleep: false };
    const cloth = new ClothImpostor(sheet, clothLod === undefined ? options : { ...options, lod: clothLod }, xpbd);
    // Two corners of one edge (a 9 × 9 grid of vertices).
    cloth.setPinWeight(0, 1);
    cloth.setPinWeight(8, 1);
    const camera = new TargetCamera("lodCamera", new Vector3(0, 2, -5), h.scene);
    h.scene.activeCamera = camera;
    return {
        xpbd,
        cloth,
        camera,
        look(distance, away = false) {
            camera.position.set(0, 2, -distance);
            camera.setTarget(new Vector3(0, 2, away ? -distance - 10 : 0));
        },
    };
}

/** Largest distance any particle moved between `before` and `after`. */
function largestMove(before: Float64Array, after: Float64Array): number {
    let largest = 0;
    for (let i = 0; i < before.length; i += 3) {
        largest = Math.max(largest, Math.hypot(after[i] - before[i], after[i + 1] - before[i + 1], after[i + 2] - before[i + 2]));
    }
    return largest;
}

describe("Level of detail", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("is off by default: full substeps at any distance", () => {
        const s = lodScene(h, undefined);
        expect(s.xpbd.lod).toBeNull();
        s.look(1000);
        h.step(3);
        expect(s.cloth.lodLevel).toBe(XpbdLodLevel.Full);
        expect(s.cloth.body.stats.solvedSubsteps).toBe(SUBSTEPS);
        expect(s.xpbd.stats.solvedSubsteps).toBe(SUBSTEPS);
    });

    it("solves fewer substeps with distance, as the stats count them: 8 near, 4 mid (half), 0 far", () => {
        const s = lodScene(h, { distances: [NEAR, FAR] });
        const counted: [XpbdLodLevel, number, number][] = [];
        for (const distance of [5, 20, 50]) {
            s.look(distance);
            h.step(3);
            counted.push([s.cloth.lodLevel, s.cloth.body.stats.solvedSubsteps, s.xpbd.stats.solvedSubsteps]);
        }
        expect(counted).toEqual([
            [XpbdLodLevel.Full, 8, 8],
            [XpbdLodLevel.Reduced, 4, 4],
            [XpbdLodLevel.Asleep, 0, 0],
        ]);
        // The world's quality tier is unchanged: only this body is solved less.
        expect(s.xpbd.stats.substeps).toBe(SUBSTEPS);
        s.xpbd.lod = { distances: [NEAR, FAR], midSubsteps: 3 };
        s.look(20);
        h.step(1);
        expect(s.cloth.body.stats.solvedSubsteps).toBe(3);
    });

    it("an impostor beyond far, or outside the view, sleeps in place: no solver work, no render-mesh write, not a particle moves", () => {
        const s = lodScene(h, { distances: [NEAR, FAR] });
        s.xpbd.profile = true;
        s.look(5);
        h.step(10);
        expect(s.xpbd.timings.renderSyncs).toBe(10);
        for (const [distance, away] of [
            [50, false],
            [5, true],
        ] as const) {
            s.look(distance, away);
            h.step(1);
            const held = new Float64Array(s.cloth.body.positions);
            const renderSyncs = s.xpbd.timings.renderSyncs;
            h.step(20);
            // Nor is its render mesh rewritten.
            expect(s.xpbd.timings.renderSyncs).toBe(renderSyncs);
            expect(s.cloth.lodLevel).toBe(XpbdLodLevel.Asleep);
            expect(s.cloth.sleeping).toBe(true);
            expect(s.cloth.body.stats.solvedSubsteps).toBe(0);
            expect(s.cloth.body.stats.contacts).toBe(0);
            expect(largestMove(held, s.cloth.body.positions)).toBe(0);
            // A wake request (an API call, a collider passing by) waits until the camera comes back.
            s.cloth.body.wake();
            h.step(1);
            expect(s.cloth.sleeping).toBe(true);
            s.look(5);
            h.step(1);
            expect(s.cloth.sleeping).toBe(false);
            expect(s.cloth.lodLevel).toBe(XpbdLodLevel.Full);
        }
    });

    it("wakes when the camera comes back, and no particle moves more than one step's motion at any transition", () => {
        const s = lodScene(h, { distances: [NEAR, FAR] });
        s.look(5);
        const before = new Float64Array(s.cloth.body.positions);
        // Largest one-step motion of the last steps the cloth was awake: what a transition may not exceed.
        const recent: number[] = [];
        const step = (): number => {
            before.set(s.cloth.body.positions);
            h.step(1);
            return largestMove(before, s.cloth.body.positions);
        };
        for (let k = 0; k < 40; k++) {
            recent.push(step());
        }
        // The largest one-step motion of a whole swing at full detail: nothing may move faster than that later.
        const swing = Math.max(...recent);
        const levels: XpbdLodLevel[] = [];
        // Near → mid → asleep (far) → near → asleep (looking away) → mid → near, mid-swing.
        for (const [distance, away] of [
            [20, false],
            [50, false],
            [5, false],
            [5, true],
            [20, false],
            [5, false],
        ] as const) {
            s.look(distance, away);
            const move = step();
            levels.push(s.cloth.lodLevel);
            const next = step();
            // One step's motion: the larger of the last awake steps before and the step after (a swing speeds up).
            const oneStep = Math.max(next, ...recent.slice(-3));
            expect(move).toBeLessThanOrEqual(oneStep * 1.1);
            expect(Math.max(move, next)).toBeLessThanOrEqual(swing);
            for (let k = 0; k < 6; k++) {
                const m = step();
                if (s.cloth.lodLevel !== XpbdLodLevel.Asleep) {
                    recent.push(m);
                }
            }
        }
        expect(levels).toEqual([
            XpbdLodLevel.Reduced,
            XpbdLodLevel.Asleep,
            XpbdLodLevel.Full,
            XpbdLodLevel.Asleep,
            XpbdLodLevel.Reduced,
            XpbdLodLevel.Full,
        ]);
        // The cloth was swinging (the test means something).
        expect(swing).toBeGreaterThan(0.02);
    });

    it("an impostor's own options override the plugin's", () => {
        const s = lodScene(h, { distances: [NEAR, FAR] }, { distances: [Infinity, Infinity], frustumCulling: false });
        s.look(50, true);
        h.step(2);
        expect(s.cloth.lodLevel).toBe(XpbdLodLevel.Full);
        expect(s.cloth.body.stats.solvedSubsteps).toBe(SUBSTEPS);
        s.cloth.lod = null;
        h.step(1);
        expect(s.cloth.lodLevel).toBe(XpbdLodLevel.Asleep);
    });

    it("refuses bad options with a clear error naming them", () => {
        const bad: [unknown, RegExp][] = [
            [{ distances: [30, 10] }, /XpbdPlugin: lod.distances: near \(30 m\) must not be beyond far \(10 m\)/],
            [{ distances: [-1, 10] }, /XpbdPlugin: lod.distances: near must be a number ≥ 0 .*got -1/],
            [{ distances: [1, NaN] }, /XpbdPlugin: lod.distances: far must be a number ≥ 0 .*got NaN/],
            [{ distances: [1] }, /XpbdPlugin: lod.distances must be \[near, far\]/],
            [{ distances: [1, 2], midSubsteps: 1.5 }, /XpbdPlugin: lod.midSubsteps must be a positive integer, got 1.5/],
            [{ distances: [1, 2], far: 3 }, /XpbdPlugin: lod has no option "far"/],
            [5, /XpbdPlugin: lod must be an object/],
        ];
        for (const [lod, message] of bad) {
            expect(() => new XpbdPlugin(h.scene, { lod: lod as XpbdLodOptions })).toThrow(message);
        }
        const s = lodScene(h, undefined);
        expect(() => (s.xpbd.lod = { distances: [5, 2] })).toThrow(RangeError);
        expect(() => (s.cloth.lod = { distances: [NaN, 2] })).toThrow(/ClothImpostor: lod.distances: near must be a number/);
        const mesh = CreateGround("other", { width: 1, height: 1, subdivisions: 2 }, h.scene);
        expect(() => new ClothImpostor(mesh, { lod: { distances: [2, -3] } }, s.xpbd)).toThrow(
            /ClothImpostor: lod.distances: far must be a number ≥ 0/,
        );
        // Nothing joined the plugin.
        expect(s.xpbd.impostors.length).toBe(1);
    });
});

describe("Level of detail docs example", () => {
    it('runs as written in docs/plugin.md, "Level of detail"', async () => {
        const h = await createHavokScene();
        const scene = h.scene;
        const camera = new TargetCamera("camera", new Vector3(0, 2, -20), scene);
        camera.setTarget(new Vector3(0, 2, 0));
        scene.activeCamera = camera;
        const sheet = CreateGround("sheet", { width: 1, height: 1, subdivisions: 6 }, scene);
        sheet.position.y = 2;
        const capeMesh = CreateGround("cape", { width: 1, height: 1, subdivisions: 6 }, scene);
        capeMesh.position.set(2, 2, 0);
        // From docs/plugin.md, "Level of detail".
        const xpbd = new XpbdPlugin(scene, { substeps: 8, lod: { distances: [10, 30] } });
        const flag = new ClothImpostor(sheet, { mass: 0.2 }, xpbd);
        const cape = new ClothImpostor(capeMesh, { lod: { distances: [Infinity, Infinity], frustumCulling: false } }, xpbd);
        h.step(2);
        // 20 m away: the flag at half the substeps, the cape at all of them.
        expect([flag.lodLevel, flag.body.stats.solvedSubsteps, cape.lodLevel, xpbd.stats.solvedSubsteps]).toEqual([
            XpbdLodLevel.Reduced,
            4,
            XpbdLodLevel.Full,
            12,
        ]);
        xpbd.lod = null;
        h.step(1);
        expect([flag.lodLevel, xpbd.stats.solvedSubsteps]).toEqual([XpbdLodLevel.Full, 16]);
        h.dispose();
    });
});
