/**
 * ClothImpostor against real Havok (WASM, NullEngine): draping over static Havok shapes, the render write-back
 * in the mesh's local space, and the pin / option API in render-vertex indices.
 */
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { createBody, createHavokScene, type HavokScene, type ShapeSpec } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";

const THICKNESS = 0.01;

/** Signed distance from a point to a static test shape at `center` (exact geometry, not the collider's). */
type Distance = (x: number, y: number, z: number) => number;

interface DrapeCase {
    name: string;
    spec: ShapeSpec;
    center: [number, number, number];
    distance: Distance;
}

const cases: DrapeCase[] = [
    { name: "sphere", spec: { kind: "sphere", radius: 0.5 }, center: [0, 0.5, 0], distance: (x, y, z) => Math.hypot(x, y - 0.5, z) - 0.5 },
    {
        name: "box",
        spec: { kind: "box", extents: [0.6, 0.6, 0.6] },
        center: [0, 0.3, 0],
        distance: (x, y, z) => {
            const qx = Math.abs(x) - 0.3,
                qy = Math.abs(y - 0.3) - 0.3,
                qz = Math.abs(z) - 0.3;
            return Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0)) + Math.min(Math.max(qx, qy, qz), 0);
        },
    },
    {
        name: "capsule",
        spec: { kind: "capsule", pointA: [-0.4, 0, 0], pointB: [0.4, 0, 0], radius: 0.3 },
        center: [0, 0.3, 0],
        distance: (x, y, z) => Math.hypot(x - Math.max(-0.4, Math.min(0.4, x)), y - 0.3, z) - 0.3,
    },
];

