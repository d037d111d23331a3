import { BendConstraints, writeHinge } from "../../src/core/bendConstraints";
import { Collider } from "../../src/core/collider";
import { IsometricBendConstraints } from "../../src/core/isometricBendConstraints";
import { measureBody } from "../../src/core/bodyMeasures";
import { SoftBody } from "../../src/core/softBody";
import { MAX_COORDINATE, XpbdWorld } from "../../src/core/xpbdWorld";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { GpuSoftBodySolver, type GpuFigures } from "../../src/gpu";
import { clothBody, tetBlock } from "../support/coreScenes";
import { F32_ROUNDOFF } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

const U = F32_ROUNDOFF;

/**
 * Bounds on how far the GPU's f32 figures may be from the CPU's f64 `measureBody` on the same state (the GPU's
 * positions and velocities read back: the inputs are identical). Each f32 operation rounds once by at most U of its
 * result: an edge ratio (differences, a dot product, a square root, a division, the rest length stored in f32) is
 * within 8U of itself; a tet's volume within 10U·|ab||ac||ad|/6; ½mv² within 6U. A sum of k terms in sequence (a
 * reduction thread's stride of ceil(count / 64), then 6 tree levels) is within k·U·Σ|term| of the exact sum.
 */
function figureBounds(body: SoftBody): Record<string, number> {
    const x = body.positions;
    const v = body.velocities;
    const sumLength = (count: number): number => Math.ceil(count / 64) + 6;
    const edges = body.stretch.count;
    let maxRatio = 0;
    let sumAbs = 0;
    for (let c = 0; c < edges; c++) {
        const a = 3 * body.stretch.indices[2 * c];
        const b = 3 * body.stretch.indices[2 * c + 1];
        const ratio = Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]) / body.stretch.restLengths[c];
        maxRatio = Math.max(maxRatio, ratio);
        sumAbs += Math.abs(ratio - 1);
    }
    const ratioBound = 8 * U * maxRatio + U;
    const kEdges = sumLength(edges);
    const n = body.particleCount;
    let energy = 0;
    for (let p = 0; p < n; p++) {
        energy += 0.5 * body.masses[p] * (v[3 * p] ** 2 + v[3 * p + 1] ** 2 + v[3 * p + 2] ** 2);
    }
    const tets = body.volume.count;
    let volumeError = 0;
    let residualError = 0;
    let restTotal = 0;
    let sumVolume = 0;
    let sumResidual = 0;
    for (let t = 0; t < tets; t++) {
        const [a, b, c, d] = Array.from(body.volume.indices.subarray(4 * t, 4 * t + 4), (i) => 3 * i);
        const len = (i: number): number => Math.hypot(x[i] - x[a], x[i + 1] - x[a + 1], x[i + 2] - x[a + 2]);
        const err = (10 * U * len(b) * len(c) * len(d)) / 6;
        const rest = body.volume.restVolumes[t];
        const volume = (len(b) * len(c) * len(d)) / 6;
        volumeError += err;
        residualError = Math.max(residualError, err / rest + 3 * U * (volume / rest) + U);
        restTotal += rest;
        sumVolume += volume;
        sumResidual += volume / rest + 1;
    }
    const kTets = sumLength(tets);
    return {
        ratio: ratioBound,
        meanRatio: ratioBound + (kEdges * U * sumAbs) / Math.max(edges, 1),
        energy: (6 + sumLength(n)) * U * energy,
        speed: 4 * U,
        volumeResidual: residualError,
        meanVolumeResidual: residualError + (kTets * U * sumResidual) / Math.max(tets, 1),
        volumeRatio: (volumeError + kTets * U * sumVolume) / Math.max(restTotal, 1e-30),
    };
}

/**
 * Per bend element, how far the GPU's f32 bend residual may be from the CPU's f64 one on the same positions (the
 * core's `measure` of the body's model, redone here in f64 to get the sizes the roundings scale with).
 *
 * Isometric, r = |s · n| / (|n| L): the differences round by U of themselves, f = bc − ac by U(|ac| + |bc|) more, a
 * cross product of vectors with errors adds theirs times the other's length and 3U of the product, so |δn| ≤ 12U·D²
 * (D = |ac| + |bc| + |dc|); s = Σ k v rounds each term 3 times (weight stored in f32, difference, product) and the
 * sum twice: |δs| ≤ 5U·K (K = Σ |k||v|); the dot adds 3U|s||n|. Divided by |n|L (relative error |δn|/|n| + 5U):
 * |δr| ≤ U·(8K + 12K·D²/|n|)/L + r·(12U·D²/|n| + 5U).
 *
 * Dihedral, θ = atan2(y, x) with x = n₁·n₂ and y = (n₁ × n₂)·ê, where x² + y² = |n₁|²|n₂|²: the normals round by
 * ρᵢ = 10U·|the two edges' product| / |nᵢ| relative, x and y by |n₁||n₂|(ρ₁ + ρ₂ + 10U), so θ by 2ρ₁ + 2ρ₂ + 20U;
 * WGSL allows atan2 4096 ULP of its result; the rest angle stored in f32 and the wrap add 3πU.
 */
