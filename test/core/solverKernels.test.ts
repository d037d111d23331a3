import { execFileSync } from "node:child_process";
import { Collider } from "../../src/core/collider";
import { colourOrder, reorderConstraints } from "../../src/core/constraintColouring";
import type { ConstraintSet } from "../../src/core/constraintSet";
import { DistanceConstraints } from "../../src/core/distanceConstraints";
import { IsometricBendConstraints } from "../../src/core/isometricBendConstraints";
import { KernelMemory } from "../../src/core/kernelMemory";
import type { SoftBody } from "../../src/core/softBody";
import { SubstepContext } from "../../src/core/substepContext";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { clothBody, tetBlock } from "../support/coreScenes";

/**
 * The WebAssembly kernels (`solverKernels.wat`) run the distance, isometric bending and tether loops operation for
 * operation as the JavaScript loops do, so a body gives the same bits with them as without (`wasmKernels: false`).
 * Each scene runs every kernel in both sweep directions, and what the kernels do not cover (contacts, soft pins,
 * volume, tearing) around them.
 */
describe("WebAssembly kernels", () => {
    /** Every position, velocity and λ of `body` as bits, to compare two runs exactly (NaN and −0 included). */
    function bits(body: SoftBody): BigInt64Array[] {
        const arrays = [body.positions, body.velocities, ...body.constraintSets.map((set) => set.lambdas)];
        return arrays.map((array) => new BigInt64Array(Float64Array.from(array).buffer));
    }

    function expectSameBits(a: SoftBody, b: SoftBody): void {
        const x = bits(a);
        const y = bits(b);
        expect(x.length).toBe(y.length);
        x.forEach((array, k) => {
            let differing = 0;
            for (let i = 0; i < array.length; i++) {
                if (array[i] !== y[k][i]) differing++;
            }
            expect({ array: k, differing }).toEqual({ array: k, differing: 0 });
        });
    }

    /** A scene: its world, the body to compare, and one step of it (1/60 s). */
    type Scene = (wasmKernels: boolean) => { world: XpbdWorld; body: SoftBody; steps: number; step: () => void; built: number };

    const scenes: [string, Scene][] = [
        [
            "a 20×20 cloth hung by two corners and a soft pin, in wind, draping over a sphere",
            (wasmKernels) => {
                const world = new XpbdWorld({ wind: [1.5, 0, 2], timing: false });
                const { body, columns } = clothBody(20, { plane: "xz", origin: [0, 1, 0], allowSleep: false, wasmKernels });
                body.setPinWeight(0, 1);
                body.setPinWeight(columns - 1, 1);
                body.setPinWeight(5, 0.6);
                world.addBody(body);
                world.addCollider(new Collider([{ kind: "sphere", center: [0.05, 0.45, 0.2], radius: 0.3 }]));
                return { world, body, steps: 240, step: () => world.step(1 / 60), built: body.particleCount };
            },
        ],
        [
            "a 16×16 cloth pulled apart until it tears (constraint lists rebuilt in place)",
            (wasmKernels) => {
                const world = new XpbdWorld({ timing: false });
                const { body, columns } = clothBody(16, { allowSleep: false, tearRatio: 1.3, wasmKernels });
                for (let r = 0; r < 3; r++) {
                    body.setPinWeight(r * columns, 1);
                    body.setPinWeight(r * columns + columns - 1, 1);
                }
                world.addBody(body);
                // The pinned ends move apart at 2 m/s each.
                const step = (): void => {
                    for (let r = 0; r < 3; r++) {
                        for (const [p, side] of [
                            [r * columns, -1],
                            [r * columns + columns - 1, 1],
                        ]) {
                            body.setPinTarget(
                                p,
                                body.positions[3 * p] + (side * 2) / 60,
                                body.positions[3 * p + 1],
                                body.positions[3 * p + 2],
                            );
                        }
                    }
                    world.step(1 / 60);
                };
                return { world, body, steps: 90, step, built: -1 };
            },
        ],
        [
            "a jelly block dropped on a ground box (distance kernel beside the JavaScript volume loop)",
            (wasmKernels) => {
                const world = new XpbdWorld({ timing: false });
                const body = tetBlock([0.4, 0.3, 0.4], [0, 0.4, 0], { mass: 2, resolution: 4, allowSleep: false, wasmKernels });
                world.addBody(body);
                world.addCollider(new Collider([{ kind: "box", center: [0, -0.5, 0], halfExtents: [2, 0.5, 2] }]));
                return { world, body, steps: 120, step: () => world.step(1 / 60), built: body.particleCount };
            },
        ],
    ];

    test.each(scenes)("%s: bit-identical with and without them", (_name, scene) => {
        const wasm = scene(true);
        const js = scene(false);
        // The comparison means something only if the two runs really took different paths.
        expect(wasm.body.kernelMemory).not.toBeNull();
        expect(js.body.kernelMemory).toBeNull();
        expect(wasm.body.positions.buffer).toBe(wasm.body.kernelMemory!.buffer);
        for (let s = 0; s < wasm.steps; s++) {
            wasm.step();
            js.step();
        }
        expect(wasm.world.stats.maxEdgeRatio).toBeGreaterThan(1);
        if (wasm.built < 0) {
            // The tearing scene tore: particles were split and the lists rebuilt.
            expect(wasm.body.tearing!.tornParticles).toBeGreaterThan(0);
        }
        expectSameBits(wasm.body, js.body);
    });

    test("a set projected on arrays outside the body's memory takes the JavaScript loop, with the same result", () => {
        const { body } = clothBody(8, { plane: "xz", wasmKernels: true });
        const { body: plain } = clothBody(8, { plane: "xz", wasmKernels: false });
        const bent = (b: SoftBody): Float64Array => {
            const x = new Float64Array(b.positions);
            for (let p = 0; p < b.particleCount; p++) x[3 * p + 1] = 0.05 * Math.sin(7 * p);
            return x;
        };
        const context = new SubstepContext();
        for (const b of [body, plain]) {
            const x = bent(b);
            for (const set of b.constraintSets) set.project(x, new Float64Array(b.inverseMasses), context, true);
            b.positions.set(x);
        }
        expectSameBits(body, plain);
    });

    test("the committed binary is what solverKernels.wat assembles to", () => {
        const output = execFileSync(process.execPath, ["scripts/build-kernels.mjs", "--check"], { encoding: "utf8" });
        expect(output).toMatch(/matches/);
    });
});

