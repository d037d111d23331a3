/**
 * Ropes with real Havok (WASM, NullEngine): a crate hanging and swinging on a rope (two-way attachment), the weight at
 * the rope's pin, momentum when a rope hits a crate, and the impostor's API (meshes, pins, errors, dispose).
 */
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { CreateTube } from "@babylonjs/core/Meshes/Builders/tubeBuilder";
import { CreateLines } from "@babylonjs/core/Meshes/Builders/linesBuilder";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate";
import { BallAndSocketConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint";
import { createBody, createHavokScene, observerCounts, type HavokScene, type TestBody } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { RopeImpostor } from "../../src/babylon/ropeImpostor";
import { complianceFromStiffness } from "../../src/core/stiffness";

const G = 9.81;
const DT = 1 / 60;

/** A dynamic Havok cube of side `side` and `mass`, centred at `position`, without damping or friction. */
function crate(h: HavokScene, mass: number, side: number, position: [number, number, number]): TestBody {
    const box = createBody(
        h.scene,
        { kind: "box", extents: [side, side, side] },
        { motionType: PhysicsMotionType.DYNAMIC, position, mass },
    );
    box.shape.material = { friction: 0, staticFriction: 0, restitution: 0 };
    box.body.setLinearDamping(0);
    box.body.setAngularDamping(0);
    return box;
}

/** A plugin without air (the rope feels none anyway: it has no surface). */
function plugin(h: HavokScene, substeps = 10): XpbdPlugin {
    const xpbd = new XpbdPlugin(h.scene, { substeps });
    xpbd.world.airDensity = 0;
    return xpbd;
}

/** A 1 m rope of `ropeMass` pinned at (0, 3, 0) with a 1 kg, 10 cm cube tied under its end by the top face's centre. */
function hangingCrate(h: HavokScene, xpbd: XpbdPlugin, ropeMass: number): { rope: RopeImpostor; box: TestBody } {
    const rope = new RopeImpostor(
        [new Vector3(0, 3, 0), new Vector3(0, 2, 0)],
        { mass: ropeMass, segments: 20, bendStiffness: 0, pins: [0] },
        xpbd,
    );
    const box = crate(h, 1, 0.1, [0, 2 - 0.05, 0]);
    rope.attachToBody([20], box.body);
    return { rope, box };
}

/**
 * Period of the crate on the 1 m rope of {@link hangingCrate} swinging at amplitude `theta` (rad): a compound pendulum
 * about the pin, the cube (mass M, side a, centre at d = L + a/2 below the pin, I = M·a²/6 about its centre) and the
 * rope as a uniform rod (mass m, length L): T₀ = 2π √(I_pin / (g·(M·d + m·L/2))) with I_pin = M·d² + M·a²/6 + m·L²/3;
 * at amplitude θ₀, T = T₀·(1 + θ₀²/16).
 */
function pendulumPeriod(theta: number, ropeMass: number): number {
    const M = 1;
    const a = 0.1;
    const L = 1;
    const d = L + a / 2;
    const inertia = M * d * d + (M * a * a) / 6 + (ropeMass * L * L) / 3;
    return 2 * Math.PI * Math.sqrt(inertia / (G * (M * d + (ropeMass * L) / 2))) * (1 + (theta * theta) / 16);
}

describe("RopeImpostor with Havok", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("a 1 kg crate on a 1 m rope swings with the period of that pendulum (± 3%), pulling the rope along", () => {
        const xpbd = plugin(h);
        const ropeMass = 0.02;
        const { rope, box } = hangingCrate(h, xpbd, ropeMass);
        // 1 m/s at the bottom: about 18° of amplitude, well clear of Havok's slowing of slow bodies (next test).
        box.body.setLinearVelocity(new Vector3(1, 0, 0));
        const crossings: number[] = [];
        let previous = 0;
        let amplitude = 0;
        let maxMiddle = 0;
        let maxGap = 0;
        const anchor = new Float64Array(3);
        for (let s = 1; s <= 480; s++) {
            h.step();
            const x = box.node.position.x;
            // Downward crossings of x = 0, interpolated within the step.
            if (previous > 0 && x <= 0) {
                crossings.push((s - 1 + previous / (previous - x)) * DT);
            }
            previous = x;
            if (crossings.length === 0) {
                amplitude = Math.max(amplitude, x);
            }
            maxMiddle = Math.max(maxMiddle, Math.abs(rope.body.positions[3 * 10]));
            rope.body.attachments.anchorPosition(20, anchor);
            const end = rope.body.positions.subarray(60, 63);
            maxGap = Math.max(maxGap, Math.hypot(end[0] - anchor[0], end[1] - anchor[1], end[2] - anchor[2]));
        }
        expect(crossings.length).toBeGreaterThanOrEqual(3);
        const measured = (crossings[crossings.length - 1] - crossings[0]) / (crossings.length - 1);
        // The crate's centre hangs d = 1.05 m below the pin; the amplitude is the first swing's.
        const d = 1.05;
        const theta = Math.asin(amplitude / d);
        const expected = pendulumPeriod(theta, ropeMass);
        console.log(
            `pendulum period: measured ${measured.toFixed(4)} s, expected ${expected.toFixed(4)} s (amplitude ${((theta * 180) / Math.PI).toFixed(1)}°)`,
        );
        expect(Math.abs(measured / expected - 1)).toBeLessThan(0.03);
        // The crate drags the rope sideways with it, and the rope's end stays on the crate (within 1 mm).
        expect(maxMiddle).toBeGreaterThan(0.05);
        expect(maxGap).toBeLessThan(1e-3);
        // It hangs where it was tied, the rope stretched less than 5 mm.
        expect(box.node.position.y).toBeGreaterThan(3 - d - 0.005);
    });

    it("a small swing (9°) keeps its period (± 3%) and loses amplitude at most twice as fast as Havok's own joint", () => {
        // Havok slows slow bodies on its own: a crate on Havok's ball-and-socket joint, same length, loses a few mm of
        // amplitude every half swing, and below about 0.2 m/s at the bottom it stops within a swing. The rope must not
        // add much to that: its crate also wobbles about the tie point (a short second pendulum), which Havok slows too.
        const xpbd = plugin(h);
        const { box } = hangingCrate(h, xpbd, 0.02);
        const pivot = createBody(
            h.scene,
            { kind: "box", extents: [0.05, 0.05, 0.05] },
            { motionType: PhysicsMotionType.STATIC, position: [5, 3, 0], mass: 0 },
        );
        const joined = crate(h, 1, 0.1, [5, 2 - 0.05, 0]);
        // Nothing here touches anything: the pivot box would otherwise hold the joint's crate.
        pivot.shape.filterCollideMask = 0;
        joined.shape.filterCollideMask = 0;
        const joint = new BallAndSocketConstraint(Vector3.Zero(), new Vector3(0, 1.05, 0), Vector3.Up(), Vector3.Up(), h.scene);
        pivot.body.addConstraint(joined.body, joint);
        const speed = 0.5;
        box.body.setLinearVelocity(new Vector3(speed, 0, 0));
        joined.body.setLinearVelocity(new Vector3(speed, 0, 0));
        const swings = [box, joined].map(() => ({ amplitudes: [] as number[], crossings: [] as number[], peak: 0, previous: 0 }));
        for (let s = 1; s <= 300; s++) {
            h.step();
            [box.node.position.x, joined.node.position.x - 5].forEach((x, i) => {
                const swing = swings[i];
                if (s > 1 && swing.previous > 0 !== x > 0) {
                    swing.amplitudes.push(swing.peak);
                    swing.crossings.push((s - 1 + swing.previous / (swing.previous - x)) * DT);
                    swing.peak = 0;
                }
                swing.peak = Math.max(swing.peak, Math.abs(x));
                swing.previous = x;
            });
        }
        const [rope, havok] = swings;
        // Loss per half swing over the first four half swings.
        const loss = (amplitudes: number[]): number => (amplitudes[0] - amplitudes[3]) / 3;
        console.log(
            `half-swing amplitudes (mm), rope: ${rope.amplitudes.map((a) => (a * 1000).toFixed(1)).join(" ")}; ` +
                `Havok joint: ${havok.amplitudes.map((a) => (a * 1000).toFixed(1)).join(" ")}`,
        );
        expect(havok.amplitudes.length).toBeGreaterThanOrEqual(4);
        expect(rope.amplitudes.length).toBeGreaterThanOrEqual(4);
        expect(loss(rope.amplitudes)).toBeLessThan(2 * loss(havok.amplitudes));
        // Period from the crossings (each half a period apart), at the second half swing's amplitude.
        const measured = (2 * (rope.crossings[3] - rope.crossings[0])) / 3;
        const expected = pendulumPeriod(Math.asin(rope.amplitudes[1] / 1.05), 0.02);
        console.log(`small swing period: measured ${measured.toFixed(4)} s, expected ${expected.toFixed(4)} s`);
        expect(Math.abs(measured / expected - 1)).toBeLessThan(0.03);
    });

    it("carries the crate's weight: the impulse at its top pin is (crate + rope mass)·g·dt (± 2%) at rest", () => {
        const xpbd = plugin(h);
        const ropeMass = 0.1;
        const { rope, box } = hangingCrate(h, xpbd, ropeMass);
        h.step(120);
        let impulse = 0;
        const steps = 60;
        for (let s = 0; s < steps; s++) {
            h.step();
            impulse += rope.getPinForce().y * xpbd.lastStepSeconds;
        }
        const expected = (1 + ropeMass) * G * DT;
        console.log(`top pin impulse / ((m_box + m_rope)·g·dt): ${(impulse / steps / expected).toFixed(4)}`);
        expect(Math.abs(impulse / steps / expected - 1)).toBeLessThan(0.02);
        // And the crate hangs still where it was tied.
        expect(Math.abs(box.node.position.y - 1.95)).toBeLessThan(5e-3);
        expect(box.body.getLinearVelocity().length()).toBeLessThan(1e-2);
    });

    it("a plank bridge on two ropes holds crates: the pins carry the ropes, planks and crates (± 2%)", () => {
        const xpbd = plugin(h);
        // Two 3 m ropes of 1 kg sagging 0.2 m, pinned at both ends, 0.8 m apart; five 5 kg planks tied to both.
        const sag = (x: number): number => 2 - 0.2 * (1 - (x / 1.5) ** 2);
        const ropes = [-0.4, 0.4].map((z) => {
            const path = Array.from({ length: 31 }, (_, k) => new Vector3(-1.5 + 0.1 * k, sag(-1.5 + 0.1 * k), z));
            return new RopeImpostor(path, { mass: 1, radius: 0.02, segments: 60, pins: [0, 60] }, xpbd);
        });
        const planks: TestBody[] = [];
        for (let k = 0; k < 5; k++) {
            const x = -1.2 + 0.6 * k;
            // Along the ropes' slope, its top face 2 cm (a rope radius) under them.
            const angle = Math.atan((0.4 * x) / 2.25);
            const plank = createBody(
                h.scene,
                { kind: "box", extents: [0.5, 0.04, 1] },
                {
                    motionType: PhysicsMotionType.DYNAMIC,
                    position: [x, sag(x) - 0.04, 0],
                    rotation: [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)],
                    mass: 5,
                },
            );
            for (const rope of ropes) {
                const p = Math.round((x + 1.5) / 0.05);
                rope.attachToBody([p - 4, p + 4], plank.body);
            }
            planks.push(plank);
        }
        const crates = [crate(h, 4, 0.3, [-0.6, 2.6, 0]), crate(h, 4, 0.3, [0.6, 2.9, 0.1])];
        h.step(240);
        let force = 0;
        for (let s = 0; s < 30; s++) {
            h.step();
            force += ropes[0].getPinForce().y + ropes[1].getPinForce().y;
        }
        force /= 30;
        const total = (2 * 1 + 5 * 5 + 2 * 4) * G;
        console.log(`bridge pins ${force.toFixed(1)} N for ${total.toFixed(1)} N`);
        expect(Math.abs(force / total - 1)).toBeLessThan(0.02);
        // The crates rest on their planks, and the ropes stretched less than 5%.
        for (const [k, c] of crates.entries()) {
            expect(c.node.position.y - planks[k === 0 ? 1 : 3].node.position.y).toBeGreaterThan(0.1);
        }
        for (const rope of ropes) {
            expect(rope.body.stats.maxEdgeRatio).toBeLessThan(1.05);
            expect(Array.from(rope.body.positions).every(Number.isFinite)).toBe(true);
        }
    });

    it("conserves momentum (± 1%) when a free rope hits a dynamic crate (no gravity)", async () => {
        h.dispose();
        h = await createHavokScene({ gravity: [0, 0, 0] });
        const xpbd = plugin(h);
        const ropeMass = 0.5;
        // A 1 m rope across x, 0.3 m before a 2 kg, 40 cm crate's face, thrown at it at 2 m/s.
        const rope = new RopeImpostor(
            [new Vector3(-0.5, 0, 0), new Vector3(0.5, 0, 0)],
            { mass: ropeMass, radius: 0.02, allowSleep: false },
            xpbd,
        );
        const box = crate(h, 2, 0.4, [0, 0, 0.5]);
        rope.setLinearVelocity(new Vector3(0, 0, 2));
        const momentum = (): number => {
            const v = rope.getLinearVelocity();
            return ropeMass * v.z + 2 * box.body.getLinearVelocity().z;
        };
        const before = momentum();
        let touched = false;
        for (let s = 0; s < 60; s++) {
            h.step();
            touched ||= rope.body.stats.contacts > 0;
        }
        const after = momentum();
        console.log(
            `momentum before ${before.toFixed(5)}, after ${after.toFixed(5)} N·s (relative error ${(after / before - 1).toExponential(2)})`,
        );
        expect(touched).toBe(true);
        expect(box.body.getLinearVelocity().z).toBeGreaterThan(0.2);
        expect(Math.abs(after / before - 1)).toBeLessThan(0.01);
    });
});

