import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { Scene } from "@babylonjs/core/scene";
import type { HavokPhysicsWithBindings } from "@babylonjs/havok";
import type { Demo, DemoHandle } from "./demo";

const BOX_COUNT = 12;
const BOX_SIZE = 0.5;
const SPHERE_RADIUS = 1;

function material(scene: Scene, name: string, color: Color3): StandardMaterial {
    const m = new StandardMaterial(name, scene);
    m.diffuseColor = color;
    m.specularColor = new Color3(0.15, 0.15, 0.15);
    return m;
}

/**
 * The hanging-cloth stage: a static Havok sphere on the ground under a camera and a shadow-casting light.
 * Until the cloth lands, a shower of dynamic boxes exercises Havok on the same stage.
 */
export const hangingCloth: Demo = {
    id: "hanging-cloth",
    title: "Hanging cloth",

    async create(scene: Scene, havok: HavokPhysicsWithBindings): Promise<DemoHandle> {
        scene.clearColor = new Color4(0.12, 0.13, 0.16, 1);
        scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, havok));

        const camera = new ArcRotateCamera("camera", -Math.PI / 2.5, Math.PI / 3, 11, new Vector3(0, 1, 0), scene);
        camera.lowerRadiusLimit = 3;
        camera.upperRadiusLimit = 40;
        camera.wheelDeltaPercentage = 0.02;
        camera.attachControl(true);

        const sky = new HemisphericLight("sky", new Vector3(0, 1, 0), scene);
        sky.intensity = 0.6;
        const sun = new DirectionalLight("sun", new Vector3(-0.5, -1, 0.4), scene);
        sun.position = new Vector3(5, 10, -4);
        sun.intensity = 0.7;
        const shadows = new ShadowGenerator(1024, sun);
        shadows.usePercentageCloserFiltering = true;

        const ground = CreateGround("ground", { width: 20, height: 20 }, scene);
        ground.material = material(scene, "groundMaterial", new Color3(0.42, 0.45, 0.5));
        ground.receiveShadows = true;
        new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);

        const sphere = CreateSphere("sphere", { diameter: 2 * SPHERE_RADIUS, segments: 32 }, scene);
        sphere.position.y = SPHERE_RADIUS;
        sphere.material = material(scene, "sphereMaterial", new Color3(0.85, 0.55, 0.2));
        sphere.receiveShadows = true;
        shadows.addShadowCaster(sphere);
        new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0, restitution: 0.2 }, scene);

        const boxMaterial = material(scene, "boxMaterial", new Color3(0.25, 0.55, 0.85));
        const boxes: PhysicsAggregate[] = [];
        for (let i = 0; i < BOX_COUNT; i++) {
            // A golden-angle spiral: spread over the sphere's top, deterministic so screenshots are comparable.
            const angle = i * 2.39996;
            const r = 0.3 + 0.09 * i;
            const box = CreateBox(`box${i}`, { size: BOX_SIZE }, scene);
            box.position.set(r * Math.cos(angle), 3 + 0.6 * i, r * Math.sin(angle));
            box.rotationQuaternion = Quaternion.RotationYawPitchRoll(angle, 0.4 * i, 0.3);
            box.material = boxMaterial;
            box.receiveShadows = true;
            shadows.addShadowCaster(box);
            const options = { mass: 1, friction: 0.6, restitution: 0.1 };
            boxes.push(new PhysicsAggregate(box, PhysicsShapeType.BOX, options, scene));
        }

        await scene.whenReadyAsync();

        const velocity = new Vector3();
        return {
            figures() {
                let maxSpeed = 0;
                let resting = 0;
                for (const { body } of boxes) {
                    body.getLinearVelocityToRef(velocity);
                    const speed = velocity.length();
                    maxSpeed = Math.max(maxSpeed, speed);
                    if (speed < 0.05) resting++;
                }
                return { "dynamic bodies": boxes.length, resting, "max speed m/s": maxSpeed.toFixed(2) };
            },
            // Everything this demo made belongs to the scene, which the page disposes.
            dispose() {},
        };
    },
};
