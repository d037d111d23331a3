/**
 * Reads a Havok body's collision geometry and motion state back out of the physics v2 plugin, for the XPBD core.
 *
 * Havok keeps no shape parameters that can be queried, so they are reconstructed from what it does expose:
 * the shape type Babylon remembers (`shape.type`), Havok's bounding box of the shape under a chosen rotation, its
 * mass properties (volume-exact for the primitives), and its debug display geometry.
 */
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import { PhysicsMotionType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import type { ColliderShapeDescriptor, QuaternionTuple, Vector3Tuple } from "../core/colliderShapeDescriptor.js";

type Vec3 = [number, number, number];
type Quat = [number, number, number, number];
/** Havok's shape handle: a one-element array holding a 64-bit id. */
type ShapeId = [bigint];

/** The raw Havok bindings this reader calls (Babylon types `HavokPlugin._hknp` as `any`). */
interface HavokNative {
    Result: { RESULT_OK: number };
    HEAPU8: Uint8Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HP_Shape_GetBoundingBox(shape: ShapeId, worldFromShape: [Vec3, Quat]): [number, [Vec3, Vec3]];
    /** `[centre of mass, mass, inertia per unit mass, inertia orientation]` for density-derived mass. */
    HP_Shape_BuildMassProperties(shape: ShapeId): [number, [Vec3, number, Vec3, Quat]];
    HP_Shape_CreateDebugDisplayGeometry(shape: ShapeId): [number, unknown];
    /** `[positions pointer, vertex count, indices pointer, triangle count]`. */
    HP_DebugGeometry_GetInfo(geometry: unknown): [number, [number, number, number, number]];
    HP_DebugGeometry_Release(geometry: unknown): number;
    HP_Shape_GetNumChildren(shape: ShapeId): [number, number];
    HP_Shape_GetChildShape(shape: ShapeId, index: number): [number, ShapeId];
    /** Raw WASM export (no embind wrapper): writes translation, rotation, scale as 10 float32s at `out`; 0 is OK. */
    _HP_Shape_GetChildQSTransform(shape: bigint, index: number, out: number): number;
    HP_Body_GetQTransform(body: unknown): [number, [Vec3, Quat]];
    HP_Body_GetActivationState(body: unknown): [unknown, { value: number }];
    /** `[membership, collide]` masks of a shape's collision filter. */
    HP_Shape_GetFilterInfo(shape: ShapeId): [number, [number, number]];
}

/** The Babylon-side data of a (non-instanced) Havok body that this reader uses (`PhysicsBody._pluginData`). */
interface HavokBodyData {
    hpBodyId: unknown;
    /** The body's floating-origin region; its origin is the zero vector unless that mode is on. */
    worldRegion?: { floatingOrigin: { x: number; y: number; z: number } };
}

/** The plugin internals this reader relies on (present in `@babylonjs/core` 9.35). */
interface HavokPluginInternals {
    _hknp: HavokNative;
    /** Every shape Babylon created, by Havok id: how a container's children get their Babylon `type` back. */
    _shapes: Map<bigint, PhysicsShape>;
}

/** The body state the XPBD coupling needs, read from Havok. Vectors are world-space unless noted. */
export interface HavokMotionState {
    /** STATIC 0, ANIMATED 1, DYNAMIC 2. */
    motionType: PhysicsMotionType;
    /** kg (Havok's value; static and animated bodies keep the mass of their shapes but never move from contacts). */
    mass: number;
    /** Principal moments in kg·m² (Havok stores them per unit mass; multiplied by `mass` here). */
    inertia: Vector3Tuple;
    /** Rotation from the principal axes to the body frame. */
    inertiaOrientation: QuaternionTuple;
    /** Centre of mass in the body frame. */
    centerOfMass: Vector3Tuple;
    /** m/s, of the centre of mass. */
    linearVelocity: Vector3Tuple;
    /** rad/s. */
    angularVelocity: Vector3Tuple;
    /** The body frame's origin: the node's world position as Havok last simulated it. */
    position: Vector3Tuple;
    /** The body frame's world rotation as Havok last simulated it. */
    rotation: QuaternionTuple;
    /**
     * Collision filter of the body's shape, as unsigned 32-bit masks (two shapes collide when each one's
     * membership intersects the other's collide mask). A container's own filter is not meaningful in Havok
     * 1.3.14 (reads back e.g. `0` / `0x3f800000`); its children carry the filters used in contacts.
     */
    filterMembershipMask: number;
    /** The groups this body's shape collides with (unsigned 32-bit); see `filterMembershipMask`. */
    filterCollideMask: number;
}

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

/** The mass properties of a Havok body, as {@link readHavokMassProperties} returns them. */
export interface HavokMassProperties {
    /** kg (Havok's value; static and animated bodies keep the mass of their shapes but never move from contacts). */
    mass: number;
    /** Principal moments in kg·m² (Havok stores them per unit mass; multiplied by `mass` here). */
    inertia: Vector3Tuple;
    /** Rotation from the principal axes to the body frame. */
    inertiaOrientation: QuaternionTuple;
    /** Centre of mass in the body frame. */
    centerOfMass: Vector3Tuple;
}

/**
 * The motion type, mass properties, velocities, world pose and collision filter of `body`, read from Havok. Returns
 * a new object each call; the collider sync reads the same values in place (see {@link readHavokPose}).
 */
export function readHavokMotion(plugin: HavokPlugin, body: PhysicsBody): HavokMotionState {
    const mass = readHavokMassProperties(plugin, body);
    const pose = new Float64Array(7);
    readHavokPose(plugin, body, pose);
    const linear = body.getLinearVelocity();
    const angular = body.getAngularVelocity();
    const shape = body.shape;
    return {
        motionType: plugin.getMotionType(body),
        ...mass,
        linearVelocity: [linear.x, linear.y, linear.z],
        angularVelocity: [angular.x, angular.y, angular.z],
        position: [pose[0], pose[1], pose[2]],
        rotation: [pose[3], pose[4], pose[5], pose[6]],
        filterMembershipMask: shape ? shape.filterMembershipMask >>> 0 : 0,
        filterCollideMask: shape ? shape.filterCollideMask >>> 0 : 0,
    };
}

/** The mass properties of `body` as Havok holds them (what `setMassProperties` set, or what Havok derived from the shape). */
export function readHavokMassProperties(plugin: HavokPlugin, body: PhysicsBody): HavokMassProperties {
    const mass = plugin.getMassProperties(body);
    const massKg = mass.mass ?? 0;
    const perUnitMass = mass.inertia ? mass.inertia.asArray() : [0, 0, 0];
    return {
        mass: massKg,
        inertia: [perUnitMass[0] * massKg, perUnitMass[1] * massKg, perUnitMass[2] * massKg],
        inertiaOrientation: mass.inertiaOrientation ? quatTuple(mass.inertiaOrientation.asArray()) : [0, 0, 0, 1],
        centerOfMass: mass.centerOfMass ? vecTuple(mass.centerOfMass.asArray()) : [0, 0, 0],
    };
}

/**
 * Writes the world pose of `body`'s frame as Havok last simulated it into `out`: position `x, y, z` then rotation
 * `x, y, z, w` (7 numbers). Nothing is allocated here; Havok's binding returns its transform as new arrays, which
 * no public API avoids.
 */
export function readHavokPose(plugin: HavokPlugin, body: PhysicsBody, out: Float64Array): void {
    const data = body._pluginData as HavokBodyData;
    const transform = internals(plugin)._hknp.HP_Body_GetQTransform(data.hpBodyId)[1];
    const translation = transform[0];
    const rotation = transform[1];
    // Havok positions are relative to the body's floating-origin region (the zero vector unless that mode is on).
    const origin = data.worldRegion?.floatingOrigin;
    out[0] = origin ? translation[0] + origin.x : translation[0];
    out[1] = origin ? translation[1] + origin.y : translation[1];
    out[2] = origin ? translation[2] + origin.z : translation[2];
    out[3] = rotation[0];
    out[4] = rotation[1];
    out[5] = rotation[2];
    out[6] = rotation[3];
}

/**
 * Writes the collision filter of `shape` into `out` as unsigned 32-bit masks: `out[0]` membership, `out[1]` collide
 * (one Havok call, where Babylon's two getters make one each). See {@link HavokMotionState.filterMembershipMask}.
 */
export function readHavokShapeFilter(plugin: HavokPlugin, shape: PhysicsShape, out: Float64Array): void {
    const filter = internals(plugin)._hknp.HP_Shape_GetFilterInfo(shape._pluginData as ShapeId)[1];
    out[0] = filter[0] >>> 0;
    out[1] = filter[1] >>> 0;
}

/** Whether Havok simulates `body` now (false while it has deactivated it: asleep, not moving). */
export function isHavokBodyActive(plugin: HavokPlugin, body: PhysicsBody): boolean {
    return internals(plugin)._hknp.HP_Body_GetActivationState((body._pluginData as HavokBodyData).hpBodyId)[1].value === 0;
}

function internals(plugin: HavokPlugin): HavokPluginInternals {
    // `_shapes` is private in Babylon's typings; both members exist at runtime in 9.35.
    return plugin as unknown as HavokPluginInternals;
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

/** The box's axes come from the 8 corners of Havok's core box (shrunk by the convex radius), the radius from its AABB. */
function readBox(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions } = geometry(hk, id);
    const corners: Vec3[] = [];
    for (let i = 0; i < positions.length; i += 3) {
        corners.push([positions[i], positions[i + 1], positions[i + 2]]);
    }
    const center = scale(
        corners.reduce((sum, c) => add(sum, c), [0, 0, 0] as Vec3),
        1 / corners.length,
    );
    // From one corner the shortest edge is shorter than any diagonal; each next edge is the shortest offset
    // orthogonal to the edges found so far. A box no thicker than twice the convex radius has a flat (or thinner)
    // core whose corners coincide: its missing edges have length 0 and directions that complete the frame.
    const extent = Math.max(...corners.map((c) => length(sub(c, center))));
    const offsets = corners
        .slice(1)
        .map((c) => sub(c, corners[0]))
        .filter((d) => length(d) > 1e-6 * extent);
    const edges: Vec3[] = [];
    for (let k = 0; k < 3; k++) {
        let best: Vec3 | undefined;
        for (const d of offsets) {
            const orthogonal = edges.every((e) => length(e) === 0 || Math.abs(dot(d, e)) <= 1e-4 * length(d) * length(e));
            if (orthogonal && (!best || length(d) < length(best))) {
                best = d;
            }
        }
        edges.push(best ?? [0, 0, 0]);
    }
    const directions = completeFrame(edges);
    const { axes, order } = alignAxes(directions);
    const core = order.map((k) => length(edges[k]) / 2) as Vec3;
    const [min, max] = boundsUnder(hk, id, [0, 0, 0, 1]);
    // AABB half size along world axis i = Σ_j |axis_j[i]| core_j + convex radius.
    let convexRadius = 0;
    for (let i = 0; i < 3; i++) {
        const coreHalf = axes.reduce((sum, axis, j) => sum + Math.abs(axis[i]) * core[j], 0);
        convexRadius += ((max[i] - min[i]) / 2 - coreHalf) / 3;
    }
    return {
        kind: "box",
        center,
        halfExtents: core.map((h) => h + convexRadius) as Vec3,
        rotation: quatFromAxes(axes),
    };
}

/**
 * Unit directions of three mutually orthogonal edges, some of which may have length 0 (a degenerate box core):
 * the zero ones get directions that complete a right angle frame with the others.
 */
function completeFrame(edges: Vec3[]): [Vec3, Vec3, Vec3] {
    const known = edges.filter((e) => length(e) > 0).map(normalize);
    if (known.length === 0) {
        known.push([1, 0, 0]);
    }
    if (known.length === 1) {
        // Any direction orthogonal to the first: cross it with the world axis it is least aligned with.
        const u = known[0];
        const least = [0, 1, 2].reduce((a, b) => (Math.abs(u[b]) < Math.abs(u[a]) ? b : a));
        known.push(normalize(cross(u, [least === 0 ? 1 : 0, least === 1 ? 1 : 0, least === 2 ? 1 : 0])));
    }
    if (known.length === 2) {
        known.push(normalize(cross(known[0], known[1])));
    }
    // Back in edge order, so that each direction keeps its edge's length.
    let next = edges.filter((e) => length(e) > 0).length;
    return edges.map((e) => (length(e) > 0 ? normalize(e) : known[next++])) as [Vec3, Vec3, Vec3];
}

/**
 * Assigns three orthonormal directions to the x, y, z axes so that the rotation is closest to identity (a box
 * created without rotation reads back with identity), then makes it right-handed.
 */
function alignAxes(dirs: [Vec3, Vec3, Vec3]): { axes: [Vec3, Vec3, Vec3]; order: number[] } {
    const permutations = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let order = permutations[0];
    let bestScore = -1;
    for (const p of permutations) {
        const score = p.reduce((sum, k, j) => sum + Math.abs(dirs[k][j]), 0);
        if (score > bestScore) {
            bestScore = score;
            order = p;
        }
    }
    const axes = order.map((k, j) => (dirs[k][j] < 0 ? scale(dirs[k], -1) : dirs[k])) as [Vec3, Vec3, Vec3];
    if (dot(cross(axes[0], axes[1]), axes[2]) < 0) {
        // Flipping an axis keeps the box; flip the one least aligned with its target axis.
        const j = [0, 1, 2].reduce((a, b) => (Math.abs(axes[b][b]) < Math.abs(axes[a][a]) ? b : a));
        axes[j] = scale(axes[j], -1);
    }
    return { axes, order };
}

/**
 * The axis is the principal axis of least inertia (a capsule is never flatter than a sphere); rotating the shape
 * so the axis lies along y, Havok's AABB then has half sizes (r, halfLength + r, r).
 */
function readCapsule(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const [, , inertia, orientation] = hk.HP_Shape_BuildMassProperties(id)[1];
    const least = inertia.indexOf(Math.min(...inertia));
    const axis = rotate(orientation, [least === 0 ? 1 : 0, least === 1 ? 1 : 0, least === 2 ? 1 : 0]);
    const toY = quatFromUnitVectors(axis, [0, 1, 0]);
    const [min, max] = boundsUnder(hk, id, toY);
    const radius = (max[0] - min[0]) / 2;
    const halfLength = Math.max(0, (max[1] - min[1]) / 2 - radius);
    const center = rotate(conjugate(toY), mid(min, max));
    return {
        kind: "capsule",
        pointA: sub(center, scale(axis, halfLength)),
        pointB: add(center, scale(axis, halfLength)),
        radius,
    };
}

/**
 * The axis is the normal shared by most triangles of Havok's prism (its two fan-triangulated caps), which works even
 * when the inertia is isotropic. Radius and length come from the per-unit-mass inertia, which Havok computes for the
 * exact cylinder: about the axis r²/2, across it r²/4 + L²/12.
 */
function readCylinder(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions, indices } = geometry(hk, id);
    const normals: Vec3[] = [];
    for (let t = 0; t < indices.length; t += 3) {
        const n = triangleNormal(positions, indices[t], indices[t + 1], indices[t + 2]);
        if (n) {
            normals.push(n);
        }
    }
    let axis: Vec3 = [0, 1, 0];
    let bestCount = 0;
    for (const n of normals) {
        const count = normals.reduce((c, m) => c + (Math.abs(dot(n, m)) > 1 - 1e-5 ? 1 : 0), 0);
        if (count > bestCount) {
            bestCount = count;
            axis = n;
        }
    }
    const [center, , inertia, orientation] = hk.HP_Shape_BuildMassProperties(id)[1];
    const across = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
    const radius = Math.sqrt(2 * inertiaAbout(inertia, orientation, axis));
    const halfLength = Math.sqrt(Math.max(0, 12 * inertiaAbout(inertia, orientation, across) - 3 * radius * radius)) / 2;
    return {
        kind: "cylinder",
        pointA: sub(center, scale(axis, halfLength)),
        pointB: add(center, scale(axis, halfLength)),
        radius,
    };
}

