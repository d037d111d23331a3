/**
 * Material presets order as their materials do, on the playground's hanging-cloth scene (a 1.6 m cloth, 16×16,
 * horizontal at first, held by its two back corners, swings down and comes to rest draped against a static Havok
 * sphere) at the default quality: a limp, slippery fabric wraps the sphere closer and hangs lower than a stiff one,
 * and a lossy one stops swinging sooner. Presets are spread into the impostor options exactly as users do.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { createHavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import {
    applyMaterialPreset,
    ClothPresets,
    matchingMaterialPreset,
    SoftBodyPresets,
    type ClothPresetName,
} from "../../src/babylon/materialPresets";
import { createClothGrid } from "../../src/meshing/clothGrid";

const SEGMENTS = 16;
const SIZE = 1.6;
const HEIGHT = 2.4;
const SPHERE_RADIUS = 0.4;
const STEPS = 900;
/** A particle faster than this (m/s) still moves: 1 cm/s, half the sleep threshold, well above the solver's rounding. */
const MOVING = 0.01;

interface Hang {
    /** Depth of the cloth's lowest point below its pins at the end (m). */
    sag: number;
    /** Last time (s) any particle moved faster than {@link MOVING}. */
    settle: number;
}

/** The hanging-cloth demo's scene with `preset`, stepped 15 s at 60 Hz. */
async function hang(preset: ClothPresetName): Promise<Hang> {
    const h = await createHavokScene();
    try {
        const sphere = CreateSphere("sphere", { diameter: 2 * SPHERE_RADIUS, segments: 24 }, h.scene);
        sphere.position.set(0.15, HEIGHT - 1.0, -SIZE / 2 + SPHERE_RADIUS - 0.2);
        new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0, friction: 0.5 }, h.scene);
        const xpbd = new XpbdPlugin(h.scene);
        const grid = createClothGrid({
            width: SIZE,
            height: SIZE,
            segmentsX: SEGMENTS,
            segmentsY: SEGMENTS,
            plane: "xz",
            origin: [0, HEIGHT, 0],
        });
        const mesh = new Mesh("cloth", h.scene);
        const data = new VertexData();
        data.positions = grid.positions;
        data.indices = grid.indices;
        data.normals = grid.normals;
        data.applyToMesh(mesh, true);
        const last = (grid.rows - 1) * grid.columns;
        const cloth = new ClothImpostor(mesh, { ...ClothPresets[preset], allowSleep: false, pins: [last, last + grid.columns - 1] }, xpbd);
        const v = cloth.body.velocities;
        let settle = 0;
        for (let s = 1; s <= STEPS; s++) {
            h.step();
            for (let i = 0; i < v.length; i += 3) {
                if (v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2] > MOVING * MOVING) {
                    settle = s / 60;
                    break;
                }
            }
        }
        let lowest = Infinity;
        for (let i = 1; i < cloth.body.positions.length; i += 3) {
            lowest = Math.min(lowest, cloth.body.positions[i]);
        }
        return { sag: HEIGHT - lowest, settle };
    } finally {
        h.dispose();
    }
}

