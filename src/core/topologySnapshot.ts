/**
 * The part of a snapshot that only a cloth that may tear has: its topology as tearing left it. A tear splits
 * particles (the count grows up to the body's capacity), moves triangle corners to the new particles, shares out
 * masses and rebuilds the constraint lists; restoring a state saved before or after a tear needs all of it back.
 */
import { XpbdDataError } from "./snapshotError.js";
import type { SoftBody } from "./softBody.js";

/** A tearing body's topology in an {@link XpbdBodySnapshot}; `n` is the snapshot's particle count. */
export interface XpbdTopologySnapshot {
    /** Triangle particle indices (three per triangle; as many triangles as the body has). */
    triangles: Int32Array;
    /** Rest positions (3n, m). */
    restPositions: Float64Array;
    /** Particle masses (n, kg). */
    masses: Float64Array;
    /** Stretch constraints: particle pairs, in the order they are solved. */
    stretch: Int32Array;
    /** Shear constraints: particle pairs, in the order they are solved. */
    shear: Int32Array;
    /** Bend elements: four particles each, in the order they are solved. */
    bend: Int32Array;
    /** Per particle, 1 when it lies on a tear, else 0 (n). */
    torn: Uint8Array;
    /** Particles made by tearing so far. */
    tornParticles: number;
    /** Whether the body had run out of particles to tear with. */
    exhausted: boolean;
}

/** The topology of `body` now, or null when it does not tear. */
export function captureTopology(body: SoftBody): XpbdTopologySnapshot | null {
    const tearing = body.tearing;
    if (tearing === null) {
        return null;
    }
    const n = body.particleCount;
    return {
        triangles: body.triangles.slice(),
        restPositions: body.restPositions.slice(0, 3 * n),
        masses: body.masses.slice(0, n),
        stretch: body.stretch.indices.slice(0, 2 * body.stretch.count),
        shear: body.shear.indices.slice(0, 2 * body.shear.count),
        bend: body.bend.indices.slice(0, 4 * body.bend.count),
        torn: Uint8Array.from(tearing.torn.subarray(0, n)),
        tornParticles: tearing.tornParticles,
        exhausted: tearing.exhausted,
    };
}

/**
 * Checks a topology on its own (types, lengths, indices below `n`, finite rest positions within `bound`, positive
 * masses); throws an {@link XpbdDataError} naming the first problem.
 */
export function validateTopology(topology: XpbdTopologySnapshot, n: number, bound: number, name: string): void {
    if (typeof topology !== "object" || topology === null) {
        throw new XpbdDataError("malformed", `${name} topology must be an object or null`);
    }
    indices(topology.triangles, 3, n, `${name} triangles`);
    indices(topology.stretch, 2, n, `${name} stretch`);
    indices(topology.shear, 2, n, `${name} shear`);
    indices(topology.bend, 4, n, `${name} bend`);
    numbers(topology.restPositions, 3 * n, bound, 0, `${name} restPositions`);
    numbers(topology.masses, n, Infinity, Number.MIN_VALUE, `${name} masses`);
    if (!(topology.torn instanceof Uint8Array) || topology.torn.length !== n || topology.torn.some((flag) => flag > 1)) {
        throw new XpbdDataError("malformed", `${name} torn must be a Uint8Array of ${n} flags (0 or 1)`);
    }
    const made = topology.tornParticles;
    if (!Number.isInteger(made) || made < 0 || made >= n) {
        throw new XpbdDataError("invalid", `${name} tornParticles is ${String(made)}; it must be an integer from 0 to ${n - 1}`);
    }
    if (typeof topology.exhausted !== "boolean") {
        throw new XpbdDataError("malformed", `${name} exhausted must be a boolean`);
    }
}

/**
 * Throws a `"mismatch"` {@link XpbdDataError} unless a state of `n` particles with `topology` fits `body`: a body that
 * tears takes a topology built from its own particles (as many before any tear) within its capacities; one that does
 * not takes none.
 */
