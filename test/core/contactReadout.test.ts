/**
 * Reading the contacts of the last step (`XpbdWorld.writeContacts`): collider contacts on a plane and a sphere,
 * soft contacts between two sheets of known height, self contacts of a folded cloth, each checked against the
 * geometry the solve left and against the step's stats; then the argument checks.
 */
import { Collider } from "../../src/core/collider";
import { closestPointOnTriangle, ContactKind, XpbdWorld, type SoftBody } from "../../src/core/index";
import { clothBody } from "../support/coreScenes";

const DT = 1 / 60;

function run(world: XpbdWorld, seconds: number): void {
    for (let s = 0; s < Math.round(seconds * 60); s++) {
        world.step(DT);
    }
}

/** Every contact of the world (or of `body`), with its point, normal and kind as tuples. */
function readContacts(world: XpbdWorld, body: SoftBody | null = null): { point: number[]; normal: number[]; kind: ContactKind }[] {
    const capacity = world.contactCount(body);
    const points = new Float64Array(3 * capacity);
    const normals = new Float64Array(3 * capacity);
    const kinds = new Uint8Array(capacity);
    const written = world.writeContacts(points, normals, kinds, capacity, body);
    expect(written).toBe(capacity);
    return Array.from({ length: written }, (_, i) => ({
        point: Array.from(points.subarray(3 * i, 3 * i + 3)),
        normal: Array.from(normals.subarray(3 * i, 3 * i + 3)),
        kind: kinds[i] as ContactKind,
    }));
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Distance from `point` to the nearest particle of `bodies`. */
function nearestParticle(point: number[], bodies: SoftBody[]): number {
    let best = Infinity;
    for (const body of bodies) {
        const x = body.positions;
        for (let i = 0; i < body.particleCount; i++) {
            best = Math.min(best, Math.hypot(x[3 * i] - point[0], x[3 * i + 1] - point[1], x[3 * i + 2] - point[2]));
        }
    }
    return best;
}

describe("collider contacts", () => {
    test("a cloth draped over a sphere onto the ground: points on the surfaces, their normals, a particle a thickness off", () => {
        const thickness = 0.01;
        const world = new XpbdWorld({ timing: false });
        const { body: cloth } = clothBody(16, { mass: 0.3, plane: "xz", origin: [0.1, 0.6, 0], thickness, allowSleep: false });
        world.addBody(cloth);
        const center = [0, 0.2, 0];
        const radius = 0.2;
        world.addCollider(new Collider([{ kind: "sphere", center: center as [number, number, number], radius }]));
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        run(world, 3);

        const contacts = readContacts(world);
        expect(contacts.length).toBe(world.stats.contacts);
        expect(world.contactCount(cloth)).toBe(cloth.stats.contacts);
        let onSphere = 0;
        let onGround = 0;
        let worstSurface = 0;
        let worstNormal = 0;
        const particleDistances: number[] = [];
        for (const { point, normal, kind } of contacts) {
            expect(kind).toBe(ContactKind.Collider);
            const offset = [point[0] - center[0], point[1] - center[1], point[2] - center[2]];
            const r = Math.hypot(offset[0], offset[1], offset[2]);
            if (Math.abs(r - radius) < Math.abs(point[1])) {
                onSphere++;
                worstSurface = Math.max(worstSurface, Math.abs(r - radius));
                worstNormal = Math.max(worstNormal, 1 - dot(normal, offset) / r);
            } else {
                onGround++;
                worstSurface = Math.max(worstSurface, Math.abs(point[1]));
                worstNormal = Math.max(worstNormal, 1 - normal[1]);
            }
            particleDistances.push(nearestParticle(point, [cloth]));
        }
        const atThickness = particleDistances.filter((d) => Math.abs(d - thickness) < 0.02 * thickness).length;
        console.log(
            `cloth on sphere and ground: ${onSphere} + ${onGround} contacts, surface off by ${worstSurface.toExponential(2)} m, ` +
                `1 − n·n₀ ≤ ${worstNormal.toExponential(2)}, nearest particle ${atThickness} at a thickness (±2%), farthest ` +
                `${(Math.max(...particleDistances) * 1000).toFixed(2)} mm`,
        );
        expect(onSphere).toBeGreaterThan(5);
        expect(onGround).toBeGreaterThan(10);
        expect(worstSurface).toBeLessThan(1e-12);
        // The normal of the solve's last touch, a little before the particle settled: within 1° of the surface's now.
        expect(worstNormal).toBeLessThan(1.5e-4);
        // The solve leaves a touching particle a thickness off the surface (a few are lifted by their neighbours in
        // the substep's later passes).
        expect(atThickness).toBeGreaterThanOrEqual(0.8 * contacts.length);
        expect(Math.max(...particleDistances)).toBeLessThan(2 * thickness);

        // Float32 buffers get the same contacts, rounded.
        const count = world.contactCount();
        const points = new Float32Array(3 * count);
        const normals = new Float32Array(3 * count);
        const kinds = new Uint8Array(count);
        expect(world.writeContacts(points, normals, kinds, count)).toBe(count);
        contacts.forEach(({ point }, i) => point.forEach((v, a) => expect(Math.abs(points[3 * i + a] - v)).toBeLessThan(1e-6)));
    });
});

describe("soft contacts", () => {
    /**
     * A 1 m sheet held flat at y = 0 by pins on every particle, and a 0.5 m sheet settled on it: a sheet's particle
     * against the other's triangle either way, all at known heights. Both 1 cm thick, so 1 cm apart in contact.
     */
    function twoSheets(): { world: XpbdWorld; lower: SoftBody; upper: SoftBody } {
        const world = new XpbdWorld({ timing: false });
        const lower = clothBody(10, { plane: "xz", thickness: 0.01, allowSleep: false }).body;
        for (let i = 0; i < lower.particleCount; i++) {
            lower.setPinWeight(i, 1);
        }
        const upper = clothBody(8, {
            size: 0.5,
            mass: 0.1,
            plane: "xz",
            origin: [0.03, 0.05, 0.02],
            thickness: 0.01,
            allowSleep: false,
        }).body;
        world.addBody(lower);
        world.addBody(upper);
        run(world, 2);
        return { world, lower, upper };
    }

    test("two sheets: a point on the lower sheet has the normal up, one on the upper sheet down; counts are the stats'", () => {
        const { world, lower, upper } = twoSheets();
        const contacts = readContacts(world);
        expect(contacts.length).toBe(world.stats.softContacts);
        expect(world.stats.contacts).toBe(0);
        let upward = 0;
        let downward = 0;
        let worstNormal = 0;
        let worstHeight = 0;
        let worstParticle = 0;
        for (const { point, normal, kind } of contacts) {
            expect(kind).toBe(ContactKind.Soft);
            worstNormal = Math.max(worstNormal, 1 - Math.abs(normal[1]));
            if (normal[1] > 0) {
                // An upper particle on a lower triangle: the point lies on the lower sheet.
                upward++;
                worstHeight = Math.max(worstHeight, Math.abs(point[1]));
            } else {
                // A lower particle under an upper triangle: the point lies on the upper sheet, a contact distance up.
                downward++;
                worstHeight = Math.max(worstHeight, Math.abs(point[1] - 0.01));
            }
            // The particle of the contact: a contact distance from the point, along the normal.
            const beyond = point.map((v, a) => v + 0.01 * normal[a]);
            worstParticle = Math.max(worstParticle, nearestParticle(beyond, [lower, upper]));
        }
        console.log(
            `two sheets: ${upward} contacts up, ${downward} down; 1 − |n_y| ≤ ${worstNormal.toExponential(2)}, ` +
                `height off by ≤ ${(worstHeight * 1000).toFixed(3)} mm, particle off by ≤ ${(worstParticle * 1000).toFixed(3)} mm`,
        );
        expect(upward).toBeGreaterThan(40);
        expect(worstNormal).toBeLessThan(1e-4);
        expect(worstHeight).toBeLessThan(1e-3);
        expect(worstParticle).toBeLessThan(1e-3);
        // Every soft contact has both sheets in it.
        expect(world.contactCount(lower)).toBe(contacts.length);
        expect(world.contactCount(upper)).toBe(contacts.length);
        expect(readContacts(world, upper)).toEqual(contacts);
    });

    test("a cloth folded in two on the ground: self contacts between its layers, normals from triangle to particle", () => {
        // 1 m square, 1 cm thick, lying on the ground; the half at x > 0 turned over onto the other, 2 cm higher.
        const thickness = 0.01;
        const world = new XpbdWorld({ timing: false });
        const { body: cloth } = clothBody(20, {
            mass: 0.2,
            plane: "xz",
            origin: [0, thickness, 0],
            thickness,
            selfCollision: true,
            allowSleep: false,
        });
        const x = cloth.positions;
        for (let i = 0; i < cloth.particleCount; i++) {
            if (x[3 * i] > 1e-9) {
                x[3 * i] = -x[3 * i];
                x[3 * i + 1] = 3 * thickness;
            }
        }
        world.addBody(cloth);
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        run(world, 1);

        const contacts = readContacts(world);
        expect(contacts.length).toBe(world.stats.contacts + world.stats.softContacts);
        // Collider contacts first, then the self contacts: as many as the stats count.
        expect(contacts.slice(0, world.stats.contacts).every((c) => c.kind === ContactKind.Collider)).toBe(true);
        const self = contacts.slice(world.stats.contacts);
        expect(self.every((c) => c.kind === ContactKind.Self)).toBe(true);
        expect(self.length).toBe(world.stats.softContacts);
        // Away from the crease (which bulges into a loop) the layers lie flat: a top particle on a bottom triangle has
        // its point on the bottom layer (a thickness up) and the normal up; a bottom particle under a top triangle has
        // its point on the top layer (two thicknesses up) and the normal down.
        let up = 0;
        let down = 0;
        let worstNormal = 0;
        let worstHeight = 0;
        let worstUnit = 0;
        let worstParticle = 0;
        let worstSurface = 0;
        for (const { point, normal } of self) {
            worstUnit = Math.max(worstUnit, Math.abs(Math.hypot(normal[0], normal[1], normal[2]) - 1));
            worstSurface = Math.max(worstSurface, distanceToSurface(point, cloth));
            if (point[0] > -0.25 || point[0] < -0.45 || Math.abs(point[2]) > 0.45) {
                continue;
            }
            worstNormal = Math.max(worstNormal, 1 - Math.abs(normal[1]));
            if (normal[1] > 0) {
                up++;
                worstHeight = Math.max(worstHeight, Math.abs(point[1] - thickness));
            } else {
                down++;
                worstHeight = Math.max(worstHeight, Math.abs(point[1] - 2 * thickness));
            }
            worstParticle = Math.max(
                worstParticle,
                nearestParticle(
                    point.map((v, a) => v + thickness * normal[a]),
                    [cloth],
                ),
            );
        }
        console.log(
            `folded cloth: ${self.length} self contacts, on the cloth's surface to ${worstSurface.toExponential(2)} m, ` +
                `| |n| − 1 | ≤ ${worstUnit.toExponential(2)}; flat part: ${up} up, ${down} down, 1 − |n_y| ≤ ` +
                `${worstNormal.toExponential(2)}, height off by ≤ ${(worstHeight * 1000).toFixed(2)} mm, particle a ` +
                `thickness along the normal, off by ≤ ${(worstParticle * 1000).toFixed(2)} mm`,
        );
        expect(worstSurface).toBeLessThan(1e-12);
        expect(worstUnit).toBeLessThan(1e-12);
        expect(up).toBeGreaterThan(20);
        expect(down).toBeGreaterThan(5);
        // Tilted only where the particle's closest point is on an edge of the triangle, not straight below it.
        expect(worstNormal).toBeLessThan(0.1);
        expect(worstHeight).toBeLessThan(0.1 * thickness);
        expect(worstParticle).toBeLessThan(0.2 * thickness);
    });
});

/** Distance from `point` to the nearest triangle of `body`. */
function distanceToSurface(point: number[], body: SoftBody): number {
    const closest = new Float64Array(7);
    let best = Infinity;
    for (let t = 0; t < body.triangles.length; t += 3) {
        const tri = body.triangles;
        closestPointOnTriangle(body.positions, 3 * tri[t], 3 * tri[t + 1], 3 * tri[t + 2], Float64Array.from(point), closest);
        best = Math.min(best, Math.sqrt(closest[3]));
    }
    return best;
}

describe("what is read", () => {
    test("a capacity under the count writes the first contacts; a sleeping body has none, as in its stats", () => {
        const world = new XpbdWorld({ timing: false });
        const { body: cloth } = clothBody(8, { mass: 0.2, plane: "xz", origin: [0, 0.05, 0] });
        world.addBody(cloth);
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        run(world, 0.5);
        const all = readContacts(world);
        expect(all.length).toBeGreaterThan(40);
        const points = new Float32Array(30);
        const normals = new Float32Array(30);
        const kinds = new Uint8Array(10).fill(255);
        expect(world.writeContacts(points, normals, kinds, 10)).toBe(10);
        expect(Array.from(points)).toEqual(all.slice(0, 10).flatMap((c) => c.point.map(Math.fround)));
        expect(Array.from(kinds)).toEqual(new Array(10).fill(ContactKind.Collider));

        for (let s = 0; s < 600 && !cloth.sleeping; s++) {
            world.step(DT);
        }
        expect(cloth.sleeping).toBe(true);
        world.step(DT);
        expect(world.stats.contacts).toBe(0);
        expect(world.contactCount()).toBe(0);
        expect(world.writeContacts(points, normals, kinds, 10)).toBe(0);
    });

    test("a body moved to another world has no contacts there until that world steps", () => {
        const first = new XpbdWorld({ timing: false });
        const { body: cloth } = clothBody(8, { mass: 0.2, plane: "xz", origin: [0, 0.05, 0], allowSleep: false });
        first.addBody(cloth);
        first.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        run(first, 0.5);
        expect(first.contactCount(cloth)).toBeGreaterThan(40);
        first.removeBody(cloth);
        const second = new XpbdWorld({ timing: false });
        second.addBody(cloth);
        expect(second.contactCount()).toBe(0);
        expect(second.writeContacts(new Float64Array(3), new Float64Array(3), new Uint8Array(1), 1)).toBe(0);
    });
});

describe("argument checks", () => {
    const world = new XpbdWorld();
    const points = new Float64Array(6);
    const normals = new Float32Array(6);
    const kinds = new Uint8Array(2);

    test("before any step there is nothing to read", () => {
        expect(world.contactCount()).toBe(0);
        expect(world.writeContacts(points, normals, kinds, 2)).toBe(0);
    });

    test("a bad capacity, a buffer of the wrong type or too short, and a body of another world are refused", () => {
        expect(() => world.writeContacts(points, normals, kinds, -1)).toThrow("writeContacts: capacity must be an integer ≥ 0, got -1");
        expect(() => world.writeContacts(points, normals, kinds, 1.5)).toThrow(RangeError);
        expect(() => world.writeContacts(points, normals, kinds, "2" as unknown as number)).toThrow(TypeError);
        expect(() => world.writeContacts(points, normals, kinds, 3)).toThrow("writeContacts: points holds 6 numbers, the capacity needs 9");
        expect(() => world.writeContacts(points, new Float64Array(3), kinds, 2)).toThrow("writeContacts: normals holds 3");
        expect(() => world.writeContacts(points, normals, new Uint8Array(1), 2)).toThrow("writeContacts: kinds holds 1");
        expect(() => world.writeContacts([0, 0, 0] as unknown as Float64Array, normals, kinds, 1)).toThrow(
            "writeContacts: points must be a Float32Array or Float64Array",
        );
        expect(() => world.writeContacts(points, normals, new Int32Array(2) as unknown as Uint8Array, 1)).toThrow(
            "writeContacts: kinds must be a Uint8Array",
        );
        const stranger = clothBody(2).body;
        expect(() => world.writeContacts(points, normals, kinds, 2, stranger)).toThrow("soft body (id -1) is not in this world");
        expect(() => world.contactCount(stranger)).toThrow("is not in this world");
    });
});
