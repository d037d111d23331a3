/**
 * Contacts between soft bodies on the GPU (`GpuContactGroup`, `bodyContactsShader.ts`): a cloth dropped onto a jelly
 * against the CPU world, two 2 kg jellies meeting head-on in zero gravity (momentum, no pass-through, the impulse
 * exchanged between the plastic and the elastic limits, bit-identical reruns), and collision groups that keep a pair
 * apart.
 */
import { closestPointOnTriangle } from "../../src/core/closestPointOnTriangle";
import { Collider } from "../../src/core/collider";
import type { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { GpuContactGroup } from "../../src/gpu/gpuContactGroup";
import { GpuSoftBodySolver } from "../../src/gpu/gpuSoftBodySolver";
import { clothBody, tetBlock } from "../support/coreScenes";
import { F32_ROUNDOFF, roundingsPerSubstep } from "./support/agreement";
import { describeGpu } from "./support/gpuDevice";

const DT = 1 / 60;
/** No gravity, no air: momentum is exchanged between the two jellies alone. */
const ZERO_G = { gravity: [0, 0, 0], airDensity: 0, timing: false } as const;
const JELLY_MASS = 2;
const JELLY_SPEED = 2;

/** A 1 kg, 0.2 m jelly resting a contact distance above the ground, and a 0.05 kg, 0.15 m cloth 1 mm above its top, centred. */
function clothOnJelly(): { jelly: SoftBody; cloth: SoftBody } {
    const jelly = tetBlock([0.2, 0.2, 0.2], [0, 0.11, 0], { mass: 1, resolution: 3, allowSleep: false });
    const { body: cloth } = clothBody(6, { size: 0.15, mass: 0.05, plane: "xz", origin: [0, 0.221, 0], allowSleep: false });
    return { jelly, cloth };
}

const ground = (): Collider => new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]);

/**
 * Two 2 kg, 0.2 m jellies 6 cm apart along x (the second a little off-axis), the first thrown at the second at 2 m/s;
 * with `apart`, collision groups that keep them from touching.
 */
function jellies(apart = false): [SoftBody, SoftBody] {
    const groups = (membership: number, collideWith: number): { membership: number; collideWith: number } | object =>
        apart ? { membership, collideWith } : {};
    const a = tetBlock([0.2, 0.2, 0.2], [-0.13, 0, 0], { mass: JELLY_MASS, resolution: 3, allowSleep: false, ...groups(1, ~2) });
    const b = tetBlock([0.2, 0.2, 0.2], [0.13, 0.03, 0.02], { mass: JELLY_MASS, resolution: 3, allowSleep: false, ...groups(2, ~1) });
    for (let i = 0; i < a.velocities.length; i += 3) {
        a.velocities[i] = JELLY_SPEED;
    }
    return [a, b];
}

/** Linear momentum along x (kg·m/s) from velocities read back. */
function momentumX(body: SoftBody, velocities: ArrayLike<number>): number {
    let p = 0;
    for (let i = 0; i < body.particleCount; i++) {
        p += body.masses[i] * velocities[3 * i];
    }
    return p;
}

/** Smallest distance from a surface particle of one body to a surface triangle of the other, both ways. */
function surfaceGap(a: SoftBody, xa: Float64Array, b: SoftBody, xb: Float64Array): number {
    const out = new Float64Array(7);
    const oneWay = (p: SoftBody, xp: Float64Array, t: SoftBody, xt: Float64Array): number => {
        let best = Infinity;
        const query = new Float64Array(3);
        for (const k of new Set(p.triangles)) {
            query.set(xp.subarray(3 * k, 3 * k + 3));
            for (let i = 0; i < t.triangles.length; i += 3) {
                closestPointOnTriangle(xt, 3 * t.triangles[i], 3 * t.triangles[i + 1], 3 * t.triangles[i + 2], query, out);
                best = Math.min(best, Math.sqrt(out[3]));
            }
        }
        return best;
    };
    return Math.min(oneWay(a, xa, b, xb), oneWay(b, xb, a, xa));
}

function largestDifference(gpu: Float32Array, cpu: Float64Array): number {
    let m = 0;
    for (let k = 0; k < cpu.length; k++) {
        m = Math.max(m, Math.abs(gpu[k] - cpu[k]));
    }
    return m;
}

/** The two jellies stepped `steps` steps on the GPU, in a group: the state read every 3 steps handed to `visit`. */
async function collide(
    device: GPUDevice,
    steps: number,
    apart: boolean,
    visit: (step: number, bodies: SoftBody[], positions: Float64Array[], velocities: Float32Array[]) => void,
): Promise<void> {
    const world = new XpbdWorld(ZERO_G);
    const bodies = jellies(apart);
    const solvers = await Promise.all(bodies.map((body) => GpuSoftBodySolver.create(device, body, world)));
    const group = new GpuContactGroup(solvers);
    try {
        for (let s = 1; s <= steps; s++) {
            group.step(DT);
            if (s % 3 === 0 || s === steps) {
                const positions = await Promise.all(solvers.map(async (solver) => Float64Array.from(await solver.readPositions())));
                const velocities = await Promise.all(solvers.map((solver) => solver.readVelocities()));
                visit(s, bodies, positions, velocities);
            }
        }
    } finally {
        group.dispose();
        solvers.forEach((solver) => solver.dispose());
    }
}

