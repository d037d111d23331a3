/**
 * Two-way coupling with real Havok (WASM, NullEngine): momentum exchange with dynamic Havok bodies, mass ratios,
 * and the support impulse handed to a dynamic body. Air drag (core aerodynamics) is turned off so that the only
 * external forces are gravity and the frictionless floor.
 */
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { createBody, createHavokScene, type HavokScene, type TestBody } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { ColliderMotion } from "../../src/core/index";

const G = 9.81;
const DT = 1 / 60;

/** A static floor whose top face is y = 0, frictionless unless told otherwise. */
function floor(h: HavokScene, friction = 0): TestBody {
    const ground = createBody(
        h.scene,
        { kind: "box", extents: [20, 1, 20] },
        { motionType: PhysicsMotionType.STATIC, position: [0, -0.5, 0] },
    );
    ground.shape.material = { friction, staticFriction: friction, restitution: 0 };
    return ground;
}

/** A dynamic Havok box with no damping, so it keeps the momentum it is given. */
function dynamicBox(
    h: HavokScene,
    mass: number,
    extents: [number, number, number],
    position: [number, number, number],
    friction = 0,
): TestBody {
    const box = createBody(h.scene, { kind: "box", extents }, { motionType: PhysicsMotionType.DYNAMIC, position, mass });
    box.shape.material = { friction, staticFriction: friction, restitution: 0 };
    box.body.setLinearDamping(0);
    box.body.setAngularDamping(0);
    return box;
}

function plugin(h: HavokScene): XpbdPlugin {
    const xpbd = new XpbdPlugin(h.scene);
    xpbd.world.airDensity = 0;
    return xpbd;
}

