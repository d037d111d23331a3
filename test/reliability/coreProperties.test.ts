/**
 * Properties of the core solver over random valid input, checked with fast-check (fixed seeds, so a failure
 * reproduces; a shrunk counterexample is printed and becomes a regular test):
 * - every position stays finite and the core never needs to contain an invalid state, whatever the body (a cloth of
 *   irregular, holed triangles or a tetrahedralised box) and the sequence of operations (steps, pins, impulses,
 *   colliders, stiffness and other options, removing the body from the world and adding it back);
 * - a free body (no pins, no colliders, no air, rigid constraints) gains no energy after its last input;
 * - without gravity or any other outside force, a free body's momentum stays what the inputs made it.
 */
import fc from "fast-check";
import { Collider } from "../../src/core/collider";
import { SoftBodyEventType } from "../../src/core/eventQueue";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";
import { complianceFromStiffness } from "../../src/core/stiffness";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { buildClothTopology } from "../../src/meshing/clothTopology";
import { tetEdges } from "../../src/meshing/tetEdges";
import { tetrahedralize } from "../../src/meshing/tetrahedralize";
import { boxMesh } from "../support/coreScenes";

/** A random valid cloth, over the ranges users reach with the public options (sizes and masses log-uniform). */
const clothArbitrary = fc.record({
    segments: fc.integer({ min: 1, max: 10 }),
    size: fc.double({ min: -1, max: 2, noNaN: true }).map((e) => 10 ** e),
    mass: fc.double({ min: -3, max: 1, noNaN: true }).map((e) => 10 ** e),
    stretch: fc.double({ min: 0, max: 1, noNaN: true }),
    shear: fc.double({ min: 0, max: 1, noNaN: true }),
    bend: fc.double({ min: 0, max: 1, noNaN: true }),
    damping: fc.double({ min: 0, max: 1, noNaN: true }),
    friction: fc.double({ min: 0, max: 1, noNaN: true }),
    thickness: fc.double({ min: 0.001, max: 0.011, noNaN: true }),
    alternateDiagonals: fc.boolean(),
    /** In-plane jitter of the vertices, as a fraction of a cell, and a seed for which triangles are left out. */
    jitter: fc.double({ min: 0, max: 0.4, noNaN: true }),
    holes: fc.integer({ min: 0, max: 3 }),
});
type ClothSpec = typeof clothArbitrary extends fc.Arbitrary<infer T> ? T : never;

function buildCloth(spec: ClothSpec, air: boolean): SoftBody {
    const grid = createClothGrid({
        width: spec.size,
        height: spec.size,
        segmentsX: spec.segments,
        segmentsY: spec.segments,
        plane: "xz",
        origin: [0, spec.size, 0],
        alternateDiagonals: spec.alternateDiagonals,
    });
    // A less regular mesh: vertices moved within their cells, and every (holes + 2)-th triangle left out when holes > 0
    // (at least one triangle stays).
    const cell = spec.size / spec.segments;
    const positions = Float64Array.from(grid.topology.positions);
    for (let v = 0; v < positions.length / 3; v++) {
        positions[3 * v] += spec.jitter * cell * Math.sin(12.9898 * v);
        positions[3 * v + 2] += spec.jitter * cell * Math.cos(78.233 * v);
    }
    const triangles = Array.from(grid.topology.triangles);
    const kept =
        spec.holes === 0 || triangles.length === 3 ? triangles : triangles.filter((_, k) => Math.floor(k / 3) % (spec.holes + 2) !== 1);
    const t = buildClothTopology(positions, kept);
    return new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: spec.mass },
        bodyOptions(spec, air),
    );
}

/** A random tetrahedralised box: the soft-body side of the same properties. */
const jellyArbitrary = fc.record({
    // 0.1–10 m, no side under half of the longest (thinner boxes need more lattice cells than this keeps cheap).
    scale: fc.double({ min: -1, max: 1, noNaN: true }).map((e) => 10 ** e),
    aspect: fc.tuple(fc.double({ min: 0.5, max: 1, noNaN: true }), fc.double({ min: 0.5, max: 1, noNaN: true })),
    resolution: fc.integer({ min: 2, max: 4 }),
    mass: fc.double({ min: -3, max: 1, noNaN: true }).map((e) => 10 ** e),
    volume: fc.double({ min: 0, max: 1, noNaN: true }),
    stretch: fc.double({ min: 0, max: 1, noNaN: true }),
    damping: fc.double({ min: 0, max: 1, noNaN: true }),
    friction: fc.double({ min: 0, max: 1, noNaN: true }),
    thickness: fc.double({ min: 0.001, max: 0.011, noNaN: true }),
});

