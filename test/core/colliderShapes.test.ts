import { Collider } from "../../src/core/collider";
import { ColliderShape } from "../../src/core/colliderShape";
import type { ColliderShapeDescriptor } from "../../src/core/colliderShapeDescriptor";
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";

type Vec3 = [number, number, number];
type Quat = [number, number, number, number];

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const normalize = (a: Vec3): Vec3 => scale(a, 1 / Math.hypot(...a));
const combine = (...terms: [Vec3, number][]): Vec3 => terms.reduce<Vec3>((sum, [v, s]) => add(sum, scale(v, s)), [0, 0, 0]);

/** Quaternion `[x, y, z, w]` of a rotation by `angle` about `axis`. */
function quaternion(axis: Vec3, angle: number): Quat {
    const k = normalize(axis);
    const s = Math.sin(angle / 2);
    return [k[0] * s, k[1] * s, k[2] * s, Math.cos(angle / 2)];
}

/** Rotation by `angle` about `axis` applied to `v`, by Rodrigues' formula (independent of the quaternion code). */
function rotate(axis: Vec3, angle: number, v: Vec3): Vec3 {
    const k = normalize(axis);
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    const cross: Vec3 = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
    return combine([v, c], [cross, s], [k, kv * (1 - c)]);
}

interface Probe {
    name: string;
    point: Vec3;
    distance: number;
    normal: Vec3;
}

const point = new Float64Array(4);
const out = new Float64Array(4);

/** Signed distance from `p` (collider frame) within `reach`; the outward normal is left in `out[0..2]`. */
function signedDistance(shape: ColliderShape, p: Vec3, reach = 10): number {
    point.set(p);
    point[3] = reach;
    shape.query(point, out);
    return out[3];
}

function expectProbes(shape: ColliderShape, probes: Probe[]): void {
    for (const probe of probes) {
        const distance = signedDistance(shape, probe.point);
        const message = `${probe.name}: distance ${distance}, normal ${Array.from(out).join(", ")}`;
        expect({ message, ok: Math.abs(distance - probe.distance) < 1e-9 }).toEqual({ message, ok: true });
        for (let k = 0; k < 3; k++) {
            expect({ message, ok: Math.abs(out[k] - probe.normal[k]) < 1e-9 }).toEqual({ message, ok: true });
        }
        expect(Math.abs(Math.hypot(out[0], out[1], out[2]) - 1)).toBeLessThan(1e-12);
    }
}

/** The 8 corners (index bits x, y, z) and 12 outward-wound triangles of the box `center ± half`. */
function boxMesh(center: Vec3, half: Vec3): { positions: number[]; indices: number[] } {
    const positions: number[] = [];
    for (let i = 0; i < 8; i++) {
        positions.push(
            center[0] + (i & 1 ? half[0] : -half[0]),
            center[1] + (i & 2 ? half[1] : -half[1]),
            center[2] + (i & 4 ? half[2] : -half[2]),
        );
    }
    // Each face as a quad in counter-clockwise order seen from outside.
    const quads = [
        [0, 4, 6, 2], // −x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // −y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // −z
        [4, 5, 7, 6], // +z
    ];
    const indices: number[] = [];
    for (const [a, b, c, d] of quads) {
        indices.push(a, b, c, a, c, d);
    }
    return { positions, indices };
}

const reversed = (indices: number[]): number[] => indices.map((_, k) => indices[k - (k % 3) + (2 - (k % 3))]);