describe("ClothImpostor on real Havok", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it.each(cases)("drapes over a static Havok $name without penetrating and settles", ({ spec, center, distance }) => {
        createBody(h.scene, spec, { motionType: PhysicsMotionType.STATIC, position: center });
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cloth", { width: 1.2, height: 1.2, subdivisions: 10 }, h.scene);
        mesh.position.y = 1.0;
        const cloth = new ClothImpostor(mesh, { mass: 0.2, thickness: THICKNESS, allowSleep: false }, xpbd);
        let minDistance = Infinity;
        for (let s = 0; s < 180; s++) {
            h.step();
            const x = cloth.body.positions;
            for (let i = 0; i < x.length; i += 3) {
                minDistance = Math.min(minDistance, distance(x[i], x[i + 1], x[i + 2]));
            }
        }
        const kinetic = cloth.body.kineticEnergy();
        console.log(
            `drape ${spec.kind}: min distance to surface ${(minDistance * 1000).toFixed(3)} mm (thickness 10 mm), kinetic energy ${kinetic.toExponential(2)} J, contacts ${xpbd.stats.contacts}`,
        );
        // Deepest point: no particle comes closer to the surface than thickness − 1 mm.
        expect(minDistance).toBeGreaterThan(THICKNESS - 1e-3);
        // Draped on the shape, not fallen through or flung away.
        expect(cloth.getCenterOfMass().y).toBeGreaterThan(center[1]);
        expect(kinetic).toBeLessThan(1e-3);
    });

    it("writes positions back in the mesh's local space (parented, rotated, scaled) with normals and bounds", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const parent = new TransformNode("parent", h.scene);
        parent.position.set(2, 3, -1);
        parent.rotation.y = 0.7;
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        mesh.parent = parent;
        mesh.scaling.set(2, 1, 0.5);
        mesh.rotation.x = 0.3;
        const cloth = new ClothImpostor(mesh, { mass: 0.1 }, xpbd);
        const restWorld = cloth.body.positions.slice();
        h.step(20);
        const local = mesh.getVerticesData(VertexBuffer.PositionKind) as Float32Array;
        const world = mesh.computeWorldMatrix(true);
        let maxError = 0;
        for (let v = 0; v < local.length / 3; v++) {
            const p = Vector3.TransformCoordinates(Vector3.FromArray(local, 3 * v), world);
            const q = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[v]);
            maxError = Math.max(maxError, p.subtract(q).length());
        }
        expect(maxError).toBeLessThan(1e-5);
        // It fell (slowed by air drag): the rest pose was honoured in world space, then simulated.
        expect(cloth.body.positions[1]).toBeLessThan(restWorld[1] - 0.1);
        const bounds = mesh.getBoundingInfo().boundingBox;
        expect(bounds.maximumWorld.y).toBeCloseTo(Math.max(...Array.from(cloth.body.positions).filter((_, i) => i % 3 === 1)), 4);
        const normals = mesh.getVerticesData(VertexBuffer.NormalKind) as Float32Array;
        expect(Math.hypot(normals[0], normals[1], normals[2])).toBeCloseTo(1, 5);
        expect(mesh.getVertexBuffer(VertexBuffer.PositionKind)?.isUpdatable()).toBe(true);
    });

    it("pins, options and events use render-vertex indices and plain values", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 8 }, h.scene);
        mesh.position.y = 2;
        const cloth = new ClothImpostor(mesh, { mass: 0.5, bendStiffness: 0.2, pins: [0, 8] }, xpbd);
        expect(cloth.kind).toBe("cloth");
        expect(cloth.getPinWeight(0)).toBe(1);
        expect(cloth.getPinWeight(1)).toBe(0);
        const pinned0 = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0]);
        h.step(30);
        expect(
            Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0])
                .subtract(pinned0)
                .length(),
        ).toBeLessThan(1e-9);
        cloth.setPinWeight(4, 0.5);
        const weights = cloth.getPinWeights();
        expect(weights.length).toBe(81);
        expect(weights[4]).toBe(0.5);
        weights.fill(0);
        cloth.setPinWeights(weights);
        expect(cloth.getPinWeight(0)).toBe(0);

        cloth.stretchStiffness = 0.8;
        cloth.mass = 1;
        expect(cloth.body.masses.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
        expect(cloth.getOptions()).toEqual(
            expect.objectContaining({
                mass: 1,
                stretchStiffness: 0.8,
                shearStiffness: 0.9,
                bendStiffness: 0.2,
                friction: 0.5,
                thickness: 0.01,
            }),
        );
        expect(() => (cloth.bendStiffness = 2)).toThrow(/bendStiffness must be in \[0, 1\]/);
        expect(() => new ClothImpostor(mesh, { mass: -1 }, xpbd)).toThrow(/mass must be a positive/);
        expect(xpbd.getImpostorForMesh(mesh)).toBe(cloth);
        expect(xpbd.impostors).toEqual([cloth]);
        // The centre of mass is Σ m·x / Σ m over the particles (here with the two corners re-pinned at weight 1 for
        // 30 more steps): recomputed from the particles; and the cloth hangs symmetrically between its pins, below them.
        cloth.setPinWeight(0, 1);
        cloth.setPinWeight(8, 1);
        h.step(30);
        const center = cloth.getCenterOfMass();
        const expected = new Vector3();
        let total = 0;
        for (let i = 0; i < cloth.body.particleCount; i++) {
            const m = cloth.body.masses[i];
            expected.addInPlace(Vector3.FromArray(cloth.body.positions, 3 * i).scale(m));
            total += m;
        }
        expected.scaleInPlace(1 / total);
        const pinA = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[0]);
        const pinB = Vector3.FromArray(cloth.body.positions, 3 * cloth.vertexToParticle[8]);
        console.log(`cloth centre of mass ${center.toString()}, pins at ${pinA.toString()} and ${pinB.toString()}`);
        expect(center).toBeInstanceOf(Vector3);
        expect(center.subtract(expected).length()).toBeLessThan(1e-12);
        // Mirror-symmetric about the plane halfway between the pins (1 mm: the solver's sweep order is not symmetric).
        expect(Math.abs(Vector3.Dot(center.subtract(pinA.add(pinB).scale(0.5)), pinB.subtract(pinA).normalize()))).toBeLessThan(1e-3);
        expect(center.y).toBeLessThan(pinA.y - 0.1);
    });
});

describe("Babylon conventions", () => {
    it("getClassName names each class, and the ToRef getters write into the vector they are given", async () => {
        const h = await createHavokScene();
        const xpbd = new XpbdPlugin(h.scene);
        const mesh = CreateGround("cloth", { width: 1, height: 1, subdivisions: 4 }, h.scene);
        mesh.position.y = 2;
        const cloth = new ClothImpostor(mesh, { mass: 0.5 }, xpbd);
        const jelly = new SoftBodyImpostor(CreateBox("jelly", { size: 0.4 }, h.scene), { mass: 1, resolution: 3 }, xpbd);
        expect([xpbd.getClassName(), cloth.getClassName(), jelly.getClassName()]).toEqual([
            "XpbdPlugin",
            "ClothImpostor",
            "SoftBodyImpostor",
        ]);
        h.step(10);
        const ref = new Vector3();
        expect(cloth.getCenterOfMassToRef(ref)).toBe(ref);
        expect(ref.y).toBeCloseTo(cloth.getCenterOfMass().y, 12);
        expect(ref.y).toBeLessThan(2); // it fell
        expect(cloth.getLinearVelocityToRef(ref)).toBe(ref);
        expect(ref.y).toBeCloseTo(cloth.getLinearVelocity().y, 12);
        expect(ref.y).toBeLessThan(-0.5); // about g·t = 1.6 m/s down after 10 steps, less air drag
        h.dispose();
    });
});