describe("RopeImpostor docs example", () => {
    it('runs as written in docs/plugin.md, "Ropes"', async () => {
        const h = await createHavokScene();
        const scene = h.scene;
        const xpbd = new XpbdPlugin(scene);
        // From docs/plugin.md, "Ropes".
        const rope = new RopeImpostor([new Vector3(0, 3, 0), new Vector3(0, 2, 0)], { radius: 0.015, mass: 0.1, pins: [0] }, xpbd);
        const crateMesh = CreateBox("crate", { size: 0.1 }, scene);
        crateMesh.position.set(0, 1.95, 0);
        const aggregate = new PhysicsAggregate(crateMesh, PhysicsShapeType.BOX, { mass: 1 }, scene);
        rope.attachToBody([rope.particleCount - 1], aggregate.body);
        aggregate.body.setLinearVelocity(new Vector3(1, 0, 0));
        // A quarter of a period (about 2.07 s): at the end of its swing.
        h.step(31);
        // It swings on the rope: sideways, still 1.05 m from the pin (± 5 mm), the pin carrying most of both weights (at
        // the end of an 18° swing the rope's pull upwards is m·g·cos²θ ≈ 0.91 m·g).
        expect(crateMesh.position.x).toBeGreaterThan(0.2);
        expect(Math.abs(Vector3.Distance(crateMesh.position, new Vector3(0, 3, 0)) - 1.05)).toBeLessThan(5e-3);
        expect(rope.getPinForce().y).toBeGreaterThan(0.8 * 1.1 * G);
        rope.detach([rope.particleCount - 1]);
        h.step(30);
        expect(crateMesh.position.y).toBeLessThan(1.5);
        h.dispose();
    });
});

