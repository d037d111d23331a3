/** Substeps per Havok step, offered as quality tiers (iterations are a second, finer knob). */

/** A named substep count. */
export interface QualityTier {
    readonly label: string;
    readonly substeps: number;
}

/** The tiers of the substeps drop-down. */
export const QUALITY_TIERS: readonly QualityTier[] = [
    { label: "Low · 2 substeps", substeps: 2 },
    { label: "Medium · 5 substeps (default)", substeps: 5 },
    { label: "High · 10 substeps", substeps: 10 },
];

/** The drop-down options: the tiers, plus the current count when it is not one of them. */
export function qualityTierOptions(current: number): { label: string; value: number }[] {
    const options = QUALITY_TIERS.map((t) => ({ label: t.label, value: t.substeps }));
    if (!options.some((o) => o.value === current)) {
        options.push({ label: `Custom · ${current} substeps`, value: current });
        options.sort((a, b) => a.value - b.value);
    }
    return options;
}
