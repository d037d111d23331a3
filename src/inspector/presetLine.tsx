/** The parameters section's preset dropdown: gives the impostor a material preset's values, or shows which it has. */
import { StringDropdownPropertyLine, useObservableState } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import { applyMaterialPreset, ClothPresets, matchingMaterialPreset, SoftBodyPresets } from "../babylon/materialPresets.js";
import type { SoftImpostor } from "../babylon/softImpostor.js";

const CUSTOM = "custom";

/** Labels of preset names ("rubberSheet" → "Rubber sheet"). */
function label(name: string): string {
    const words = name.replace(/([A-Z])/g, " $1").toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A dropdown of the impostor kind's presets; "Custom" while the values match none. */
export function PresetLine({ impostor }: { impostor: SoftImpostor }): ReactElement {
    const presets: Readonly<
        Record<string, (typeof ClothPresets)[keyof typeof ClothPresets] | (typeof SoftBodyPresets)[keyof typeof SoftBodyPresets]>
    > = impostor.kind === "cloth" ? ClothPresets : SoftBodyPresets;
    // Re-read after every step: a slider moved elsewhere turns the line back to "Custom".
    const current = useObservableState(() => matchingMaterialPreset(impostor) ?? CUSTOM, impostor.plugin.onAfterStepObservable);
    const options = [{ label: "Custom", value: CUSTOM }, ...Object.keys(presets).map((name) => ({ label: label(name), value: name }))];
    return (
        <StringDropdownPropertyLine
            label="Material preset"
            description="Sets stiffnesses, damping, friction, drag, lift and the mass (the preset's density × the body's area or volume)."
            options={options}
            value={current}
            onChange={(name) => {
                if (name !== CUSTOM && presets[name]) {
                    applyMaterialPreset(impostor, presets[name]);
                }
            }}
        />
    );
}
