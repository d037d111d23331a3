import type { ColliderShapeDescriptor } from "./colliderShapeDescriptor.js";
import { finiteNumber, finiteVector3, positiveFinite } from "./argumentChecks.js";
import { convexPlanes, pointBounds } from "./convexHullPlanes.js";
import { TriangleMeshShape } from "./triangleMeshShape.js";
import { matrixFromQuaternion } from "./tupleMath.js";

/** Shape kinds understood by the narrow phase. */
export enum ColliderShapeKind {
    Plane = 0,
    Sphere = 1,
    Box = 2,
    Capsule = 3,
    Cylinder = 4,
    ConvexHull = 5,
    Mesh = 6,
}

/** Half extent (m) under which a box counts as a two-sided sheet (see {@link ColliderShape.twoSided}). */
export const THIN_BOX_HALF_EXTENT = 1e-3;

/**
 * One compiled collider shape: the descriptor turned into flat numbers the narrow phase reads, in the collider's
 * local frame. {@link ColliderShape.query} answers "how far is this point from the surface, and which way is out".
 */
export class ColliderShape {
    /** The shape kind. */
    public readonly kind: ColliderShapeKind;
    /** Local axis-aligned bounds in the collider frame (min xyz, max xyz); infinite for planes. */
    public readonly bounds = new Float64Array(6);
    /**
     * Whether the shape is a sheet with two sides and no inside worth the name: an open mesh (its distance is never
     * negative), or a box thinner than {@link THIN_BOX_HALF_EXTENT} on some axis (a ground made from a flat mesh,
     * whose "inside" would push a particle that crossed it out through the far face). A particle that passes through
     * such a shape within a substep is sent back to the side it came from.
     */
    public readonly twoSided: boolean = false;
    /**
     * Whether a fast particle is swept against the shape (see `ParticleSweep`): every shape with an inside a particle
     * can cross within a substep. Not planes (nothing lies behind them) nor {@link twoSided} sheets (their own rule).
     */
    public readonly swept: boolean;
    /** Plane normal / box half extents / segment point A (kind-dependent). */
    private readonly _a = new Float64Array(3);
    /** Segment point B (capsule, cylinder). */
    private readonly _b = new Float64Array(3);
    /** Radius (sphere, capsule, cylinder) or plane offset. */
    private _radius = 0;
    /** Box frame: centre and rotation (row-major 3×3, box → collider). */
    private readonly _center = new Float64Array(3);
    private readonly _rotation = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    /** Convex hull face planes: nx, ny, nz, offset per plane (outward normals). */
    private _planes: Float64Array = new Float64Array(0);
    private _mesh: TriangleMeshShape | null = null;
    /** Scratch offset for the sphere-like distances (passed to `_sphereDistance`, never returned as numbers). */
    private readonly _offset = new Float64Array(3);

