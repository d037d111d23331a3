import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import { createClothGrid, type ClothGrid, type ClothGridOptions } from "../../src/meshing/index.js";
import type { XpbdPlugin } from "../../src/babylon/xpbdPlugin.js";

/** What every demo starts from: physics, camera, lights, shadows and a static ground. */
export interface Stage {
    scene: Scene;
    camera: ArcRotateCamera;
    /** The sun's shadows: every mesh added to the scene after the stage casts and receives them. */
    shadows: ShadowGenerator;
    ground: Mesh;
}

/** Options of {@link createStage}. */
export interface StageOptions {
    /** Camera target; default (0, 1, 0). */
    target?: Vector3;
    /** Camera distance; default 6. */
    radius?: number;
    /** Camera longitude (rad); default −π/2 (looking along +z). */
    alpha?: number;
    /** Camera latitude from the zenith (rad); default 1.2. */
    beta?: number;
    /** Ground side (m); default 20. */
    groundSize?: number;
}

/**
 * Fills an empty scene with physics, a camera, lights and a ground. Physics: Havok, gravity −9.81, one fixed 1/60 s
 * step per frame (`HavokPlugin(false)`): real time at 60 fps, slow motion on a slow machine (the browser tests run
 * on a software GPU at 5–20 fps), never a long unstable step, and the same motion whatever the frame rate.
 * Key-frame animations advance by a constant 16 ms per frame for the same reason: animated pin targets and
 * colliders then move by the same amount per physics step at any frame rate.
 *
 * Light: a sun with soft (PCF) shadows, which every mesh added afterwards casts and receives (the demos add meshes
 * later too: balls thrown, jellies dropped), and a sky whose ground colour stands for the light the floor bounces
 * back, so faces turned from the sun stay readable.
 */
export function createStage(scene: Scene, havok: HavokPhysicsWithBindings, options: StageOptions = {}): Stage {
    scene.clearColor = new Color4(0.12, 0.13, 0.16, 1);
    scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(false, havok));
    scene.useConstantAnimationDeltaTime = true;

    const target = options.target ?? new Vector3(0, 1, 0);
    const camera = new ArcRotateCamera("camera", options.alpha ?? -Math.PI / 2, options.beta ?? 1.2, options.radius ?? 6, target, scene);
    camera.lowerRadiusLimit = 1.5;
    camera.upperRadiusLimit = 40;
    camera.wheelDeltaPercentage = 0.02;
    camera.minZ = 0.05;
    camera.attachControl(true);

    const sky = new HemisphericLight("sky", new Vector3(0, 1, 0), scene);
    sky.intensity = 0.65;
    sky.diffuse = new Color3(0.95, 0.97, 1);
    sky.groundColor = new Color3(0.42, 0.4, 0.38);
    sky.specular = Color3.Black();
    const sun = new DirectionalLight("sun", new Vector3(-0.4, -1, 0.5), scene);
    sun.position = new Vector3(4, 10, -5);
    sun.intensity = 1;
    sun.diffuse = new Color3(1, 0.97, 0.92);
    const shadows = new ShadowGenerator(1024, sun);
    shadows.usePercentageCloserFiltering = true;
    // Cloth is thin and both its faces are drawn: a small normal bias keeps a sheet from shadowing itself in stripes.
    shadows.normalBias = 0.01;

    const size = options.groundSize ?? 20;
    const ground = CreateGround("ground", { width: size, height: size }, scene);
    ground.material = colour(scene, "groundMaterial", new Color3(0.42, 0.45, 0.5));
    ground.receiveShadows = true;
    scene.onNewMeshAddedObservable.add((mesh) => {
        // Babylon reports new meshes a tick later, so the ground shows up too (drawn into the shadow map it would fill
        // all of it every frame, and stretch the light's frustum, so blur every shadow, to its 20 m), and so do
        // meshes already disposed by then (a mesh built and merged away within one tick).
        if (mesh === ground || mesh.isDisposed()) return;
        mesh.receiveShadows = true;
        shadows.addShadowCaster(mesh);
        mesh.onDisposeObservable.addOnce(() => shadows.removeShadowCaster(mesh));
    });
    // A thick box collider whose top face is the ground plane; no bounce (PhysicsAggregate's default is 0.2).
    new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.8, restitution: 0 }, scene);
    return { scene, camera, shadows, ground };
}