/**
 * The SIMD kernels (`solverKernelsSimd.wat`) project four constraints at a time, when they share no particle, and hand
 * the others to the scalar kernels. Each list here is swept (bending forward and back) by the JavaScript loop, the
 * scalar kernel and the SIMD kernel, from the same deformed placement, and must give the same bits. The placement
 * mixes untouched, slightly and strongly moved particles, so that the two bend elements of a pair often take
 * different branches (the in-plane correction in one lane only). A collapsed element gives a vanishing normal and
 * zero-length edges; a pinned corner, edges with no free end and, without compliance, elements with a zero
 * denominator: each such constraint sends its group of four to the scalar kernel.
 */
describe("SIMD kernels", () => {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: 10, segmentsY: 10 });
    const rest = grid.topology.positions;
    const particles = rest.length / 3;
    const bend = grid.topology.bend;
    const edges = Int32Array.from([...grid.topology.stretch, ...grid.topology.shear]);

    /** The ways a list is ordered: colour order, the same less its last constraint, and mesh order. */
    function orders(indices: Int32Array, arity: number): [string, Int32Array][] {
        const coloured = reorderConstraints(indices, arity, colourOrder(indices, arity, particles));
        return [
            // Consecutive constraints are independent but at some colour boundaries.
            ["colour order", coloured],
            // Not a multiple of four: the last ones (bending back to front: the first ones) go alone.
            ["colour order less its last constraint (an odd count)", coloured.subarray(0, coloured.length - arity)],
            // Neighbours share particles: every constraint goes alone, through the scalar kernel.
            ["mesh order", indices],
        ];
    }

    type Build = (indices: Int32Array, compliance: number, memory: KernelMemory | null) => ConstraintSet;
    const kinds: [string, Int32Array, number, readonly number[], Build][] = [
        [
            "bending",
            bend,
            4,
            [0, 1e-3],
            (indices, compliance, memory) => new IsometricBendConstraints(indices, rest, compliance, indices.length / 4, memory),
        ],
        [
            "distance",
            edges,
            2,
            [0, 1e-6],
            (indices, compliance, memory) => new DistanceConstraints(indices, rest, compliance, "stretch", indices.length / 2, memory),
        ],
    ];
    const cases = kinds.flatMap(([kind, indices, arity, compliances, build]) =>
        orders(indices, arity).map(([order, list]): [string, string, Int32Array, readonly number[], Build] => [
            kind,
            order,
            list,
            compliances,
            build,
        ]),
    );

    /** Deterministic numbers in [0, 1). */
    function randomSource(seed: number): () => number {
        let state = seed;
        return () => {
            state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
            return state / 2 ** 32;
        };
    }

    const random = randomSource(7);
    const deformed = Float64Array.from(rest);
    const inverseMasses = new Float64Array(particles);
    for (let p = 0; p < particles; p++) {
        const r = random();
        if (r > 0.6) {
            for (let i = 0; i < 3; i++) deformed[3 * p + i] += 0.03 * (random() - 0.5);
        } else if (r > 0.3) {
            // Out of the xy plane only, and little: the in-plane part of s stays under the threshold.
            deformed[3 * p + 2] += 1e-4 * random();
        }
        inverseMasses[p] = random() < 0.15 ? 0 : 1 + random();
    }
    for (let row = 0; row < 3; row++) for (let column = 0; column < 3; column++) inverseMasses[row * grid.columns + column] = 0;
    const collapsed = reorderConstraints(bend, 4, colourOrder(bend, 4, particles)).subarray(4 * 5, 4 * 6);
    for (const p of collapsed) for (let i = 0; i < 3; i++) deformed[3 * p + i] = rest[3 * collapsed[2] + i];

    /** The bits of the positions and λs after six sweeps, alternately forward and back, with `memory` or plain arrays. */
    function sweep(indices: Int32Array, build: Build, compliance: number, memory: KernelMemory | null, start = deformed): BigInt64Array {
        const x = memory !== null ? memory.f64(3 * particles) : new Float64Array(3 * particles);
        const w = memory !== null ? memory.f64(particles) : new Float64Array(particles);
        x.set(start);
        w.set(inverseMasses);
        const set = build(indices, compliance, memory);
        const context = new SubstepContext();
        context.setStep(1 / 60, 4);
        for (let s = 0; s < 6; s++) set.project(x, w, context, s % 2 === 1);
        const result = new Float64Array(3 * particles + set.count);
        result.set(x);
        result.set(set.lambdas.subarray(0, set.count), 3 * particles);
        return new BigInt64Array(result.buffer);
    }

    const bytes = KernelMemory.bytesFor([1 + 4 * particles + 6 * (bend.length + edges.length)], [bend.length + edges.length]);

    test("Node has WebAssembly SIMD, so the kernels under test are the SIMD ones", () => {
        expect(KernelMemory.create(bytes)!.simd).toBe(true);
        expect(KernelMemory.create(bytes, false)!.simd).toBe(false);
    });

    test.each(cases)("%s, %s: the same bits as the scalar kernel and the JavaScript loop", (_kind, _order, indices, compliances, build) => {
        for (const compliance of compliances) {
            const js = sweep(indices, build, compliance, null);
            const scalar = sweep(indices, build, compliance, KernelMemory.create(bytes, false));
            const simd = sweep(indices, build, compliance, KernelMemory.create(bytes));
            const differing = (a: BigInt64Array): number => a.reduce((sum, bits, i) => sum + (bits !== js[i] ? 1 : 0), 0);
            expect({ compliance, scalar: differing(scalar), simd: differing(simd) }).toEqual({ compliance, scalar: 0, simd: 0 });
        }
    });

    test("bending a cloth flat but for one raised particle: the flat elements, skipped, give the same bits", () => {
        // Elements with no fold and no λ move nothing and are skipped (whole groups of four in the SIMD kernel);
        // those around the raised particle are not, and the fold spreads one ring of elements per sweep.
        const raised = Float64Array.from(rest);
        raised[3 * (5 * grid.columns + 5) + 2] += 0.02;
        const [, indices, , compliances, build] = kinds[0];
        const coloured = reorderConstraints(indices, 4, colourOrder(indices, 4, particles));
        for (const compliance of compliances) {
            const js = sweep(coloured, build, compliance, null, raised);
            const scalar = sweep(coloured, build, compliance, KernelMemory.create(bytes, false), raised);
            const simd = sweep(coloured, build, compliance, KernelMemory.create(bytes), raised);
            const differing = (a: BigInt64Array): number => a.reduce((sum, bits, i) => sum + (bits !== js[i] ? 1 : 0), 0);
            expect({ compliance, scalar: differing(scalar), simd: differing(simd) }).toEqual({ compliance, scalar: 0, simd: 0 });
            // The fold was projected: particles other than the raised one left the plane.
            const x = new Float64Array(js.buffer, 0, 3 * particles);
            let lifted = 0;
            for (let p = 0; p < particles; p++) lifted += x[3 * p + 2] !== 0 ? 1 : 0;
            expect(lifted).toBeGreaterThan(1);
        }
    });
});
