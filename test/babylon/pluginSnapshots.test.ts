/**
 * `XpbdPlugin.saveState` / `restoreState` on real Havok: stepping 2N from the original and N after a restore (through
 * bytes) gives bit-identical impostors; a snapshot of another scene is refused with an error naming the mesh.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { createBody, createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { LATEST_DEFAULTS_VERSION } from "../../src/core/defaults";
import { parseSnapshot, serializeSnapshot, XpbdDataError, type XpbdSnapshot } from "../../src/core/index";

interface Scene {
    h: HavokScene;
    xpbd: XpbdPlugin;
    cloth: ClothImpostor;
    jelly: SoftBodyImpostor;
    pole: TransformNode;
}

/** A cloth pinned to an animated pole over a static sphere and ground, a jelly dropped on the ground, gusts of wind. */
async function build(segments = 10): Promise<Scene> {
    const h = await createHavokScene();
    createBody(h.scene, { kind: "box", extents: [6, 0.2, 6] }, { motionType: 0, position: [0, -0.1, 0] });
    createBody(h.scene, { kind: "sphere", radius: 0.3 }, { motionType: 0, position: [0, 0.6, 0.3] });
    const xpbd = new XpbdPlugin(h.scene);
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: segments, segmentsY: segments, plane: "xz", origin: [0, 1.2, 0] });
    const mesh = new Mesh("cape", h.scene);
    const data = new VertexData();
    data.positions = grid.positions;
    data.indices = grid.indices;
    data.applyToMesh(mesh, true);
    const cloth = new ClothImpostor(mesh, { mass: 0.3, allowSleep: false }, xpbd);
    const pole = new TransformNode("pole", h.scene);
    cloth.pinTo([0, segments], pole, 1);
    const box = CreateBox("jelly", { size: 0.3 }, h.scene);
    box.position = new Vector3(1.2, 0.6, 0);
    const jelly = new SoftBodyImpostor(box, { mass: 1, resolution: 3 }, xpbd);
    return { h, xpbd, cloth, jelly, pole };
}

/** Inputs of step `s`: the pole's pose and the wind (the same for the same step, whatever the state). */
function drive(scene: Scene, s: number): void {
    scene.pole.position.set(0.2 * Math.sin(s / 20), 0.05 * Math.cos(s / 15), 0);
    scene.xpbd.wind = new Vector3(s % 60 < 30 ? 2 : 0, 0, 1);
}

function run(scene: Scene, from: number, to: number): void {
    for (let s = from; s < to; s++) {
        drive(scene, s);
        scene.h.step();
    }
}

/** Every Float64 of both impostors' bodies that a step carries over. */
function state(scene: Scene): BigUint64Array {
    const parts: number[] = [scene.xpbd.world.time];
    for (const impostor of [scene.cloth, scene.jelly]) {
        const b = impostor.body;
        parts.push(b.sleeping ? 1 : 0, b._slowTime);
        for (const a of [b.positions, b.velocities, b.previousPositions, b.pins.targetsStart, b.pins.targetsEnd, b.pins.weights]) {
            parts.push(...a);
        }
    }
    return new BigUint64Array(new Float64Array(parts).buffer);
}

describe("XpbdPlugin snapshots", () => {
    const N = 90;
    let scene: Scene;
    beforeAll(async () => {
        scene = await build();
    });
    afterAll(() => scene.h.dispose());

    test("stepping 2N from the original and N after restoring (through bytes) gives bit-identical bodies", () => {
        run(scene, 0, N);
        const snapshot = scene.xpbd.saveState();
        const bytes = serializeSnapshot(snapshot);
        run(scene, N, 2 * N);
        const expected = state(scene);
        scene.xpbd.restoreState(parseSnapshot(bytes));
        run(scene, N, 2 * N);
        const actual = state(scene);
        expect(actual.length).toBe(expected.length);
        expect(actual.findIndex((v, i) => v !== expected[i])).toBe(-1);
        // The options travel as JSON beside the state.
        const options = JSON.parse(snapshot.options);
        expect(options.plugin).toMatchObject({ defaultsVersion: LATEST_DEFAULTS_VERSION, substeps: 5, iterations: 1 });
        expect(options.impostors.map((i: { className: string; mesh: string }) => `${i.className} ${i.mesh}`)).toEqual([
            "ClothImpostor cape",
            "SoftBodyImpostor jelly",
        ]);
        expect(options.impostors[0].options).toMatchObject({ mass: 0.3, allowSleep: false });
        console.log(`plugin snapshot: ${bytes.byteLength} bytes, options ${snapshot.options.length} characters of JSON`);
    });

    test("a snapshot of another scene is refused with the mesh's name, and nothing changes", async () => {
        const other = await build(8);
        try {
            const before = state(scene);
            const error = (() => {
                try {
                    scene.xpbd.restoreState(other.xpbd.saveState());
                } catch (e) {
                    return e as XpbdDataError;
                }
                return null;
            })();
            expect(error).toBeInstanceOf(XpbdDataError);
            expect(error!.message).toBe(
                'XpbdPlugin.restoreState: snapshot body 0 has 81 particles, impostor 0 (ClothImpostor of mesh "cape") has 121',
            );
            const after = state(scene);
            expect(after.every((v, i) => v === before[i])).toBe(true);
            const oneBody: XpbdSnapshot = { ...scene.xpbd.saveState(), bodies: [] };
            expect(() => scene.xpbd.restoreState(oneBody)).toThrow(
                "XpbdPlugin.restoreState: the snapshot holds 0 bodies, this plugin has 2 impostors",
            );
        } finally {
            other.h.dispose();
        }
    });
});
