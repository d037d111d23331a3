import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import { Plane } from "@babylonjs/core/Maths/math.plane";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Scene } from "@babylonjs/core/scene";
import type { SoftImpostor } from "../../src/babylon/softImpostor.js";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";

/**
 * Lets the user drag any cloth or jelly of the scene with the pointer: press on it to grab the particle under the
 * pointer, move to drag it in the plane facing the camera, release to let it go. The camera does not orbit while
 * dragging. A pickable mesh in front of the cloth (a demo's own handle) keeps the press for the demo. Returns a
 * function that removes the behaviour.
 */
export function enableParticleDragging(scene: Scene, xpbd: XpbdPlugin): () => void {
    let held: SoftImpostor | null = null;
    const plane = new Plane(0, 0, 1, 0);
    // The grabbed particle's offset from the point the pointer holds, so that it does not jump on the press.
    const offset = new Vector3();
    const target = new Vector3();
    const pointerRay = () => scene.createPickingRay(scene.pointerX, scene.pointerY, Matrix.Identity(), scene.activeCamera);
    const observer = scene.onPointerObservable.add((info) => {
        const camera = scene.activeCamera;
        if (!camera) return;
        if (info.type === PointerEventTypes.POINTERDOWN && info.event.button === 0) {
            const ray = pointerRay();
            const pick = xpbd.pickParticle(ray);
            if (!pick) return;
            const impostorMeshes = new Set<AbstractMesh>(xpbd.impostors.map((impostor) => impostor.mesh));
            const other = scene.pickWithRay(ray, (mesh) => mesh.isPickable && !impostorMeshes.has(mesh));
            if (other?.hit && other.distance < pick.distance) return;
            const x = pick.impostor.body.positions;
            const p = pick.particle;
            offset.set(x[3 * p], x[3 * p + 1], x[3 * p + 2]).subtractInPlace(pick.point);
            Plane.FromPositionAndNormalToRef(pick.point, camera.getForwardRay().direction, plane);
            pick.impostor.grab(p, pick.point.add(offset));
            held = pick.impostor;
            camera.detachControl();
        } else if (info.type === PointerEventTypes.POINTERMOVE && held) {
            const ray = pointerRay();
            const distance = ray.intersectsPlane(plane);
            if (distance !== null) {
                held.moveGrab(target.copyFrom(ray.direction).scaleInPlace(distance).addInPlace(ray.origin).addInPlace(offset));
            }
        } else if (info.type === PointerEventTypes.POINTERUP && held) {
            held.release();
            held = null;
            camera.attachControl(true);
        }
    });
    return () => {
        held?.release();
        scene.onPointerObservable.remove(observer);
    };
}
