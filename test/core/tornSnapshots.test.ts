/**
 * Snapshots of a cloth that tears: the particle count, triangles, masses and constraints a tear changes are saved
 * and restored with the rest, so that a state saved before, during or after tearing steps on bit-identically in
 * the same world (torn further since) or in a fresh one (not torn yet), through the binary form too.
 */
import { Collider } from "../../src/core/collider";
import { parseSnapshot, serializeSnapshot } from "../../src/core/snapshotFormat";
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { captureWorldState, restoreWorldState, type XpbdSnapshot } from "../../src/core/worldSnapshot";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { fullState } from "../support/snapshotScene";

const DT = 1 / 60;

interface PulledCloth {
    world: XpbdWorld;
    body: SoftBody;
    /** Sets the handles' targets for step `s` (they move apart at 0.3 m/s each). */
    drive(s: number): void;
}

/**
 * A 1 m × 0.5 m cloth held by the two ends of its top two rows, pulled apart so that a tear runs down from the top
 * over some twenty steps (a split or two per step), above a sphere, in the wind.
 */
function pulledCloth(): PulledCloth {
    const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 16, segmentsY: 8 });
    const t = grid.topology;
    const body = new SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.4 },
        { tearRatio: 1.3, allowSleep: false },
    );
    const world = new XpbdWorld({ wind: [0.3, 0, 1.5] });
    world.addBody(body);
    world.addCollider(new Collider([{ kind: "sphere", center: [0, -0.45, 0.1], radius: 0.2 }]));
    const handles: number[] = [];
    for (const j of [7, 8]) {
        handles.push(j * grid.columns, j * grid.columns + grid.columns - 1);
    }
    for (const p of handles) body.setPinWeight(p, 1);
    const start = Float64Array.from(body.positions);
    return {
        world,
        body,
        drive(s) {
            const d = 0.3 * s * DT;
            handles.forEach((p, k) => body.setPinTarget(p, start[3 * p] + (k % 2 === 0 ? -d : d), start[3 * p + 1], start[3 * p + 2]));
        },
    };
}

/** Steps from `from` to `to` (exclusive); returns the tear records of each step that tore, as text. */
function run(scene: PulledCloth, from: number, to: number): string[] {
    const tears: string[] = [];
    for (let s = from; s < to; s++) {
        scene.drive(s);
        scene.world.step(DT);
        const tearing = scene.body.tearing!;
        if (tearing.tearCount > 0) {
            tears.push(`${s}:${Array.from(tearing.tears.subarray(0, 4 * tearing.tearCount)).join(",")}`);
        }
    }
    return tears;
}

/** Every Float64 of the world (see `fullState`), then what a tear changes: count, triangles, masses, rest, constraints. */
function tornState(scene: PulledCloth): BigUint64Array {
    const body = scene.body;
    const n = body.particleCount;
    // Beyond the counts the arrays hold what the last rebuild left there, which nothing reads.
    const topology = [
        n,
        ...body.triangles,
        ...body.masses.subarray(0, n),
        ...body.restPositions.subarray(0, 3 * n),
        body.stretch.count,
        ...body.stretch.indices.subarray(0, 2 * body.stretch.count),
        ...body.stretch.restLengths.subarray(0, body.stretch.count),
        body.shear.count,
        ...body.shear.indices.subarray(0, 2 * body.shear.count),
        body.bend.count,
        ...body.bend.indices.subarray(0, 4 * body.bend.count),
        body.tethers.count,
        ...body.tethers.anchors.subarray(0, body.tethers.count),
        ...body.tethers.lengths.subarray(0, body.tethers.count),
        ...body.tearing!.torn,
    ];
    const rest = new BigUint64Array(new Float64Array(topology).buffer);
    const all = new BigUint64Array(fullState(scene.world).length + rest.length);
    all.set(fullState(scene.world));
    all.set(rest, fullState(scene.world).length);
    return all;
}

function firstDifference(a: BigUint64Array, b: BigUint64Array): number {
    return a.length !== b.length ? -2 : a.findIndex((v, i) => v !== b[i]);
}

