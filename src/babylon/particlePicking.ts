/** `XpbdPlugin.pickParticle`: the particle under a ray (the pointer's), for dragging with `SoftImpostor.grab`. */
import type { Ray } from "@babylonjs/core/Culling/ray";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Nullable } from "@babylonjs/core/types";
import { rayHitsBody } from "../core/index.js";
import type { SoftImpostor } from "./softImpostor.js";

/** What `XpbdPlugin.pickParticle` found. */
export interface XpbdParticlePick {
    /** The impostor hit first along the ray. */
    impostor: SoftImpostor;
    /** The particle to drag: the corner of the triangle hit nearest to the hit point among those it can grab. */
    particle: number;
    /** Distance from the ray's origin to the hit point (m). */
    distance: number;
    /** Where the ray meets the impostor's surface (world, m). */
    point: Vector3;
}

/**
 * The first impostor surface along `ray` (within `ray.length`) and, on the triangle hit, the corner nearest to the
 * hit point that {@link SoftImpostor.grab} accepts (pin weight below 1, not moved by a `pinTo` target); null when the
 * ray meets no impostor, or the triangle it meets has no such corner.
 */
export function pickParticle(impostors: readonly SoftImpostor[], ray: Ray): Nullable<XpbdParticlePick> {
    const origin = [ray.origin.x, ray.origin.y, ray.origin.z];
    const direction = [ray.direction.x, ray.direction.y, ray.direction.z];
    const hit = new Float64Array(2);
    let best: Nullable<SoftImpostor> = null;
    let bestDistance = ray.length;
    let bestTriangle = -1;
    for (const impostor of impostors) {
        if (!impostor.isDisposed && rayHitsBody(impostor.body, origin, direction, bestDistance, hit)) {
            best = impostor;
            bestDistance = hit[0];
            bestTriangle = hit[1];
        }
    }
    if (best === null) {
        return null;
    }
    const unit = ray.direction.normalizeToNew();
    const point = ray.origin.add(unit.scale(bestDistance));
    const body = best.body;
    let particle = -1;
    let nearest = Infinity;
    for (let k = 0; k < 3; k++) {
        const p = body.triangles[3 * bestTriangle + k];
        if (body.pins.weights[p] >= 1 || best.isPinDriven(p)) {
            continue;
        }
        const d = Vector3.DistanceSquared(point, new Vector3(body.positions[3 * p], body.positions[3 * p + 1], body.positions[3 * p + 2]));
        if (d < nearest) {
            nearest = d;
            particle = p;
        }
    }
    return particle < 0 ? null : { impostor: best, particle, distance: bestDistance, point };
}
