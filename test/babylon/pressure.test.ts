/**
 * Gas pressure through the ClothImpostor (real Havok, NullEngine): an air cushion squeezed under Havok boxes keeps
 * p·V constant, the option is validated (an open mesh is refused by its open edge count), and it is read back,
 * changed and copied as code like the other options.
 */
import { CreateIcoSphere } from "@babylonjs/core/Meshes/Builders/icoSphereBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { enclosedVolume } from "../../src/core/enclosedVolume";
import { parametersAsCode } from "../../src/inspector/parameterSnippet";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";

const RADIUS = 0.3;
/**
 * 8 kPa: the gas alone (no air outside) carries the boxes; a 160 kg box on a 0.5 × 0.5 m face needs at least
 * 6.3 kPa (its weight over the face; more over the smaller patch it touches) and squeezes the cushion to ×0.90 V₀.
 */
const PRESSURE = 8000;
/**
 * A 4 kg cushion: at the default quality XPBD's few projections per substep leave a light surface under a heavy
 * load short of its gas law's volume by about p·S·h²/2 (S = Σ wᵢ|∇ᵢV|², so ∝ 1/mass): under 160 kg it reads p·V
 * 3.7% low, under 60 kg 1.2%.
 */
const CUSHION_MASS = 4;

describe("gas pressure on the ClothImpostor", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    /** A 0.6 m wide, 0.3 m high, 4 kg air cushion (a flattened icosphere) at 8 kPa on a Havok floor. */
    function cushion(xpbd: XpbdPlugin, x: number): ClothImpostor {
        const mesh = CreateIcoSphere(`cushion${x}`, { radius: RADIUS, subdivisions: 3, updatable: true }, h.scene);
        // A pillow: flattened to 0.3 m high, so a box rests on its top.
        mesh.scaling.y = 0.5;
        mesh.position.set(x, RADIUS / 2 + 0.01, 0);
        return new ClothImpostor(mesh, { mass: CUSHION_MASS, pressure: PRESSURE, allowSleep: false }, xpbd);
    }

    it("squeezed under heavier Havok boxes, a cushion's volume falls and p·V stays pressure·V₀", () => {
        const xpbd = new XpbdPlugin(h.scene);
        createBody(h.scene, { kind: "box", extents: [10, 0.2, 10] }, { motionType: PhysicsMotionType.STATIC, position: [0, -0.1, 0] });
        const masses = [20, 60, 160];
        const boxes: TransformNode[] = [];
        const cushions = masses.map((mass, i) => {
            const c = cushion(xpbd, 2 * i);
            const box = createBody(
                h.scene,
                { kind: "box", extents: [0.5, 0.2, 0.5] },
                { motionType: PhysicsMotionType.DYNAMIC, position: [2 * i, RADIUS + 0.12, 0], mass },
            );
            // No tipping off the pillow: the box may only sink.
            box.body.setMassProperties({ mass, inertia: new Vector3(1e6, 1e6, 1e6) });
            // The gas is an undamped spring: damp the box so it settles within the 4 s (else it bobs on it).
            box.body.setLinearDamping(3);
            boxes.push(box.node);
            return c;
        });
        h.step(240);
        const rows = cushions.map((c, i) => {
            const gas = c.body.gas!;
            const v = Math.abs(enclosedVolume(c.body.triangles, c.body.positions));
            const pv = (gas.appliedPressure * v) / (PRESSURE * gas.restVolume);
            console.log(
                `box ${masses[i]} kg at x ${boxes[i].position.x.toFixed(3)} y ${boxes[i].position.y.toFixed(3)}: V/V0 ${(v / gas.restVolume).toFixed(4)}, applied ${gas.appliedPressure.toFixed(0)} Pa ` +
                    `(gas law ${gas.pressureAt(v).toFixed(0)} Pa), pV/(P0 V0) ${pv.toFixed(4)}`,
            );
            return { ratio: v / gas.restVolume, pv, y: boxes[i].position.y };
        });
        for (const r of rows) {
            expect(Math.abs(r.pv - 1)).toBeLessThan(0.05);
            // Resting on the cushion, not through it to the floor (box centre 0.1 m up).
            expect(r.y).toBeGreaterThan(0.25);
        }
        expect(rows[1].ratio).toBeLessThan(rows[0].ratio);
        expect(rows[2].ratio).toBeLessThan(rows[1].ratio);
    });

    it("is read back, changed and copied as code; an open mesh, a bad pressure and a cloth without gas are refused", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const c = cushion(xpbd, 0);
        expect(c.pressure).toBe(PRESSURE);
        expect(c.getOptions().pressure).toBe(PRESSURE);
        expect(parametersAsCode(c)).toContain(`pressure: ${PRESSURE}`);
        c.pressure = 5000;
        expect(c.body.gas!.pressure).toBe(5000);
        expect(() => (c.pressure = -1)).toThrow(RangeError);
        c.pressure = 0;
        expect(c.pressure).toBe(0);
        const sheet = CreateGround("sheet", { width: 1, height: 1, subdivisions: 4, updatable: true }, h.scene);
        expect(() => new ClothImpostor(sheet, { pressure: 1000 }, xpbd)).toThrow(
            "ClothImpostor: pressure needs a closed mesh, and this one has 16 open edges",
        );
        const plain = new ClothImpostor(sheet, {}, xpbd);
        expect(plain.pressure).toBeUndefined();
        expect(plain.getOptions().pressure).toBeUndefined();
        expect(() => (plain.pressure = 1000)).toThrow("pressure can only be changed on a cloth built with it");
        const ball = CreateIcoSphere("ball", { radius: 0.2, subdivisions: 1 }, h.scene);
        expect(() => new ClothImpostor(ball, { pressure: NaN }, xpbd)).toThrow(RangeError);
    });

    it("runs the docs example", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const scene = h.scene;
        // From docs/plugin.md, "Pressure: balloons and air cushions".
        const mesh = CreateIcoSphere("cushion", { radius: 0.3, subdivisions: 3, updatable: true }, scene);
        mesh.scaling.y = 0.5;
        mesh.position.y = 0.16;
        const cushion = new ClothImpostor(mesh, { mass: 4, pressure: 8000 }, xpbd);
        cushion.pressure = 12000;
        h.step(30);
        // Free in the air for half a second, the gas has pushed the surface out: the law's pressure is being applied.
        expect(cushion.body.gas!.appliedPressure).toBeGreaterThan(0);
        expect(cushion.body.gas!.volume).toBeGreaterThan(cushion.body.gas!.restVolume);
    });
});
