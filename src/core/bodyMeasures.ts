import { raiseResidual } from "./bendConstraints.js";
import type { SoftBody } from "./softBody.js";
import { tetVolume } from "./volumeConstraints.js";

/**
 * Figures of the state after a step. Always: counts, kinetic energy, edge ratios and volume figures. With
 * `residuals` also the bend figures and the per-particle residual arrays (the heatmaps); without, the bend figures
 * are NaN and the arrays keep their last values. Returns the most stretched constraint when it is over the body's
 * over-stretch ratio, else −1 (the world raises the event).
 */
export function measureBody(body: SoftBody, residuals: boolean): number {
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
    measureKineticEnergy(body);
    // One function per kind: each loop is optimised on its own, and a kind the body lacks costs nothing.
    const overStretched = measureStretch(body, residuals);
    if (body.bend.count === 0) {
        stats.maxBendResidual = 0;
        stats.meanBendResidual = 0;
    } else if (residuals) {
        body.bend.measure(body.positions, body.bendResidual, stats);
    } else {
        stats.maxBendResidual = NaN;
        stats.meanBendResidual = NaN;
    }
    if (body.volume.count > 0) {
        measureVolume(body, residuals);
    } else {
        stats.maxVolumeResidual = 0;
        stats.meanVolumeResidual = 0;
        stats.volumeRatio = 0;
    }
    return overStretched;
}

/** Kinetic energy ½ Σ m v² into the body's stats (written, not returned, so no number is boxed). */
function measureKineticEnergy(body: SoftBody): void {
    const v = body.velocities;
    const m = body.masses;
    let energy = 0;
    for (let p = 0; p < body.particleCount; p++) {
        energy += 0.5 * m[p] * (v[3 * p] * v[3 * p] + v[3 * p + 1] * v[3 * p + 1] + v[3 * p + 2] * v[3 * p + 2]);
    }
    body.stats.kineticEnergy = energy;
}

/**
 * Stretch figures and, with `residuals`, the per-particle stretch residual; returns the most stretched constraint
 * when it is over the body's over-stretch ratio, else −1.
 */
function measureStretch(body: SoftBody, residuals: boolean): number {
    const stats = body.stats;
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
        if (ratio > body.overStretchRatio) {
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
    stats.maxEdgeRatio = maxRatio;
    stats.meanEdgeRatio = edgeCount > 0 ? ratioSum / edgeCount : 0;
    stats.maxStretchResidual = maxResidual;
    stats.meanStretchResidual = edgeCount > 0 ? residualSum / edgeCount : 0;
    stats.overStretchedEdges = over;
    return over > 0 ? maxEdge : -1;
}

/** Volume figures and the per-particle volume residual. */
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
    body.stats.maxVolumeResidual = volumeMax;
    body.stats.meanVolumeResidual = volumeSum / volume.count;
    body.stats.volumeRatio = total / restTotal;
}
