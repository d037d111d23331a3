/**
 * Wind on the plugin and per impostor, against real Havok (WASM, NullEngine): a pinned cloth blows downwind,
 * `xpbd.wind` / `airDensity` reach the core world, and the per-impostor coefficients have their documented defaults
 * (soft bodies: half the cloth's drag and lift).
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreatePlane } from "@babylonjs/core/Meshes/Builders/planeBuilder";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor, type ClothImpostorOptions } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { DEFAULT_AIR_DENSITY } from "../../src/core/index";

/**
 * A vertical 1 m square cloth (xy plane, facing ±z, centred at (x, 1.5, 0)), 12 × 12 cells, pinned along its top
 * edge: CreateGround stood upright.
 */
function uprightSheet(h: HavokScene, xpbd: XpbdPlugin, x: number, options: ClothImpostorOptions = {}): ClothImpostor {
    const mesh = CreateGround(`sheet${x}`, { width: 1, height: 1, subdivisions: 12 }, h.scene);
    mesh.rotation.x = -Math.PI / 2;
    mesh.position.set(x, 1.5, 0);
    const world = mesh.computeWorldMatrix(true);
    const local = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const top: number[] = [];
    const p = new Vector3();
    for (let v = 0; v < local.length / 3; v++) {
        Vector3.TransformCoordinatesFromFloatsToRef(local[3 * v], local[3 * v + 1], local[3 * v + 2], world, p);
        if (p.y > 1.999) top.push(v);
    }
    expect(top).toHaveLength(13);
    return new ClothImpostor(mesh, { mass: 0.1, allowSleep: false, pins: top, ...options }, xpbd);
}