/** Havok's debug geometry is the core hull, shrunk by the convex radius; each face is pushed back out by it. */
function readConvexHull(hk: HavokNative, id: ShapeId): ColliderShapeDescriptor {
    const { positions, indices } = geometry(hk, id);
    const count = positions.length / 3;
    const [min, max] = boundsUnder(hk, id, [0, 0, 0, 1]);
    const coreMin: Vec3 = [Infinity, Infinity, Infinity];
    const coreMax: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < count; v++) {
        for (let i = 0; i < 3; i++) {
            coreMin[i] = Math.min(coreMin[i], positions[3 * v + i]);
            coreMax[i] = Math.max(coreMax[i], positions[3 * v + i]);
        }
    }
    // A Minkowski sum with a ball grows the support in every direction by the radius.
    let convexRadius = 0;
    for (let i = 0; i < 3; i++) {
        convexRadius += (max[i] - coreMax[i] + coreMin[i] - min[i]) / 6;
    }
    const faceNormals: Vec3[][] = Array.from({ length: count }, () => []);
    for (let t = 0; t < indices.length; t += 3) {
        const n = triangleNormal(positions, indices[t], indices[t + 1], indices[t + 2]);
        for (let k = 0; n && k < 3; k++) {
            const list = faceNormals[indices[t + k]];
            if (!list.some((m) => dot(m, n) > 1 - 1e-5)) {
                list.push(n);
            }
        }
    }
    const expanded = new Float32Array(positions.length);
    for (let v = 0; v < count; v++) {
        // Least-squares displacement d with n·d = convexRadius for every face at the vertex (exact for three faces).
        const normalMatrix = [0, 0, 0, 0, 0, 0, 0, 0, 0];
        let rhs: Vec3 = [0, 0, 0];
        for (const n of faceNormals[v]) {
            for (let r = 0; r < 3; r++) {
                for (let c = 0; c < 3; c++) {
                    normalMatrix[3 * r + c] += n[r] * n[c];
                }
            }
            rhs = add(rhs, scale(n, convexRadius));
        }
        const d = solve3(normalMatrix, rhs) ?? [0, 0, 0];
        for (let i = 0; i < 3; i++) {
            expanded[3 * v + i] = positions[3 * v + i] + d[i];
        }
    }
    return { kind: "convexHull", positions: expanded, indices };
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
        positions.set(add(vec(center), rotate(quat(rotation), local)), 3 * c);
    }
    // Corner bit k set means +half on axis k; each face as two counter-clockwise triangles seen from outside.
    const indices = Uint32Array.from([
        0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6,
    ]);
    return { positions, indices };
}