function bendBounds(body: SoftBody): Float64Array {
    const x = body.positions;
    const set = body.bend;
    const bounds = new Float64Array(set.count);
    const at = (p: number): number[] => [x[3 * p], x[3 * p + 1], x[3 * p + 2]];
    const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const norm = (a: number[]): number => Math.sqrt(dot(a, a));
    for (let e = 0; e < set.count; e++) {
        const [a, b, c, d] = Array.from(set.indices.subarray(4 * e, 4 * e + 4), at);
        if (set instanceof IsometricBendConstraints) {
            const [ac, bc, dc] = [sub(a, c), sub(b, c), sub(d, c)];
            const n = norm(cross(dc, sub(bc, ac)));
            const k = set.weights.subarray(4 * e, 4 * e + 4);
            const K = Math.abs(k[0]) * norm(ac) + Math.abs(k[1]) * norm(bc) + Math.abs(k[3]) * norm(dc);
            const s = [0, 1, 2].map((i) => k[0] * ac[i] + k[1] * bc[i] + k[3] * dc[i]);
            const L = Math.sqrt(set.hingeLengths2[e]);
            const D = norm(ac) + norm(bc) + norm(dc);
            const r = Math.abs(dot(s, cross(dc, sub(bc, ac)))) / (n * L);
            bounds[e] = (U * (8 * K + (12 * K * D * D) / n)) / L + r * ((12 * U * D * D) / n + 5 * U);
        } else {
            const n1 = norm(cross(sub(c, a), sub(d, a)));
            const n2 = norm(cross(sub(d, b), sub(c, b)));
            const rho1 = (10 * U * norm(sub(c, a)) * norm(sub(d, a))) / n1;
            const rho2 = (10 * U * norm(sub(d, b)) * norm(sub(c, b))) / n2;
            const hinge = new Float64Array(10);
            writeHinge(x, set.indices[4 * e], set.indices[4 * e + 1], set.indices[4 * e + 2], set.indices[4 * e + 3], hinge);
            // The ULP of |θ| (at least that of 2⁻¹²⁶, the smallest normal).
            const ulp = 2 ** (Math.floor(Math.log2(Math.max(Math.abs(hinge[9]), 2 ** -126))) - 23);
            bounds[e] = 2 * rho1 + 2 * rho2 + 20 * U + 4096 * ulp + 3 * Math.PI * U;
        }
    }
    return bounds;
}

/** The CPU's figures of the GPU's state: the state read back into the body, then `measureBody` and the sleep speed. */
async function cpuFiguresOfGpuState(solver: GpuSoftBodySolver): Promise<{ maxSpeed: number }> {
    const body = solver.body;
    await solver.readStateInto(body.positions, body.velocities);
    measureBody(body, true);
    let maxSpeed2 = 0;
    for (let p = 0; p < body.particleCount; p++) {
        if (body.inverseMasses[p] !== 0) {
            maxSpeed2 = Math.max(
                maxSpeed2,
                body.velocities[3 * p] ** 2 + body.velocities[3 * p + 1] ** 2 + body.velocities[3 * p + 2] ** 2,
            );
        }
    }
    return { maxSpeed: Math.sqrt(maxSpeed2) };
}

