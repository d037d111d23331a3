/**
 * The hammock demo's scene without its looks: a cloth hammock pinned by its four corners and the jellies laid into it.
 * The playground adds a stage, materials and a button; `test/babylon/hammockScene.test.ts` builds the same scene in
 * Node (NullEngine and real Havok).
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Scene } from "@babylonjs/core/scene";
import { ClothImpostor } from "../../src/babylon/clothImpostor.js";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor.js";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";
import { pluginOptions } from "./pluginOptions.js";
import { clothMesh } from "./stage.js";

/**
 * Hammock edge (m), quads per side, mass (kg), height of its four pinned corners (m), how far its middle hangs below
 * them at rest (m); each jelly's mass (kg) and how far above the pile it is laid (m).
 */
const SIZE = 1.2;
const SEGMENTS = 20;
export const HAMMOCK_MASS = 0.5;
const HEIGHT = 1.2;
const SAG = 0.2;
export const JELLY_MASS = 1;
const DROP = 0.03;
/** How far above the pinned corners the first jelly starts (m): it falls into the hammock. */
const FIRST_DROP = 0.5;

/** What {@link createHammockScene} built. */
export interface HammockScene {
    xpbd: XpbdPlugin;
    cloth: ClothImpostor;
    /** The jellies, in the order they were laid. */
    jellies: SoftBodyImpostor[];
    /** Lays one more jelly onto the pile (the first one is laid by {@link createHammockScene}); returns its cube. */
    add(): Mesh;
}

/**
 * A cloth hammock pinned by its four corners and one jelly falling into it (soft body on cloth, the pins carrying
 * both). The cloth is cut 20 cm deeper than its span: a taut cloth is as firm as the ground under a body, and from a
 * shallow one a jelly that bounces and tumbles, as a jelly does on the ground, rolls out over the side.
 */
export function createHammockScene(scene: Scene): HammockScene {
    const xpbd = new XpbdPlugin(scene, pluginOptions());
    const { mesh, grid } = clothMesh(scene, "hammock", {
        width: SIZE,
        height: SIZE,
        segmentsX: SEGMENTS,
        segmentsY: SEGMENTS,
        plane: "xz",
        origin: [0, HEIGHT, 0],
    });
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < positions.length; i += 3) {
        const u = (2 * positions[i]) / SIZE;
        const v = (2 * positions[i + 2]) / SIZE;
        positions[i + 1] -= SAG * (1 - (u * u + v * v) / 2);
    }
    mesh.updateVerticesData(VertexBuffer.PositionKind, positions);
    mesh.refreshBoundingInfo();
    const last = (grid.rows - 1) * grid.columns;
    const pins = [0, grid.columns - 1, last, last + grid.columns - 1];
    const cloth = new ClothImpostor(mesh, { mass: HAMMOCK_MASS, pins }, xpbd);

    const jellies: SoftBodyImpostor[] = [];
    const add = (): Mesh => {
        const k = jellies.length;
        // The first one falls into the hammock's middle, tipped so that it lands on an edge; each next one is laid flat
        // just above the pile, over the last one's centre (on a corner of the one below it, a jelly is thrown off).
        let top = HEIGHT;
        for (const jelly of jellies) {
            const y = jelly.body.positions;
            for (let i = 1; i < 3 * jelly.body.particleCount; i += 3) top = Math.max(top, y[i]);
        }
        const centre = new Float64Array(3);
        if (k > 0) jellies[k - 1].body.getCenterOfMass(centre);
        const cube = CreateBox(`jelly${k}`, { size: 0.3 }, scene);
        cube.position.set(k === 0 ? 0 : centre[0], top, k === 0 ? 0.1 : centre[2]);
        cube.rotation.set(0, 0.5 * k, k === 0 ? 0.2 : 0);
        // The turned cube reaches lower than half its size: its world bounds say how far.
        cube.computeWorldMatrix(true);
        cube.position.y += top + (k === 0 ? FIRST_DROP : DROP) - cube.getBoundingInfo().boundingBox.minimumWorld.y;
        jellies.push(new SoftBodyImpostor(cube, { mass: JELLY_MASS, resolution: 4, damping: 2 }, xpbd));
        return cube;
    };
    add();
    return { xpbd, cloth, jellies, add };
}