/** Havok's bounds of the shape rotated by `rotation` (the only way to read a shape's extent along other axes). */
function boundsUnder(hk: HavokNative, id: ShapeId, rotation: Quat): [Vec3, Vec3] {
    return hk.HP_Shape_GetBoundingBox(id, [[0, 0, 0], rotation])[1];
}

/** Havok's debug display triangles of one shape (what `HavokPlugin.getBodyGeometry` returns for a body's shape). */
function geometry(hk: HavokNative, id: ShapeId): { positions: Float32Array; indices: Uint32Array } {
    const [result, handle] = hk.HP_Shape_CreateDebugDisplayGeometry(id);
    if (result !== hk.Result.RESULT_OK) {
        return { positions: new Float32Array(0), indices: new Uint32Array(0) };
    }
    const [positionsAt, vertexCount, indicesAt, triangleCount] = hk.HP_DebugGeometry_GetInfo(handle)[1];
    // Copies: releasing the geometry frees the WASM memory these views point into.
    const positions = new Float32Array(hk.HEAPU8.buffer, positionsAt, vertexCount * 3).slice();
    const indices = new Uint32Array(hk.HEAPU8.buffer, indicesAt, triangleCount * 3).slice();
    hk.HP_DebugGeometry_Release(handle);
    return { positions, indices };
}

