/**
 * Versioned defaults: every default is looked up by defaults version, so a scene built with an explicit version
 * behaves bit-identically after a later release changes a default (simulated here by a future table).
 */
import * as core from "../../src/core/index";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { futureRelease } from "../support/futureDefaults";

type Core = typeof core;

/** A 10×10 cloth held by two corners, swinging onto a static sphere, 90 steps: every position at the end. */
function swing(c: Core, version?: number): Float64Array {
    const world = new c.XpbdWorld({ timing: false, defaultsVersion: version });
    const t = createClothGrid({ width: 1, height: 1, segmentsX: 10, segmentsY: 10, plane: "xz", origin: [0, 1, 0] }).topology;
    const body = new c.SoftBody(
        { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.3 },
        { defaultsVersion: version },
    );
    body.setPinWeight(0, 1);
    body.setPinWeight(10, 1);
    world.addBody(body);
    world.addCollider(new c.Collider([{ kind: "sphere", center: [0, 0.5, 0.2], radius: 0.3 }], { defaultsVersion: version }));
    for (let s = 0; s < 90; s++) {
        world.step(1 / 60);
    }
    return body.positions.slice();
}

/** Whether two arrays hold the same Float64 bit patterns. */
function bitIdentical(a: Float64Array, b: Float64Array): boolean {
    const x = new BigUint64Array(a.buffer, a.byteOffset, a.length);
    const y = new BigUint64Array(b.buffer, b.byteOffset, b.length);
    return a.length === b.length && x.every((v, i) => v === y[i]);
}

describe("defaults versions", () => {
    test("the newest version is the default; an unknown version is refused by name", () => {
        expect(core.LATEST_DEFAULTS_VERSION).toBe(core.DEFAULTS_TABLE.length);
        expect(core.getDefaults()).toBe(core.DEFAULTS_TABLE[core.LATEST_DEFAULTS_VERSION - 1]);
        expect(new core.XpbdWorld().defaultsVersion).toBe(core.LATEST_DEFAULTS_VERSION);
        const latest = core.LATEST_DEFAULTS_VERSION;
        for (const bad of [0, 1.5, latest + 1, -1]) {
            expect(() => new core.XpbdWorld({ defaultsVersion: bad })).toThrow(
                `defaultsVersion must be an integer from 1 to ${latest} (the defaults versions this build of babylon-xpbd knows), got ${bad}`,
            );
        }
        expect(() => new core.SoftBody({ positions: [0, 0, 0] }, { defaultsVersion: "1" as unknown as number })).toThrow(
            'defaultsVersion must be a number, got "1" (string)',
        );
    });

    test("the table is frozen all the way down", () => {
        const isDeepFrozen = (value: unknown): boolean =>
            typeof value !== "object" || value === null || (Object.isFrozen(value) && Object.values(value).every(isDeepFrozen));
        expect(isDeepFrozen(core.DEFAULTS_TABLE)).toBe(true);
    });

    test("version 1 holds the defaults of 0.1 and never changes (a changed default is a new version)", () => {
        // The protocol: scenes, snapshots and replays made with version 1 rely on exactly these values.
        const v1 = core.getDefaults(1);
        expect(v1.world).toEqual({
            gravity: [0, -9.81, 0],
            substeps: 5,
            iterations: 1,
            cellSize: 0.5,
            eventCapacity: 256,
            gridCapacity: 65536,
            wind: [0, 0, 0],
            airDensity: 1.2,
            timing: true,
            residuals: false,
            // Options added later join with the default that keeps 0.1's behaviour: its bodies passed through each other.
            softContacts: false,
            softContactCapacity: 65536,
        });
        expect(v1.body).toMatchObject({ stretchCompliance: 0, damping: 1, staticFriction: 0.5, kineticFriction: 0.5, thickness: 0.01 });
        expect(v1.body.shearCompliance).toBe(core.complianceFromStiffness(0.9, "distance"));
        expect(v1.body.bendCompliance).toBe(core.complianceFromStiffness(0.5, "bend"));
        expect(v1.collider).toEqual({ mass: 1, friction: 0.5, restitution: 0, membership: 1, collideWith: 0xffffffff });
        expect(v1.body.selfCollision).toBe(false);
        expect(v1.impostor.selfCollision).toBe(false);
        // Strain limiting came later: off, as 0.1 had none.
        expect(v1.cloth).toEqual({ shearStiffness: 0.9, bendStiffness: 0.5, strainLimit: 0 });
        expect(v1.body.strainLimit).toBe(0);
        // An option added later joins with the default that keeps 0.1's behaviour (tetrahedra: 0.1 always had them).
        expect(v1.softBody).toEqual({ volumeStiffness: 1, resolution: 6, tetrahedra: true, dragCoefficient: 0.6, liftCoefficient: 0.5 });
        // Ropes came later: every version has their first defaults.
        expect(v1.rope).toEqual({ mass: 0.2, radius: 0.01, segmentLength: 0.05, bendStiffness: 0.2, render: "tube" });
        expect(core.getDefaults(2).rope).toEqual(v1.rope);
    });

    test("version 2 turns on the contacts between bodies, and changes nothing else", () => {
        const v1 = core.getDefaults(1);
        const v2 = core.getDefaults(2);
        expect(v2.world.softContacts).toBe(true);
        expect({ ...v2, world: { ...v2.world, softContacts: false } }).toEqual(v1);
        expect(new core.XpbdWorld({ defaultsVersion: 1 }).softContacts.enabled).toBe(false);
        expect(new core.XpbdWorld({ defaultsVersion: 2 }).softContacts.enabled).toBe(true);
    });

    test("version 3 limits cloth impostors' strain to ×1.08, and changes nothing else", () => {
        const v2 = core.getDefaults(2);
        const v3 = core.getDefaults(3);
        expect(v3.cloth.strainLimit).toBe(1.08);
        expect({ ...v3, cloth: { ...v3.cloth, strainLimit: 0 } }).toEqual(v2);
    });

    // One default changed in each layer of the core, one at a time.
    const changes: [string, (next: Parameters<Parameters<typeof futureRelease>[0]>[0]) => void][] = [
        ["the world's substeps 5 → 8", (next) => (next.world.substeps = 8)],
        ["the body's damping 1 → 2", (next) => (next.body.damping = 2)],
        ["the body's bend compliance → stiffness 0.2", (next) => (next.body.bendCompliance = core.complianceFromStiffness(0.2, "bend"))],
        ["the collider's friction 0.5 → 0.9", (next) => (next.collider.friction = 0.9)],
    ];
    test.each(changes)("after a release changes %s, a scene built with version 1 is bit-identical", (_, change) => {
        const future = futureRelease(change, ["../../src/core/index"]);
        const futureCore = future.load<Core>("../../src/core/index");
        expect(futureCore.LATEST_DEFAULTS_VERSION).toBe(core.LATEST_DEFAULTS_VERSION + 1);
        const today = swing(core);
        const pinned = swing(futureCore, 1);
        expect(bitIdentical(pinned, today)).toBe(true);
        // The change is real: a scene that takes the newest defaults moves differently.
        const newest = swing(futureCore);
        expect(bitIdentical(newest, today)).toBe(false);
        let largest = 0;
        for (let k = 0; k < today.length; k++) largest = Math.max(largest, Math.abs(newest[k] - today[k]));
        expect(largest).toBeGreaterThan(1e-9);
    });
});