function buildJelly(spec: typeof jellyArbitrary extends fc.Arbitrary<infer T> ? T : never): SoftBody {
    const size: [number, number, number] = [spec.scale, spec.scale * spec.aspect[0], spec.scale * spec.aspect[1]];
    const largest = spec.scale;
    const box = boxMesh(size, [0, largest, 0]);
    const tets = tetrahedralize(box.positions, box.indices, { resolution: spec.resolution });
    return new SoftBody(
        {
            positions: tets.positions,
            tets: tets.tets,
            stretch: tetEdges(tets.tets, tets.positions.length / 3),
            triangles: tets.surfaceTriangles,
            mass: spec.mass,
        },
        {
            stretchCompliance: complianceFromStiffness(spec.stretch, "distance"),
            volumeCompliance: complianceFromStiffness(spec.volume, "volume"),
            damping: spec.damping,
            staticFriction: spec.friction,
            kineticFriction: spec.friction,
            thickness: spec.thickness * largest,
            allowSleep: false,
        },
    );
}

function bodyOptions(spec: ClothSpec, air: boolean): SoftBodyOptions {
    return {
        stretchCompliance: complianceFromStiffness(spec.stretch, "distance"),
        shearCompliance: complianceFromStiffness(spec.shear, "distance"),
        bendCompliance: complianceFromStiffness(spec.bend, "bend"),
        damping: spec.damping,
        staticFriction: spec.friction,
        kineticFriction: spec.friction,
        thickness: spec.thickness * spec.size,
        allowSleep: false,
        ...(air ? {} : { dragCoefficient: 0, liftCoefficient: 0 }),
    };
}

