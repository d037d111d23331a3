/**
 * The collider sync reads the right values from Havok: each step, when the core step starts, every collider holds
 * the pose, velocities, mass properties, material and collision filter its Havok body had just before the step
 * (sampled here through Babylon's public getters; the core then moves moving colliders across its substeps), mass properties are read once per body and again only when `setMassProperties` changes them,
 * and motion-type, filter and material changes are picked up.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import { Logger } from "@babylonjs/core/Misc/logger";
import { createBody, createHavokScene, createShape, type HavokScene, type TestBody } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ColliderMotion, type Collider } from "../../src/core/index";

/** What Havok reports for a body through Babylon's public API. */
interface HavokSample {
    motionType: PhysicsMotionType;
    position: number[];
    rotation: number[];
    linearVelocity: number[];
    angularVelocity: number[];
    mass: number;
    /** kg·m². */
    inertia: number[];
    inertiaOrientation: number[];
    centerOfMass: number[];
    friction: number;
    restitution: number;
    membership: number;
    collideWith: number;
}

/** True while {@link sample} runs (its own mass-property reads are not the plugin's). */
let sampling = false;

function sample(body: PhysicsBody): HavokSample {
    sampling = true;
    const node = body.transformNode;
    const mass = body.getMassProperties();
    sampling = false;
    const kg = mass.mass ?? 0;
    const shape = body.shape!;
    return {
        motionType: body.getMotionType(),
        // Babylon copies Havok's pose into the (unparented) node after every Havok step.
        position: node.position.asArray(),
        rotation: node.rotationQuaternion!.asArray(),
        linearVelocity: body.getLinearVelocity().asArray(),
        angularVelocity: body.getAngularVelocity().asArray(),
        mass: kg,
        inertia: mass.inertia!.asArray().map((i) => i * kg),
        inertiaOrientation: mass.inertiaOrientation!.asArray(),
        centerOfMass: mass.centerOfMass!.asArray(),
        friction: shape.material.friction ?? 0.5,
        restitution: shape.material.restitution ?? 0,
        membership: shape.filterMembershipMask >>> 0,
        collideWith: shape.filterCollideMask >>> 0,
    };
}

/** A collider's state, copied. */
interface ColliderState {
    motion: ColliderMotion;
    position: number[];
    rotation: number[];
    linearVelocity: number[];
    angularVelocity: number[];
    mass: number;
    inertia: number[];
    inertiaRotation: number[];
    centerOfMass: number[];
    friction: number;
    restitution: number;
    membership: number;
    collideWith: number;
}

function copy(c: Collider): ColliderState {
    return {
        motion: c.motion,
        position: Array.from(c.position),
        rotation: Array.from(c.rotation),
        linearVelocity: Array.from(c.linearVelocity),
        angularVelocity: Array.from(c.angularVelocity),
        mass: c.mass,
        inertia: Array.from(c.inertia),
        inertiaRotation: Array.from(c.inertiaRotation),
        centerOfMass: Array.from(c.centerOfMass),
        friction: c.friction,
        restitution: c.restitution,
        membership: c.membership,
        collideWith: c.collideWith,
    };
}

function expectCollider(collider: ColliderState, s: HavokSample): void {
    const motion =
        s.motionType === PhysicsMotionType.DYNAMIC
            ? ColliderMotion.Dynamic
            : s.motionType === PhysicsMotionType.ANIMATED
              ? ColliderMotion.Kinematic
              : ColliderMotion.Static;
    expect(collider.motion).toBe(motion);
    expect(collider.position).toEqual(s.position);
    // Babylon's sync re-rounds the node's quaternion to float32 on the way: Havok's own value agrees to ~1e-8.
    collider.rotation.forEach((q, k) => expect(q).toBeCloseTo(s.rotation[k], 7));
    expect(collider.linearVelocity).toEqual(s.linearVelocity);
    expect(collider.angularVelocity).toEqual(s.angularVelocity);
    expect(collider.centerOfMass).toEqual(s.centerOfMass);
    if (motion === ColliderMotion.Dynamic) {
        expect(collider.mass).toBe(s.mass);
        expect(collider.inertia).toEqual(s.inertia);
        expect(collider.inertiaRotation).toEqual(s.inertiaOrientation);
    }
    expect(collider.friction).toBe(s.friction);
    expect(collider.restitution).toBe(s.restitution);
    expect(collider.membership).toBe(s.membership);
    expect(collider.collideWith).toBe(s.collideWith);
}