describe("ColliderShape signed distance and normal against analytic values (1e-9)", () => {
    test("plane: normalised on build, offset along the unit normal", () => {
        const shape = new ColliderShape({ kind: "plane", normal: [1, 1, 0], offset: Math.SQRT2 });
        const n = normalize([1, 1, 0]);
        expectProbes(shape, [
            { name: "above", point: [2, 2, 5], distance: 2 * Math.SQRT2 - 1, normal: n },
            { name: "below", point: [0, 0, -3], distance: -1, normal: n },
            { name: "on", point: [1, 0, 7], distance: Math.SQRT1_2 - 1, normal: n },
        ]);
        expect(Array.from(shape.bounds)).toEqual([-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity]);
    });

    test("sphere with an offset centre", () => {
        const c: Vec3 = [1, 2, 3];
        const shape = new ColliderShape({ kind: "sphere", center: c, radius: 0.5 });
        const d = normalize([1, -2, 2]);
        expectProbes(shape, [
            { name: "outside", point: add(c, scale(d, 1.7)), distance: 1.2, normal: d },
            { name: "inside", point: add(c, [0.1, 0, 0]), distance: -0.4, normal: [1, 0, 0] },
            { name: "centre", point: c, distance: -0.5, normal: [0, 1, 0] },
        ]);
        expect(Array.from(shape.bounds)).toEqual([0.5, 1.5, 2.5, 1.5, 2.5, 3.5]);
    });

    test("rotated box: inside, outside on a face, near an edge, near a corner", () => {
        const center: Vec3 = [1, -0.5, 2];
        const axis: Vec3 = [1, 2, 3];
        const angle = 0.7;
        const shape = new ColliderShape({ kind: "box", center, halfExtents: [1, 0.5, 0.25], rotation: quaternion(axis, angle) });
        // Points and normals in the box frame, mapped to the collider frame.
        const probe = (name: string, local: Vec3, distance: number, normal: Vec3): Probe => ({
            name,
            point: add(center, rotate(axis, angle, local)),
            distance,
            normal: rotate(axis, angle, normal),
        });
        expectProbes(shape, [
            probe("inside, nearest −z", [0.3, 0.1, -0.05], -0.2, [0, 0, -1]),
            probe("inside, nearest +x", [0.9, 0, 0], -0.1, [1, 0, 0]),
            probe("outside +y face", [0.2, 0.9, 0.1], 0.4, [0, 1, 0]),
            probe("outside near the +x+y edge", [1.3, 0.9, 0], 0.5, [0.6, 0.8, 0]),
            probe("outside near the −x−y+z corner", [-1.2, -0.7, 0.45], 0.2 * Math.sqrt(3), normalize([-1, -1, 1])),
        ]);
        // The bounds enclose the rotated corners.
        for (let i = 0; i < 8; i++) {
            const corner = add(center, rotate(axis, angle, [i & 1 ? 1 : -1, i & 2 ? 0.5 : -0.5, i & 4 ? 0.25 : -0.25]));
            for (let k = 0; k < 3; k++) {
                expect(corner[k]).toBeGreaterThanOrEqual(shape.bounds[k] - 1e-12);
                expect(corner[k]).toBeLessThanOrEqual(shape.bounds[k + 3] + 1e-12);
            }
        }
    });

    test("capsule with an oblique segment", () => {
        const a: Vec3 = [0, 0, 0];
        const b: Vec3 = [1, 2, 2];
        const u = normalize(b); // |AB| = 3
        const p = normalize([2, -1, 0]); // ⟂ AB
        const shape = new ColliderShape({ kind: "capsule", pointA: a, pointB: b, radius: 0.5 });
        const slant = combine([u, -0.6], [p, 0.8]);
        expectProbes(shape, [
            { name: "beside the middle", point: combine([u, 1.5], [p, 1.5]), distance: 1, normal: p },
            { name: "inside", point: combine([u, 1.5], [p, 0.2]), distance: -0.3, normal: p },
            { name: "beyond B", point: add(b, scale(u, 2)), distance: 1.5, normal: u },
            { name: "beyond A, slanted", point: add(a, slant), distance: 0.5, normal: slant },
        ]);
    });

    test("cylinder with an oblique axis: side, cap, rim, inside", () => {
        const a: Vec3 = [1, 1, 1];
        const u = normalize([2, -1, 2]); // |AB| = 3
        const p = normalize([1, 2, 0]); // ⟂ AB
        const at = (along: number, radial: number): Vec3 => combine([a, 1], [u, along], [p, radial]);
        const shape = new ColliderShape({ kind: "cylinder", pointA: a, pointB: at(3, 0), radius: 0.5 });
        expectProbes(shape, [
            { name: "side", point: at(1.5, 1.2), distance: 0.7, normal: p },
            { name: "cap B", point: at(3.4, 0.2), distance: 0.4, normal: u },
            { name: "cap A", point: at(-0.25, -0.3), distance: 0.25, normal: scale(u, -1) },
            { name: "rim A", point: at(-0.3, 0.9), distance: 0.5, normal: combine([p, 0.8], [u, -0.6]) },
            { name: "inside near the side", point: at(1, 0.35), distance: -0.15, normal: p },
            { name: "inside near cap A", point: at(0.1, 0.1), distance: -0.1, normal: scale(u, -1) },
        ]);
        // On the axis any radial direction is outward: unit length and perpendicular to the axis.
        const d = signedDistance(shape, at(1.5, 0));
        expect(d).toBeCloseTo(-0.5, 12);
        expect(Math.hypot(out[0], out[1], out[2])).toBeCloseTo(1, 12);
        expect(out[0] * u[0] + out[1] * u[1] + out[2] * u[2]).toBeCloseTo(0, 12);
    });

    test.each([false, true])("convex hull from a box's 12 triangles (reversed winding: %s)", (flip) => {
        const center: Vec3 = [0.5, 0.2, -0.1];
        const { positions, indices } = boxMesh(center, [1, 0.5, 0.25]);
        const shape = new ColliderShape({ kind: "convexHull", positions, indices: flip ? reversed(indices) : indices });
        const at = (offset: Vec3): Vec3 => add(center, offset);
        expectProbes(shape, [
            { name: "inside", point: at([0.3, 0.1, -0.05]), distance: -0.2, normal: [0, 0, -1] },
            { name: "outside +y face", point: at([0.2, 0.9, 0.1]), distance: 0.4, normal: [0, 1, 0] },
            { name: "outside −x face", point: at([-1.5, 0.2, 0]), distance: 0.5, normal: [-1, 0, 0] },
            // Near an edge the hull reports the largest face-plane distance (documented as slightly short).
            { name: "near the +x+y edge", point: at([1.3, 0.9, 0]), distance: 0.4, normal: [0, 1, 0] },
        ]);
        [-0.5, -0.3, -0.35, 1.5, 0.7, 0.15].forEach((v, k) => expect(shape.bounds[k]).toBeCloseTo(v, 12));
    });

    test.each([false, true])("closed triangle mesh of a box: negative inside, positive outside (reversed winding: %s)", (flip) => {
        const center: Vec3 = [0.5, 0.2, -0.1];
        const { positions, indices } = boxMesh(center, [1, 0.5, 0.25]);
        const shape = new ColliderShape({ kind: "mesh", positions, indices: flip ? reversed(indices) : indices });
        const at = (offset: Vec3): Vec3 => add(center, offset);
        expectProbes(shape, [
            { name: "inside, nearest −z", point: at([0.3, 0.1, -0.05]), distance: -0.2, normal: [0, 0, -1] },
            { name: "inside, nearest +x", point: at([0.9, 0, 0.1]), distance: -0.1, normal: [1, 0, 0] },
            { name: "outside +y face", point: at([0.2, 0.9, 0.1]), distance: 0.4, normal: [0, 1, 0] },
            { name: "outside near the +x+y edge", point: at([1.3, 0.9, 0]), distance: 0.5, normal: [0.6, 0.8, 0] },
            {
                name: "outside near the −x−y+z corner",
                point: at([-1.2, -0.7, 0.45]),
                distance: 0.2 * Math.sqrt(3),
                normal: normalize([-1, -1, 1]),
            },
        ]);
        // Beyond reach: Infinity (the caller treats it as no contact).
        expect(signedDistance(shape, at([5, 0, 0]), 0.5)).toBe(Infinity);
    });

    test.each([false, true])("open mesh (one quad): two-sided, never negative (reversed winding: %s)", (flip) => {
        // The unit square x, y ∈ [0, 1] at z = 0.5.
        const positions = [0, 0, 0.5, 1, 0, 0.5, 1, 1, 0.5, 0, 1, 0.5];
        const indices = [0, 1, 2, 0, 2, 3];
        const shape = new ColliderShape({ kind: "mesh", positions, indices: flip ? reversed(indices) : indices });
        expectProbes(shape, [
            { name: "above", point: [0.3, 0.6, 0.8], distance: 0.3, normal: [0, 0, 1] },
            { name: "below", point: [0.3, 0.6, 0.2], distance: 0.3, normal: [0, 0, -1] },
            { name: "on the diagonal, below", point: [0.5, 0.5, 0.1], distance: 0.4, normal: [0, 0, -1] },
            { name: "beyond the +x edge", point: [1.3, 0.5, 0.9], distance: 0.5, normal: [0.6, 0, 0.8] },
            { name: "beyond a corner, below", point: [-0.2, 1.2, 0.3], distance: Math.sqrt(0.12), normal: normalize([-1, 1, -1]) },
        ]);
        const d = signedDistance(shape, [0.4, 0.3, 0.5], 1);
        expect(d).toBe(0);
        expect(Math.abs(out[2])).toBe(1);
    });
});

