/**
 * Small vector and quaternion maths on plain tuples and on scalars, shared by every layer: the tuple forms for
 * build-time geometry (reading Havok shapes), the scalar and `out`-array forms for per-step code that must not
 * allocate. Quaternions are `[x, y, z, w]`, unit length unless noted.
 */
import type { QuaternionTuple, Vector3Tuple } from "./colliderShapeDescriptor.js";

/** A mutable 3-vector. */
export type Vec3 = [number, number, number];
/** A mutable quaternion `[x, y, z, w]`. */
export type Quat = [number, number, number, number];

/** a + b. */
export const add = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
/** a − b. */
export const sub = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
/** The component-wise product of a and b. */
export const mul = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [a[0] * b[0], a[1] * b[1], a[2] * b[2]];
/** a · s. */
export const scale = (a: Vector3Tuple, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
/** The midpoint of a and b. */
export const mid = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => scale(add(a, b), 0.5);
/** a · b. */
export const dot = (a: Vector3Tuple, b: Vector3Tuple): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** a × b. */
export const cross = (a: Vector3Tuple, b: Vector3Tuple): Vec3 => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
];
/** |a|. */
export const length = (a: Vector3Tuple): number => Math.hypot(a[0], a[1], a[2]);
/** a / |a| (NaN for the zero vector). */
export const normalize = (a: Vector3Tuple): Vec3 => scale(a, 1 / length(a));
/** The first three entries of an array as a new vector. */
export const vec3 = (v: ArrayLike<number>): Vec3 => [v[0], v[1], v[2]];
/** The first four entries of an array as a new quaternion. */
export const quat = (q: ArrayLike<number>): Quat => [q[0], q[1], q[2], q[3]];
/** The inverse of a unit quaternion. */
export const conjugate = (q: QuaternionTuple): Quat => [-q[0], -q[1], -q[2], q[3]];

/** The product a·b (b's rotation first, then a's). */
export function quatMul(a: QuaternionTuple, b: QuaternionTuple): Quat {
    return [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ];
}

/** v rotated by q. */
export function rotate(q: QuaternionTuple, v: Vector3Tuple): Vec3 {
    return [
        rotateX(q[0], q[1], q[2], q[3], v[0], v[1], v[2]),
        rotateY(q[0], q[1], q[2], q[3], v[0], v[1], v[2]),
        rotateZ(q[0], q[1], q[2], q[3], v[0], v[1], v[2]),
    ];
}

// The three components of (x, y, z) rotated by (qx, qy, qz, qw): v + w·t + u × t with t = 2 u × v, one function per
// component so that per-step code gets numbers back without an array.

/** The x component of (x, y, z) rotated by the unit quaternion (qx, qy, qz, qw). */
export function rotateX(qx: number, qy: number, qz: number, qw: number, x: number, y: number, z: number): number {
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    return x + qw * tx + (qy * tz - qz * ty);
}

/** The y component of (x, y, z) rotated by the unit quaternion (qx, qy, qz, qw). */
export function rotateY(qx: number, qy: number, qz: number, qw: number, x: number, y: number, z: number): number {
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    return y + qw * ty + (qz * tx - qx * tz);
}

/** The z component of (x, y, z) rotated by the unit quaternion (qx, qy, qz, qw). */
export function rotateZ(qx: number, qy: number, qz: number, qw: number, x: number, y: number, z: number): number {
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    return z + qw * tz + (qx * ty - qy * tx);
}

/** Row-major rotation matrix of a quaternion `[x, y, z, w]` (normalised first) into `out` (9 numbers). */
export function matrixFromQuaternion(q: ArrayLike<number>, out: Float64Array): void {
    const norm = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    const x = q[0] / norm;
    const y = q[1] / norm;
    const z = q[2] / norm;
    const w = q[3] / norm;
    out[0] = 1 - 2 * (y * y + z * z);
    out[1] = 2 * (x * y - z * w);
    out[2] = 2 * (x * z + y * w);
    out[3] = 2 * (x * y + z * w);
    out[4] = 1 - 2 * (x * x + z * z);
    out[5] = 2 * (y * z - x * w);
    out[6] = 2 * (x * z - y * w);
    out[7] = 2 * (y * z + x * w);
    out[8] = 1 - 2 * (x * x + y * y);
}

/** The rotation whose matrix has the orthonormal columns x, y, z (Shepperd's method: the best-conditioned branch). */
export function quatFromAxes([x, y, z]: readonly [Vector3Tuple, Vector3Tuple, Vector3Tuple]): Quat {
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
export function quatFromUnitVectors(from: Vector3Tuple, to: Vector3Tuple): Quat {
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