    /** Compiles a descriptor; throws on invalid parameters, naming them. */
    public constructor(descriptor: ColliderShapeDescriptor) {
        const b = this.bounds;
        switch (descriptor.kind) {
            case "plane": {
                this.kind = ColliderShapeKind.Plane;
                const [nx, ny, nz] = finiteVector3(descriptor.normal, "plane normal");
                const length = Math.hypot(nx, ny, nz);
                if (!(length > 0)) {
                    throw new Error("plane normal must not be zero");
                }
                this._a.set([nx / length, ny / length, nz / length]);
                this._radius = finiteNumber(descriptor.offset, "plane offset") / length;
                b.set([-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity]);
                break;
            }
            case "sphere": {
                this.kind = ColliderShapeKind.Sphere;
                const radius = positiveFinite(descriptor.radius, "sphere radius");
                const c = finiteVector3(descriptor.center, "sphere center");
                this._center.set(c);
                this._radius = radius;
                b.set([c[0] - radius, c[1] - radius, c[2] - radius, c[0] + radius, c[1] + radius, c[2] + radius]);
                break;
            }
            case "box": {
                this.kind = ColliderShapeKind.Box;
                const h = finiteVector3(descriptor.halfExtents, "box half extents");
                if (!(h[0] > 0 && h[1] > 0 && h[2] > 0)) {
                    throw new Error(`box half extents must be positive, got ${h.join(", ")}`);
                }
                this._a.set(h);
                this.twoSided = Math.min(h[0], h[1], h[2]) < THIN_BOX_HALF_EXTENT;
                this._center.set(finiteVector3(descriptor.center, "box center"));
                matrixFromQuaternion(descriptor.rotation ?? [0, 0, 0, 1], this._rotation);
                const r = this._rotation;
                for (let axis = 0; axis < 3; axis++) {
                    const extent = Math.abs(r[axis * 3]) * h[0] + Math.abs(r[axis * 3 + 1]) * h[1] + Math.abs(r[axis * 3 + 2]) * h[2];
                    b[axis] = this._center[axis] - extent;
                    b[axis + 3] = this._center[axis] + extent;
                }
                break;
            }
            case "capsule":
            case "cylinder": {
                this.kind = descriptor.kind === "capsule" ? ColliderShapeKind.Capsule : ColliderShapeKind.Cylinder;
                const radius = positiveFinite(descriptor.radius, `${descriptor.kind} radius`);
                const pa = finiteVector3(descriptor.pointA, `${descriptor.kind} pointA`);
                const pb = finiteVector3(descriptor.pointB, `${descriptor.kind} pointB`);
                if (this.kind === ColliderShapeKind.Cylinder && !(Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]) > 0)) {
                    throw new Error("cylinder pointA and pointB must differ");
                }
                this._a.set(pa);
                this._b.set(pb);
                this._radius = radius;
                for (let axis = 0; axis < 3; axis++) {
                    b[axis] = Math.min(pa[axis], pb[axis]) - radius;
                    b[axis + 3] = Math.max(pa[axis], pb[axis]) + radius;
                }
                break;
            }
            case "convexHull": {
                this.kind = ColliderShapeKind.ConvexHull;
                this._planes = convexPlanes(descriptor.positions, descriptor.indices);
                pointBounds(descriptor.positions, b);
                break;
            }
            case "mesh": {
                this.kind = ColliderShapeKind.Mesh;
                this._mesh = new TriangleMeshShape(descriptor.positions, descriptor.indices);
                this.twoSided = !this._mesh.closed;
                pointBounds(descriptor.positions, b);
                break;
            }
            default:
                throw new Error(`unknown collider shape kind ${(descriptor as { kind: string }).kind}`);
        }
        this.swept = this.kind !== ColliderShapeKind.Plane && !this.twoSided;
    }

    /**
     * Writes the parameters of an analytic shape (plane, sphere, box, capsule, cylinder) into `out[0..18]`, for
     * solvers that evaluate {@link query} elsewhere (the WebGPU backend): `a` (plane normal, box half extents or
     * segment point A) in 0–2, segment point B in 3–5, radius or plane offset in 6, box centre or sphere centre in
     * 7–9, box rotation (row-major, box → collider) in 10–18. Meaningless for convex hulls and meshes.
     */
    public writeParameters(out: Float64Array): void {
        out.set(this._a, 0);
        out.set(this._b, 3);
        out[6] = this._radius;
        out.set(this._center, 7);
        out.set(this._rotation, 10);
    }

    /**
     * A convex hull's outward face planes (nx, ny, nz, offset per plane, collider frame) as {@link query} tests
     * them, for solvers that evaluate it elsewhere (the WebGPU backend); empty for other kinds. Read only.
     */
    public get hullPlanes(): Float64Array {
        return this._planes;
    }

    /** A mesh shape's triangles and grid, for solvers that evaluate {@link query} elsewhere; null for other kinds. */
    public get triangleMesh(): TriangleMeshShape | null {
        return this._mesh;
    }

    /**
     * For the point `point[0..2]` (collider frame): the outward unit normal at the closest feature into `out[0..2]`
     * and the signed distance to the surface (negative inside) into `out[3]`. `point[3]` bounds the search for
     * meshes: points farther than that from a mesh report `Infinity`. Inputs and outputs go through arrays so the
     * solver's loop never boxes a number.
     */
    public query(point: Float64Array, out: Float64Array): void {
        switch (this.kind) {
            case ColliderShapeKind.Plane: {
                const a = this._a;
                out[0] = a[0];
                out[1] = a[1];
                out[2] = a[2];
                out[3] = a[0] * point[0] + a[1] * point[1] + a[2] * point[2] - this._radius;
                return;
            }
            case ColliderShapeKind.Sphere:
                this._offset[0] = point[0] - this._center[0];
                this._offset[1] = point[1] - this._center[1];
                this._offset[2] = point[2] - this._center[2];
                this._sphereDistance(this._offset, out);
                return;
            case ColliderShapeKind.Box:
                this._boxDistance(point, out);
                return;
            case ColliderShapeKind.Capsule:
                this._capsuleDistance(point, out);
                return;
            case ColliderShapeKind.Cylinder:
                this._cylinderDistance(point, out);
                return;
            case ColliderShapeKind.ConvexHull:
                this._convexDistance(point, out);
                return;
            default:
                (this._mesh as TriangleMeshShape).query(point, out);
        }
    }

    /** Distance to a sphere of this shape's radius at the origin from the offset `d`: normal into `out[0..2]`, distance into `out[3]`. */
    private _sphereDistance(d: Float64Array, out: Float64Array): void {
        const dx = d[0];
        const dy = d[1];
        const dz = d[2];
        const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (length > 1e-12) {
            out[0] = dx / length;
            out[1] = dy / length;
            out[2] = dz / length;
        } else {
            // At the exact centre every direction is out; up is as good as any and deterministic.
            out[0] = 0;
            out[1] = 1;
            out[2] = 0;
        }
        out[3] = length - this._radius;
    }

    private _boxDistance(point: Float64Array, out: Float64Array): void {
        const px = point[0];
        const py = point[1];
        const pz = point[2];
        const r = this._rotation;
        const c = this._center;
        const h = this._a;
        const dx = px - c[0];
        const dy = py - c[1];
        const dz = pz - c[2];
        // Into the box frame (transpose of box → collider).
        const lx = r[0] * dx + r[3] * dy + r[6] * dz;
        const ly = r[1] * dx + r[4] * dy + r[7] * dz;
        const lz = r[2] * dx + r[5] * dy + r[8] * dz;
        const qx = Math.abs(lx) - h[0];
        const qy = Math.abs(ly) - h[1];
        const qz = Math.abs(lz) - h[2];
        let nx: number;
        let ny: number;
        let nz: number;
        let distance: number;
        if (qx > 0 || qy > 0 || qz > 0) {
            const ox = qx > 0 ? qx : 0;
            const oy = qy > 0 ? qy : 0;
            const oz = qz > 0 ? qz : 0;
            distance = Math.sqrt(ox * ox + oy * oy + oz * oz);
            nx = (lx < 0 ? -ox : ox) / distance;
            ny = (ly < 0 ? -oy : oy) / distance;
            nz = (lz < 0 ? -oz : oz) / distance;
        } else if (qx >= qy && qx >= qz) {
            distance = qx;
            nx = lx < 0 ? -1 : 1;
            ny = 0;
            nz = 0;
        } else if (qy >= qz) {
            distance = qy;
            nx = 0;
            ny = ly < 0 ? -1 : 1;
            nz = 0;
        } else {
            distance = qz;
            nx = 0;
            ny = 0;
            nz = lz < 0 ? -1 : 1;
        }
        out[0] = r[0] * nx + r[1] * ny + r[2] * nz;
        out[1] = r[3] * nx + r[4] * ny + r[5] * nz;
        out[2] = r[6] * nx + r[7] * ny + r[8] * nz;
        out[3] = distance;
    }

    private _capsuleDistance(point: Float64Array, out: Float64Array): void {
        const px = point[0];
        const py = point[1];
        const pz = point[2];
        const a = this._a;
        const b = this._b;
        const abx = b[0] - a[0];
        const aby = b[1] - a[1];
        const abz = b[2] - a[2];
        const length2 = abx * abx + aby * aby + abz * abz;
        let t = length2 > 0 ? ((px - a[0]) * abx + (py - a[1]) * aby + (pz - a[2]) * abz) / length2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const offset = this._offset;
        offset[0] = px - (a[0] + abx * t);
        offset[1] = py - (a[1] + aby * t);
        offset[2] = pz - (a[2] + abz * t);
        this._sphereDistance(offset, out);
    }

    private _cylinderDistance(point: Float64Array, out: Float64Array): void {
        const px = point[0];
        const py = point[1];
        const pz = point[2];
        const a = this._a;
        const b = this._b;
        let ux = b[0] - a[0];
        let uy = b[1] - a[1];
        let uz = b[2] - a[2];
        const length = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= length;
        uy /= length;
        uz /= length;
        const rx0 = px - a[0];
        const ry0 = py - a[1];
        const rz0 = pz - a[2];
        const along = rx0 * ux + ry0 * uy + rz0 * uz;
        const axial = along - length / 2;
        let rx = rx0 - along * ux;
        let ry = ry0 - along * uy;
        let rz = rz0 - along * uz;
        const radial = Math.sqrt(rx * rx + ry * ry + rz * rz);
        if (radial > 1e-12) {
            rx /= radial;
            ry /= radial;
            rz /= radial;
        } else {
            // On the axis: any radial direction will do; pick one perpendicular to the axis.
            const ax = Math.abs(ux) < 0.9 ? 1 : 0;
            const ay = ax === 1 ? 0 : 1;
            rx = -uz * ay;
            ry = uz * ax;
            rz = ux * ay - uy * ax;
            const l = Math.sqrt(rx * rx + ry * ry + rz * rz);
            rx /= l;
            ry /= l;
            rz /= l;
        }
        const sign = axial < 0 ? -1 : 1;
        const dr = radial - this._radius;
        const da = Math.abs(axial) - length / 2;
        if (dr > 0 && da > 0) {
            const distance = Math.sqrt(dr * dr + da * da);
            out[0] = (dr * rx + da * sign * ux) / distance;
            out[1] = (dr * ry + da * sign * uy) / distance;
            out[2] = (dr * rz + da * sign * uz) / distance;
            out[3] = distance;
            return;
        }
        if (dr >= da) {
            out[0] = rx;
            out[1] = ry;
            out[2] = rz;
            out[3] = dr;
            return;
        }
        out[0] = sign * ux;
        out[1] = sign * uy;
        out[2] = sign * uz;
        out[3] = da;
    }

    private _convexDistance(point: Float64Array, out: Float64Array): void {
        const px = point[0];
        const py = point[1];
        const pz = point[2];
        const planes = this._planes;
        let best = -Infinity;
        let bestPlane = 0;
        for (let k = 0; k < planes.length; k += 4) {
            const d = planes[k] * px + planes[k + 1] * py + planes[k + 2] * pz - planes[k + 3];
            if (d > best) {
                best = d;
                bestPlane = k;
            }
        }
        out[0] = planes[bestPlane];
        out[1] = planes[bestPlane + 1];
        out[2] = planes[bestPlane + 2];
        out[3] = best;
    }
}