describe("a particle dropped on each shape kind (collider with a pose) rests at `thickness` from the surface", () => {
    const thickness = 0.01;
    // Each case: shapes in the collider frame, the pose, where the particle is dropped (x, z) and the world height
    // of the surface under it.
    const cases: {
        name: string;
        shapes: ColliderShapeDescriptor[];
        position: Vec3;
        rotation: Quat;
        drop: [number, number];
        surface: number;
    }[] = [
        {
            name: "plane (local +x turned up)",
            shapes: [{ kind: "plane", normal: [1, 0, 0], offset: 0.2 }],
            position: [0, 1, 0],
            rotation: quaternion([0, 0, 1], Math.PI / 2),
            drop: [0.3, -0.4],
            surface: 1.2,
        },
        {
            name: "sphere with an offset centre",
            shapes: [{ kind: "sphere", center: [0.1, 0, 0], radius: 0.4 }],
            position: [1, 0.5, 2],
            rotation: quaternion([0, 1, 0], Math.PI / 2),
            drop: [1, 1.9],
            surface: 0.9,
        },
        {
            name: "box rotated twice (its long axis ends up vertical)",
            shapes: [{ kind: "box", center: [0, 0, 0], halfExtents: [0.5, 0.2, 0.3], rotation: quaternion([1, 0, 0], Math.PI / 2) }],
            position: [0, 0.3, 0],
            rotation: quaternion([0, 0, 1], Math.PI / 2),
            drop: [0.1, 0.05],
            surface: 0.8,
        },
        {
            name: "capsule lying along z",
            shapes: [{ kind: "capsule", pointA: [-0.5, 0, 0], pointB: [0.5, 0, 0], radius: 0.2 }],
            position: [0, 0.2, 0],
            rotation: quaternion([0, 1, 0], Math.PI / 2),
            drop: [0, 0.3],
            surface: 0.4,
        },
        {
            name: "upright cylinder (cap)",
            shapes: [{ kind: "cylinder", pointA: [0, 0, -0.5], pointB: [0, 0, 0.5], radius: 0.25 }],
            position: [0.5, 0, 0],
            rotation: quaternion([1, 0, 0], Math.PI / 2),
            drop: [0.6, 0.05],
            surface: 0.5,
        },
        {
            name: "cylinder on its side (side)",
            shapes: [{ kind: "cylinder", pointA: [0, 0, -0.5], pointB: [0, 0, 0.5], radius: 0.25 }],
            position: [0, 0, 0],
            rotation: [0, 0, 0, 1],
            drop: [0, 0.2],
            surface: 0.25,
        },
        {
            name: "convex hull (box) turned about y",
            shapes: [{ kind: "convexHull", ...boxMesh([0, 0, 0], [0.4, 0.1, 0.3]) }],
            position: [0, 0.5, 0],
            rotation: quaternion([0, 1, 0], Math.PI / 4),
            drop: [0.05, 0.05],
            surface: 0.6,
        },
        {
            name: "closed mesh (box) turned about y",
            shapes: [{ kind: "mesh", ...boxMesh([0, 0, 0], [0.4, 0.1, 0.3]) }],
            position: [2, 0, 0],
            rotation: quaternion([0, 1, 0], Math.PI / 6),
            drop: [2, 0],
            surface: 0.1,
        },
        {
            name: "open mesh (one quad, local +z turned up)",
            shapes: [{ kind: "mesh", positions: [-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0], indices: [0, 1, 2, 0, 2, 3] }],
            position: [0, 0.3, 0],
            rotation: quaternion([1, 0, 0], -Math.PI / 2),
            drop: [0.1, 0.1],
            surface: 0.3,
        },
    ];

    test.each(cases)("$name", ({ shapes, position, rotation, drop, surface }) => {
        const world = new XpbdWorld();
        const collider = new Collider(shapes);
        collider.setPose(...position, ...rotation);
        world.addCollider(collider);
        const body = new SoftBody({ positions: [drop[0], surface + 0.6, drop[1]] }, { thickness });
        world.addBody(body);
        let lowest = Infinity;
        for (let s = 0; s < 120; s++) {
            world.step(1 / 60);
            lowest = Math.min(lowest, body.positions[1] - surface);
        }
        expect(lowest).toBeGreaterThan(0);
        expect(Math.abs(body.positions[1] - surface - thickness)).toBeLessThan(1e-4);
        expect(Math.hypot(body.positions[0] - drop[0], body.positions[2] - drop[1])).toBeLessThan(1e-6);
    });
});
