import { raiseResidual } from "./bendConstraints.js";
import { SoftBody } from "./softBody.js";
import { tetVolume } from "./volumeConstraints.js";

/**
 * Figures of the state after a step. Always: counts, kinetic energy, edge ratios and volume figures. With
 * `residuals` also the bend figures and the per-particle residual arrays (the heatmaps); without, the bend figures
 * are NaN and the arrays keep their last values. Returns the most stretched constraint when it is over the body's
 * over-stretch ratio, else −1 (the world raises the event).
 */
export function measureBody(body: SoftBody, residuals: boolean): number {
    if (!primed) {
        primed = true;
        primeMeasures();
    }
    const stats = body.stats;
    measureCounts(body);
    // One function per kind: each loop is optimised on its own, and a kind the body lacks costs nothing. The loops
    // hand their figures over in `figures` (see primeMeasures).
    measureKineticEnergy(body);
    stats.kineticEnergy = figures[0];
    const overStretched = measureStretch(body, residuals);
    stats.maxEdgeRatio = figures[0];
    stats.meanEdgeRatio = figures[1];
    stats.maxStretchResidual = figures[2];
    stats.meanStretchResidual = figures[3];
    stats.overStretchedEdges = figures[4];
    measureBend(body, residuals);
    if (body.volume.count > 0) {
        measureVolume(body, residuals);
        stats.maxVolumeResidual = figures[0];
        stats.meanVolumeResidual = figures[1];
        stats.volumeRatio = figures[2];
    } else {
        stats.maxVolumeResidual = 0;
        stats.meanVolumeResidual = 0;
        stats.volumeRatio = 0;
    }
    return overStretched;
}

/**
 * The counts of `body.stats` (particles, constraints, tethers, pins, contacts) and `sleepingBodies` = 0: the part of
 * {@link measureBody} that reads no positions (the WebGPU backend takes the rest from the GPU's figures).
 */
export function measureCounts(body: SoftBody): void {
    const stats = body.stats;
    stats.sleepingBodies = 0;
    stats.particles = body.particleCount;
    stats.stretchConstraints = body.stretch.count;
    stats.shearConstraints = body.shear.count;
    stats.bendConstraints = body.bend.count;
    stats.volumeConstraints = body.volume.count;
    stats.tethers = body.tethers.enabled ? body.tethers.count : 0;
    stats.pins = body.pins.kinematicCount + body.pins.softCount;
    stats.contactCandidates = body.contacts.count;
    stats.contacts = body.contacts.touching;
    stats.maxContactCorrection = body.contacts.maxCorrection;
}

/**
 * The figures of a sleeping `body` for a step it was not solved in: no substeps, no motion, no contacts, and
 * `sleepingBodies` = 1; the rest keep the values of its last solved step.
 */
export function measureAsleep(body: SoftBody): void {
    const stats = body.stats;
    stats.solvedSubsteps = 0;
    stats.sleepingBodies = 1;
    stats.kineticEnergy = 0;
    stats.contacts = 0;
    stats.contactCandidates = 0;
    stats.maxContactCorrection = 0;
}

/**
 * The bend figures of `body.stats` and, with `residuals`, the per-particle bend residual; without, the figures are
 * NaN (0 without bend elements) and the array keeps its last values. Part of {@link measureBody}.
 */
export function measureBend(body: SoftBody, residuals: boolean): void {
    const stats = body.stats;
    if (body.bend.count === 0) {
        stats.maxBendResidual = 0;
        stats.meanBendResidual = 0;
    } else if (residuals) {
        body.bend.measure(body.positions, body.bendResidual, stats);
    } else {
        stats.maxBendResidual = NaN;
        stats.meanBendResidual = NaN;
    }
}

/** The figures of the last measuring loop (kinetic energy, stretch or volume figures), in the order each writes them. */
const figures = new Float64Array(5);
let primed = false;

/**
 * Runs every measuring loop, both ways, on a single tetrahedron before the first real body. V8 compiles a long loop
 * on its first run while that run is still inside it (on-stack replacement); if the code after the loop has not run
 * by then with type feedback recorded (V8 records none in a function's first few calls), the compiled code bails out
 * there. Those bail-outs do not discard the compiled code, so every later call enters it again and bails out again:
 * in about half of all processes the benchmark cloth's step took 1.6× its time that way. So the loops run here
 * PRIMING_RUNS times first, and store only into `figures`, whose shape never changes (the stats' fields change shape
 * when they first hold fractions, which also voids feedback).
 */
