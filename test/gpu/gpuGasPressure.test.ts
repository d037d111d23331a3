/** The gas inside a closed cloth on the WebGPU solver (`gasPressureShader.ts`) against the CPU's `GasPressure`. */
import { Collider } from "../../src/core/collider";
import { enclosedVolume } from "../../src/core/enclosedVolume";
import { SoftBody } from "../../src/core/softBody";
import type { SoftBodyOptions } from "../../src/core/softBodyOptions";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { balloon, BALLOON_RADIUS } from "../support/balloon";
import { compareSolvers, expectAgreement } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

const RADIUS = BALLOON_RADIUS;

const ground = (): Collider[] => [new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }])];

function volumeOf(body: SoftBody, positions: ArrayLike<number> = body.positions): number {
    return Math.abs(enclosedVolume(body.triangles, positions));
}

describeGpu("gas pressure on the WebGPU solver", (device) => {
    test("a pressurised balloon dropped onto the ground agrees with the CPU within f32 rounding", async () => {
        const scene = {
            body: () => balloon({ pressure: 2000, stretchCompliance: 0.005, shearCompliance: 0.005 }, RADIUS + 0.1),
            colliders: ground,
        };
        // It inflates from the first step, lands at about step 8; checks while inflating, at the landing, bouncing.
        const a = await compareSolvers(device(), scene, 30, [1, 9, 20]);
        expectAgreement("pressurised balloon on the ground", a);
        // The scene is what it says: the gas inflated it (the membrane stretches ×1.3 in volume at 1 kPa, see the
        // core's test), on the GPU as on the CPU.
        const v0 = a.cpu.gas!.restVolume;
        const gpuRatio = volumeOf(a.cpu, a.gpuPositions) / v0;
        console.log(`V/V0 after 30 steps: GPU ${gpuRatio.toFixed(4)}, CPU ${(volumeOf(a.cpu) / v0).toFixed(4)}`);
        expect(gpuRatio).toBeGreaterThan(1.1);
    }, 300_000);

    test("a shape-matched balloon (six constraint sets: the gas takes no compliance slot) agrees with the CPU", async () => {
        const scene = {
            body: () =>
                balloon({ pressure: 2000, shapeMatchingCompliance: 1e-3, stretchCompliance: 0.005, shearCompliance: 0.005 }, RADIUS + 0.1),
            colliders: ground,
        };
        const a = await compareSolvers(device(), scene, 15, [1, 10]);
        expect(a.cpu.constraintSets).toHaveLength(6);
        expectAgreement("shape-matched pressurised balloon", a);
    }, 300_000);

    test("under its own 40 kg on the ground, 1 kPa holds the balloon up at the CPU's volume; pressure 0 lets it collapse", async () => {
        const options: SoftBodyOptions = { stretchCompliance: 0.005, shearCompliance: 0.005 };
        const scene = { body: () => balloon({ ...options, pressure: 1000 }, RADIUS + 0.02, 40), colliders: ground };
        // Resting after 2 s (it lands within the first steps and settles); one step checked at rest.
        const a = await compareSolvers(device(), scene, 120, [119]);
        expectAgreement("40 kg balloon at 1 kPa on the ground", a);
        const v0 = a.cpu.gas!.restVolume;
        const gpuVolume = volumeOf(a.cpu, a.gpuPositions);
        const cpuVolume = volumeOf(a.cpu);
        // Every particle within the trajectory bound δ of the CPU's moves the volume by at most the area times δ.
        const volumeBound = surfaceArea(a.cpu) * a.trajectoryBound;
        console.log(
            `40 kg balloon at 1 kPa after 2 s: V/V0 GPU ${(gpuVolume / v0).toFixed(4)}, CPU ${(cpuVolume / v0).toFixed(4)}; ` +
                `|ΔV| ${Math.abs(gpuVolume - cpuVolume).toExponential(2)} m³ (bound ${volumeBound.toExponential(2)})`,
        );
        expect(Math.abs(gpuVolume - cpuVolume)).toBeLessThan(volumeBound);
        // Held up: the core's test has it collapse below a quarter of its volume without gas.
        expect(gpuVolume / v0).toBeGreaterThan(1);

        // The same scene on one GPU solver, its figures read: they hand the body the gas's last projection.
        const rest = async (pressure: number): Promise<{ ratio: number; body: SoftBody }> => {
            const world = new XpbdWorld();
            ground().forEach((c) => world.addCollider(c));
            const body = balloon({ ...options, pressure }, RADIUS + 0.02, 40);
            const gpu = await GpuSoftBodySolver.create(device(), body, world);
            try {
                for (let s = 0; s < 120; s++) {
                    gpu.step(1 / 60);
                }
                await gpu.readFigures();
                return { ratio: volumeOf(body, await gpu.readPositions()) / v0, body };
            } finally {
                gpu.dispose();
            }
        };
        const held = await rest(1000);
        const gas = held.body.gas!;
        const cpuGas = a.cpu.gas!;
        console.log(
            `figures: gas volume ${gas.volume.toFixed(5)} m³ (CPU ${cpuGas.volume.toFixed(5)}), applied ${gas.appliedPressure.toFixed(1)} Pa ` +
                `(CPU ${cpuGas.appliedPressure.toFixed(1)}, law at the GPU's volume ${gas.pressureAt(gas.volume).toFixed(1)})`,
        );
        expect(Math.abs(gas.volume - cpuGas.volume)).toBeLessThan(volumeBound);
        // At rest the Newton steps have converged: the pressure applied is the gas law's at the volume (as the core's test).
        expect(Math.abs(gas.appliedPressure / gas.pressureAt(gas.volume) - 1)).toBeLessThan(0.03);
        // Pressure 0 is no gas: nothing pushes, and the shell collapses as one built without gas.
        const none = await rest(0);
        console.log(`pressure 0: V/V0 ${none.ratio.toFixed(4)}, applied ${none.body.gas!.appliedPressure} Pa`);
        expect(none.ratio).toBeLessThan(0.25);
        expect(none.body.gas!.appliedPressure).toBe(0);
    }, 300_000);
});

/** Area of the body's triangles at its current positions (m²). */
function surfaceArea(body: SoftBody): number {
    const x = body.positions;
    const t = body.triangles;
    let area = 0;
    for (let k = 0; k < t.length; k += 3) {
        const [a, b, c] = [3 * t[k], 3 * t[k + 1], 3 * t[k + 2]];
        const u = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
        const v = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
        area += Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]) / 2;
    }
    return area;
}