describe("HavokColliderSync", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    let bodies: TestBody[];
    /** Havok's state of every body, sampled just before the plugin's step (its observer runs first). */
    let before: HavokSample[];
    /** Every body's collider as the core step found it. */
    let synced: ColliderState[];

    beforeEach(async () => {
        h = await createHavokScene();
        const floor = createBody(
            h.scene,
            { kind: "box", extents: [20, 1, 20] },
            { motionType: PhysicsMotionType.STATIC, position: [0, -0.5, 0] },
        );
        floor.shape.material = { friction: 0.3, restitution: 0.1 };
        floor.shape.filterMembershipMask = 0b10;
        floor.shape.filterCollideMask = 0xfffffffd;
        const tumbling = createBody(
            h.scene,
            { kind: "box", extents: [0.4, 0.6, 0.8] },
            {
                motionType: PhysicsMotionType.DYNAMIC,
                position: [0.3, 3, -0.2],
                rotation: Quaternion.RotationYawPitchRoll(0.4, 0.2, 0.1).asArray() as [number, number, number, number],
            },
        );
        tumbling.body.setMassProperties({
            mass: 3,
            centerOfMass: new Vector3(0.05, -0.1, 0),
            inertia: new Vector3(0.2, 0.3, 0.4),
            inertiaOrientation: Quaternion.RotationYawPitchRoll(0.3, 0, 0),
        });
        tumbling.body.setLinearVelocity(new Vector3(0.5, 1, -0.25));
        tumbling.body.setAngularVelocity(new Vector3(1, -2, 0.5));
        const platform = createBody(
            h.scene,
            { kind: "sphere", radius: 0.3 },
            { motionType: PhysicsMotionType.ANIMATED, position: [2, 1, 0] },
        );
        platform.body.setLinearVelocity(new Vector3(0, 0, 0.7));
        bodies = [floor, tumbling, platform];
        xpbd = new XpbdPlugin(h.scene);
        h.scene.onBeforePhysicsObservable.add(() => (before = bodies.map((b) => sample(b.body))), undefined, true);
        const step = xpbd.world.step.bind(xpbd.world);
        xpbd.world.step = (dt: number) => {
            synced = bodies.map((b) => copy(collider(b)));
            step(dt);
        };
    });
    afterEach(() => h.dispose());

    const collider = (b: TestBody): Collider => {
        const c = xpbd.getColliderForBody(b.body);
        // Not expect(c): a failure would print the collider, and with it the whole scene through its userData.
        if (!c) {
            throw new Error(`no collider for body ${bodies.indexOf(b)}`);
        }
        return c;
    };

    it("holds each body's pose, velocities, mass properties, material and filter from just before the step", () => {
        // Before Havok's first step the nodes still hold their authored (double) poses; Havok holds float32 ones.
        h.step();
        for (let frame = 0; frame < 20; frame++) {
            h.step();
            before.forEach((s, i) => expectCollider(synced[i], s));
        }
        const tumbling = bodies[1];
        // Not trivially zero or identity: the dynamic box fell and turned, the animated sphere moved.
        expect(collider(tumbling).mass).toBeCloseTo(3, 5);
        expect(before[1].angularVelocity.some((w) => Math.abs(w) > 0.1)).toBe(true);
        expect(before[1].position[1]).toBeLessThan(3);
        expect(synced[2].linearVelocity[2]).toBeCloseTo(0.7, 5);
        expect(synced[0].membership).toBe(0b10);
        expect(synced[0].collideWith).toBe(0xfffffffd);
        expect(synced[0].friction).toBeCloseTo(0.3, 6);
    });

    it("reads mass properties once per body, and again when setMassProperties changes them", () => {
        const tumbling = bodies[1];
        h.step();
        const read = h.havok.getMassProperties.bind(h.havok);
        let reads = 0;
        const spy = jest.spyOn(h.havok, "getMassProperties").mockImplementation((body, instance) => {
            reads += sampling ? 0 : 1;
            return read(body, instance);
        });
        h.step(10);
        expect(reads).toBe(0);

        // A new argument.
        const props = { mass: 5 };
        tumbling.body.setMassProperties(props);
        h.step();
        expect(reads).toBe(1);
        expect(collider(tumbling).mass).toBeCloseTo(5, 5);
        expectCollider(synced[1], before[1]);

        // The same argument with new values.
        props.mass = 7;
        tumbling.body.setMassProperties(props);
        h.step();
        expect(reads).toBe(2);
        expect(collider(tumbling).mass).toBeCloseTo(7, 5);
        h.step(5);
        expect(reads).toBe(2);
        before.forEach((s, i) => expectCollider(synced[i], s));
        spy.mockRestore();
    });

    it("picks up motion type, material and filter changes", () => {
        const [floor, tumbling] = bodies;
        h.step(5);
        tumbling.body.setMotionType(PhysicsMotionType.STATIC);
        floor.shape.material = { friction: 0.9, restitution: 0 };
        floor.shape.filterMembershipMask = 0b100;
        floor.shape.filterCollideMask = 0b1;
        h.step();
        expect(collider(tumbling).motion).toBe(ColliderMotion.Static);
        expect(synced[1].linearVelocity).toEqual([0, 0, 0]);
        expect(synced[1].angularVelocity).toEqual([0, 0, 0]);
        before.forEach((s, i) => expectCollider(synced[i], s));
        expect(collider(floor).friction).toBeCloseTo(0.9, 6);
        expect(collider(floor).membership).toBe(0b100);
        expect(collider(floor).collideWith).toBe(0b1);

        tumbling.body.setMotionType(PhysicsMotionType.DYNAMIC);
        h.step();
        expect(collider(tumbling).motion).toBe(ColliderMotion.Dynamic);
        expectCollider(synced[1], before[1]);
    });

    it("skips a body whose shape it cannot read, with one warning, and reads it again once its shape changes", () => {
        const warn = jest.spyOn(Logger, "Warn").mockImplementation(() => undefined);
        try {
            // A box built with a NaN size (a user's bug): Havok takes it, the collider it would make is not finite.
            const broken = createBody(h.scene, { kind: "box", extents: [NaN, 0.1, 0.1] }, { motionType: PhysicsMotionType.STATIC });
            expect(() => h.step(3)).not.toThrow();
            expect(xpbd.getColliderForBody(broken.body)).toBeNull();
            expect(warn).toHaveBeenCalledTimes(1);
            expect(String(warn.mock.calls[0][0])).toMatch(/ignore the physics body of "body": its shape could not be read/);
            // The other bodies are still mirrored, and a readable shape is picked up.
            expect(collider(bodies[0]).motion).toBe(ColliderMotion.Static);
            broken.body.shape = createShape(h.scene, { kind: "box", extents: [0.1, 0.1, 0.1] });
            h.step();
            expect(xpbd.getColliderForBody(broken.body)).not.toBeNull();
            expect(warn).toHaveBeenCalledTimes(1);
        } finally {
            warn.mockRestore();
        }
    });
});
