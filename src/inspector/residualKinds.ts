/**
 * The residuals a heatmap can show: which per-particle array of the core body holds them, how they are labelled
 * and the default top of the colour scale.
 */
import type { SoftBody } from "../core/index.js";

/** A per-particle residual of the last step (or, for `"tear"`, where the cloth has torn so far). */
export type ResidualKind = "stretch" | "bend" | "volume" | "contact" | "tear";

/** How a residual kind is shown. */
export interface ResidualKindInfo {
    /** Label in the kind drop-down and the legend. */
    readonly label: string;
    /** Unit shown after values ("" for ratios). */
    readonly unit: string;
    /** Default top of the colour scale (the value shown in red). */
    readonly defaultScale: number;
    /** Largest value the scale slider offers. */
    readonly maxScale: number;
    /** What the value is, for tooltips. */
    readonly description: string;
}

/** Every residual kind, in drop-down order. */
export const RESIDUAL_KINDS: Readonly<Record<ResidualKind, ResidualKindInfo>> = {
    stretch: {
        label: "Stretch ratio",
        unit: "",
        defaultScale: 0.05,
        maxScale: 1,
        description: "Per particle, the largest |length / rest length − 1| over its stretch edges (0.05 = 5 % longer or shorter).",
    },
    bend: {
        label: "Bend angle error",
        unit: "rad",
        defaultScale: 0.5,
        maxScale: Math.PI,
        description: "Per particle, the largest |θ − θ₀| over its bend elements (dihedral angle from rest).",
    },
    volume: {
        label: "Volume error",
        unit: "",
        defaultScale: 0.1,
        maxScale: 1,
        description: "Per particle, the largest |V / V₀ − 1| over its tetrahedra.",
    },
    contact: {
        label: "Contact correction",
        unit: "m",
        defaultScale: 0.01,
        maxScale: 0.1,
        description: "Per particle, the largest positional correction a contact made in the last step.",
    },
    tear: {
        label: "Tear edges",
        unit: "",
        defaultScale: 1,
        maxScale: 1,
        description:
            "1 (red) on the particles along a tear, the two sides of every split; 0 elsewhere, and everywhere on a cloth that cannot tear.",
    },
};

/** Zeros for the tear map of bodies that cannot tear: one array for all, grown as needed. */
let untorn = new Float32Array(0);

/** The body's per-particle array for `kind` (live: the solver rewrites it every step). */
export function residualValues(body: SoftBody, kind: ResidualKind): Float32Array {
    switch (kind) {
        case "stretch":
            return body.stretchResidual;
        case "bend":
            return body.bendResidual;
        case "volume":
            return body.volumeResidual;
        case "contact":
            return body.contactResidual;
        case "tear":
            if (body.tearing) {
                return body.tearing.torn;
            }
            if (untorn.length < body.particleCapacity) {
                untorn = new Float32Array(body.particleCapacity);
            }
            return untorn;
    }
}
