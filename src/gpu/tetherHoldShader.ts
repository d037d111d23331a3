import { HELD_FRACTION, HELD_TOLERANCE } from "../core/heldContacts.js";
import { MIN_INDEPENDENT } from "../core/tetherConstraints.js";

/**
 * A particle's tethers in WGSL and the core's held test (`particleHeld`, `TetherConstraints.heldFraction`): whether
 * a particle's taut tethers hold it against a push, as firmly as the pins. Read by the particle pass (a held particle
 * gives a dynamic collider no contact) and by the held solve (`heldContactsShader.ts`), over their bindings `P`
 * (`Params`), `pos` (positions) and `tethers` (one {@link TETHER_WGSL} `Tether` per particle).
 */
export const TETHER_WGSL = /* wgsl */ `
struct Tether {
    anchors: vec4<i32>,     // anchor particle per rank, −1 past the last
    lengths: vec4<f32>,     // rest distance per rank (m)
}

/**
 * Whether the taut tethers of particle k (at x) hold it against a push along the unit vector d: the squared length
 * of d's component in the span of the tethers it would lengthen (taut within a tolerance of their limit),
 * Gram–Schmidt in rank order, reaches the held fraction.
 */
fn tetherHeld(k: u32, x: vec3<f32>, d: vec3<f32>) -> bool {
    let t = tethers[k];
    let tolerance = P.thickness * ${HELD_TOLERANCE};
    var basis: array<vec3<f32>, 4>;
    var count = 0u;
    var held = 0.0;
    for (var rank = 0u; rank < 4u; rank++) {
        let anchor = t.anchors[rank];
        if (anchor < 0) {
            break;
        }
        var u = x - pos[anchor].xyz;
        let reach = sqrt(dot(u, u));
        if (reach < t.lengths[rank] * P.tetherSlack - tolerance || dot(u, d) <= 0.0) {
            continue;
        }
        for (var b = 0u; b < count; b++) {
            u = u - dot(u, basis[b]) * basis[b];
        }
        let size = sqrt(dot(u, u));
        if (size < ${MIN_INDEPENDENT} * reach) {
            continue;
        }
        basis[count] = u / size;
        let along = dot(basis[count], d);
        held += along * along;
        count++;
    }
    return min(held, 1.0) >= ${HELD_FRACTION};
}
`;
