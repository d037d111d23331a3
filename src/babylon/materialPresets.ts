/**
 * Material presets: plain option objects for {@link ClothImpostor} and {@link SoftBodyImpostor}, each a starting
 * point taken from what the material is in the world (its weight per area or volume, how it bends, stretches,
 * loses energy and grips). Spread one into the options and override what you like:
 * `new ClothImpostor(mesh, { ...ClothPresets.denim, mass: 0.4 }, xpbd)` (an explicit `mass` wins over the preset's
 * `density`).
 *
 * Bending stiffness is a slider in [0, 1] where each 1/6 is a decade of compliance; at the default quality (5
 * substeps, 1 iteration) the solver resolves the differences below about 0.35, and every real fabric sits there, so
 * the cloth presets stay in that range (see docs/presets.md for the ordering they were checked against).
 */
import type { ClothImpostorOptions } from "./clothImpostor.js";
import type { SoftBodyImpostor, SoftBodyImpostorOptions } from "./softBodyImpostor.js";
import type { SoftImpostor } from "./softImpostor.js";

/** What a cloth preset sets: density (kg/m²), stiffnesses, damping, friction, drag and lift. */
export type ClothPreset = Readonly<
    Required<
        Pick<
            ClothImpostorOptions,
            | "density"
            | "stretchStiffness"
            | "shearStiffness"
            | "bendStiffness"
            | "damping"
            | "friction"
            | "dragCoefficient"
            | "liftCoefficient"
        >
    >
>;

/** What a soft-body preset sets: density (kg/m³), stiffnesses, damping, friction, drag and lift. */
export type SoftBodyPreset = Readonly<
    Required<
        Pick<
            SoftBodyImpostorOptions,
            "density" | "stretchStiffness" | "volumeStiffness" | "damping" | "friction" | "dragCoefficient" | "liftCoefficient"
        >
    >
>;

/** Names of {@link ClothPresets}. */
export type ClothPresetName = "silk" | "cotton" | "denim" | "leather" | "rubberSheet" | "chainMail" | "flagNylon";

/** Names of {@link SoftBodyPresets}. */
export type SoftBodyPresetName = "jelly" | "rubber" | "flesh" | "foam";

/**
 * Cloth materials. Densities are fabric weights (kg/m² of the sheet); stiffnesses are the impostor's [0, 1] sliders.
 * @example
 * ```ts
 * const cape = new ClothImpostor(capeMesh, { ...ClothPresets.leather, thickness: 0.015 }, xpbd);
 * ```
 */
export const ClothPresets: Readonly<Record<ClothPresetName, ClothPreset>> = Object.freeze({
    /** Habotai or charmeuse weigh 40–80 g/m²; the limpest woven fabric, slippery, shears on the bias, shimmers long. */
    silk: Object.freeze({
        density: 0.06,
        stretchStiffness: 1,
        shearStiffness: 0.6,
        bendStiffness: 0.02,
        damping: 0.3,
        friction: 0.25,
        dragCoefficient: 1.2,
        liftCoefficient: 1,
    }),
    /** Shirting or poplin, 120–150 g/m²: a plain weave that folds softly and grips moderately. */
    cotton: Object.freeze({
        density: 0.15,
        stretchStiffness: 1,
        shearStiffness: 0.75,
        bendStiffness: 0.1,
        damping: 1,
        friction: 0.5,
        dragCoefficient: 1.2,
        liftCoefficient: 1,
    }),
    /** 12–14 oz/yd² twill (400–470 g/m²): a tight weave that resists bias shear and folds in broad creases. */
    denim: Object.freeze({
        density: 0.45,
        stretchStiffness: 1,
        shearStiffness: 0.85,
        bendStiffness: 0.2,
        damping: 1.5,
        friction: 0.6,
        dragCoefficient: 1.2,
        liftCoefficient: 1,
    }),
    /** 1.2 mm cowhide at about 0.9 g/cm³ (1.1 kg/m²): a felted fibre mat, no bias, stiff, gives a little, lossy. */
    leather: Object.freeze({
        density: 1.1,
        stretchStiffness: 0.9,
        shearStiffness: 0.95,
        bendStiffness: 0.35,
        damping: 3,
        friction: 0.6,
        dragCoefficient: 1.2,
        liftCoefficient: 0.8,
    }),
    /** 1 mm filled rubber (1.2 g/cm³): stretches visibly under its own weight, springs back, grips hard. */
    rubberSheet: Object.freeze({
        density: 1.2,
        stretchStiffness: 0.5,
        shearStiffness: 0.5,
        bendStiffness: 0.15,
        damping: 0.5,
        friction: 1,
        dragCoefficient: 1.2,
        liftCoefficient: 1,
    }),
    /** Riveted steel rings, about 6 kg/m²: rings neither stretch nor resist turning; half the area is holes the air passes. */
    chainMail: Object.freeze({
        density: 6,
        stretchStiffness: 1,
        shearStiffness: 0.3,
        bendStiffness: 0,
        damping: 2,
        friction: 0.4,
        dragCoefficient: 0.6,
        liftCoefficient: 0.2,
    }),
    /** 200-denier flag nylon, 70–80 g/m²: light, limp and smooth, made to catch the wind and flap. */
    flagNylon: Object.freeze({
        density: 0.08,
        stretchStiffness: 1,
        shearStiffness: 0.8,
        bendStiffness: 0.05,
        damping: 0.3,
        friction: 0.3,
        dragCoefficient: 1.2,
        liftCoefficient: 1,
    }),
});