describe("Havok two-way coupling", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("conserves momentum when a thrown 2 kg soft body hits a 2 kg dynamic box on a frictionless floor", () => {
        floor(h);
        const box = dynamicBox(h, 2, [0.4, 0.4, 0.4], [0, 0.2, 0]);
        const xpbd = plugin(h);
        const mesh = CreateBox("jelly", { size: 0.4 }, h.scene);
        mesh.position.set(-0.8, 0.21, 0);
        const jelly = new SoftBodyImpostor(mesh, { mass: 2, friction: 0, resolution: 3, stretchStiffness: 0.9 }, xpbd);
        h.step(10); // settle onto the floor
        jelly.setLinearVelocity(new Vector3(3, 0, 0));
        const momentum = (): number => 2 * jelly.getLinearVelocity().x + 2 * box.body.getLinearVelocity().x;
        const before = momentum();
        let boxSpeed = 0;
        for (let s = 0; s < 45; s++) {
            h.step();
            boxSpeed = Math.max(boxSpeed, box.body.getLinearVelocity().x);
        }
        const after = momentum();
        const error = Math.abs(after - before) / Math.abs(before);
        console.log(
            `momentum x: before ${before.toFixed(6)} after ${after.toFixed(6)} N·s (error ${(100 * error).toFixed(4)}%), ` +
                `box ${box.body.getLinearVelocity().x.toFixed(3)} m/s, jelly ${jelly.getLinearVelocity().x.toFixed(3)} m/s`,
        );
        expect(boxSpeed).toBeGreaterThan(1); // the collision happened
        expect(error).toBeLessThan(0.02);
    });

    it("a 0.1 kg cloth dropped on a 1000 kg box hands it exactly the cloth's momentum change, ≤ 0.21 mm/s a step", () => {
        // What the box receives is read where the plugin hands it over, the collider's impulse of each step, not from
        // Havok's velocity afterwards: the floor contact under the box cancels that within the same Havok step.
        floor(h, 0.5);
        const mass = 1000;
        const box = dynamicBox(h, mass, [1, 0.5, 1], [0, 0.25, 0], 0.5);
        h.step(20); // let Havok settle the box on the floor first
        const xpbd = plugin(h);
        const mesh = CreateGround("cloth", { width: 0.8, height: 0.8, subdivisions: 8 }, h.scene);
        mesh.position.y = 0.7;
        const clothMass = 0.1;
        const cloth = new ClothImpostor(mesh, { mass: clothMass }, xpbd);
        const p0 = cloth.getLinearVelocity().scale(clothMass);
        const total = new Vector3();
        let largest = 0;
        const steps = 90;
        for (let s = 0; s < steps; s++) {
            h.step();
            // The plugin mirrors the box as a collider from its first step on.
            const collider = xpbd.getColliderForBody(box.body)!;
            expect(collider.motion).toBe(ColliderMotion.Dynamic);
            total.addInPlaceFromFloats(collider.impulse[0], collider.impulse[1], collider.impulse[2]);
            largest = Math.max(largest, Math.hypot(collider.impulse[0], collider.impulse[1], collider.impulse[2]));
        }
        // Momentum of the cloth: Δp = −m·g·T·ŷ + J (from the box), and the box gets −J = −Δp − m·g·T·ŷ (air is off).
        const dp = cloth.getLinearVelocity().scale(clothMass).subtract(p0);
        const expected = dp.add(new Vector3(0, clothMass * G * steps * DT, 0)).scale(-1);
        console.log(
            `0.1 kg cloth dropped on a 1000 kg box: impulse to the box ${total.y.toFixed(5)} N·s over ${steps} steps ` +
                `(cloth momentum balance ${expected.y.toFixed(5)}; its weight over the run ${(-clothMass * G * steps * DT).toFixed(5)}), ` +
                `largest in one step ${largest.toFixed(4)} N·s = ${((largest / mass) * 1000).toFixed(4)} mm/s of the box's speed; ` +
                `cloth y ${cloth.getCenterOfMass().y.toFixed(3)}`,
        );
        // It rests on the box (top face at y = 0.5), which took its landing and then its weight.
        expect(cloth.getCenterOfMass().y).toBeGreaterThan(0.5);
        // Third law: the box gets what the cloth lost (1e-6 N·s: round-off over the run, against 1.47 N·s).
        expect(total.subtract(expected).length()).toBeLessThan(1e-6);
        // Barely: in one step the box gets at most the landing momentum m·√(2g·0.19 m) = 0.193 N·s plus a step of
        // the cloth's weight, 0.016 N·s: 0.21 mm/s to 1000 kg (a kick from the solver would exceed it).
        expect(largest / mass).toBeLessThan(2.1e-4);
    });

    it("a 50 kg soft body drives a 1 kg box away", () => {
        floor(h);
        const box = dynamicBox(h, 1, [0.3, 0.3, 0.3], [0, 0.15, 0]);
        const xpbd = plugin(h);
        const mesh = CreateBox("heavy", { size: 0.5 }, h.scene);
        mesh.position.set(-0.8, 0.5, 0);
        const jelly = new SoftBodyImpostor(mesh, { mass: 50, friction: 0, resolution: 3 }, xpbd);
        jelly.setLinearVelocity(new Vector3(2, 0, 0));
        const start = box.node.position.x;
        for (let s = 0; s < 45; s++) {
            h.step();
        }
        const boxVelocity = box.body.getLinearVelocity().x;
        console.log(
            `1 kg box hit by 50 kg jelly at 2 m/s: box ${boxVelocity.toFixed(3)} m/s, moved ${(box.node.position.x - start).toFixed(3)} m; jelly ${jelly.getLinearVelocity().x.toFixed(3)} m/s`,
        );
        expect(boxVelocity).toBeGreaterThan(1.5);
        expect(box.node.position.x - start).toBeGreaterThan(0.3);
    });

    it("a soft body resting on a dynamic box hands it m·g·dt per step", () => {
        floor(h, 0.5);
        const box = dynamicBox(h, 5, [0.8, 0.3, 0.8], [0, 0.15, 0], 0.5);
        const xpbd = plugin(h);
        const mesh = CreateBox("jelly", { size: 0.4 }, h.scene);
        mesh.position.set(0, 0.3 + 0.2 + 0.011, 0);
        const mass = 1.5;
        new SoftBodyImpostor(mesh, { mass, resolution: 3, allowSleep: false }, xpbd);
        h.step(90);
        const window = 60;
        let sum = 0;
        for (let s = 0; s < window; s++) {
            h.step();
            sum += xpbd.getColliderForBody(box.body)!.impulse[1];
        }
        const mean = -sum / window;
        const expected = mass * G * DT;
        console.log(
            `support impulse on the box: ${mean.toFixed(5)} N·s per step, m·g·dt = ${expected.toFixed(5)} (ratio ${(mean / expected).toFixed(4)})`,
        );
        expect(Math.abs(mean / expected - 1)).toBeLessThan(0.05);
    });

    it("hands Havok exactly the core's linear and angular impulse (off-centre hit, no gravity)", async () => {
        h.dispose();
        h = await createHavokScene({ gravity: [0, 0, 0] });
        const box = dynamicBox(h, 1, [0.4, 0.4, 0.4], [0, 0, 0]);
        const xpbd = plugin(h);
        const mesh = CreateBox("jelly", { size: 0.2 }, h.scene);
        mesh.position.set(-0.6, 0.12, 0.05);
        const jelly = new SoftBodyImpostor(mesh, { mass: 0.5, friction: 0.3, resolution: 3 }, xpbd);
        jelly.setLinearVelocity(new Vector3(3, 0, 0));
        const collider = (): ReturnType<XpbdPlugin["getColliderForBody"]> => xpbd.getColliderForBody(box.body);
        const linear = new Vector3();
        const angular = new Vector3();
        xpbd.onAfterStepObservable.add(() => {
            const c = collider();
            if (c) {
                linear.addInPlace(Vector3.FromArray(c.impulse));
                angular.addInPlace(Vector3.FromArray(c.angularImpulse));
            }
        });
        const inertia = box.body.getMassProperties().inertia!.x; // per unit mass; a cube is isotropic
        h.step(30);
        const v = box.body.getLinearVelocity();
        const w = box.body.getAngularVelocity();
        const linearError = v.subtract(linear).length() / linear.length();
        const angularError = w.scale(inertia).subtract(angular).length() / angular.length();
        console.log(
            `off-centre hit: core J ${linear.toString()} vs Havok m·v ${v.toString()} (error ${(100 * linearError).toFixed(3)}%); ` +
                `core L ${angular.toString()} vs Havok I·ω ${w.scale(inertia).toString()} (error ${(100 * angularError).toFixed(3)}%)`,
        );
        expect(angular.length()).toBeGreaterThan(1e-3);
        expect(linearError).toBeLessThan(0.01);
        expect(angularError).toBeLessThan(0.02);
    });
});