describe("wind on the plugin", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("defaults to still air of density 1.2, and xpbd.wind / airDensity write through to the core world", () => {
        const xpbd = new XpbdPlugin(h.scene);
        expect(Array.from(xpbd.world.wind)).toEqual([0, 0, 0]);
        expect(xpbd.airDensity).toBe(DEFAULT_AIR_DENSITY);
        expect(xpbd.wind.equals(Vector3.Zero())).toBe(true);

        xpbd.wind = new Vector3(3, 0, -4);
        expect(Array.from(xpbd.world.wind)).toEqual([3, 0, -4]);
        const copy = xpbd.wind;
        expect(copy.asArray()).toEqual([3, 0, -4]);
        copy.x = 100; // a copy: editing it does not change the world
        expect(xpbd.world.wind[0]).toBe(3);
        const target = new Vector3(7, 7, 7);
        expect(xpbd.getWindToRef(target)).toBe(target);
        expect(target.asArray()).toEqual([3, 0, -4]);

        xpbd.airDensity = 0.5;
        expect(xpbd.world.airDensity).toBe(0.5);
        expect(() => (xpbd.wind = new Vector3(NaN, 0, 0))).toThrow(RangeError);
        expect(() => (xpbd.airDensity = -1)).toThrow(RangeError);
    });

    it("takes wind and airDensity as options", () => {
        const xpbd = new XpbdPlugin(h.scene, { wind: new Vector3(1, 2, 3), airDensity: 1 });
        expect(Array.from(xpbd.world.wind)).toEqual([1, 2, 3]);
        expect(xpbd.world.airDensity).toBe(1);
    });

    it("pushes a still sheet with ½ρC_D A|u|² at C_D = 1.2, and a jelly with half of that per face (C_D = 0.6)", () => {
        // Defaults under test: no coefficient given. The wind is horizontal, gravity vertical: the first step's
        // momentum along the wind is the wind's force times the step, F·dt (the force is held over the step).
        const xpbd = new XpbdPlugin(h.scene, { wind: new Vector3(0, 0, 8) });
        const sheet = uprightSheet(h, xpbd, 0, { mass: 0.5, pins: [] });
        const box = CreateBox("jelly", { size: 0.5 }, h.scene);
        box.position.set(3, 3, 0);
        const jelly = new SoftBodyImpostor(box, { resolution: 2, mass: 2 }, xpbd);
        // The jelly's surface triangles seen along the wind: Σ A·|n_z| (its tetrahedral surface, not exactly the box).
        let seenArea = 0;
        const x = jelly.body.positions;
        const tri = jelly.body.triangles;
        for (let t = 0; t < tri.length; t += 3) {
            const [a, b, c] = [3 * tri[t], 3 * tri[t + 1], 3 * tri[t + 2]];
            seenArea += Math.abs((x[b] - x[a]) * (x[c + 1] - x[a + 1]) - (x[b + 1] - x[a + 1]) * (x[c] - x[a])) / 2;
        }
        h.step();
        const pushZ = (body: { masses: Float64Array; velocities: Float64Array; particleCount: number }): number => {
            let p = 0;
            for (let i = 0; i < body.particleCount; i++) p += body.masses[i] * body.velocities[3 * i + 2];
            return p;
        };
        const dt = 1 / 60;
        // Sheet, face-on: ½·1.2·1.2·1 m²·64 = 46.08 N. Jelly: every face is pushed by drag over its area seen by
        // the wind; lift is perpendicular to the wind and adds nothing along it: ½·1.2·0.6·64·Σ A·|n_z|.
        const sheetForce = pushZ(sheet.body) / dt;
        const jellyForce = pushZ(jelly.body) / dt;
        const jellyExpected = 0.5 * 1.2 * 0.6 * 64 * seenArea;
        console.log(
            `8 m/s wind: sheet ${sheetForce.toFixed(4)} N (46.08 expected), jelly ${jellyForce.toFixed(4)} N ` +
                `(${jellyExpected.toFixed(4)} expected over its ${seenArea.toFixed(4)} m² of faces seen)`,
        );
        // 1e-6: exact up to round-off, unless a default or the halving changed.
        expect(Math.abs(sheetForce - 46.08) / 46.08).toBeLessThan(1e-6);
        expect(Math.abs(jellyForce - jellyExpected) / jellyExpected).toBeLessThan(1e-6);
    });

    it("passes per-impostor coefficients to the core body and rejects negative ones", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const box = CreateBox("jelly", { size: 0.5 }, h.scene);
        const jelly = new SoftBodyImpostor(box, { resolution: 2 }, xpbd);
        jelly.dragCoefficient = 2;
        jelly.liftCoefficient = 0;
        jelly.windScale = 0.5;
        expect([jelly.body.dragCoefficient, jelly.body.liftCoefficient, jelly.body.windScale]).toEqual([2, 0, 0.5]);
        expect(jelly.getOptions()).toMatchObject({ dragCoefficient: 2, liftCoefficient: 0, windScale: 0.5 });
        expect(() => (jelly.windScale = -1)).toThrow(RangeError);
        expect(() => new ClothImpostor(CreatePlane("bad", { size: 1 }, h.scene), { dragCoefficient: -1 }, xpbd)).toThrow(RangeError);
    });

    it("blows a pinned cloth downwind; windScale 0 leaves it hanging", () => {
        const xpbd = new XpbdPlugin(h.scene, { wind: new Vector3(0, 0, 6) });
        const windy = uprightSheet(h, xpbd, -1);
        const calm = uprightSheet(h, xpbd, 1, { windScale: 0 });
        const z0 = windy.getCenterOfMass().z;
        h.step(90);
        const windyCom = windy.getCenterOfMass();
        const calmCom = calm.getCenterOfMass();
        console.log(
            `wind 6 m/s: cloth centre of mass moved ${(windyCom.z - z0).toFixed(3)} m downwind; windScale 0: ${(calmCom.z - z0).toFixed(4)} m`,
        );
        expect(windyCom.z - z0).toBeGreaterThan(0.1);
        expect(Math.abs(calmCom.z - z0)).toBeLessThan(0.01);
        expect(Array.from(windy.body.positions).every(Number.isFinite)).toBe(true);
    });
});
