/**
 * Reads a Havok body's collision geometry back out of the physics v2 plugin, as core collider shapes: the shape type
 * Babylon remembers (`shape.type`) picks the reader of the primitive (`havokPrimitiveReader.ts`), and containers are
 * walked child by child.
 */
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { ColliderShapeDescriptor, QuaternionTuple, Vector3Tuple } from "../core/colliderShapeDescriptor.js";
import { add, mid, mul, quat, quatMul, rotate, vec3, type Quat, type Vec3 } from "../core/tupleMath.js";
import { internals, type HavokNative, type HavokPluginInternals, type ShapeId } from "./havokNative.js";
import { boundsUnder, geometry, readBox, readCapsule, readConvexHull, readCylinder } from "./havokPrimitiveReader.js";

const shapeCache = new WeakMap<PhysicsShape, readonly ColliderShapeDescriptor[]>();

/**
 * The collision geometry of `body` as core collider shapes in the body frame. Results are cached per `PhysicsShape`
 * object, so bodies sharing a shape share the returned array; a shape must not be changed (e.g. children added)
 * after it was first read.
 *
 * Frame: Havok bodies are rigid — `_getTransformInfos` sends only the node's world position and rotation, and
 * node scaling is never applied to a shape after creation (`PhysicsAggregate` and mesh / hull shapes bake the node's
 * `absoluteScaling` in once, when the shape is built). Every descriptor here is therefore in the body frame:
 * the body's world position and rotation ({@link HavokMotionState.position} / `rotation`), without scale.
 *
 * Exactness (float32 round-off aside):
 * - sphere, capsule: exact.
 * - box: exact faces; Havok rounds its edges and corners by its convex radius (~0.01 m), the descriptor is sharp.
 * - cylinder: the descriptor is the cylinder that was asked for (axis, caps, radius exact); Havok itself collides
 *   against a 16-sided prism with rounded edges, touching the cylinder at its vertices and up to 2% of the radius
 *   inside it between them.
 * - convexHull: Havok's shrunken core hull pushed out by its convex radius: exact faces; sharp instead of rounded
 *   edges; a vertex where more than three faces meet is placed by least squares.
 * - mesh, heightfield: Havok's own triangles, exact (heightfields as open `mesh` sheets).
 * - container: children placed by their container transforms (read with Havok's raw `HP_Shape_GetChildQSTransform`
 *   export), each as above. Scaled children follow Havok's rules (see `placeChild`); a box scaled across its axes
 *   becomes an exact `convexHull`, a cylinder scaled non-uniformly becomes Havok's core prism as a `convexHull`
 *   (approximate: up to its convex radius, ~1 cm, inside).
 * Triangles wind counter-clockwise seen from outside: `(b - a) × (c - a)` points out of closed meshes and hulls.
 */
export function readHavokShape(plugin: HavokPlugin, body: PhysicsBody): readonly ColliderShapeDescriptor[] {
    const shape = body.shape;
    if (!shape) {
        return [];
    }
    return readShape(internals(plugin), shape);
}

function readShape(plugin: HavokPluginInternals, shape: PhysicsShape): readonly ColliderShapeDescriptor[] {
    let shapes = shapeCache.get(shape);
    if (!shapes) {
        shapes = deriveShapes(plugin, shape.type, shape._pluginData as ShapeId);
        shapeCache.set(shape, shapes);
    }
    return shapes;
}

function deriveShapes(plugin: HavokPluginInternals, type: PhysicsShapeType, id: ShapeId): ColliderShapeDescriptor[] {
    const hk = plugin._hknp;
    switch (type) {
        case PhysicsShapeType.SPHERE: {
            const [min, max] = boundsUnder(hk, id, [0, 0, 0, 1]);
            return [{ kind: "sphere", center: mid(min, max), radius: (max[0] - min[0]) / 2 }];
        }
        case PhysicsShapeType.BOX:
            return [readBox(hk, id)];
        case PhysicsShapeType.CAPSULE:
            return [readCapsule(hk, id)];
        case PhysicsShapeType.CYLINDER:
            return [readCylinder(hk, id)];
        case PhysicsShapeType.CONVEX_HULL:
            return [readConvexHull(hk, id)];
        case PhysicsShapeType.MESH:
        case PhysicsShapeType.HEIGHTFIELD:
            return [{ kind: "mesh", ...geometry(hk, id) }];
        case PhysicsShapeType.CONTAINER:
            return readContainer(plugin, id);
    }
}

function readContainer(plugin: HavokPluginInternals, id: ShapeId): ColliderShapeDescriptor[] {
    const hk = plugin._hknp;
    const result: ColliderShapeDescriptor[] = [];
    const childCount = hk.HP_Shape_GetNumChildren(id)[1];
    const out = hk._malloc(10 * 4);
    try {
        for (let index = 0; index < childCount; index++) {
            const childId = hk.HP_Shape_GetChildShape(id, index)[1];
            // The raw export returns the C enum value (RESULT_OK is 0), not embind's Result object.
            if (hk._HP_Shape_GetChildQSTransform(id[0], index, out) !== 0) {
                throw new Error(`Havok could not report the transform of container child ${index}`);
            }
            const qs = new Float32Array(hk.HEAPU8.buffer, out, 10);
            const transform: ChildTransform = {
                translation: [qs[0], qs[1], qs[2]],
                rotation: [qs[3], qs[4], qs[5], qs[6]],
                scale: [qs[7], qs[8], qs[9]],
            };
            const child = plugin._shapes.get(childId[0]);
            // A child Babylon did not create has no known type; its triangles still collide exactly as drawn.
            const shapes = child ? readShape(plugin, child) : [{ kind: "mesh" as const, ...geometry(hk, childId) }];
            for (const shape of shapes) {
                result.push(...placeChild(hk, childId, shape, transform));
            }
        }
    } finally {
        hk._free(out);
    }
    return result;
}

