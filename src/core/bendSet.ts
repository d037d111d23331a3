/**
 * The two bending models behind one type: which one a body gets (`"auto"` picks by the rest shape), and what
 * the measuring and the Inspector read of either.
 */
import { BendConstraints } from "./bendConstraints.js";
import { ISOMETRIC_BEND_MAX_REST_ANGLE, IsometricBendConstraints } from "./isometricBendConstraints.js";
import type { KernelMemory } from "./kernelMemory.js";

/** Bending models of {@link SoftBodyOptions.bendModel}. */
export type BendModel = "auto" | "isometric" | "dihedral";

/** Bend elements of either model: what the measuring and the Inspector read of them. */
export type BendSet = BendConstraints | IsometricBendConstraints;

/**
 * The bend set of the chosen model, with room for `capacity` elements; `"auto"` takes the isometric one when every
 * element is flat at rest. An isometric set keeps its lists in `memory` when one is given (the dihedral model has
 * no kernel).
 */
export function createBendSet(
    model: BendModel,
    indices: Int32Array,
    positions: Float64Array,
    compliance: number,
    capacity: number,
    memory: KernelMemory | null = null,
): BendSet {
    if (model === "dihedral") {
        return new BendConstraints(indices, positions, compliance, capacity);
    }
    if (model === "isometric") {
        return new IsometricBendConstraints(indices, positions, compliance, capacity, memory);
    }
    // "auto": the dihedral set measures the rest angles (and reports degenerate triangles).
    const dihedral = new BendConstraints(indices, positions, compliance, capacity);
    for (let e = 0; e < dihedral.count; e++) {
        if (Math.abs(dihedral.restAngles[e]) > ISOMETRIC_BEND_MAX_REST_ANGLE) {
            return dihedral;
        }
    }
    return new IsometricBendConstraints(indices, positions, compliance, capacity, memory);
}