function triangleNormal(positions: ArrayLike<number>, a: number, b: number, c: number): Vec3 | undefined {
    const pa: Vec3 = [positions[3 * a], positions[3 * a + 1], positions[3 * a + 2]];
    const n = cross(
        sub([positions[3 * b], positions[3 * b + 1], positions[3 * b + 2]], pa),
        sub([positions[3 * c], positions[3 * c + 1], positions[3 * c + 2]], pa),
    );
    return length(n) > 1e-12 ? normalize(n) : undefined;
}

/** Moment about unit axis `u` of the inertia tensor R diag(moments) Rᵀ. */
function inertiaAbout(moments: Vec3, orientation: Quat, u: Vec3): number {
    const local = rotate(conjugate(orientation), u);
    return moments[0] * local[0] * local[0] + moments[1] * local[1] * local[1] + moments[2] * local[2] * local[2];
}

/** Solves the symmetric 3×3 system `m x = b` (row-major) by Cramer's rule; undefined when singular. */
function solve3(m: number[], b: Vec3): Vec3 | undefined {
    const c0: Vec3 = [m[0], m[3], m[6]];
    const c1: Vec3 = [m[1], m[4], m[7]];
    const c2: Vec3 = [m[2], m[5], m[8]];
    const det = dot(c0, cross(c1, c2));
    if (Math.abs(det) < 1e-12) {
        return undefined;
    }
    return [dot(b, cross(c1, c2)) / det, dot(c0, cross(b, c2)) / det, dot(c0, cross(c1, b)) / det];
}

