import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import type { Scene } from "@babylonjs/core/scene";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin";

/**
 * The fast-impact tests' curtain: a 1 m square, 0.3 kg cloth of 20×20 cells hung in the xy plane at z = 0 (y from
 * 0.5 to 1.5) by its top edge, as a {@link ClothImpostor} of `xpbd`.
 */
export function hangingCurtain(scene: Scene, xpbd: XpbdPlugin): ClothImpostor {
    const mesh = CreateGround("curtain", { width: 1, height: 1, subdivisions: 20, updatable: true }, scene);
    mesh.rotation.x = -Math.PI / 2;
    mesh.position.y = 1;
    mesh.computeWorldMatrix(true);
    const local = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const pins: number[] = [];
    for (let v = 0; v < local.length / 3; v++) {
        // Local z = 0.5 is the top edge after the turn.
        if (local[3 * v + 2] > 0.5 - 1e-6) {
            pins.push(v);
        }
    }
    return new ClothImpostor(mesh, { mass: 0.3, pins }, xpbd);
}
