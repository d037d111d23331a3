import type { Collider } from "../../../src/core/collider";
import { GasPressure } from "../../../src/core/gasPressure";
import { ShapeMatching } from "../../../src/core/shapeMatching";
import type { SoftBody } from "../../../src/core/softBody";
import { XpbdWorld } from "../../../src/core/xpbdWorld";
import type { XpbdWorldOptions } from "../../../src/core/xpbdWorldOptions";
import { GpuSoftBodySolver } from "../../../src/gpu/gpuSoftBodySolver";

/**
 * How far the GPU solver (f32) may be from the CPU solver (f64) on the same scene, derived from float32 rounding.
 *
 * Order: the GPU projects each constraint set in the batches of `colourBatches`, which reproduce the CPU's
 * Gauss–Seidel order exactly (a batch's constraints share no particle, so projecting them at once is projecting
 * them one after another). The order contributes nothing; what is left is rounding.
 *
 * Rounding: every f32 operation that changes a coordinate of size up to X rounds it by up to u·X/2, u = 2⁻²⁴.
 * Along one coordinate's chain of dependent operations a substep does R of them (see {@link roundingsPerSubstep}).
 * A position error δ left by a substep does not stay put: the velocity update `v = (x − x_prev)/h` turns it into a
 * velocity error δ/h, which moves the particle by δ in every later substep (as in Verlet integration). So:
 *
 * - One step from the same state (N substeps): the upload rounds the state once (u·X/2), and the rounding of
 *   substep s is carried through the N − s + 1 substeps left: at most (u·X/2)·(1 + R·N(N+1)/2). Velocities are
 *   position differences over h, so twice that over h.
 * - A free-running trajectory of S substeps: the roundings are as likely up as down, so after s substeps their sum
 *   is a random walk of about √(R·s) roundings, each carried through the S − s substeps left: about
 *   (u·X/2)·√R·S^(3/2). Constraints, contacts and damping only pull drift back, so this is a ceiling; an
 *   unconstrained body, which keeps all of its drift, comes closest to it.
 */
export const F32_ROUNDOFF = 2 ** -24;

/**
 * R: the f32 operations on one coordinate's dependency chain in one substep. The prediction rounds twice (v, then
 * x); each projection that moves the particle rounds its coordinate about twice (the product, then the sum), once per
 * solver pass (two per iteration) for each constraint, tether and soft pin of the particle and each collider shape it
 * may touch. A fast particle's swept plane (`ParticleSweep`) takes the place of the shape's closest feature, not a
 * place beside it: its offset n·p − d(p) is a position-sized number with the query's few roundings (a flat face's is
 * the face's own, wherever the path entered; a curved one's moves with the entry point, by as much), so a swept shape
 * counts as any other. Counted for the most connected particle of the body. Shape matching pulls every particle towards a goal
 * that carries the fit's roundings: the centre and the correlation are sums of ⌈count/64⌉ terms per thread and 6
 * levels of the workgroup's tree (each addition rounds at the size of the sum, about X), and the rotation, Horn's 4×4
 * eigenvector by Jacobi sweeps in f32, is good to a few tens of roundings (counted as 24); twice each, like any
 * projection. The gas moves every particle along its volume gradient by one global step: the volume is a sum of
 * ⌈triangles/64⌉ terms per thread and 6 tree levels, the denominator Σ w|∇V|² likewise over the particles, and each
 * gradient a sum over the particle's incident triangles. At rest the Newton step's numerator V − α̃λ cancels to
 * the small correction, so its rounding is that of V; over the denominator it moves a particle by about
 * u·V/|∇V| per rounding, |∇V| a third of the particle's share of the area, i.e. a position-sized rounding (of the
 * body's radius) per term, twice each, like any projection.
 */
export function roundingsPerSubstep(body: SoftBody, world: XpbdWorld): number {
    const degree = new Int32Array(body.particleCount);
    let fitted = 0;
    for (const set of body.constraintSets) {
        if (set instanceof ShapeMatching) {
            fitted += set.enabled ? 2 * (Math.ceil(set.count / 64) + 6) + 24 : 0;
        } else if (set instanceof GasPressure) {
            fitted += set.enabled
                ? 2 * (Math.ceil(body.triangles.length / 3 / 64) + Math.ceil(body.particleCount / 64) + 12 + maxIncidence(body))
                : 0;
        } else if (set.enabled) {
            for (const p of (set as unknown as { indices: Int32Array }).indices) {
                degree[p]++;
            }
        }
    }
    for (let k = 0; k < body.tethers.count; k++) {
        degree[body.tethers.particles[k]]++;
    }
    let slots = 0;
    for (const collider of world.colliders) {
        slots += collider.shapes.length;
    }
    const passes = 2 * world.iterations;
    return 2 + 2 * passes * (Math.max(...degree) + 1 + slots + fitted);
}

/** One step of both solvers from the same state, at `step`. */
export interface OneStepAgreement {
    step: number;
    /** Largest coordinate difference (m) and its bound. */
    position: number;
    positionBound: number;
    /** Largest velocity component difference (m/s) and its bound. */
    velocity: number;
    velocityBound: number;
}

/** What {@link compareSolvers} measured. */
export interface Agreement {
    /** The CPU body at the end (its positions are the CPU's trajectory). */
    cpu: SoftBody;
    /** The GPU trajectory's positions at the end. */
    gpuPositions: Float32Array;
    /** Largest coordinate difference (m) after `steps` free-running steps, and its bound. */
    trajectory: number;
    trajectoryBound: number;
    /** The one-step comparisons. */
    oneStep: OneStepAgreement[];
}