/** Reads the GPU's figures and residuals, then checks them against the CPU's on the same state; returns the GPU's. */
async function expectFiguresAgree(solver: GpuSoftBodySolver, label: string): Promise<GpuFigures> {
    const body = solver.body;
    const n = body.particleCount;
    const gpu = { ...(await solver.readFigures(true)) };
    expect(gpu.step).toBe(solver.stepCount);
    const stretchResidual = body.stretchResidual.slice(0, n);
    const volumeResidual = body.volumeResidual.slice(0, n);
    const bendResidual = body.bendResidual.slice(0, n);
    const { maxSpeed } = await cpuFiguresOfGpuState(solver);
    const cpu = body.stats;
    const bound = figureBounds(body);
    const bends = bendBounds(body);
    let bendBound = 0;
    let bendSum = 0;
    let bendResidualSum = 0;
    for (let e = 0; e < bends.length; e++) {
        bendBound = Math.max(bendBound, bends[e]);
        bendSum += bends[e];
    }
    for (let p = 0; p < n; p++) {
        bendResidualSum += body.bendResidual[p];
    }
    // The mean: the elements' bounds, then the sum's k roundings of at most the sum of the residuals (each element's
    // residual is at most its particles' largest, so 4 × Σ particle residuals covers it).
    const meanBendBound = (bendSum + (Math.ceil(bends.length / 64) + 6) * U * 4 * bendResidualSum) / Math.max(bends.length, 1);
    const rows: [string, number, number, number][] = [
        ["maxEdgeRatio", gpu.maxEdgeRatio, cpu.maxEdgeRatio, bound.ratio],
        ["meanEdgeRatio", gpu.meanEdgeRatio, cpu.meanEdgeRatio, bound.meanRatio],
        ["maxStretchResidual", gpu.maxStretchResidual, cpu.maxStretchResidual, bound.ratio],
        ["meanStretchResidual", gpu.meanStretchResidual, cpu.meanStretchResidual, bound.meanRatio],
        ["kineticEnergy", gpu.kineticEnergy, cpu.kineticEnergy, bound.energy],
        ["maxSpeed", gpu.maxSpeed, maxSpeed, bound.speed * maxSpeed],
        ["maxVolumeResidual", gpu.maxVolumeResidual, cpu.maxVolumeResidual, bound.volumeResidual],
        ["meanVolumeResidual", gpu.meanVolumeResidual, cpu.meanVolumeResidual, bound.meanVolumeResidual],
        ["volumeRatio", gpu.volumeRatio, cpu.volumeRatio, bound.volumeRatio],
        ["maxBendResidual", gpu.maxBendResidual, cpu.maxBendResidual, bendBound],
        ["meanBendResidual", gpu.meanBendResidual, cpu.meanBendResidual, meanBendBound],
    ];
    const report = rows.map(
        ([name, g, c, b]) => `${name} ${g} vs ${c} (diff ${Math.abs(g - c).toExponential(2)}, bound ${b.toExponential(2)})`,
    );
    let stretchDiff = 0;
    let volumeDiff = 0;
    let bendDiff = 0;
    for (let p = 0; p < n; p++) {
        stretchDiff = Math.max(stretchDiff, Math.abs(stretchResidual[p] - body.stretchResidual[p]));
        volumeDiff = Math.max(volumeDiff, Math.abs(volumeResidual[p] - body.volumeResidual[p]));
        bendDiff = Math.max(bendDiff, Math.abs(bendResidual[p] - body.bendResidual[p]));
    }
    // The most stretched edge: the CPU's arg-max (first of equals) in f64, and the GPU's, which may pick an edge
    // whose ratio ties with it within the ratios' rounding.
    const ratio = (c: number): number => {
        const [a, b] = [3 * body.stretch.indices[2 * c], 3 * body.stretch.indices[2 * c + 1]];
        const x = body.positions;
        return Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]) / body.stretch.restLengths[c];
    };
    let cpuEdge = body.stretch.count > 0 ? 0 : -1;
    for (let c = 1; c < body.stretch.count; c++) {
        if (ratio(c) > ratio(cpuEdge)) cpuEdge = c;
    }
    console.log(
        `${label}:\n  ${report.join("\n  ")}\n  residual arrays: stretch ${stretchDiff.toExponential(2)}, volume ` +
            `${volumeDiff.toExponential(2)}, bend ${bendDiff.toExponential(2)} (bound ${bendBound.toExponential(2)})\n  ` +
            `most stretched edge: GPU ${gpu.mostStretchedEdge}, CPU ${cpuEdge}`,
    );
    expect(gpu.invalidParticles).toBe(0);
    expect(gpu.mostStretchedEdge >= 0).toBe(cpuEdge >= 0);
    if (cpuEdge >= 0) {
        expect(ratio(cpuEdge) - ratio(gpu.mostStretchedEdge)).toBeLessThanOrEqual(2 * bound.ratio);
    }
    for (const [name, g, c, b] of rows) {
        expect({ name, diff: Math.abs(g - c) <= b ? 0 : Math.abs(g - c) }).toEqual({ name, diff: 0 });
    }
    expect(gpu.overStretchedEdges).toBe(cpu.overStretchedEdges);
    // The heatmaps: each particle's largest residual of its edges (tets) is within the bound of one edge's (tet's).
    expect(stretchDiff).toBeLessThanOrEqual(bound.ratio);
    expect(volumeDiff).toBeLessThanOrEqual(bound.volumeResidual);
    expect(bendDiff).toBeLessThanOrEqual(bendBound);
    return gpu;
}

