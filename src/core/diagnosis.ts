/**
 * From what looks wrong to the state to check and the knob to turn: the rules behind the Inspector's Diagnosis
 * section. Each rule reads the figures of the last step (the body's {@link StepStats}, its particles, the world's
 * step time) and fires when its figure passes a threshold chosen where the symptom starts to show.
 */
import type { SoftBody } from "./softBody.js";
import type { XpbdWorld } from "./xpbdWorld.js";

/** One rule that fired: the symptom, the state measured, the figure against its threshold, and what to do. */
export interface DiagnosisFinding {
    /** Stable identifier of the rule. */
    id: DiagnosisRule;
    /** What the user sees ("The whole cloth stretches"). */
    symptom: string;
    /** The state that was checked, with its unit. */
    state: string;
    /** The measured figure. */
    figure: number;
    /** The threshold it passed. */
    threshold: number;
    /** The suggested action. */
    action: string;
}

/** The rules, in the order of the table. */
export type DiagnosisRule = "stretch" | "pinStretch" | "contactJitter" | "collapse" | "tunnelling" | "slowStep";

/** Mean edge ratio above which a cloth reads as rubbery (2% longer on average). */
export const STRETCH_THRESHOLD = 1.02;
/** Edge ratio next to a pin above which the cloth looks drawn out there (10%), when it exceeds the mean by half that. */
export const PIN_STRETCH_THRESHOLD = 1.1;
/** Largest contact correction in a step, in thicknesses, above which contacts push visibly (jitter, popping). */
export const JITTER_THICKNESSES = 0.5;
/** Volume kept below which a soft body reads as collapsed (90%). */
export const COLLAPSE_THRESHOLD = 0.9;
/**
 * Constraint projections per step above which a body makes slow frames: at the solver's ~20 ns per projection,
 * 200,000 are 4 ms, a quarter of a 60 Hz frame for one body. Counted rather than timed, so that the rule reads the
 * same on any machine (a 32² cloth at the default quality projects about 90,000 per step; a 64² one 360,000).
 */
export const SLOW_STEP_PROJECTIONS = 200_000;

/**
 * The rules that fire for `body` after the world's last step (see each threshold's comment for why it sits where
 * it does). `dt` is the step's length (s), for the distance a particle travels per substep. Not for the step: it
 * allocates and visits every stretch edge and particle.
 */
export function diagnose(body: SoftBody, world: XpbdWorld, dt = 1 / 60): DiagnosisFinding[] {
    const s = body.stats;
    const found: DiagnosisFinding[] = [];
    const add = (id: DiagnosisRule, symptom: string, state: string, figure: number, threshold: number, action: string) => {
        if (figure > threshold) {
            found.push({ id, symptom, state, figure, threshold, action });
        }
    };
    if (s.stretchConstraints > 0) {
        add(
            "stretch",
            "The whole cloth stretches",
            "mean edge length / rest length",
            s.meanEdgeRatio,
            STRETCH_THRESHOLD,
            "raise stretchStiffness towards 1, or the plugin's substeps (the same stiffness converges further)",
        );
        const nearPin = maxEdgeRatioAtPins(body);
        add(
            "pinStretch",
            "Stringy cloth next to a pin",
            "largest edge length / rest length at a pinned particle",
            nearPin > s.meanEdgeRatio + (PIN_STRETCH_THRESHOLD - 1) / 2 ? nearPin : 0,
            PIN_STRETCH_THRESHOLD,
            "grade the pin weights (1 at the pin, then 0.5 over a row or two) so the load spreads, or raise substeps",
        );
    }
    add(
        "contactJitter",
        "Contacts jitter or pop",
        "largest contact correction in the step, in thicknesses",
        s.contacts > 0 && body.thickness > 0 ? s.maxContactCorrection / body.thickness : 0,
        JITTER_THICKNESSES,
        "raise substeps (smaller moves per substep), thickness, or friction",
    );
    if (s.volumeConstraints > 0) {
        add(
            "collapse",
            "The soft body collapses",
            "volume lost (1 − volume / rest volume)",
            1 - s.volumeRatio,
            1 - COLLAPSE_THRESHOLD,
            "raise volumeStiffness towards 1, or substeps",
        );
    }
    add(
        "tunnelling",
        "Passes through thin things",
        "fastest particle's travel per substep, in thicknesses",
        body.thickness > 0 ? (maxSpeed(body) * dt) / world.substeps / body.thickness : 0,
        1,
        "raise thickness or substeps, so that no particle crosses more than its thickness per substep",
    );
    const projections = 2 * constraintCount(body) * world.substeps * world.iterations;
    add(
        "slowStep",
        "Slow frames",
        `constraint projections per step (${constraintCount(body)} constraints × ${world.substeps} substeps × ${world.iterations} ` +
            `iterations × 2 sweeps; ${s.contacts} contacts; the whole step took ${world.stats.stepMs.toFixed(2)} ms)`,
        projections,
        SLOW_STEP_PROJECTIONS,
        "lower substeps or the mesh resolution, or let far bodies sleep",
    );
    return found;
}

/** Largest length / rest length over the stretch edges that have a pinned end (0 when none). */
function maxEdgeRatioAtPins(body: SoftBody): number {
    const x = body.positions;
    const edges = body.stretch.indices;
    const weights = body.pins.weights;
    let most = 0;
    for (let c = 0; c < body.stretch.count; c++) {
        const a = edges[2 * c];
        const b = edges[2 * c + 1];
        if (weights[a] === 0 && weights[b] === 0) {
            continue;
        }
        const length = Math.hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]);
        most = Math.max(most, length / body.stretch.restLengths[c]);
    }
    return most;
}

function maxSpeed(body: SoftBody): number {
    const v = body.velocities;
    let most = 0;
    for (let i = 0; i < body.particleCount; i++) {
        most = Math.max(most, Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
    }
    return most;
}

function constraintCount(body: SoftBody): number {
    return body.stretch.count + body.shear.count + body.bend.count + body.volume.count + body.tethers.count;
}