/**
 * Soft-body materials. Densities are kg/m³ of the body's volume, so a preset gives real weights (a 0.5 m jelly cube
 * is 130 kg): give `mass` to override. Drag and lift are the soft body's own defaults (half a sheet's; see
 * `SOFT_BODY_IMPOSTOR_DEFAULTS`).
 * @example
 * ```ts
 * const ball = new SoftBodyImpostor(sphere, { ...SoftBodyPresets.rubber, resolution: 5 }, xpbd);
 * ```
 */
export const SoftBodyPresets: Readonly<Record<SoftBodyPresetName, SoftBodyPreset>> = Object.freeze({
    /** Gelatin dessert is mostly water (1,050 kg/m³): keeps its volume, wobbles long, slippery when wet. */
    jelly: Object.freeze({
        density: 1050,
        stretchStiffness: 0.4,
        volumeStiffness: 1,
        damping: 0.5,
        friction: 0.3,
        dragCoefficient: 0.6,
        liftCoefficient: 0.5,
    }),
    /** Filled rubber (1,100 kg/m³, Poisson's ratio ≈ 0.5): stiff, keeps its volume, bounces back, grips. */
    rubber: Object.freeze({
        density: 1100,
        stretchStiffness: 0.85,
        volumeStiffness: 1,
        damping: 0.8,
        friction: 0.9,
        dragCoefficient: 0.6,
        liftCoefficient: 0.5,
    }),
    /** Soft tissue is about as dense as water (1,060 kg/m³), nearly incompressible and viscous: a poke dies out at once. */
    flesh: Object.freeze({
        density: 1060,
        stretchStiffness: 0.6,
        volumeStiffness: 0.95,
        damping: 4,
        friction: 0.5,
        dragCoefficient: 0.6,
        liftCoefficient: 0.5,
    }),
    /** Polyurethane foam is mostly air (20–50 kg/m³): squeezes down without bulging, and the air in its cells damps it. */
    foam: Object.freeze({
        density: 30,
        stretchStiffness: 0.6,
        volumeStiffness: 0.3,
        damping: 5,
        friction: 0.8,
        dragCoefficient: 0.6,
        liftCoefficient: 0.5,
    }),
});

/**
 * Gives a built impostor a preset's values, as if it had been built with them: its stiffnesses, damping, friction,
 * drag and lift, and the mass the preset's density gives for the impostor's rest area (cloth) or mesh volume (soft
 * body). What the Inspector's preset dropdown does.
 * @throws Error when the preset is for the other kind of impostor, or the impostor is a rope (no presets)
 */
export function applyMaterialPreset(impostor: SoftImpostor, preset: ClothPreset | SoftBodyPreset): void {
    const cloth = "bendStiffness" in preset;
    if (impostor.kind === "rope" || cloth !== (impostor.kind === "cloth")) {
        throw new Error(
            `applyMaterialPreset: a ${cloth ? "cloth" : "soft body"} preset cannot be applied to a ${impostor.getClassName()} (mesh "${impostor.mesh.name}")`,
        );
    }
    impostor.stretchStiffness = preset.stretchStiffness;
    if (cloth) {
        impostor.shearStiffness = preset.shearStiffness;
        impostor.bendStiffness = preset.bendStiffness;
    } else {
        impostor.volumeStiffness = preset.volumeStiffness;
    }
    impostor.damping = preset.damping;
    impostor.friction = preset.friction;
    impostor.dragCoefficient = preset.dragCoefficient;
    impostor.liftCoefficient = preset.liftCoefficient;
    impostor.mass = preset.density * (cloth ? restArea(impostor) : (impostor as SoftBodyImpostor).meshVolume);
}

/**
 * The name of the preset whose values the impostor has now (its stiffnesses, damping, friction, drag and lift, and a
 * mass its density gives within 0.1%), or null (always for a rope: there are no rope presets).
 */
export function matchingMaterialPreset(impostor: SoftImpostor): ClothPresetName | SoftBodyPresetName | null {
    if (impostor.kind === "rope") {
        return null;
    }
    const presets: Readonly<Record<string, ClothPreset | SoftBodyPreset>> = impostor.kind === "cloth" ? ClothPresets : SoftBodyPresets;
    const measure = impostor.kind === "cloth" ? restArea(impostor) : (impostor as SoftBodyImpostor).meshVolume;
    for (const [name, preset] of Object.entries(presets)) {
        const { density, ...values } = preset;
        const same = Object.entries(values).every(([key, value]) => impostor[key as keyof SoftImpostor] === value);
        if (same && Math.abs(impostor.mass - density * measure) <= 1e-3 * impostor.mass) {
            return name as ClothPresetName | SoftBodyPresetName;
        }
    }
    return null;
}

/** Rest area of a cloth's triangles (m²). */
function restArea(impostor: SoftImpostor): number {
    const x = impostor.body.restPositions;
    const t = impostor.body.triangles;
    let area = 0;
    for (let k = 0; k < t.length; k += 3) {
        const a = 3 * t[k];
        const b = 3 * t[k + 1];
        const c = 3 * t[k + 2];
        const ux = x[b] - x[a];
        const uy = x[b + 1] - x[a + 1];
        const uz = x[b + 2] - x[a + 2];
        const vx = x[c] - x[a];
        const vy = x[c + 1] - x[a + 1];
        const vz = x[c + 2] - x[a + 2];
        area += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2;
    }
    return area;
}