describeGpu("WebGPU contacts between bodies", (device) => {
    test("a cloth dropped onto a jelly rests on it as on the CPU: within the contact distance (cloth) and the f32 drift plus the mass ratio's share (jelly)", async () => {
        const steps = 60;
        const world = new XpbdWorld({ timing: false });
        world.addCollider(ground());
        const gpu = clothOnJelly();
        const jellySolver = await GpuSoftBodySolver.create(device(), gpu.jelly, world);
        const clothSolver = await GpuSoftBodySolver.create(device(), gpu.cloth, world);
        const group = new GpuContactGroup([jellySolver, clothSolver]);
        const cpuWorld = new XpbdWorld({ timing: false });
        cpuWorld.addCollider(ground());
        const cpu = clothOnJelly();
        cpuWorld.addBody(cpu.jelly);
        cpuWorld.addBody(cpu.cloth);
        let extent = 0;
        let cloth = 0;
        let jelly = 0;
        try {
            for (let s = 1; s <= steps; s++) {
                group.step(DT);
                cpuWorld.step(DT);
                for (const x of cpu.jelly.positions) {
                    extent = Math.max(extent, Math.abs(x));
                }
                if (s % 6 === 0) {
                    cloth = Math.max(cloth, largestDifference(await clothSolver.readPositions(), cpu.cloth.positions));
                    jelly = Math.max(jelly, largestDifference(await jellySolver.readPositions(), cpu.jelly.positions));
                }
            }
        } finally {
            group.dispose();
            jellySolver.dispose();
            clothSolver.dispose();
        }
        // Both solvers land the cloth straight down on the jelly's top and keep each of its particles between the top
        // and a contact distance above it: they differ in how far each pass's contacts converge (Jacobi with mass
        // splitting against Gauss–Seidel), not in where the contact is, so a particle's positions differ by less than
        // the contact distance. The jelly carries the cloth's weight either way; the cloth's different landing moves
        // it by the mass ratio times the cloth's difference (momentum), over the f32 drift of a free trajectory
        // (agreement.ts).
        const contact = (cpu.cloth.thickness + cpu.jelly.thickness) / 2;
        const total = steps * cpuWorld.substeps;
        const drift = (F32_ROUNDOFF / 2) * extent * Math.sqrt(roundingsPerSubstep(cpu.jelly, cpuWorld)) * total ** 1.5;
        const jellyBound = drift + (cpu.cloth.totalMass / cpu.jelly.totalMass) * contact;
        console.log(
            `cloth on a jelly, GPU against CPU over ${steps} steps: cloth within ${cloth.toExponential(2)} m (bound ${contact} m), ` +
                `jelly within ${jelly.toExponential(2)} m (bound ${jellyBound.toExponential(2)} m)`,
        );
        expect(cloth).toBeLessThan(contact);
        expect(jelly).toBeLessThan(jellyBound);
    }, 300_000);

    test("a 2 kg jelly thrown at 2 m/s at a 2 kg jelly: total momentum kept to ±1%, the impulse between the plastic and elastic limits, no pass-through; bit-identical twice", async () => {
        const steps = 30;
        const start = JELLY_MASS * JELLY_SPEED;
        let drift = 0;
        let gap = Infinity;
        let pushed = 0;
        let state: number[] = [];
        await collide(device(), steps, false, (s, [a, b], x, v) => {
            drift = Math.max(drift, Math.abs(momentumX(a, v[0]) + momentumX(b, v[1]) - start) / start);
            gap = Math.min(gap, surfaceGap(a, x[0], b, x[1]));
            pushed = momentumX(b, v[1]);
            if (s === steps) {
                state = [...x[0], ...x[1], ...v[0], ...v[1]];
            }
        });
        let again: number[] = [];
        await collide(device(), steps, false, (s, _bodies, x, v) => {
            if (s === steps) {
                again = [...x[0], ...x[1], ...v[0], ...v[1]];
            }
        });
        const contact = jellies()[0].thickness;
        console.log(
            `2 kg jelly at 2 m/s onto a 2 kg jelly, ${steps} steps on the GPU: total momentum within ${(100 * drift).toFixed(4)}%, ` +
                `the second jelly's momentum ${pushed.toFixed(3)} kg·m/s (plastic 2, elastic 4), closest surfaces ${gap.toExponential(2)} m (contact distance ${contact} m)`,
        );
        expect(drift).toBeLessThan(0.01);
        // Soft contacts do not bounce, and the jellies' elasticity returns at most what they stored: the impulse lies
        // between the plastic limit (the reduced mass times the approach speed, 1 kg × 2 m/s) and twice that.
        expect(pushed).toBeGreaterThan(0.99 * (JELLY_MASS / 2) * JELLY_SPEED);
        expect(pushed).toBeLessThan(1.01 * JELLY_MASS * JELLY_SPEED);
        expect(gap).toBeGreaterThan(contact / 2);
        expect(again).toEqual(state);
    }, 300_000);

    test("collision groups that keep two jellies apart: the thrown one passes through the other, which does not move", async () => {
        let passed = -Infinity;
        let pushed = Infinity;
        await collide(device(), 15, true, (_s, [a, b], x, v) => {
            const centre = (body: SoftBody, positions: Float64Array): number => {
                let sum = 0;
                for (let i = 0; i < body.particleCount; i++) {
                    sum += positions[3 * i];
                }
                return sum / body.particleCount;
            };
            passed = centre(a, x[0]) - centre(b, x[1]);
            pushed = momentumX(b, v[1]);
        });
        console.log(
            `jellies kept apart by their collision groups: the thrown one ${passed.toFixed(3)} m past the other, which has ${pushed} kg·m/s`,
        );
        // 15 steps at 2 m/s is 0.5 m: from 0.26 m behind, 0.24 m past; the other keeps no more than f32 noise (its
        // velocities are position roundings over a substep), far under 1% of the thrown momentum.
        expect(passed).toBeGreaterThan(0.2);
        expect(Math.abs(pushed)).toBeLessThan(0.01 * JELLY_MASS * JELLY_SPEED);
    }, 300_000);
});