describe("material presets", () => {
    test("silk sags and swings more than denim, denim more than leather (hanging-cloth scene, default quality)", async () => {
        const order: ClothPresetName[] = ["silk", "denim", "leather"];
        const results: Hang[] = [];
        for (const name of order) {
            results.push(await hang(name));
        }
        console.log(
            "hanging cloth over a sphere, 16×16, 1.6 m, default quality:\n" +
                order
                    .map(
                        (name, k) =>
                            `  ${name.padEnd(8)} sag ${(results[k].sag * 100).toFixed(2)} cm, settles after ${results[k].settle.toFixed(2)} s`,
                    )
                    .join("\n"),
        );
        for (let k = 1; k < order.length; k++) {
            // Strictly ordered: each material hangs lower (and swings longer) than the next stiffer, lossier one.
            expect(results[k - 1].sag).toBeGreaterThan(results[k].sag);
            expect(results[k - 1].settle).toBeGreaterThan(results[k].settle);
        }
    }, 60_000);

    test("a preset spreads into the options; an explicit mass overrides its density, its density sets the mass", async () => {
        const h = await createHavokScene();
        try {
            const xpbd = new XpbdPlugin(h.scene);
            const sheet = (name: string) => {
                const grid = createClothGrid({ width: 2, height: 0.5, segmentsX: 8, segmentsY: 2, plane: "xz" });
                const mesh = new Mesh(name, h.scene);
                const data = new VertexData();
                data.positions = grid.positions;
                data.indices = grid.indices;
                data.applyToMesh(mesh, true);
                return mesh;
            };
            // 2 m × 0.5 m of denim at 0.45 kg/m² is 0.45 kg.
            const denim = new ClothImpostor(sheet("denim"), { ...ClothPresets.denim }, xpbd);
            expect(denim.mass).toBeCloseTo(0.45, 12);
            expect(denim.bendStiffness).toBe(ClothPresets.denim.bendStiffness);
            expect(denim.friction).toBe(ClothPresets.denim.friction);
            const light = new ClothImpostor(sheet("light"), { ...ClothPresets.denim, mass: 0.4 }, xpbd);
            expect(light.mass).toBe(0.4);
            // A 0.5 m rubber cube: the box's 0.125 m³ × 1,100 kg/m³ = 137.5 kg, however coarse its tets.
            const box = CreateBox("rubber", { size: 0.5 }, h.scene);
            box.position = new Vector3(0, 3, 0);
            const rubber = new SoftBodyImpostor(box, { ...SoftBodyPresets.rubber, resolution: 2 }, xpbd);
            expect(rubber.mass).toBeCloseTo(137.5, 9);
            expect(rubber.volumeStiffness).toBe(1);
            expect(() => new ClothImpostor(sheet("bad"), { density: -1 }, xpbd)).toThrow(
                "ClothImpostor: density must be a positive finite number, got -1",
            );
        } finally {
            h.dispose();
        }
    });

    test("every preset builds an impostor and stays finite for 2 s", async () => {
        const h = await createHavokScene();
        try {
            const xpbd = new XpbdPlugin(h.scene);
            for (const [name, preset] of Object.entries(ClothPresets)) {
                const grid = createClothGrid({
                    width: 0.5,
                    height: 0.5,
                    segmentsX: 6,
                    segmentsY: 6,
                    plane: "xz",
                    origin: [Object.keys(ClothPresets).indexOf(name), 2, 0],
                });
                const mesh = new Mesh(name, h.scene);
                const data = new VertexData();
                data.positions = grid.positions;
                data.indices = grid.indices;
                data.applyToMesh(mesh, true);
                new ClothImpostor(mesh, { ...preset, pins: [0, 6] }, xpbd);
            }
            for (const [name, preset] of Object.entries(SoftBodyPresets)) {
                const box = CreateBox(name, { size: 0.3 }, h.scene);
                box.position.set(Object.keys(SoftBodyPresets).indexOf(name), 5, 2);
                new SoftBodyImpostor(box, { ...preset, resolution: 2 }, xpbd);
            }
            h.step(120);
            for (const impostor of xpbd.impostors) {
                expect(impostor.body.positions.every(Number.isFinite)).toBe(true);
            }
        } finally {
            h.dispose();
        }
    });
});

describe("applyMaterialPreset", () => {
    test("a built impostor given a preset has the values (and mass) of one built with it; the match is recognised", async () => {
        const h = await createHavokScene();
        try {
            const xpbd = new XpbdPlugin(h.scene);
            const sheet = (name: string) => {
                const grid = createClothGrid({ width: 1.2, height: 0.8, segmentsX: 6, segmentsY: 4, plane: "xz", origin: [0, 2, 0] });
                const mesh = new Mesh(name, h.scene);
                const data = new VertexData();
                data.positions = grid.positions;
                data.indices = grid.indices;
                data.applyToMesh(mesh, true);
                return mesh;
            };
            const built = new ClothImpostor(sheet("built"), { ...ClothPresets.leather }, xpbd);
            const given = new ClothImpostor(sheet("given"), {}, xpbd);
            expect(matchingMaterialPreset(given)).toBeNull();
            applyMaterialPreset(given, ClothPresets.leather);
            const { defaultsVersion: _a, mass: builtMass, ...builtOptions } = built.getOptions();
            const { defaultsVersion: _b, mass: givenMass, ...givenOptions } = given.getOptions();
            expect(givenOptions).toEqual(builtOptions);
            expect(givenMass).toBeCloseTo(builtMass, 12);
            expect(matchingMaterialPreset(given)).toBe("leather");
            given.damping = 1;
            expect(matchingMaterialPreset(given)).toBeNull();

            const box = CreateBox("foam", { size: 0.4 }, h.scene);
            const foam = new SoftBodyImpostor(box, { resolution: 2 }, xpbd);
            applyMaterialPreset(foam, SoftBodyPresets.foam);
            // 0.064 m³ of foam at 30 kg/m³.
            expect(foam.mass).toBeCloseTo(1.92, 9);
            expect(matchingMaterialPreset(foam)).toBe("foam");
            expect(() => applyMaterialPreset(foam, ClothPresets.silk)).toThrow(
                'applyMaterialPreset: a cloth preset cannot be applied to a SoftBodyImpostor (mesh "foam")',
            );
        } finally {
            h.dispose();
        }
    });
});