/**
 * The body's figures reduced on the GPU (`GpuSoftBodySolver.readFigures`) against the CPU's `measureBody` on the same
 * state, within bounds derived from f32 rounding; they follow the state; the reduction is deterministic.
 */
describeGpu("body figures reduced on the GPU", (device) => {
    test("a 16² cloth hung by two corners, mid-swing: figures and stretch heatmap as the CPU measures them", async () => {
        const { body, columns } = clothBody(16, { plane: "xz", origin: [0, 1, 0], allowSleep: false });
        body.setPinWeight(0, 1);
        body.setPinWeight(columns - 1, 1);
        const solver = await GpuSoftBodySolver.create(device(), body, new XpbdWorld());
        try {
            for (let s = 0; s < 20; s++) {
                solver.step(1 / 60);
            }
            const gpu = await expectFiguresAgree(solver, "hanging 16² cloth, 20 steps");
            // Mid-swing: it moves and stretches, so the figures compared are not zeros.
            expect(gpu.kineticEnergy).toBeGreaterThan(0.1);
            expect(gpu.maxEdgeRatio).toBeGreaterThan(1.001);
            expect(gpu.volumeRatio).toBe(0);
            expect(body.bend).toBeInstanceOf(IsometricBendConstraints);
            expect(gpu.maxBendResidual).toBeGreaterThan(0.01);
            // Deterministic: the same state measured again gives the same bits.
            const again = await solver.readFigures(true);
            expect({ ...again }).toEqual(gpu);
            // The figures follow the state: the cloth scaled by 1.1 about the origin, at rest.
            for (let i = 0; i < body.positions.length; i++) {
                body.positions[i] *= 1.1;
                body.previousPositions[i] = body.positions[i];
            }
            body.velocities.fill(0);
            solver.writeState();
            const scaled = await solver.readFigures(false);
            expect(scaled.kineticEnergy).toBe(0);
            expect(scaled.maxSpeed).toBe(0);
            expect(scaled.maxEdgeRatio).toBeCloseTo(1.1 * gpu.maxEdgeRatio, 5);
            expect(scaled.meanEdgeRatio).toBeCloseTo(1.1 * gpu.meanEdgeRatio, 5);
        } finally {
            solver.dispose();
        }
    }, 120_000);

    test("a 16² cloth curved at rest (dihedral bending), mid-swing: bend figures and heatmap as the CPU measures them", async () => {
        // A half cylinder of radius 1/π m (the 1 m sheet rolled about x): every hinge across the roll has a rest angle
        // of π/16, so the GPU reads each element's own rest angle (a flat sheet's are all 0).
        const grid = createClothGrid({ width: 1, height: 1, segmentsX: 16, segmentsY: 16, plane: "xz", origin: [0, 1, 0] });
        const t = grid.topology;
        const positions = Float64Array.from(t.positions);
        for (let p = 0; p < positions.length; p += 3) {
            const angle = Math.PI * (positions[p + 2] + 0.5);
            positions[p + 1] = 1 + Math.sin(angle) / Math.PI;
            positions[p + 2] = -Math.cos(angle) / Math.PI;
        }
        const body = new SoftBody(
            { positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 1 },
            { allowSleep: false, bendModel: "dihedral", bendCompliance: 1e-2 },
        );
        const columns = grid.columns;
        body.setPinWeight(0, 1);
        body.setPinWeight(columns - 1, 1);
        const solver = await GpuSoftBodySolver.create(device(), body, new XpbdWorld());
        try {
            for (let s = 0; s < 20; s++) {
                solver.step(1 / 60);
            }
            expect(body.bend).toBeInstanceOf(BendConstraints);
            expect(Math.max(...Array.from(body.bend.restAngles, Math.abs))).toBeCloseTo(Math.PI / 16, 6);
            const gpu = await expectFiguresAgree(solver, "hanging curved 16² cloth, dihedral bending, 20 steps");
            expect(gpu.maxBendResidual).toBeGreaterThan(0.05);
        } finally {
            solver.dispose();
        }
    }, 120_000);

    test("a non-finite or runaway state is reported by the figures and contained: back to the last valid read, at rest", async () => {
        const { body, columns } = clothBody(8, { plane: "xz", origin: [0, 1, 0], allowSleep: false });
        body.setPinWeight(0, 1);
        body.setPinWeight(columns - 1, 1);
        const solver = await GpuSoftBodySolver.create(device(), body, new XpbdWorld());
        const n = body.particleCount;
        // One particle's coordinate made NaN or infinite, or every particle moved beyond MAX_COORDINATE (one alone
        // would be pulled back by its edges), between two steps.
        const corrupt = async (what: "position" | "velocity" | "every position", value: number): Promise<void> => {
            await solver.readStateInto(body.positions, body.velocities);
            if (what === "every position") {
                for (let p = 0; p < n; p++) body.positions[3 * p + 1] = value;
            } else {
                (what === "position" ? body.positions : body.velocities)[3 * 20 + 1] = value;
            }
            body.previousPositions.set(body.positions);
            solver.writeState();
        };
        try {
            // A NaN or an infinity spreads through the edges; a cloth far away is pulled back by its pins within a
            // step (on the CPU too, which would report it at the end of that step), so it is measured at once.
            for (const [what, value, stepsAfter] of [
                ["position", NaN, 2],
                ["velocity", Infinity, 2],
                ["every position", -2 * MAX_COORDINATE, 0],
            ] as const) {
                for (let s = 0; s < 4; s++) {
                    solver.step(1 / 60);
                }
                const valid = await solver.readFigures();
                expect(valid.invalidParticles).toBe(0);
                const validPositions = await solver.readPositions();
                for (let s = 0; s < 2; s++) {
                    solver.step(1 / 60);
                }
                await corrupt(what, value);
                for (let s = 0; s < stepsAfter; s++) {
                    solver.step(1 / 60);
                }
                const faulty = { ...(await solver.readFigures()) };
                const restored = await solver.readPositions();
                const velocities = await solver.readVelocities();
                console.log(`${what} ${value}: ${faulty.invalidParticles} of ${n} particles invalid ${stepsAfter} steps later`);
                expect(faulty.invalidParticles).toBeGreaterThanOrEqual(1);
                expect(faulty.invalidParticles).toBeLessThanOrEqual(n);
                // Contained: the positions of the last valid read, bit for bit, at rest.
                expect(Array.from(restored)).toEqual(Array.from(validPositions));
                expect(velocities.every((v) => v === 0)).toBe(true);
                // It carries on from there: valid, and moving under gravity again (the pins' inverse masses came back).
                solver.step(1 / 60);
                const after = await solver.readFigures();
                expect(after.invalidParticles).toBe(0);
                expect(after.kineticEnergy).toBeGreaterThan(0);
                const moved = await solver.readPositions();
                expect(moved[1]).toBe(validPositions[1]);
                expect(moved[3 * 21 + 1]).toBeLessThan(validPositions[3 * 21 + 1]);
            }
        } finally {
            solver.dispose();
        }
    }, 120_000);

    test("a jelly (tetrahedralised 0.4 m box) squashed on landing: volume figures and heatmap as the CPU measures them", async () => {
        const body = tetBlock([0.4, 0.4, 0.4], [0, 0.3, 0], { allowSleep: false, volumeCompliance: 1e-6 });
        const world = new XpbdWorld();
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        const solver = await GpuSoftBodySolver.create(device(), body, world);
        try {
            for (let s = 0; s < 12; s++) {
                solver.step(1 / 60);
            }
            const gpu = await expectFiguresAgree(solver, "jelly landing, 12 steps");
            expect(gpu.maxVolumeResidual).toBeGreaterThan(1e-4);
            expect(gpu.volumeRatio).toBeGreaterThan(0.5);
            // The figures follow the state: scaled by 1.1, the volume by 1.331.
            for (let i = 0; i < body.positions.length; i++) {
                body.positions[i] *= 1.1;
            }
            solver.writeState();
            const scaled = await solver.readFigures(false);
            expect(scaled.volumeRatio).toBeCloseTo(1.331 * gpu.volumeRatio, 4);
        } finally {
            solver.dispose();
        }
    }, 120_000);
});
