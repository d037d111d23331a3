/**
 * Self-collision on the GPU (`selfCollisionShader.ts`), checked by independent geometry (`clothChecks.ts`: closest
 * approach of particles that share no triangle, exact edge–triangle crossings): one body of two sheets, a hammock
 * pinned by its corners and a sheet dropped edge-first into it, which lands and folds over onto the hammock and onto
 * itself. Without self-collision the same sheet slices through the hammock (the crossings check fails then). The
 * same scene twice gives bit-identical state.
 *
 * (A coarse cloth dropped onto a sphere, the CPU test's scene at 16²–24², did not fold within 3 s, on the CPU or on
 * the GPU, with self-collision or without: no crossings either way, so it could not show the check failing.)
 */
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { createClothGrid } from "../../src/meshing/clothGrid";
import { buildClothTopology } from "../../src/meshing/clothTopology";
import { closestApproach, crossingEdges } from "../support/clothChecks";
import { describeGpu } from "./support/gpuDevice";

const DT = 1 / 60;
const THICKNESS = 0.01;

/**
 * One body: a 0.5 m, 12² hammock at 0.3 m pinned by its corners, and a 0.3 m, 10² sheet standing upright above it,
 * its lower edge 3 cm above the hammock and off its grid lines (0.4 kg in all, 1 cm thick).
 */
function dropScene(selfCollision: boolean): { body: SoftBody; world: XpbdWorld; hammock: number } {
    const hammock = createClothGrid({ width: 0.5, height: 0.5, segmentsX: 12, segmentsY: 12, plane: "xz", origin: [0, 0.3, 0] });
    const sheet = createClothGrid({ width: 0.3, height: 0.3, segmentsX: 10, segmentsY: 10, plane: "xy", origin: [0.02, 0.48, 0.013] });
    const n = hammock.positions.length / 3;
    const positions = new Float32Array([...hammock.positions, ...sheet.positions]);
    const topology = buildClothTopology(positions, [...hammock.indices, ...Array.from(sheet.indices, (i) => i + n)], { weldTolerance: 0 });
    const shear = Int32Array.from([...hammock.topology.shear, ...Array.from(sheet.topology.shear, (i) => i + n)]);
    const body = new SoftBody(
        { positions: topology.positions, triangles: topology.triangles, stretch: topology.stretch, shear, bend: topology.bend, mass: 0.4 },
        { thickness: THICKNESS, selfCollision },
    );
    for (const corner of [0, 12, 12 * 13, 13 * 13 - 1]) {
        body.setPinWeight(corner, 1);
    }
    return { body, world: new XpbdWorld({ timing: false }), hammock: n };
}

describeGpu("WebGPU self-collision", (device) => {
    test("a sheet dropped edge-first into a hammock lands and folds over: ≥ ½ thickness apart, 0 crossings; without it, it slices through", async () => {
        const steps = 90;
        const { body, world, hammock } = dropScene(true);
        const solver = await GpuSoftBodySolver.create(device(), body, world);
        let closest = Infinity;
        let crossings = 0;
        let x = new Float64Array(0);
        const start = performance.now();
        for (let s = 1; s <= steps; s++) {
            solver.step(DT);
            // From the landing on (it starts 3 cm above and meets the hammock in its 5th step).
            if (s % 6 === 0) {
                x = Float64Array.from(await solver.readPositions());
                closest = Math.min(closest, closestApproach(x, body.triangles, body.particleCount));
                crossings += crossingEdges(x, body.triangles);
            }
        }
        const ms = (performance.now() - start) / steps;
        solver.dispose();
        // It rests on the hammock: its lowest particle within a few thicknesses of the hammock's lowest.
        let hammockLow = Infinity;
        let sheetLow = Infinity;
        for (let p = 0; p < body.particleCount; p++) {
            if (p < hammock) {
                hammockLow = Math.min(hammockLow, x[3 * p + 1]);
            } else {
                sheetLow = Math.min(sheetLow, x[3 * p + 1]);
            }
        }

        const through = dropScene(false);
        const off = await GpuSoftBodySolver.create(device(), through.body, through.world);
        let offCrossings = 0;
        const offStart = performance.now();
        for (let s = 1; s <= 20; s++) {
            off.step(DT);
            offCrossings = Math.max(offCrossings, crossingEdges(Float64Array.from(await off.readPositions()), through.body.triangles));
        }
        const offMs = (performance.now() - offStart) / 20;
        off.dispose();
        console.log(
            `GPU self-collision, sheet into hammock (${body.particleCount} particles, ${body.triangles.length / 3} triangles): ` +
                `closest approach ${(1000 * closest).toFixed(2)} mm over the steps, ${crossings} crossings; sheet's lowest ${(1000 * (sheetLow - hammockLow)).toFixed(1)} mm ` +
                `above the hammock's lowest; ${ms.toFixed(0)} ms/step with reads every 6 steps (SwiftShader); without self-collision ` +
                `up to ${offCrossings} crossings, ${offMs.toFixed(0)} ms/step with a read every step`,
        );
        // The contact distance is the thickness: ½ of it leaves room for the projection's few passes.
        expect(closest).toBeGreaterThanOrEqual(0.5 * THICKNESS);
        expect(crossings).toBe(0);
        // Resting on it, not fallen through: above the hammock's sag by less than the sheet's 0.3 m height.
        expect(sheetLow - hammockLow).toBeGreaterThan(-THICKNESS);
        expect(offCrossings).toBeGreaterThan(0);
    }, 600_000);

    test("is deterministic: the same drop twice gives bit-identical positions and velocities", async () => {
        const steps = 30;
        const run = async (selfCollision: boolean): Promise<{ state: Buffer; ms: number }> => {
            const { body, world } = dropScene(selfCollision);
            const solver = await GpuSoftBodySolver.create(device(), body, world);
            solver.step(DT);
            await solver.readPositions();
            // Timed from the second step (the first runs every kernel for the first time) to the read that waits for them.
            const start = performance.now();
            for (let s = 1; s < steps; s++) {
                solver.step(DT);
            }
            const positions = await solver.readPositions();
            const ms = (performance.now() - start) / (steps - 1);
            const state = Buffer.concat([Buffer.from(positions.buffer), Buffer.from((await solver.readVelocities()).buffer)]);
            solver.dispose();
            return { state, ms };
        };
        const a = await run(true);
        const b = await run(true);
        const plain = await run(false);
        console.log(
            `GPU self-collision, sheet into hammock, 10 substeps: ${a.ms.toFixed(0)} and ${b.ms.toFixed(0)} ms/step, ` +
                `${plain.ms.toFixed(0)} without self-collision (SwiftShader, on the CPU: not a GPU's times)`,
        );
        // The contacts acted (the sheet landed within the 30 steps): without them the state differs.
        expect(a.state.equals(plain.state)).toBe(false);
        expect(a.state.equals(b.state)).toBe(true);
    }, 600_000);
});
