import type { Collider } from "../../../src/core/collider";

/**
 * The signed distance of world point `x[offset..offset+2]` to `collider`'s first shape, as the solve measures it
 * (`ParticleContacts._query3`: into the collider frame with the transposed rotation; a mesh's within 4 cm, the reach
 * of the default 1 cm thickness).
 */
export function shapeDistance(collider: Collider, x: ArrayLike<number>, offset: number): number {
    const m = collider._matrix;
    const d = [x[offset] - collider.position[0], x[offset + 1] - collider.position[1], x[offset + 2] - collider.position[2]];
    const local = new Float64Array([
        m[0] * d[0] + m[3] * d[1] + m[6] * d[2],
        m[1] * d[0] + m[4] * d[1] + m[7] * d[2],
        m[2] * d[0] + m[5] * d[1] + m[8] * d[2],
        0.04,
    ]);
    const out = new Float64Array(4);
    collider.shapes[0].query(local, out);
    return out[3];
}