describe.each([
    ["before it tears", 1],
    ["while it tears", 10],
    ["after it tore", 60],
])("a tearing cloth saved %s (step %i)", (when, N) => {
    const END = 120;
    const original = pulledCloth();
    run(original, 0, N);
    const saved = captureWorldState(original.world);
    const bytes = serializeSnapshot(saved);
    const splitsAtSave = original.body.tearing!.tornParticles;
    const expectedTears = run(original, N, END);
    const expected = tornState(original);
    const splitsAtEnd = original.body.tearing!.tornParticles;
    console.log(
        `saved at step ${N} with ${splitsAtSave} particles split (${saved.bodies[0].particleCount} particles, ${bytes.byteLength} bytes); ` +
            `${splitsAtEnd} split by step ${END}, in ${expectedTears.length} tearing steps`,
    );

    test("the saved state and the continuation are what the case says", () => {
        if (when === "before it tears") {
            expect(splitsAtSave).toBe(0);
        } else {
            expect(splitsAtSave).toBeGreaterThan(0);
        }
        // The last case's continuation tears no more (the cloth is in two); the others have tears to reproduce.
        if (when === "after it tore") {
            expect(splitsAtEnd).toBe(splitsAtSave);
        } else {
            expect(splitsAtEnd).toBeGreaterThan(splitsAtSave);
        }
    });

    test("restored into the same world, torn further since, the next steps are bit-identical (tears too)", () => {
        restoreWorldState(original.world, saved);
        // Right after the restore every array the snapshot writes is as it was at the save, to the end of its
        // capacity: nothing of the later splits is left beyond the particle count.
        const atSave = pulledCloth();
        run(atSave, 0, N);
        const arrays = (b: SoftBody) => [
            b.positions,
            b.previousPositions,
            b.velocities,
            b.restPositions,
            b.masses,
            b.inverseMasses,
            b.pins.weights,
            b.pins.targetsStart,
            b.pins.targetsEnd,
        ];
        arrays(original.body).forEach((array, k) => expect(Array.from(array)).toEqual(Array.from(arrays(atSave.body)[k])));
        expect(original.body.particleCount).toBe(saved.bodies[0].particleCount);
        expect(run(original, N, END)).toEqual(expectedTears);
        expect(firstDifference(tornState(original), expected)).toBe(-1);
    });

    test("restored from bytes into a fresh world, not torn yet, the next steps are bit-identical", () => {
        const fresh = pulledCloth();
        restoreWorldState(fresh.world, parseSnapshot(bytes));
        expect(run(fresh, N, END)).toEqual(expectedTears);
        expect(firstDifference(tornState(fresh), expected)).toBe(-1);
    });
});

describe("a torn cloth's snapshot is checked like the rest", () => {
    const scene = pulledCloth();
    run(scene, 0, 30);
    const saved = captureWorldState(scene.world);
    const topology = saved.bodies[0].topology!;

    /** A copy of the saved snapshot with its topology changed by `edit`. */
    function edited(edit: (t: typeof topology) => void): XpbdSnapshot {
        const copy = parseSnapshot(serializeSnapshot(saved));
        edit(copy.bodies[0].topology!);
        return copy;
    }

    test("it holds a topology, and only for the body that tears", () => {
        expect(topology.tornParticles).toBeGreaterThan(0);
        expect(saved.bodies[0].particleCount).toBe(scene.body.particleCount);
        const plain = new XpbdWorld();
        plain.addBody(new SoftBody({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], triangles: [0, 1, 2], mass: 1 }));
        expect(captureWorldState(plain).bodies[0].topology).toBeNull();
    });

    test("a triangle on a particle the snapshot does not have is refused, and nothing is written", () => {
        const before = tornState(scene);
        const bad = edited((t) => (t.triangles[5] = saved.bodies[0].particleCount));
        expect(() => restoreWorldState(scene.world, bad)).toThrow(/triangles\[5\] is \d+; particle indices go from 0 to/);
        expect(firstDifference(tornState(scene), before)).toBe(-1);
    });

    test("a zero or NaN mass is refused", () => {
        expect(() =>
            restoreWorldState(
                scene.world,
                edited((t) => (t.masses[3] = 0)),
            ),
        ).toThrow(/masses\[3\] is 0; it must be finite and above 0/);
        expect(() =>
            restoreWorldState(
                scene.world,
                edited((t) => (t.masses[3] = NaN)),
            ),
        ).toThrow(/masses\[3\] is NaN/);
    });

    test("a count of split particles that does not add up to the body's own is a mismatch", () => {
        expect(() =>
            restoreWorldState(
                scene.world,
                edited((t) => (t.tornParticles -= 1)),
            ),
        ).toThrow(/made by tearing; the world's body 0 was built with/);
    });

    test("a torn cloth's state does not go into a cloth that does not tear", () => {
        const grid = createClothGrid({ width: 1, height: 0.5, segmentsX: 16, segmentsY: 8 });
        const t = grid.topology;
        const world = new XpbdWorld();
        world.addBody(
            new SoftBody({ positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.4 }),
        );
        expect(() => restoreWorldState(world, saved)).toThrow(/was saved from a cloth that tears, the world's body 0 does not tear/);
    });

    test("a truncated topology section is malformed", () => {
        const bytes = new Uint8Array(serializeSnapshot(saved));
        // Rewrite the stored byte count check: drop the last 8 bytes of the file (the container's own check catches it first).
        expect(() => parseSnapshot(bytes.slice(0, bytes.length - 8))).toThrow();
    });
});
