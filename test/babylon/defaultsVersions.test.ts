/**
 * Versioned defaults in the Babylon layer: `defaultsVersion` on the plugin and the impostors, read from the core's
 * table. A scene built with an explicit version 1 is bit-identical after a (simulated) release changes a default of
 * the world, of both impostors or of one kind.
 */
import type { Mesh as MeshType } from "@babylonjs/core/Meshes/mesh";
import * as havokScene from "../support/havokScene";
import * as babylonXpbd from "../../src/index";
import * as meshing from "../../src/meshing/index";
import * as meshModule from "@babylonjs/core/Meshes/mesh";
import * as vertexDataModule from "@babylonjs/core/Meshes/mesh.vertexData";
import * as boxBuilder from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { futureRelease } from "../support/futureDefaults";

interface Modules {
    havokScene: typeof havokScene;
    xpbd: typeof babylonXpbd;
    meshing: typeof meshing;
    mesh: typeof meshModule;
    vertexData: typeof vertexDataModule;
    box: typeof boxBuilder;
}

const PATHS = {
    havokScene: "./havokScene",
    xpbd: "../../src/index",
    meshing: "../../src/meshing/index",
    mesh: "@babylonjs/core/Meshes/mesh",
    vertexData: "@babylonjs/core/Meshes/mesh.vertexData",
    box: "@babylonjs/core/Meshes/Builders/boxBuilder",
} as const;

const today: Modules = { havokScene, xpbd: babylonXpbd, meshing, mesh: meshModule, vertexData: vertexDataModule, box: boxBuilder };

/**
 * A 10×10 cloth held by two corners swinging onto a static Havok sphere, and a jelly cube dropped beside it, 60
 * steps; every particle position at the end (cloth, then jelly). `version` goes to the plugin only: the impostors
 * inherit it.
 */
async function scene(m: Modules, version?: number): Promise<Float64Array> {
    const h = await m.havokScene.createHavokScene();
    try {
        m.havokScene.createBody(h.scene, { kind: "sphere", radius: 0.3 }, { motionType: 0, position: [0, 0.5, 0.2] });
        const xpbd = new m.xpbd.XpbdPlugin(h.scene, { defaultsVersion: version });
        const grid = m.meshing.createClothGrid({ width: 1, height: 1, segmentsX: 10, segmentsY: 10, plane: "xz", origin: [0, 1, 0] });
        const mesh: MeshType = new m.mesh.Mesh("cloth", h.scene);
        const data = new m.vertexData.VertexData();
        data.positions = grid.positions;
        data.indices = grid.indices;
        data.applyToMesh(mesh, true);
        const cloth = new m.xpbd.ClothImpostor(mesh, { mass: 0.3, pins: [0, 10] }, xpbd);
        const cube = m.box.CreateBox("jelly", { size: 0.3 }, h.scene);
        cube.position.set(0.8, 1, 0);
        const jelly = new m.xpbd.SoftBodyImpostor(cube, { mass: 1, resolution: 2 }, xpbd);
        h.step(60);
        const out = new Float64Array(cloth.body.positions.length + jelly.body.positions.length);
        out.set(cloth.body.positions);
        out.set(jelly.body.positions, cloth.body.positions.length);
        return out;
    } finally {
        h.dispose();
    }
}

function bitIdentical(a: Float64Array, b: Float64Array): boolean {
    const x = new BigUint64Array(a.buffer, a.byteOffset, a.length);
    const y = new BigUint64Array(b.buffer, b.byteOffset, b.length);
    return a.length === b.length && x.every((v, i) => v === y[i]);
}

describe("defaultsVersion in the Babylon layer", () => {
    test("impostors take the plugin's version unless they give one; bad versions are refused by name", async () => {
        const h = await havokScene.createHavokScene();
        try {
            const xpbd = new babylonXpbd.XpbdPlugin(h.scene, { defaultsVersion: 1 });
            expect(xpbd.defaultsVersion).toBe(1);
            expect(xpbd.world.defaultsVersion).toBe(1);
            const cloth = new babylonXpbd.ClothImpostor(boxBuilder.CreateBox("a", { size: 1 }, h.scene), {}, xpbd);
            expect(cloth.defaultsVersion).toBe(1);
            expect(cloth.body.defaultsVersion).toBe(1);
            expect(cloth.getOptions().defaultsVersion).toBe(1);
            const latest = babylonXpbd.LATEST_DEFAULTS_VERSION;
            expect(
                () => new babylonXpbd.ClothImpostor(boxBuilder.CreateBox("b", { size: 1 }, h.scene), { defaultsVersion: latest + 1 }, xpbd),
            ).toThrow(`ClothImpostor: defaultsVersion must be an integer from 1 to ${latest}`);
            expect(
                () => new babylonXpbd.SoftBodyImpostor(boxBuilder.CreateBox("c", { size: 1 }, h.scene), { defaultsVersion: 0 }, xpbd),
            ).toThrow(`SoftBodyImpostor: defaultsVersion must be an integer from 1 to ${latest}`);
            xpbd.dispose();
            expect(() => new babylonXpbd.XpbdPlugin(h.scene, { defaultsVersion: 2.5 })).toThrow(
                `XpbdPlugin: defaultsVersion must be an integer from 1 to ${latest}`,
            );
        } finally {
            h.dispose();
        }
    });

    type Change = Parameters<typeof futureRelease>[0];
    const changes: [string, Change][] = [
        ["the world's substeps 5 → 8", (next) => (next.world.substeps = 8)],
        ["both impostors' damping 1 → 2", (next) => (next.impostor.damping = 2)],
        ["the cloth's bend stiffness 0.5 → 0.3", (next) => (next.cloth.bendStiffness = 0.3)],
        ["the soft body's volume stiffness 1 → 0.5", (next) => (next.softBody.volumeStiffness = 0.5)],
    ];
    test.each(changes)(
        "after a release changes %s, a scene built with version 1 is bit-identical",
        async (_, change) => {
            const future = futureRelease(change, Object.values(PATHS));
            const load = <K extends keyof Modules>(key: K): Modules[K] => future.load<Modules[K]>(PATHS[key]);
            const next: Modules = {
                havokScene: load("havokScene"),
                xpbd: load("xpbd"),
                meshing: load("meshing"),
                mesh: load("mesh"),
                vertexData: load("vertexData"),
                box: load("box"),
            };
            expect(next.xpbd.LATEST_DEFAULTS_VERSION).toBe(future.version);
            const before = await scene(today);
            expect(bitIdentical(await scene(next, 1), before)).toBe(true);
            // The changed default is felt by a scene that takes the newest version.
            expect(bitIdentical(await scene(next), before)).toBe(false);
        },
        30_000,
    );
});