/** A scene: a fresh body and fresh colliders on each call (each solver gets its own). */
export interface Scene {
    body: () => SoftBody;
    colliders: () => Collider[];
    world?: XpbdWorldOptions;
    /** What the host does to a body before step `step` (1-based): move pin targets, say. */
    beforeStep?: (body: SoftBody, step: number) => void;
    /** Ties a fresh body to its world's colliders (`SoftBody.attachments`), before it is stepped. */
    attach?: (body: SoftBody, colliders: readonly Collider[]) => void;
}

/**
 * Runs a scene `steps` steps of 1/60 s on the CPU (`XpbdWorld`) and on the GPU side by side, compares the free
 * trajectories at the end, and at each of `checkpoints` also steps a second GPU solver once from the CPU's state.
 */
export async function compareSolvers(device: GPUDevice, scene: Scene, steps: number, checkpoints: readonly number[]): Promise<Agreement> {
    const dt = 1 / 60;
    const cpuWorld = new XpbdWorld({ ...scene.world, timing: false });
    const cpu = scene.body();
    scene.colliders().forEach((c) => cpuWorld.addCollider(c));
    scene.attach?.(cpu, cpuWorld.colliders);
    cpuWorld.addBody(cpu);
    const solver = (): Promise<GpuSoftBodySolver> => {
        const world = new XpbdWorld(scene.world);
        scene.colliders().forEach((c) => world.addCollider(c));
        const body = scene.body();
        scene.attach?.(body, world.colliders);
        return GpuSoftBodySolver.create(device, body, world);
    };
    const free = await solver();
    const checker = await solver();
    const substeps = cpuWorld.substeps;
    const h = dt / substeps;
    const roundings = roundingsPerSubstep(cpu, cpuWorld);
    let extent = largest(cpu.positions);
    const oneStep: OneStepAgreement[] = [];
    try {
        for (let s = 1; s <= steps; s++) {
            scene.beforeStep?.(cpu, s);
            scene.beforeStep?.(free.body, s);
            const check = checkpoints.includes(s);
            if (check) {
                const body = checker.body;
                body.positions.set(cpu.positions);
                body.previousPositions.set(cpu.previousPositions);
                body.velocities.set(cpu.velocities);
                body.pins.targetsStart.set(cpu.pins.targetsStart);
                body.pins.targetsEnd.set(cpu.pins.targetsEnd);
                // The figures the strain limit's switch reads (`strainLimitActive`), as a host hands them on.
                body.stats.maxEdgeRatio = cpu.stats.maxEdgeRatio;
                checker.writeState();
                followColliders(cpuWorld, checker.world);
            }
            const speedBefore = largest(cpu.velocities);
            cpuWorld.step(dt);
            free.step(dt);
            // The host's part: the GPU solvers read their colliders' poses and leave them where they are.
            followColliders(cpuWorld, free.world);
            extent = Math.max(extent, largest(cpu.positions));
            if (check) {
                checker.step(dt);
                const stateRounding = (F32_ROUNDOFF / 2) * (extent + speedBefore * dt);
                const positionBound = stateRounding + (F32_ROUNDOFF / 2) * extent * ((roundings * substeps * (substeps + 1)) / 2);
                oneStep.push({
                    step: s,
                    position: largestDifference(await checker.readPositions(), cpu.positions),
                    positionBound,
                    velocity: largestDifference(await checker.readVelocities(), cpu.velocities),
                    velocityBound: (2 * positionBound) / h,
                });
            }
        }
        const gpuPositions = await free.readPositions();
        const total = steps * substeps;
        return {
            cpu,
            gpuPositions,
            trajectory: largestDifference(gpuPositions, cpu.positions),
            trajectoryBound: (F32_ROUNDOFF / 2) * extent * Math.sqrt(roundings) * total ** 1.5,
            oneStep,
        };
    } finally {
        free.dispose();
        checker.dispose();
    }
}

/** A one-line report of an agreement, for the test log. */
export function describeAgreement(name: string, a: Agreement): string {
    const steps = a.oneStep
        .map((o) => `step ${o.step}: ${o.position.toExponential(1)} m (bound ${o.positionBound.toExponential(1)})`)
        .join(", ");
    return `${name}: trajectory ${a.trajectory.toExponential(2)} m (bound ${a.trajectoryBound.toExponential(2)}); one step from the CPU state ${steps}`;
}

/** Checks an agreement against its bounds, after logging it. */
export function expectAgreement(name: string, a: Agreement): void {
    console.log(describeAgreement(name, a));
    expect(a.trajectory).toBeLessThan(a.trajectoryBound);
    for (const o of a.oneStep) {
        expect(o.position).toBeLessThan(o.positionBound);
        expect(o.velocity).toBeLessThan(o.velocityBound);
    }
}

/** Gives `to`'s colliders the poses and velocities of `from`'s (same scene, same order), as a host would. */
function followColliders(from: XpbdWorld, to: XpbdWorld): void {
    from.colliders.forEach((source, c) => {
        const target = to.colliders[c];
        target.position.set(source.position);
        target.rotation.set(source.rotation);
        target.linearVelocity.set(source.linearVelocity);
        target.angularVelocity.set(source.angularVelocity);
        target.syncPose();
    });
}

/** The most triangles that share one particle. */
function maxIncidence(body: SoftBody): number {
    const count = new Int32Array(body.particleCount);
    for (const p of body.triangles) {
        count[p]++;
    }
    return Math.max(...count);
}

function largest(values: ArrayLike<number>): number {
    let m = 0;
    for (let k = 0; k < values.length; k++) {
        m = Math.max(m, Math.abs(values[k]));
    }
    return m;
}

function largestDifference(gpu: Float32Array, cpu: Float64Array): number {
    let m = 0;
    for (let k = 0; k < cpu.length; k++) {
        m = Math.max(m, Math.abs(gpu[k] - cpu[k]));
    }
    return m;
}
