import { Collider } from "../../src/core/collider";
import { measureBody } from "../../src/core/bodyMeasures";
import type { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
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
    const { maxSpeed } = await cpuFiguresOfGpuState(solver);
    const cpu = body.stats;
    const bound = figureBounds(body);
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
    ];
    const report = rows.map(
        ([name, g, c, b]) => `${name} ${g} vs ${c} (diff ${Math.abs(g - c).toExponential(2)}, bound ${b.toExponential(2)})`,
    );
    let stretchDiff = 0;
    let volumeDiff = 0;
    for (let p = 0; p < n; p++) {
        stretchDiff = Math.max(stretchDiff, Math.abs(stretchResidual[p] - body.stretchResidual[p]));
        volumeDiff = Math.max(volumeDiff, Math.abs(volumeResidual[p] - body.volumeResidual[p]));
    }
    console.log(
        `${label}:\n  ${report.join("\n  ")}\n  residual arrays: stretch ${stretchDiff.toExponential(2)}, volume ${volumeDiff.toExponential(2)}`,
    );
    for (const [name, g, c, b] of rows) {
        expect({ name, diff: Math.abs(g - c) <= b ? 0 : Math.abs(g - c) }).toEqual({ name, diff: 0 });
    }
    expect(gpu.overStretchedEdges).toBe(cpu.overStretchedEdges);
    // The heatmaps: each particle's largest residual of its edges (tets) is within the bound of one edge's (tet's).
    expect(stretchDiff).toBeLessThanOrEqual(bound.ratio);
    expect(volumeDiff).toBeLessThanOrEqual(bound.volumeResidual);
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
