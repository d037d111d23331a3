/**
 * Plugin-wide solver quality: substeps per Havok step as a quality tier (Low 2 / Medium 5 / High 10) and
 * iterations per substep. Applies from the next step.
 */
import { BoundProperty, NumberDropdownPropertyLine, SyncedSliderPropertyLine, useObservableState } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { XpbdPlugin } from "../babylon/xpbdPlugin.js";
import { qualityTierOptions } from "./qualityTiers.js";

/** The solver lines of `plugin`. */
export function SolverPanel({ plugin }: { plugin: XpbdPlugin }): ReactElement {
    const substeps = useObservableState(() => plugin.substeps, plugin.onAfterStepObservable);
    return (
        <>
            <BoundProperty
                component={NumberDropdownPropertyLine}
                target={plugin}
                propertyKey="substeps"
                label="Quality"
                options={qualityTierOptions(substeps)}
                description="Substeps per Havok step: a quality tier (cost grows with it), not a stiffness knob."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={plugin}
                propertyKey="iterations"
                label="Iterations"
                description="Solver iterations per substep."
                min={1}
                max={8}
                step={1}
            />
        </>
    );
}