interface ChildTransform {
    translation: Vec3;
    rotation: Quat;
    scale: Vec3;
}

/**
 * Maps a child's descriptor into the container frame: x ↦ translation + rotation · (scale ∘ x). As Havok 1.3.14
 * does it (checked through its bounds): spheres and capsules take `scale.x` as a uniform scale and ignore y and z;
 * boxes, cylinders, hulls and meshes take the full per-axis scale.
 */
function placeChild(hk: HavokNative, childId: ShapeId, shape: ColliderShapeDescriptor, t: ChildTransform): ColliderShapeDescriptor[] {
    const place =
        (scaling: Vec3) =>
        (p: Vector3Tuple): Vec3 =>
            add(t.translation, rotate(t.rotation, mul(p, scaling)));
    const point = place(t.scale);
    const uniform =
        Math.abs(Math.abs(t.scale[0]) - Math.abs(t.scale[1])) < 1e-6 && Math.abs(Math.abs(t.scale[0]) - Math.abs(t.scale[2])) < 1e-6;
    const s = Math.abs(t.scale[0]);
    switch (shape.kind) {
        case "sphere": {
            const center = place([t.scale[0], t.scale[0], t.scale[0]])(shape.center);
            return [{ kind: "sphere", center, radius: shape.radius * s }];
        }
        case "capsule": {
            const uniformPoint = place([t.scale[0], t.scale[0], t.scale[0]]);
            return [{ kind: "capsule", pointA: uniformPoint(shape.pointA), pointB: uniformPoint(shape.pointB), radius: shape.radius * s }];
        }
        case "cylinder":
            if (!uniform) {
                // An elliptic cylinder: Havok's own (scaled) prism is the best available description.
                return [transformTriangles("convexHull", geometry(hk, childId), point, t.scale)];
            }
            return [{ kind: "cylinder", pointA: point(shape.pointA), pointB: point(shape.pointB), radius: shape.radius * s }];
        case "box": {
            const rotation = shape.rotation ?? [0, 0, 0, 1];
            // Each box axis scales by the factor of the container axis it lies along (a mirror keeps the box).
            const axisScale = [0, 1, 2].map((j) => {
                const axis = rotate(quat(rotation), [j === 0 ? 1 : 0, j === 1 ? 1 : 0, j === 2 ? 1 : 0]);
                const along = axis.findIndex((a) => Math.abs(a) > 1 - 1e-6);
                return uniform ? s : along >= 0 ? Math.abs(t.scale[along]) : undefined;
            });
            if (axisScale.some((f) => f === undefined)) {
                // Scaled across its axes a box shears into a parallelepiped, which its 8 corners describe exactly.
                return [transformTriangles("convexHull", boxTriangles(shape.center, shape.halfExtents, rotation), point, t.scale)];
            }
            const halfExtents = shape.halfExtents.map((h, j) => h * (axisScale[j] as number)) as Vec3;
            return [{ kind: "box", center: point(shape.center), halfExtents, rotation: quatMul(t.rotation, rotation) }];
        }
        case "convexHull":
        case "mesh":
            return [transformTriangles(shape.kind, shape, point, t.scale)];
        case "plane":
            // Havok has no plane shape, so no child is ever read back as one.
            return [shape];
    }
}

function transformTriangles(
    kind: "convexHull" | "mesh",
    mesh: { positions: ArrayLike<number>; indices: ArrayLike<number> },
    point: (p: Vector3Tuple) => Vec3,
    scaling: Vec3,
): ColliderShapeDescriptor {
    const positions = new Float32Array(mesh.positions.length);
    for (let i = 0; i < positions.length; i += 3) {
        positions.set(point([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]), i);
    }
    const indices = Uint32Array.from(mesh.indices);
    // A mirroring scale turns triangles inside out; swapping two corners restores outward winding.
    if (scaling[0] * scaling[1] * scaling[2] < 0) {
        for (let i = 0; i < indices.length; i += 3) {
            [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
        }
    }
    return { kind, positions, indices };
}

function boxTriangles(
    center: Vector3Tuple,
    half: Vector3Tuple,
    rotation: QuaternionTuple,
): { positions: Float32Array; indices: Uint32Array } {
    const positions = new Float32Array(24);
    for (let c = 0; c < 8; c++) {
        const local: Vec3 = [c & 1 ? half[0] : -half[0], c & 2 ? half[1] : -half[1], c & 4 ? half[2] : -half[2]];
        positions.set(add(vec3(center), rotate(quat(rotation), local)), 3 * c);
    }
    // Corner bit k set means +half on axis k; each face as two counter-clockwise triangles seen from outside.
    const indices = Uint32Array.from([
        0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6,
    ]);
    return { positions, indices };
}