function quatFromAxes([x, y, z]: [Vec3, Vec3, Vec3]): Quat {
    // Columns x, y, z of a rotation matrix; Shepperd's method picks the best-conditioned branch.
    const trace = x[0] + y[1] + z[2];
    let q: Quat;
    if (trace > 0) {
        const s = 2 * Math.sqrt(1 + trace);
        q = [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4];
    } else if (x[0] > y[1] && x[0] > z[2]) {
        const s = 2 * Math.sqrt(1 + x[0] - y[1] - z[2]);
        q = [s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
    } else if (y[1] > z[2]) {
        const s = 2 * Math.sqrt(1 + y[1] - x[0] - z[2]);
        q = [(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
    } else {
        const s = 2 * Math.sqrt(1 + z[2] - x[0] - y[1]);
        q = [(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s];
    }
    const n = Math.hypot(...q) * (q[3] < 0 ? -1 : 1);
    return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** The shortest rotation taking unit vector `from` onto unit vector `to`. */
function quatFromUnitVectors(from: Vec3, to: Vec3): Quat {
    const w = 1 + dot(from, to);
    if (w < 1e-9) {
        // Opposite vectors: any half turn about an axis perpendicular to `from`.
        const axis = normalize(cross(from, Math.abs(from[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1]));
        return [axis[0], axis[1], axis[2], 0];
    }
    const [x, y, z] = cross(from, to);
    const n = Math.hypot(x, y, z, w);
    return [x / n, y / n, z / n, w / n];
}

function rotate(q: Quat, v: Vec3): Vec3 {
    const u: Vec3 = [q[0], q[1], q[2]];
    const t = scale(cross(u, v), 2);
    return add(add(v, scale(t, q[3])), cross(u, t));
}

function quatMul(a: Quat, b: QuaternionTuple): Quat {
    return [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ];
}

const conjugate = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
const vec = (v: Vector3Tuple): Vec3 => [v[0], v[1], v[2]];
const quat = (q: QuaternionTuple): Quat => [q[0], q[1], q[2], q[3]];
const vecTuple = (v: ArrayLike<number>): Vector3Tuple => [v[0], v[1], v[2]];
const quatTuple = (q: ArrayLike<number>): QuaternionTuple => [q[0], q[1], q[2], q[3]];
const add = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mul = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] * b[0], a[1] * b[1], a[2] * b[2]];
const scale = (a: Vector3Tuple, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const mid = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => scale(add(a, b), 0.5);
const dot = (a: Vector3Tuple, b: Vector3Tuple): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vector3Tuple): number => Math.hypot(a[0], a[1], a[2]);
const normalize = (a: Vector3Tuple): Vec3 => scale(a, 1 / length(a));