export function checkTopologyFits(
    topology: XpbdTopologySnapshot | null,
    n: number,
    body: SoftBody,
    stateName: string,
    bodyName: string,
): void {
    const tearing = body.tearing;
    if (tearing === null || topology === null) {
        if (tearing !== topology) {
            throw new XpbdDataError(
                "mismatch",
                tearing === null
                    ? `${stateName} was saved from a cloth that tears, ${bodyName} does not tear`
                    : `${stateName} was saved from a body that does not tear, ${bodyName} tears`,
            );
        }
        if (n !== body.particleCount) {
            throw new XpbdDataError("mismatch", `${stateName} has ${n} particles, ${bodyName} has ${body.particleCount}`);
        }
        return;
    }
    const built = body.particleCount - tearing.tornParticles;
    if (n - topology.tornParticles !== built || n > body.particleCapacity) {
        throw new XpbdDataError(
            "mismatch",
            `${stateName} has ${n} particles, ${topology.tornParticles} of them made by tearing; ${bodyName} was built with ${built} and can tear up to ${body.particleCapacity}`,
        );
    }
    if (topology.triangles.length !== body.triangles.length) {
        throw new XpbdDataError(
            "mismatch",
            `${stateName} has ${topology.triangles.length / 3} triangles, ${bodyName} has ${body.triangles.length / 3}`,
        );
    }
    for (const [kind, saved, room] of [
        ["stretch", topology.stretch, body.stretch.indices],
        ["shear", topology.shear, body.shear.indices],
        ["bend", topology.bend, body.bend.indices],
    ] as const) {
        if (saved.length > room.length) {
            throw new XpbdDataError("mismatch", `${stateName} has more ${kind} constraints than ${bodyName} has room for`);
        }
    }
}

/** Writes a topology that fits (see {@link checkTopologyFits}) into the body, and rebuilds what follows from it. */
export function restoreTopology(body: SoftBody, n: number, topology: XpbdTopologySnapshot): void {
    body.particleCount = n;
    body.triangles.set(topology.triangles);
    body.restPositions.set(topology.restPositions);
    body.masses.set(topology.masses);
    // Particles beyond the count go back to how a body is built (zeros): a torn state restored to an earlier one
    // leaves nothing of the later splits behind, and stepping on matches the original bit for bit.
    for (const array of [
        body.positions,
        body.previousPositions,
        body.velocities,
        body.restPositions,
        body.externalForces,
        body.aerodynamicForces,
        body._validPositions,
    ]) {
        array.fill(0, 3 * n);
    }
    body.pins.weights.fill(0, n);
    body.pins.targetsStart.fill(0, 3 * n);
    body.pins.targetsEnd.fill(0, 3 * n);
    body.masses.fill(0, n);
    body.inverseMasses.fill(0, n);
    body.tearing!._restore(
        body,
        topology.stretch,
        topology.shear,
        topology.bend,
        topology.torn,
        topology.tornParticles,
        topology.exhausted,
    );
}

function indices(values: unknown, arity: number, n: number, name: string): void {
    if (!(values instanceof Int32Array) || values.length % arity !== 0) {
        throw new XpbdDataError("malformed", `${name} must be an Int32Array of ${arity} indices per element`);
    }
    for (let k = 0; k < values.length; k++) {
        if (!(values[k] >= 0 && values[k] < n)) {
            throw new XpbdDataError("invalid", `${name}[${k}] is ${values[k]}; particle indices go from 0 to ${n - 1}`);
        }
    }
}

function numbers(values: unknown, length: number, bound: number, least: number, name: string): void {
    if (!(values instanceof Float64Array) || values.length !== length) {
        throw new XpbdDataError("malformed", `${name} must be a Float64Array of ${length} numbers`);
    }
    for (let k = 0; k < length; k++) {
        const x = values[k];
        if (!(x >= -bound && x <= bound && x - x === 0) || (least > 0 && !(x >= least))) {
            throw new XpbdDataError(
                "invalid",
                `${name}[${k}] is ${x}; it must be finite${least > 0 ? " and above 0" : ""} (no NaN enters the world)`,
            );
        }
    }
}
