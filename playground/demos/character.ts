/**
 * The cape demo's character: `character.glb` (made by `scripts/make-character.mjs` from a procedural rig: 19 bones,
 * a skinned body, an in-place walk cycle), loaded with Babylon's glTF 2.0 loader. The import below registers only
 * that loader (not glTF 1.0, not the other formats).
 */
import "@babylonjs/loaders/glTF/2.0/glTFLoader";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup";
import type { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Scene } from "@babylonjs/core/scene";

/** A loaded character, added to the scene. */
export interface Character {
    /** The glTF root node (it converts glTF's right-handed frame); parent it to move the whole character. */
    root: AbstractMesh;
    /** The skinned body. */
    mesh: AbstractMesh;
    /** Its skeleton; the bones are linked to the glTF joint nodes, which the walk animates. */
    skeleton: Skeleton;
    /** The walk cycle (one stride, in place), stopped. */
    walk: AnimationGroup;
}

/** The file's URL in the playground bundle (webpack emits it as an asset, like Havok's wasm). */
export function characterUrl(): string {
    return new URL("./character.glb", import.meta.url).href;
}

/**
 * Loads the character into `scene` from a URL or the file's bytes.
 * @throws Error when the file has no skinned mesh or no "walk" animation
 */
export async function loadCharacter(scene: Scene, source: string | ArrayBufferView): Promise<Character> {
    const container = await LoadAssetContainerAsync(source, scene, { pluginExtension: ".glb" });
    container.addAllToScene();
    const mesh = container.meshes.find((m) => m.skeleton);
    const walk = container.animationGroups.find((g) => g.name === "walk");
    if (!mesh?.skeleton || !walk) {
        throw new Error('character.glb: expected a skinned mesh and a "walk" animation (remake it with scripts/make-character.mjs)');
    }
    walk.stop();
    return { root: container.meshes[0], mesh, skeleton: mesh.skeleton, walk };
}