/** A lit, slightly glossy colour for solid things (cloth has `fabric` in fabricMaterial.ts). */
export function colour(scene: Scene, name: string, color: Color3): StandardMaterial {
    const m = new StandardMaterial(name, scene);
    m.diffuseColor = color;
    m.specularColor = new Color3(0.12, 0.12, 0.12);
    return m;
}

/** A cloth render mesh from {@link createClothGrid} (positions, indices, uvs, normals); returns the grid too. */
export function clothMesh(scene: Scene, name: string, options: ClothGridOptions): { mesh: Mesh; grid: ClothGrid } {
    const grid = createClothGrid(options);
    const data = new VertexData();
    data.positions = grid.positions;
    data.indices = grid.indices;
    data.uvs = grid.uvs;
    data.normals = grid.normals;
    const mesh = new Mesh(name, scene);
    data.applyToMesh(mesh, true);
    return { mesh, grid };
}

/** The figures every demo shows, from the plugin's last step (the page adds the frame and step times). */
export function solverFigures(xpbd: XpbdPlugin): Record<string, string | number> {
    const s = xpbd.stats;
    return {
        substeps: xpbd.substeps,
        particles: s.particles,
        "max edge ratio": s.maxEdgeRatio.toFixed(4),
        "mean edge ratio": s.meanEdgeRatio.toFixed(4),
        "max contact corr. mm": (s.maxContactCorrection * 1000).toFixed(2),
        contacts: s.contacts,
        "kinetic energy J": s.kineticEnergy.toExponential(2),
    };
}

/**
 * The demo's own parameters, as HTML controls in the page bar's `#demo-controls` box (the page empties the box
 * whenever it loads a demo, which also drops these listeners).
 */
export class ControlPanel {
    private readonly _root: HTMLElement;

    public constructor() {
        const root = document.getElementById("demo-controls");
        if (!root) throw new Error("the page has no #demo-controls element");
        this._root = root;
        root.replaceChildren();
    }

    /** A labelled range slider showing its value; `onInput` runs on every move (and not initially). */
    public slider(
        label: string,
        min: number,
        max: number,
        step: number,
        value: number,
        onInput: (value: number) => void,
    ): HTMLInputElement {
        const input = document.createElement("input");
        input.type = "range";
        Object.assign(input, { min: String(min), max: String(max), step: String(step), value: String(value) });
        input.dataset.param = label;
        const shown = document.createElement("output");
        const digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
        shown.textContent = value.toFixed(digits);
        input.addEventListener("input", () => {
            const v = Number(input.value);
            shown.textContent = v.toFixed(digits);
            onInput(v);
        });
        this._add(label, input, shown);
        return input;
    }

    /** A labelled checkbox. */
    public checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void): HTMLInputElement {
        const input = document.createElement("input");
        input.type = "checkbox";
        input.checked = checked;
        input.dataset.param = label;
        input.addEventListener("change", () => onChange(input.checked));
        this._add(label, input);
        return input;
    }

    /** A labelled drop-down of string choices. */
    public select(label: string, choices: readonly string[], value: string, onChange: (value: string) => void): HTMLSelectElement {
        const select = document.createElement("select");
        select.replaceChildren(...choices.map((c) => new Option(c, c)));
        select.value = value;
        select.dataset.param = label;
        select.addEventListener("change", () => onChange(select.value));
        this._add(label, select);
        return select;
    }

    /** A push button. */
    public button(label: string, onClick: () => void): HTMLButtonElement {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.addEventListener("click", onClick);
        this._root.append(button);
        return button;
    }

    /** A labelled progress bar (value in [0, 1]), hidden until the caller shows its label (`parentElement.hidden`). */
    public progress(label: string): HTMLProgressElement {
        const bar = document.createElement("progress");
        bar.max = 1;
        bar.value = 0;
        this._add(label, bar);
        bar.parentElement!.hidden = true;
        return bar;
    }

    private _add(label: string, ...controls: HTMLElement[]): void {
        const wrapper = document.createElement("label");
        wrapper.append(label, ...controls);
        this._root.append(wrapper);
    }
}
