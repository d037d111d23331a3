/**
 * Validation of what a {@link SoftBody} is built from: the descriptor's positions and index lists, and the options
 * once their defaults are filled in. Each check throws naming the offending element or option.
 */
import { booleanValue, finiteNonNegative, mask32, positiveInteger, ratioAboveOne, strainLimitValue } from "./argumentChecks.js";
import type { SoftBodyOptions } from "./softBodyOptions.js";

/** The positions as a new array; throws when empty, not triples, or not finite. */
export function readPositions(source: ArrayLike<number>): Float64Array {
    if (!source || source.length === 0) {
        throw new Error("a soft body needs at least one particle (positions is empty)");
    }
    if (source.length % 3 !== 0) {
        throw new Error(`positions must hold xyz triples, got ${source.length} numbers`);
    }
    const positions = new Float64Array(source.length);
    for (let k = 0; k < source.length; k++) {
        const value = source[k];
        if (!Number.isFinite(value)) {
            throw new Error(`particle ${Math.floor(k / 3)} has a non-finite coordinate (${value})`);
        }
        positions[k] = value;
    }
    return positions;
}

/** Index groups of `arity` particles as a new array (empty when absent); throws on a bad count, an index out of range or a repeat. */
export function readIndices(source: ArrayLike<number> | undefined, arity: number, particleCount: number, name: string): Int32Array {
    if (!source) {
        return new Int32Array(0);
    }
    if (source.length % arity !== 0) {
        throw new Error(`${name} indices must come in groups of ${arity}, got ${source.length}`);
    }
    const indices = new Int32Array(source.length);
    for (let k = 0; k < source.length; k++) {
        const index = source[k];
        if (!Number.isInteger(index) || index < 0 || index >= particleCount) {
            throw new Error(`${name} ${Math.floor(k / arity)} has index ${index} out of range [0, ${particleCount})`);
        }
        indices[k] = index;
    }
    for (let e = 0; e < indices.length; e += arity) {
        for (let a = 0; a < arity; a++) {
            for (let b = a + 1; b < arity; b++) {
                if (indices[e + a] === indices[e + b]) {
                    throw new Error(`${name} ${e / arity} uses particle ${indices[e + a]} twice`);
                }
            }
        }
    }
    return indices;
}

/** Checks the options with their defaults filled in; throws a RangeError naming the option. */
export function validateSoftBodyOptions(
    o: Required<Omit<SoftBodyOptions, "defaultsVersion" | "tearRatio" | "maxTearParticles" | "shapeMatchingCompliance" | "pressure">> &
        SoftBodyOptions,
): void {
    const nonNegative: (keyof SoftBodyOptions)[] = [
        "stretchCompliance",
        "shearCompliance",
        "bendCompliance",
        "volumeCompliance",
        "damping",
        "staticFriction",
        "kineticFriction",
        "restitution",
        "thickness",
        "sleepVelocity",
        "sleepTime",
        "dragCoefficient",
        "liftCoefficient",
        "windScale",
    ];
    for (const key of nonNegative) {
        finiteNonNegative(o[key] as number, key);
    }
    booleanValue(o.allowSleep, "allowSleep");
    booleanValue(o.tethers, "tethers");
    booleanValue(o.selfCollision, "selfCollision");
    booleanValue(o.wasmKernels, "wasmKernels");
    mask32(o.membership, "membership");
    mask32(o.collideWith, "collideWith");
    if (!(o.maxContactsPerParticle >= 1) || !Number.isInteger(o.maxContactsPerParticle)) {
        throw new RangeError(`maxContactsPerParticle must be a positive integer, got ${o.maxContactsPerParticle}`);
    }
    if (o.bendModel !== "auto" && o.bendModel !== "isometric" && o.bendModel !== "dihedral") {
        throw new RangeError(`bendModel must be "auto", "isometric" or "dihedral", got ${String(o.bendModel)}`);
    }
    if (!(o.overStretchRatio > 1)) {
        throw new RangeError(`overStretchRatio must be > 1, got ${o.overStretchRatio}`);
    }
    strainLimitValue(o.strainLimit, "strainLimit");
    if (o.tearRatio !== undefined) {
        ratioAboveOne(o.tearRatio, "tearRatio");
    }
    if (o.maxTearParticles !== undefined) {
        positiveInteger(o.maxTearParticles, "maxTearParticles");
    }
    if (o.shapeMatchingCompliance !== undefined) {
        finiteNonNegative(o.shapeMatchingCompliance, "shapeMatchingCompliance");
        if (o.tearRatio !== undefined && o.tearRatio !== Infinity) {
            throw new RangeError("shapeMatchingCompliance and tearRatio cannot be combined: a torn cloth has no one rest shape");
        }
    }
    if (o.pressure !== undefined) {
        if (!(Number.isFinite(o.pressure) && o.pressure >= 0)) {
            throw new RangeError(`pressure must be a finite gas pressure in pascals, 0 or more, got ${o.pressure}`);
        }
        if (o.tearRatio !== undefined && o.tearRatio !== Infinity) {
            throw new RangeError("pressure and tearRatio cannot be combined: a torn cloth holds no gas");
        }
    }
}