/** Operations a host applies between steps; particle indices and points are fractions mapped onto the body. */
const operationArbitrary = fc.oneof(
    fc.record({ kind: fc.constant("step" as const), steps: fc.integer({ min: 1, max: 30 }) }),
    fc.record({
        kind: fc.constant("pin" as const),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        // The extremes of the valid range on purpose: the smallest weight once made the pin compliance infinite.
        weight: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(Number.MIN_VALUE, 1e-300, 1 - Number.EPSILON / 2, 1)),
    }),
    fc.record({ kind: fc.constant("unpin" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({
        kind: fc.constant("impulse" as const),
        j: fc.tuple(
            fc.double({ min: -5, max: 5, noNaN: true }),
            fc.double({ min: -5, max: 5, noNaN: true }),
            fc.double({ min: -5, max: 5, noNaN: true }),
        ),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc.record({ kind: fc.constant("collider" as const), shape: fc.constantFrom("sphere", "box", "plane") }),
    fc.record({ kind: fc.constant("removeCollider" as const) }),
    fc.record({
        kind: fc.constant("stiffness" as const),
        stretch: fc.double({ min: 0, max: 1, noNaN: true }),
        bend: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc.record({
        kind: fc.constant("options" as const),
        damping: fc.double({ min: 0, max: 1, noNaN: true }),
        friction: fc.double({ min: 0, max: 1, noNaN: true }),
        thickness: fc.double({ min: 0.001, max: 0.011, noNaN: true }),
        drag: fc.double({ min: 0, max: 2, noNaN: true }),
    }),
    fc.record({ kind: fc.constant("removeBody" as const) }),
    fc.record({ kind: fc.constant("addBody" as const) }),
);
type Operation = typeof operationArbitrary extends fc.Arbitrary<infer T> ? T : never;

function particleAt(body: SoftBody, at: number): number {
    return Math.min(body.particleCount - 1, Math.floor(at * body.particleCount));
}

function invalidStates(world: XpbdWorld): number {
    let count = 0;
    for (let e = 0; e < world.events.count; e++) {
        count += world.events.types[e] === SoftBodyEventType.InvalidState ? 1 : 0;
    }
    return count;
}

/** Kinetic plus gravitational potential energy (J), with g along −y. */
function energy(body: SoftBody, g: number): number {
    let e = 0;
    const x = body.positions;
    const v = body.velocities;
    for (let p = 0; p < body.particleCount; p++) {
        const m = body.masses[p];
        e += m * (0.5 * (v[3 * p] ** 2 + v[3 * p + 1] ** 2 + v[3 * p + 2] ** 2) + g * x[3 * p + 1]);
    }
    return e;
}

function momentum(body: SoftBody): [number, number, number] {
    const out: [number, number, number] = [0, 0, 0];
    for (let p = 0; p < body.particleCount; p++) {
        for (let k = 0; k < 3; k++) {
            out[k] += body.masses[p] * body.velocities[3 * p + k];
        }
    }
    return out;
}

describe("core properties over random valid scenes and operations", () => {
    test("positions stay finite and no state ever needs containing", () => {
        fc.assert(
            fc.property(
                fc.oneof(clothArbitrary, jellyArbitrary),
                fc.array(operationArbitrary, { minLength: 1, maxLength: 12 }),
                (spec, operations: Operation[]) => {
                    const world = new XpbdWorld();
                    const body = "segments" in spec ? buildCloth(spec, true) : buildJelly(spec);
                    const scale = "segments" in spec ? spec.size : spec.scale;
                    world.addBody(body);
                    let inWorld = true;
                    const colliders: Collider[] = [];
                    for (const op of operations) {
                        switch (op.kind) {
                            case "step":
                                for (let s = 0; s < op.steps; s++) {
                                    world.step(1 / 60);
                                    if (invalidStates(world) > 0) {
                                        return false;
                                    }
                                }
                                break;
                            case "pin":
                                body.setPinWeight(particleAt(body, op.at), op.weight);
                                break;
                            case "unpin":
                                body.setPinWeight(particleAt(body, op.at), 0);
                                break;
                            case "impulse": {
                                const p = particleAt(body, op.at);
                                const x = body.positions;
                                body.applyImpulse(op.j[0], op.j[1], op.j[2], x[3 * p], x[3 * p + 1], x[3 * p + 2], 0.1 * scale);
                                break;
                            }
                            case "collider": {
                                const s = scale;
                                const collider = new Collider([
                                    op.shape === "sphere"
                                        ? { kind: "sphere", center: [0, 0.5 * s, 0], radius: 0.3 * s }
                                        : op.shape === "box"
                                          ? { kind: "box", center: [0, 0.2 * s, 0], halfExtents: [0.2 * s, 0.2 * s, 0.2 * s] }
                                          : { kind: "plane", normal: [0, 1, 0], offset: -0.5 * s },
                                ]);
                                colliders.push(collider);
                                world.addCollider(collider);
                                break;
                            }
                            case "removeCollider": {
                                const collider = colliders.pop();
                                if (collider) {
                                    world.removeCollider(collider);
                                }
                                break;
                            }
                            case "stiffness":
                                body.stretch.compliance = complianceFromStiffness(op.stretch, "distance");
                                body.bend.compliance = complianceFromStiffness(op.bend, "bend");
                                break;
                            case "options":
                                body.damping = op.damping;
                                body.staticFriction = op.friction;
                                body.kineticFriction = op.friction;
                                body.thickness = op.thickness * scale;
                                body.dragCoefficient = op.drag;
                                break;
                            case "removeBody":
                                if (inWorld) {
                                    world.removeBody(body);
                                    inWorld = false;
                                }
                                break;
                            case "addBody":
                                if (!inWorld) {
                                    world.addBody(body);
                                    inWorld = true;
                                }
                                break;
                        }
                    }
                    return body.positions.every(Number.isFinite);
                },
            ),
            { seed: 20261201, numRuns: 200 },
        );
    });

    // Compliant constraints store elastic energy that kinetic plus potential energy does not count, so this property takes
    // stiff constraints (stiffness 1: rigid), where nothing is stored and every projection can only take energy out.
    test("a free body gains no energy: kinetic plus potential stays within a 0.1% band of what its last input left", () => {
        fc.assert(
            fc.property(
                clothArbitrary,
                fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
                    minLength: 1,
                    maxLength: 3,
                }),
                (spec, kicks) => {
                    const world = new XpbdWorld();
                    const body = buildCloth({ ...spec, stretch: 1, shear: 1, bend: 1 }, false);
                    world.addBody(body);
                    for (const [j, at] of kicks) {
                        const p = particleAt(body, at);
                        const x = body.positions;
                        body.applyImpulse(j, -j, 0.5 * j, x[3 * p], x[3 * p + 1], x[3 * p + 2], 0.3 * spec.size);
                        const start = energy(body, 9.81);
                        // Symplectic Euler conserves a nearby "shadow" energy, so the true one may wobble by a fraction
                        // of order h·ω around it; 0.1% of the energies in play bounds that. A blow-up grows without bound.
                        const band = 1e-3 * (body.kineticEnergy() + spec.mass * 9.81 * spec.size);
                        for (let s = 0; s < 120; s++) {
                            world.step(1 / 60);
                            const e = energy(body, 9.81);
                            if (e > start + band) {
                                throw new Error(`energy rose from ${start} J to ${e} J by step ${s}`);
                            }
                        }
                    }
                },
            ),
            { seed: 20261202, numRuns: 60 },
        );
    });

    test("without gravity or outside forces, a free body keeps the momentum its impulses gave it", () => {
        fc.assert(
            fc.property(
                clothArbitrary,
                fc.tuple(
                    fc.double({ min: -5, max: 5, noNaN: true }),
                    fc.double({ min: -5, max: 5, noNaN: true }),
                    fc.double({ min: -5, max: 5, noNaN: true }),
                ),
                fc.double({ min: 0, max: 1, noNaN: true }),
                (spec, j, at) => {
                    const world = new XpbdWorld({ gravity: [0, 0, 0] });
                    const body = buildCloth(spec, false);
                    world.addBody(body);
                    const p = particleAt(body, at);
                    const x = body.positions;
                    body.applyImpulse(j[0], j[1], j[2], x[3 * p], x[3 * p + 1], x[3 * p + 2], 0.2 * spec.size);
                    for (let s = 0; s < 60; s++) {
                        world.step(1 / 60);
                    }
                    const after = momentum(body);
                    const scale = Math.hypot(...j) + 1e-12;
                    for (let k = 0; k < 3; k++) {
                        // Positions are corrected in pairs of equal and opposite mass-weighted moves; what is left is round-off.
                        if (Math.abs(after[k] - j[k]) > 1e-9 * scale + 1e-12) {
                            throw new Error(`momentum ${after} N·s, given ${j} N·s`);
                        }
                    }
                },
            ),
            { seed: 20261203, numRuns: 60 },
        );
    });
});
