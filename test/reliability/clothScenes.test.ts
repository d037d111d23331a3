/**
 * Random valid cloth scenes through the public API, on real Havok (NullEngine), as a new user would build them: 0.1 to
 * 100 m wide, 1 g to 10 kg, every stiffness, damping and friction in [0, 1], thickness 0.1–1.1% of the size, three
 * soft pins at random vertices, sometimes a static floor under it, and now and then an `applyImpulse` of up to 5 N·s.
 * In every step of every scene: the core needs no containment (no `onInvalidStateObservable`), and the render mesh's
 * positions and normals are finite. fast-check runs them from a fixed seed and prints a failing scene.
 */
import fc from "fast-check";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { createBody, createHavokScene } from "../support/havokScene";

const unit = fc.double({ min: 0, max: 1, noNaN: true });

const sceneArbitrary = fc.record({
    size: fc.double({ min: -1, max: 2, noNaN: true }).map((e) => 10 ** e),
    subdivisions: fc.integer({ min: 1, max: 16 }),
    mass: fc.double({ min: -3, max: 1, noNaN: true }).map((e) => 10 ** e),
    // Half the scenes get an almost stretch-free cloth: the class where a bend projection along a wrong gradient blew up.
    stretchStiffness: fc.oneof(unit, fc.double({ min: 0, max: 0.05, noNaN: true })),
    shearStiffness: unit,
    bendStiffness: unit,
    damping: unit,
    friction: unit,
    thickness: fc.double({ min: 0.001, max: 0.011, noNaN: true }),
    floor: fc.boolean(),
    pins: fc.array(fc.tuple(unit, unit), { minLength: 3, maxLength: 3 }),
    /** Steps at which an impulse is applied, with its components (N·s) and where on the cloth (fractions). */
    impulses: fc.array(
        fc.record({
            step: fc.integer({ min: 0, max: 239 }),
            j: fc.tuple(
                fc.double({ min: -5, max: 5, noNaN: true }),
                fc.double({ min: -5, max: 5, noNaN: true }),
                fc.double({ min: -5, max: 5, noNaN: true }),
            ),
            at: fc.tuple(unit, unit),
        }),
        { maxLength: 12 },
    ),
});

test("random valid cloth scenes never need containment, and their render meshes stay finite", async () => {
    await fc.assert(
        fc.asyncProperty(sceneArbitrary, async (spec) => {
            const h = await createHavokScene({ frameTimeMs: 1000 / 60 });
            try {
                const s = spec.size;
                if (spec.floor) {
                    createBody(
                        h.scene,
                        { kind: "box", extents: [4 * s, 0.2 * s, 4 * s] },
                        { motionType: PhysicsMotionType.STATIC, position: [0, -0.6 * s, 0] },
                    );
                }
                const xpbd = new XpbdPlugin(h.scene);
                const mesh = CreateGround("cloth", { width: s, height: s, subdivisions: spec.subdivisions }, h.scene);
                mesh.position.y = 0.5 * s;
                const cloth = new ClothImpostor(
                    mesh,
                    {
                        mass: spec.mass,
                        stretchStiffness: spec.stretchStiffness,
                        shearStiffness: spec.shearStiffness,
                        bendStiffness: spec.bendStiffness,
                        damping: spec.damping,
                        friction: spec.friction,
                        thickness: spec.thickness * s,
                    },
                    xpbd,
                );
                const vertices = mesh.getTotalVertices();
                for (const [at, weight] of spec.pins) {
                    cloth.setPinWeight(Math.min(vertices - 1, Math.floor(at * vertices)), weight);
                }
                let invalid = 0;
                cloth.onInvalidStateObservable.add(() => invalid++);
                for (let step = 0; step < 240; step++) {
                    for (const impulse of spec.impulses) {
                        if (impulse.step === step) {
                            const point = new Vector3((impulse.at[0] - 0.5) * s, 0.5 * s, (impulse.at[1] - 0.5) * s);
                            cloth.applyImpulse(Vector3.FromArray(impulse.j), point);
                        }
                    }
                    h.step();
                    const positions = mesh.getVerticesData(VertexBuffer.PositionKind) as Float32Array;
                    const normals = mesh.getVerticesData(VertexBuffer.NormalKind) as Float32Array;
                    if (invalid > 0 || !positions.every(Number.isFinite) || !normals.every(Number.isFinite)) {
                        throw new Error(
                            `step ${step}: ${invalid} invalid states; render positions finite ${positions.every(Number.isFinite)}, normals finite ${normals.every(Number.isFinite)}`,
                        );
                    }
                }
                expect(cloth.body.positions.every(Number.isFinite)).toBe(true);
            } finally {
                h.dispose();
            }
        }),
        { seed: 20261204, numRuns: 40 },
    );
}, 300_000);