function primeMeasures(): void {
    const tet = new SoftBody({
        positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
        triangles: [0, 2, 1, 0, 1, 3],
        stretch: [0, 1, 1, 2, 2, 0, 0, 3, 1, 3, 2, 3],
        bend: [2, 3, 0, 1],
        tets: [0, 1, 2, 3],
    });
    for (let run = 0; run < PRIMING_RUNS; run++) {
        measureBody(tet, run % 2 === 0);
    }
}

/** Calls of each measuring loop in `primeMeasures`: well past the calls after which V8 starts recording feedback. */
const PRIMING_RUNS = 64;

/** Kinetic energy ½ Σ m v² into `figures` (not returned: a returned fraction may be boxed). */
function measureKineticEnergy(body: SoftBody): void {
    const v = body.velocities;
    const m = body.masses;
    let energy = 0;
    for (let p = 0; p < body.particleCount; p++) {
        energy += 0.5 * m[p] * (v[3 * p] * v[3 * p] + v[3 * p + 1] * v[3 * p + 1] + v[3 * p + 2] * v[3 * p + 2]);
    }
    figures[0] = energy;
}

/**
 * Stretch figures into `figures` (max and mean edge ratio, max and mean residual, over-stretched edges) and, with
 * `residuals`, the per-particle stretch residual; returns the most stretched constraint when it is over the body's
 * over-stretch ratio, else −1.
 */
function measureStretch(body: SoftBody, residuals: boolean): number {
    const overRatio = body.overStretchRatio;
    const x = body.positions;
    const stretchResidual = body.stretchResidual;
    if (residuals) {
        stretchResidual.fill(0);
    }
    const edges = body.stretch.indices;
    const rest = body.stretch.restLengths;
    let maxRatio = 0;
    let maxEdge = -1;
    let ratioSum = 0;
    let residualSum = 0;
    let maxResidual = 0;
    let over = 0;
    const edgeCount = body.stretch.count;
    for (let c = 0; c < edgeCount; c++) {
        const pa = edges[2 * c];
        const pb = edges[2 * c + 1];
        const a = 3 * pa;
        const b = 3 * pb;
        const dx = x[b] - x[a];
        const dy = x[b + 1] - x[a + 1];
        const dz = x[b + 2] - x[a + 2];
        const ratio = Math.sqrt(dx * dx + dy * dy + dz * dz) / rest[c];
        const residual = Math.abs(ratio - 1);
        ratioSum += ratio;
        residualSum += residual;
        if (ratio > maxRatio) {
            maxRatio = ratio;
            maxEdge = c;
        }
        if (residual > maxResidual) {
            maxResidual = residual;
        }
        if (ratio > overRatio) {
            over++;
        }
        if (residuals) {
            if (residual > stretchResidual[pa]) {
                stretchResidual[pa] = residual;
            }
            if (residual > stretchResidual[pb]) {
                stretchResidual[pb] = residual;
            }
        }
    }
    figures[0] = maxRatio;
    figures[1] = edgeCount > 0 ? ratioSum / edgeCount : 0;
    figures[2] = maxResidual;
    figures[3] = edgeCount > 0 ? residualSum / edgeCount : 0;
    figures[4] = over;
    return over > 0 ? maxEdge : -1;
}

/** Volume figures into `figures` (max and mean residual, volume ratio) and the per-particle volume residual. */
function measureVolume(body: SoftBody, residuals: boolean): void {
    const x = body.positions;
    const volumeResidual = body.volumeResidual;
    if (residuals) {
        volumeResidual.fill(0);
    }
    const volume = body.volume;
    let volumeMax = 0;
    let volumeSum = 0;
    let total = 0;
    let restTotal = 0;
    for (let t = 0; t < volume.count; t++) {
        const current = tetVolume(
            x,
            volume.indices[4 * t],
            volume.indices[4 * t + 1],
            volume.indices[4 * t + 2],
            volume.indices[4 * t + 3],
        );
        const restVolume = volume.restVolumes[t];
        const error = Math.abs(current / restVolume - 1);
        total += current;
        restTotal += restVolume;
        volumeSum += error;
        if (error > volumeMax) {
            volumeMax = error;
        }
        if (residuals) {
            raiseResidual(volumeResidual, volume.indices, t, error);
        }
    }
    figures[0] = volumeMax;
    figures[1] = volumeSum / volume.count;
    figures[2] = total / restTotal;
}
