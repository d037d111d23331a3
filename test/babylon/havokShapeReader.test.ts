import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { PhysicsMotionType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { ColliderShapeDescriptor, QuaternionTuple, Vector3Tuple } from "../../src/core/colliderShapeDescriptor";
import { readHavokMotion } from "../../src/babylon/havokBodyReader";
import { readHavokShape } from "../../src/babylon/havokShapeReader";
import { createBody, createHavokScene, createShape, type HavokScene } from "../support/havokScene";

const TOLERANCE = 1e-4;

function expectNear(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = TOLERANCE): void {
    expect(actual.length).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) {
        // Written so that NaN fails too.
        if (!(Math.abs(actual[i] - expected[i]) <= tolerance)) {
            throw new Error(`component ${i}: ${Array.from(actual)} is not within ${tolerance} of ${Array.from(expected)}`);
        }
    }
}

/** Quaternions q and -q are the same rotation. */
function expectSameRotation(actual: QuaternionTuple, expected: QuaternionTuple): void {
    const sign = actual[0] * expected[0] + actual[1] * expected[1] + actual[2] * expected[2] + actual[3] * expected[3] < 0 ? -1 : 1;
    expectNear(
        actual.map((x) => x * sign),
        expected,
    );
}

function axisAngle(axis: Vector3Tuple, angle: number): QuaternionTuple {
    const n = Math.hypot(...axis);
    const s = Math.sin(angle / 2) / n;
    return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

function rotate(q: QuaternionTuple, v: Vector3Tuple): Vector3Tuple {
    const r = new Vector3(...v).applyRotationQuaternion(new Quaternion(...q));
    return [r.x, r.y, r.z];
}

/** The 8 corners of a box descriptor, sorted, to compare boxes whatever axis order or rotation sign they use. */
function boxCorners(box: { center: Vector3Tuple; halfExtents: Vector3Tuple; rotation?: QuaternionTuple }): number[][] {
    const corners: number[][] = [];
    for (let c = 0; c < 8; c++) {
        const local: Vector3Tuple = [
            c & 1 ? box.halfExtents[0] : -box.halfExtents[0],
            c & 2 ? box.halfExtents[1] : -box.halfExtents[1],
            c & 4 ? box.halfExtents[2] : -box.halfExtents[2],
        ];
        const r = rotate(box.rotation ?? [0, 0, 0, 1], local);
        corners.push([r[0] + box.center[0], r[1] + box.center[1], r[2] + box.center[2]]);
    }
    return sortPoints(corners);
}

/** Sorts points by coordinates rounded to 1e-4, so round-off cannot reorder them. */
function sortPoints(points: number[][]): number[][] {
    const key = (x: number) => Math.round(x * 1e4);
    return points.sort((a, b) => key(a[0]) - key(b[0]) || key(a[1]) - key(b[1]) || key(a[2]) - key(b[2]));
}

function only<K extends ColliderShapeDescriptor["kind"]>(shapes: readonly ColliderShapeDescriptor[], kind: K) {
    expect(shapes).toHaveLength(1);
    expect(shapes[0].kind).toBe(kind);
    return shapes[0] as Extract<ColliderShapeDescriptor, { kind: K }>;
}

/** Capsules and cylinders may come back with A and B swapped. */
function expectSegment(actual: { pointA: Vector3Tuple; pointB: Vector3Tuple }, a: Vector3Tuple, b: Vector3Tuple): void {
    const swapped = Math.hypot(actual.pointA[0] - a[0], actual.pointA[1] - a[1], actual.pointA[2] - a[2]) > 1e-2;
    expectNear(swapped ? actual.pointB : actual.pointA, a);
    expectNear(swapped ? actual.pointA : actual.pointB, b);
}

function triangleOutward(positions: ArrayLike<number>, indices: ArrayLike<number>, t: number, inside: Vector3Tuple): boolean {
    const p = (k: number): Vector3 => Vector3.FromArray(positions, 3 * indices[3 * t + k]);
    const normal = Vector3.Cross(p(1).subtract(p(0)), p(2).subtract(p(0)));
    return Vector3.Dot(normal, p(0).subtract(Vector3.FromArray(inside))) > 0;
}

describe("readHavokShape (real Havok)", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());
    const read = (spec: Parameters<typeof createBody>[1], position: Vector3Tuple = [5, 1, -2]) =>
        readHavokShape(h.havok, createBody(h.scene, spec, { motionType: PhysicsMotionType.DYNAMIC, position }).body);

    it("reads a sphere with an offset centre", () => {
        const sphere = only(read({ kind: "sphere", radius: 0.5, center: [1, 2, 3] }), "sphere");
        expectNear(sphere.center, [1, 2, 3]);
        expect(sphere.radius).toBeCloseTo(0.5, 4);
    });

    it("reads an axis-aligned box with identity rotation", () => {
        const box = only(read({ kind: "box", extents: [1, 2, 3], center: [0.5, -0.25, 0] }), "box");
        expectNear(box.center, [0.5, -0.25, 0]);
        expectNear(box.halfExtents, [0.5, 1, 1.5]);
        expectSameRotation(box.rotation ?? [0, 0, 0, 1], [0, 0, 0, 1]);
    });

    it("reads a box rotated by the shape's rotation parameter", () => {
        const rotation = axisAngle([0, 0, 1], 0.6);
        const box = only(read({ kind: "box", extents: [1, 2, 3], center: [0.5, 0, 0], rotation }), "box");
        expectNear(box.center, [0.5, 0, 0]);
        expectNear(box.halfExtents, [0.5, 1, 1.5]);
        expectSameRotation(box.rotation ?? [0, 0, 0, 1], rotation);
    });

    it("reads a box under a large oblique rotation as the same solid", () => {
        const rotation = axisAngle([1, 2, 3], 2.2);
        const expected = { center: [-1, 0.5, 2] as Vector3Tuple, halfExtents: [0.3, 0.7, 1.1] as Vector3Tuple, rotation };
        const box = only(read({ kind: "box", extents: [0.6, 1.4, 2.2], center: expected.center, rotation }), "box");
        expectNear(boxCorners(box).flat(), boxCorners(expected).flat());
    });

    // Havok rounds a box by a convex radius of about 1 cm, shrinking its core box by that much on every side; a box no
    // thicker than twice the radius has a flat core (a plate), a segment (a rod) or a point (a tiny cube). A plate's
    // rotation is still known; a rod's roll about its axis and a tiny cube's rotation are not (Havok's shape is then
    // round about them), so for those only the centre, the sizes and a rod's axis are checked.
    it.each([
        ["a 1.2 mm plate", [0.12, 0.0012, 0.12], "corners"],
        ["a 2 cm plate, exactly twice the convex radius", [0.12, 0.02, 0.12], "corners"],
        ["a 1.5 cm floor of 2 m", [2, 0.015, 2], "corners"],
        ["a 0.4 mm rod", [0.5, 0.0004, 0.0004], "axis"],
        ["a 1 mm cube", [0.001, 0.001, 0.001], "sizes"],
    ] as [string, Vector3Tuple, string][])("reads %s, upright and rotated, as the same solid", (_, extents, rotatedCheck) => {
        const halfExtents: Vector3Tuple = [extents[0] / 2, extents[1] / 2, extents[2] / 2];
        const sorted = (v: Vector3Tuple) => [...v].sort((a, b) => a - b);
        // Centred on a static body at the origin (a floor), and off centre on a dynamic body elsewhere.
        const poses: [Vector3Tuple, QuaternionTuple, PhysicsMotionType, Vector3Tuple][] = [
            [[0, 0, 0], [0, 0, 0, 1], PhysicsMotionType.STATIC, [0, 0, 0]],
            [[0.3, -0.2, 0.1], [0, 0, 0, 1], PhysicsMotionType.DYNAMIC, [5, 1, -2]],
            [[0.3, -0.2, 0.1], axisAngle([1, 2, 3], 2.2), PhysicsMotionType.DYNAMIC, [5, 1, -2]],
        ];
        for (const [center, rotation, motionType, position] of poses) {
            const expected = { center, halfExtents, rotation };
            const { body } = createBody(h.scene, { kind: "box", extents, center, rotation }, { motionType, position });
            const box = only(readHavokShape(h.havok, body), "box");
            expectNear(box.center, expected.center, 1e-5);
            expectNear(sorted(box.halfExtents), sorted(halfExtents), 1e-5);
            if (rotation[3] === 1 || rotatedCheck === "corners") {
                expectNear(boxCorners(box).flat(), boxCorners(expected).flat(), 1e-5);
            } else if (rotatedCheck === "axis") {
                const long = box.halfExtents.indexOf(Math.max(...box.halfExtents));
                const axis = rotate(box.rotation ?? [0, 0, 0, 1], [long === 0 ? 1 : 0, long === 1 ? 1 : 0, long === 2 ? 1 : 0]);
                expect(Math.abs(Vector3.Dot(Vector3.FromArray(axis), Vector3.FromArray(rotate(rotation, [1, 0, 0]))))).toBeCloseTo(1, 6);
            }
        }
    });

    it("reads capsules, including one whose segment is off every axis", () => {
        const upright = only(read({ kind: "capsule", pointA: [0, -1, 0], pointB: [0, 1, 0], radius: 0.5 }), "capsule");
        expectSegment(upright, [0, -1, 0], [0, 1, 0]);
        expect(upright.radius).toBeCloseTo(0.5, 4);
        const oblique = only(read({ kind: "capsule", pointA: [0.2, 0, -0.1], pointB: [1, 2, 0.5], radius: 0.3 }), "capsule");
        expectSegment(oblique, [0.2, 0, -0.1], [1, 2, 0.5]);
        expect(oblique.radius).toBeCloseTo(0.3, 4);
    });

    it("reads cylinders, including an oblique one and one with isotropic inertia", () => {
        const oblique = only(read({ kind: "cylinder", pointA: [0, 0, 0], pointB: [1, 2, 0.5], radius: 0.3 }), "cylinder");
        expectSegment(oblique, [0, 0, 0], [1, 2, 0.5]);
        expect(oblique.radius).toBeCloseTo(0.3, 4);
        // Length √3·r makes every principal moment equal, so the axis must come from the geometry.
        const r = 0.4;
        const a: Vector3Tuple = [0.5, 0, 0];
        const b: Vector3Tuple = [0.5 + (Math.sqrt(3) * r) / Math.SQRT2, (Math.sqrt(3) * r) / Math.SQRT2, 0];
        const isotropic = only(read({ kind: "cylinder", pointA: a, pointB: b, radius: r }), "cylinder");
        expectSegment(isotropic, a, b);
        expect(isotropic.radius).toBeCloseTo(r, 4);
    });

    it("reads a convex hull pushed out to its true faces, wound outwards", () => {
        const mesh = CreateBox("hullSource", { width: 1, height: 2, depth: 3 }, h.scene);
        const hull = only(read({ kind: "convexHull", mesh }), "convexHull");
        expect(hull.positions.length).toBe(24);
        for (let i = 0; i < hull.positions.length; i += 3) {
            expectNear([Math.abs(hull.positions[i]), Math.abs(hull.positions[i + 1]), Math.abs(hull.positions[i + 2])], [0.5, 1, 1.5]);
        }
        for (let t = 0; t < hull.indices.length / 3; t++) {
            expect(triangleOutward(hull.positions, hull.indices, t, [0, 0, 0])).toBe(true);
        }
    });

    it("reads a triangle mesh exactly, wound outwards", () => {
        const mesh = CreateBox("meshSource", { width: 1, height: 2, depth: 3 }, h.scene);
        const triangles = only(read({ kind: "mesh", mesh }), "mesh");
        expect(triangles.indices.length).toBe(36);
        for (let i = 0; i < triangles.positions.length; i += 3) {
            const p = [triangles.positions[i], triangles.positions[i + 1], triangles.positions[i + 2]];
            expectNear(p.map(Math.abs), [0.5, 1, 1.5]);
        }
        for (let t = 0; t < 12; t++) {
            expect(triangleOutward(triangles.positions, triangles.indices, t, [0, 0, 0])).toBe(true);
        }
    });

    it("reads a heightfield as an open mesh on Babylon's grid", () => {
        const heights = new Float32Array([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
        const field = only(read({ kind: "heightField", sizeX: 4, sizeZ: 2, samplesX: 3, samplesZ: 3, heights }), "mesh");
        expect(field.positions.length).toBe(27);
        expect(field.indices.length).toBe(24);
        // Row 0 of Babylon's height data is the far (+z) edge; x runs from -sizeX/2.
        for (let i = 0; i < field.positions.length; i += 3) {
            const column = Math.round((field.positions[i] + 2) / 2);
            const row = Math.round((field.positions[i + 2] + 1) / 1);
            expect(field.positions[i + 1]).toBeCloseTo(heights[(2 - row) * 3 + column], 5);
        }
    });

    it("reads a container's children at their offsets (and a uniformly scaled child)", () => {
        const boxRotation = axisAngle([0, 1, 0], 0.4);
        const container = createShape(h.scene, {
            kind: "container",
            children: [
                { shape: { kind: "sphere", radius: 0.5 }, translation: [1, 0, 0] },
                { shape: { kind: "box", extents: [0.5, 1, 1.5] }, translation: [-1, 0.5, 0.25], rotation: boxRotation },
            ],
        });
        container.addChild(
            createShape(h.scene, { kind: "capsule", pointA: [0, 0, 0], pointB: [0, 1, 0], radius: 0.25 }),
            new Vector3(0, 3, 0),
            undefined,
            new Vector3(2, 2, 2),
        );
        const shapes = read(container);
        expect(shapes.map((s) => s.kind)).toEqual(["sphere", "box", "capsule"]);
        const [sphere, box, capsule] = shapes as [
            Extract<ColliderShapeDescriptor, { kind: "sphere" }>,
            Extract<ColliderShapeDescriptor, { kind: "box" }>,
            Extract<ColliderShapeDescriptor, { kind: "capsule" }>,
        ];
        expectNear(sphere.center, [1, 0, 0]);
        expect(sphere.radius).toBeCloseTo(0.5, 4);
        expectNear(box.center, [-1, 0.5, 0.25]);
        expectNear(box.halfExtents, [0.25, 0.5, 0.75]);
        expectSameRotation(box.rotation ?? [0, 0, 0, 1], boxRotation);
        expectSegment(capsule, [0, 3, 0], [0, 5, 0]);
        expect(capsule.radius).toBeCloseTo(0.5, 4);
        // Havok collides with the scaled capsule too: its bounds reach 5 + 0.5.
        expect(h.havok.getBoundingBox(container).maximum.y).toBeCloseTo(5.5, 4);
    });

    it("applies child scales the way Havok does (sphere/capsule: scale.x; box: per axis)", () => {
        const container = createShape(h.scene, { kind: "container", children: [] });
        const add = (
            spec: Parameters<typeof createShape>[1],
            translation: Vector3Tuple,
            scaling: Vector3Tuple,
            rotation?: QuaternionTuple,
        ) =>
            container.addChild(
                createShape(h.scene, spec),
                Vector3.FromArray(translation),
                rotation && new Quaternion(...rotation),
                Vector3.FromArray(scaling),
            );
        add({ kind: "sphere", radius: 0.5, center: [0, 1, 0] }, [0, 0, 0], [2, 1, 1]);
        add({ kind: "capsule", pointA: [0, 0, 0], pointB: [0, 1, 0], radius: 0.25 }, [5, 0, 0], [0.5, 3, 3]);
        add({ kind: "box", extents: [1, 1, 1] }, [-5, 0, 0], [1, 2, 3]);
        const tilt = axisAngle([0, 0, 1], Math.PI / 4);
        add({ kind: "box", extents: [1, 1, 1], rotation: tilt }, [0, -5, 0], [1, 2, 1]);
        const shapes = read(container);
        expect(shapes.map((s) => s.kind)).toEqual(["sphere", "capsule", "box", "convexHull"]);
        const sphere = shapes[0] as Extract<ColliderShapeDescriptor, { kind: "sphere" }>;
        expectNear(sphere.center, [0, 2, 0]);
        expect(sphere.radius).toBeCloseTo(1, 4);
        const capsule = shapes[1] as Extract<ColliderShapeDescriptor, { kind: "capsule" }>;
        expectSegment(capsule, [5, 0, 0], [5, 0.5, 0]);
        expect(capsule.radius).toBeCloseTo(0.125, 4);
        const box = shapes[2] as Extract<ColliderShapeDescriptor, { kind: "box" }>;
        expectNear(box.center, [-5, 0, 0]);
        expectNear(box.halfExtents, [0.5, 1, 1.5]);
        // The tilted box stretched along y is a parallelepiped: its corners are the scaled corners of the box.
        const sheared = shapes[3] as Extract<ColliderShapeDescriptor, { kind: "convexHull" }>;
        const expected = boxCorners({ center: [0, 0, 0], halfExtents: [0.5, 0.5, 0.5], rotation: tilt }).map((c) => [
            c[0],
            2 * c[1] - 5,
            c[2],
        ]);
        const actual: number[][] = [];
        for (let i = 0; i < sheared.positions.length; i += 3) {
            actual.push([sheared.positions[i], sheared.positions[i + 1], sheared.positions[i + 2]]);
        }
        expectNear(sortPoints(actual).flat(), sortPoints(expected).flat());
        // Havok's own bounds agree with the scales read back (sphere and capsule would be larger if y, z counted).
        const bounds = h.havok.getBoundingBox(container);
        expectNear(bounds.maximum.asArray(), [5.125, 2 + 1, 1.5]);
        expectNear([bounds.minimum.x, bounds.minimum.z], [-5.5, -1.5]);
        // Havok rounds the sheared box's corner by its convex radius, so its lowest point is ~1 cm above the sharp one.
        expect(bounds.minimum.y).toBeGreaterThan(-5 - Math.SQRT2);
        expect(bounds.minimum.y).toBeLessThan(-5 - Math.SQRT2 + 0.02);
    });

    it("caches per shape: bodies sharing a shape get the same array", () => {
        const shape = createShape(h.scene, { kind: "sphere", radius: 0.5 });
        const a = createBody(h.scene, shape, { motionType: PhysicsMotionType.DYNAMIC });
        const b = createBody(h.scene, shape, { motionType: PhysicsMotionType.STATIC, position: [3, 0, 0] });
        const first = readHavokShape(h.havok, a.body);
        expect(readHavokShape(h.havok, b.body)).toBe(first);
        expect(readHavokShape(h.havok, a.body)).toBe(first);
    });

    it("ignores node scaling on a body shape but sees the scale an aggregate bakes in", () => {
        const scaled = CreateBox("scaled", { size: 1 }, h.scene);
        scaled.scaling.set(2, 3, 4);
        const sphere = only(
            readHavokShape(
                h.havok,
                createBody(h.scene, { kind: "sphere", radius: 0.5 }, { motionType: PhysicsMotionType.STATIC, node: scaled }).body,
            ),
            "sphere",
        );
        expect(sphere.radius).toBeCloseTo(0.5, 4);
        const aggregateMesh = CreateBox("aggregate", { size: 1 }, h.scene);
        aggregateMesh.scaling.set(2, 3, 4);
        const aggregate = new PhysicsAggregate(aggregateMesh, PhysicsShapeType.BOX, { mass: 1 }, h.scene);
        const box = only(readHavokShape(h.havok, aggregate.body), "box");
        expectNear(box.halfExtents, [1, 1.5, 2]);
    });
});

describe("readHavokMotion (real Havok)", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("reports mass and inertia in kg·m² for a 2 kg box", () => {
        const [a, b, c] = [1, 2, 3];
        const { body } = createBody(h.scene, { kind: "box", extents: [a, b, c] }, { motionType: PhysicsMotionType.DYNAMIC, mass: 2 });
        const motion = readHavokMotion(h.havok, body);
        expect(motion.motionType).toBe(PhysicsMotionType.DYNAMIC);
        expect(motion.mass).toBeCloseTo(2, 5);
        expectNear(motion.inertia, [(2 * (b * b + c * c)) / 12, (2 * (a * a + c * c)) / 12, (2 * (a * a + b * b)) / 12]);
        expectSameRotation(motion.inertiaOrientation, [0, 0, 0, 1]);
        expectNear(motion.centerOfMass, [0, 0, 0]);
    });

    it("reports a 2 kg sphere's inertia 2/5·m·r² and an offset centre of mass", () => {
        const { body } = createBody(
            h.scene,
            { kind: "sphere", radius: 0.5, center: [0, 1, 0] },
            { motionType: PhysicsMotionType.DYNAMIC, mass: 2 },
        );
        const motion = readHavokMotion(h.havok, body);
        expectNear(motion.inertia, [0.2, 0.2, 0.2]);
        expectNear(motion.centerOfMass, [0, 1, 0]);
    });

    it("reports motion types, world pose, velocities and collision filters", () => {
        const rotation = axisAngle([1, 1, 0], 0.7);
        const moving = createBody(
            h.scene,
            { kind: "box", extents: [1, 1, 1] },
            { motionType: PhysicsMotionType.DYNAMIC, position: [1, 2, 3], rotation, mass: 2 },
        );
        moving.shape.filterMembershipMask = 2;
        moving.shape.filterCollideMask = 0xfffffffd;
        let motion = readHavokMotion(h.havok, moving.body);
        expectNear(motion.position, [1, 2, 3]);
        expectSameRotation(motion.rotation, rotation);
        expect(motion.filterMembershipMask).toBe(2);
        expect(motion.filterCollideMask).toBe(0xfffffffd);

        moving.body.applyImpulse(new Vector3(3, 0, 0), moving.body.getObjectCenterWorld());
        moving.body.applyAngularImpulse(new Vector3(0, 0.5, 0));
        motion = readHavokMotion(h.havok, moving.body);
        expectNear(motion.linearVelocity, [1.5, 0, 0]);
        expect(motion.angularVelocity[1]).not.toBeCloseTo(0, 3);

        h.step(10);
        motion = readHavokMotion(h.havok, moving.body);
        expectNear(motion.position, moving.node.position.asArray());
        expect(motion.position[0]).toBeGreaterThan(1.2);
        expect(motion.linearVelocity[1]).toBeLessThan(-1);

        const staticBody = createBody(h.scene, { kind: "sphere", radius: 1 }, { motionType: PhysicsMotionType.STATIC });
        const animated = createBody(h.scene, { kind: "sphere", radius: 1 }, { motionType: PhysicsMotionType.ANIMATED });
        expect(readHavokMotion(h.havok, staticBody.body).motionType).toBe(PhysicsMotionType.STATIC);
        expect(readHavokMotion(h.havok, animated.body).motionType).toBe(PhysicsMotionType.ANIMATED);
        expect(readHavokMotion(h.havok, staticBody.body).filterMembershipMask).toBe(0xffffffff);
    });
});