describe("RopeImpostor API", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    beforeEach(async () => {
        h = await createHavokScene();
        xpbd = plugin(h, 5);
    });
    afterEach(() => h.dispose());

    it("builds from a path: segments of about 5 cm by default, mass by length, radius as thickness, a tube drawn", () => {
        const rope = new RopeImpostor([new Vector3(0, 1, 0), new Vector3(1, 1, 0), new Vector3(1, 1, 1)], {}, xpbd);
        expect(rope.getClassName()).toBe("RopeImpostor");
        expect(rope.kind).toBe("rope");
        expect(rope.length).toBeCloseTo(2, 12);
        expect(rope.particleCount).toBe(41);
        expect(rope.mass).toBe(0.2);
        expect(rope.body.totalMass).toBeCloseTo(0.2, 12);
        // End particles carry half a segment, the others a whole one.
        expect(rope.body.masses[0] * 2).toBeCloseTo(rope.body.masses[1], 12);
        expect(rope.radius).toBe(0.01);
        expect(rope.body.thickness).toBe(0.01);
        expect(rope.render).toBe("tube");
        expect(rope.mesh.getClassName()).toBe("Mesh");
        expect(xpbd.impostors).toContain(rope);
        const lines = new RopeImpostor(
            [new Vector3(0, 2, 0), new Vector3(0.5, 2, 0)],
            { segments: 4, render: "lines", radius: 0.03 },
            xpbd,
        );
        expect(lines.particleCount).toBe(5);
        expect(lines.mesh.getClassName()).toBe("LinesMesh");
        expect(lines.getOptions()).toMatchObject({ radius: 0.03, bendStiffness: 0.2 });
        lines.bendStiffness = 0.7;
        expect(lines.bendStiffness).toBe(0.7);
        expect(lines.body.shear.compliance).toBe(complianceFromStiffness(0.7, "distance"));
    });

    it("follows a tube or lines mesh made from a path, one particle per point, and rewrites it in place as it falls", () => {
        const path = [new Vector3(0, 1, 0), new Vector3(0.2, 1, 0), new Vector3(0.4, 1, 0), new Vector3(0.6, 1, 0)];
        const tube = CreateTube("tube", { path, radius: 0.04, tessellation: 6 }, h.scene);
        const rope = new RopeImpostor(tube, { pins: [0] }, xpbd);
        expect(rope.particleCount).toBe(4);
        expect(rope.radius).toBe(0.04);
        const vertexCount = tube.getTotalVertices();
        const before = Float32Array.from(tube.getVerticesData(VertexBuffer.PositionKind)!);
        h.step(10);
        const after = tube.getVerticesData(VertexBuffer.PositionKind)!;
        expect(tube.getTotalVertices()).toBe(vertexCount);
        expect(after.every(Number.isFinite)).toBe(true);
        expect(Math.min(...after.filter((_, i) => i % 3 === 1))).toBeLessThan(Math.min(...before.filter((_, i) => i % 3 === 1)) - 0.01);
        const lineMesh = CreateLines("lines", { points: path.map((p) => p.add(new Vector3(0, 0, 1))) }, h.scene);
        const line = new RopeImpostor(lineMesh, {}, xpbd);
        expect(line.render).toBe("lines");
        expect(line.body.positions[2]).toBeCloseTo(1, 6);
        h.step(5);
        expect(lineMesh.getVerticesData(VertexBuffer.PositionKind)![1]).toBeLessThan(1);
        expect(() => new RopeImpostor(CreateTube("t2", { path }, h.scene), { segments: 5 }, xpbd)).toThrow(/4 path points, so 3 segments/);
        expect(() => new RopeImpostor(CreateLines("l2", { points: path }, h.scene), { render: "tube" }, xpbd)).toThrow(/drawn as lines/);
    });

    it("pinTo a node: the pinned end follows the node as it moves", () => {
        const hook = new TransformNode("hook", h.scene);
        hook.position.set(0, 2, 0);
        const rope = new RopeImpostor([new Vector3(0, 2, 0), new Vector3(0, 1, 0)], { segments: 10 }, xpbd);
        rope.pinTo([0], hook);
        h.step();
        hook.position.x = 0.5;
        h.step(3);
        expect(rope.body.positions[0]).toBeCloseTo(0.5, 9);
        expect(rope.body.positions[1]).toBeCloseTo(2, 9);
        expect(rope.isPinDriven(0)).toBe(true);
    });

    it("attachToBody to a static body by a local anchor: the particle goes there; detach frees it; a disposed body lets go", () => {
        const post = createBody(
            h.scene,
            { kind: "box", extents: [0.2, 0.2, 0.2] },
            { motionType: PhysicsMotionType.STATIC, position: [1, 2, 0] },
        );
        const rope = new RopeImpostor([new Vector3(0, 2, 0), new Vector3(0.5, 2, 0)], { segments: 5 }, xpbd);
        // Before the body's first step its collider does not exist: the rope ties it at the next step.
        rope.attachToBody([5], post.node, new Vector3(0, 0.1, 0));
        expect(rope.getAttachedBody(5)).toBe(post.body);
        expect(rope.getAttachedBody(4)).toBeNull();
        h.step();
        expect(rope.body.attachments.count).toBe(1);
        h.step(30);
        const x = rope.body.positions;
        expect(Math.hypot(x[15] - 1, x[16] - 2.1, x[17])).toBeLessThan(1e-6);
        rope.detach([5]);
        expect(rope.body.attachments.count).toBe(0);
        expect(rope.getAttachedBody(5)).toBeNull();
        rope.attachToBody([5], post.body);
        h.step();
        expect(rope.body.attachments.count).toBe(1);
        post.body.dispose();
        h.step();
        expect(rope.body.attachments.count).toBe(0);
        expect(rope.getAttachedBody(5)).toBeNull();
    });

    it("gives clear errors for bad input", () => {
        const at = (y: number): Vector3 => new Vector3(0, y, 0);
        expect(() => new RopeImpostor([at(0)], {}, xpbd)).toThrow(/at least 2 points, got 1/);
        expect(() => new RopeImpostor([at(0), at(0)], {}, xpbd)).toThrow(/must have a length/);
        expect(() => new RopeImpostor([at(0), new Vector3(NaN, 0, 0)], {}, xpbd)).toThrow(/path point 1 is not a finite Vector3/);
        expect(() => new RopeImpostor([at(0), at(1)], { radius: 0 }, xpbd)).toThrow(/RopeImpostor: radius/);
        expect(() => new RopeImpostor([at(0), at(1)], { radius: -1 }, xpbd)).toThrow(RangeError);
        expect(() => new RopeImpostor([at(0), at(1)], { mass: 0 }, xpbd)).toThrow(/RopeImpostor: mass/);
        expect(() => new RopeImpostor([at(0), at(1)], { segments: 0 }, xpbd)).toThrow(/segments must be a positive integer/);
        expect(() => new RopeImpostor([at(0), at(1)], { bendStiffness: 2 }, xpbd)).toThrow(/RopeImpostor: bendStiffness/);
        expect(() => new RopeImpostor([at(0), at(1)], { render: "ribbon" as "tube" }, xpbd)).toThrow(/render must be "tube" or "lines"/);
        expect(() => new RopeImpostor([at(0), at(1)], { pins: [99] }, xpbd)).toThrow(/pin 99 is out of range/);
        expect(() => new RopeImpostor(CreateBox("box", {}, h.scene), {}, xpbd)).toThrow(/not made by CreateTube or CreateLines/);
        const rope = new RopeImpostor([at(0), at(1)], { segments: 2 }, xpbd);
        expect(() => rope.attachToBody([0], new TransformNode("bare", h.scene))).toThrow(/has no physics body/);
        expect(() => rope.attachToBody([0], null as unknown as TransformNode)).toThrow(/target is null/);
        const box = crate(h, 1, 0.1, [0, -1, 0]);
        expect(() => rope.attachToBody([3], box.body)).toThrow(/out of range/);
        expect(() => rope.attachToBody([0], box.body, new Vector3(Infinity, 0, 0))).toThrow(/localAnchor must be finite/);
        expect(() => (rope.bendStiffness = -0.1)).toThrow(/RopeImpostor: bendStiffness/);
        box.body.dispose();
        expect(() => rope.attachToBody([0], box.body)).toThrow(/is disposed/);
    });

    it("dispose releases everything: the body, its attachments, the mesh it created and every observer", () => {
        const counts = observerCounts(h);
        const box = crate(h, 1, 0.1, [0, 0.95, 0]);
        const rope = new RopeImpostor([new Vector3(0, 2, 0), new Vector3(0, 1, 0)], { segments: 10, pins: [0] }, xpbd);
        rope.attachToBody([10], box.body);
        h.step(3);
        expect(rope.body.attachments.count).toBe(1);
        const mesh = rope.mesh;
        rope.dispose();
        expect(rope.isDisposed).toBe(true);
        expect(mesh.isDisposed()).toBe(true);
        expect(xpbd.impostors).not.toContain(rope);
        expect(xpbd.world.bodies).not.toContain(rope.body);
        expect(rope.body.attachments.count).toBe(0);
        expect(observerCounts(h)).toEqual(counts);
        rope.dispose();
        // A rope on a mesh given keeps the mesh, and is disposed with it.
        const tube = CreateTube("tube", { path: [new Vector3(0, 1, 0), new Vector3(1, 1, 0)], radius: 0.02 }, h.scene);
        const onMesh = new RopeImpostor(tube, {}, xpbd);
        onMesh.dispose();
        expect(tube.isDisposed()).toBe(false);
        const again = new RopeImpostor(tube, {}, xpbd);
        tube.dispose();
        expect(again.isDisposed).toBe(true);
        h.step();
    });
});
