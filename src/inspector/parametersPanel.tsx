/**
 * Live parameters of one impostor (stiffnesses, shape matching, gas pressure, damping, friction, thickness, mass, sleep thresholds), bound to
 * the impostor's properties: a change is applied to the solver at once and takes effect at the next step.
 * Buttons copy the whole table as code or JSON.
 */
import { BoundProperty, ButtonLine, SwitchPropertyLine, SyncedSliderPropertyLine } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import type { ClothImpostor } from "../babylon/clothImpostor.js";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { useCopyWithFallback } from "./copyFallback.js";
import { parametersAsCode, parametersAsJson } from "./parameterSnippet.js";
import { PresetLine } from "./presetLine.js";

/** The parameter lines of `impostor`. */
export function ParametersPanel({ impostor }: { impostor: SoftImpostor }): ReactElement {
    const { copy, element } = useCopyWithFallback("XpbdParameters");
    const cloth = impostor.kind === "cloth";
    const softBody = impostor.kind === "softBody";
    const stiffness = { component: SyncedSliderPropertyLine, target: impostor, min: 0, max: 1, step: 0.01 } as const;
    return (
        <>
            {impostor.kind !== "rope" && <PresetLine impostor={impostor} />}
            <BoundProperty
                {...stiffness}
                label="Stretch"
                propertyKey="stretchStiffness"
                description="Stretch stiffness in [0, 1]: 1 is inextensible; each 1/6 below is ten times more compliance."
            />
            {cloth && (
                <BoundProperty
                    {...stiffness}
                    label="Shear"
                    propertyKey="shearStiffness"
                    description="Shear stiffness in [0, 1] (the diagonals across each pair of triangles)."
                />
            )}
            {!softBody && (
                <BoundProperty
                    {...stiffness}
                    label="Bend"
                    propertyKey="bendStiffness"
                    description="Bend stiffness in [0, 1] (cloth: dihedral angles; rope: a distance across each joint)."
                />
            )}
            {softBody && (
                <BoundProperty
                    {...stiffness}
                    label="Volume"
                    propertyKey="volumeStiffness"
                    description="Volume stiffness in [0, 1]: resistance to volume change of every tetrahedron."
                />
            )}
            {impostor.shapeMatching !== undefined && (
                <BoundProperty
                    {...stiffness}
                    label="Shape matching"
                    propertyKey="shapeMatching"
                    ignoreNullable
                    defaultValue={0.5}
                    description="Shape matching in [0, 1]: the pull of every particle towards the best-fitted rest shape; 1 is rigid."
                />
            )}
            {cloth && (impostor as ClothImpostor).pressure !== undefined && (
                <BoundProperty
                    component={SyncedSliderPropertyLine}
                    target={impostor as ClothImpostor}
                    propertyKey="pressure"
                    label="Pressure"
                    unit="Pa"
                    ignoreNullable
                    defaultValue={0}
                    min={0}
                    max={50000}
                    step={100}
                    unboundedInput
                    description="Pressure of the gas at the rest volume (no air outside; 0: no gas, it collapses); the gas keeps p·V constant."
                />
            )}
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="damping"
                label="Damping"
                unit="1/s"
                min={0}
                max={10}
                step={0.1}
                unboundedInput
                description="Decay rate of deformation (motion relative to the body's rigid motion); rigid motion is never damped."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="friction"
                label="Friction"
                min={0}
                max={2}
                step={0.01}
                unboundedInput
                description="Kinetic (sliding) friction against colliders, combined with the Havok material's by geometric mean."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="staticFriction"
                label="Static friction"
                min={0}
                max={2}
                step={0.01}
                unboundedInput
                description="Friction a resting contact must overcome before it slides; follows Friction until set here."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="thickness"
                label="Thickness"
                unit="m"
                min={0}
                max={0.05}
                step={0.001}
                unboundedInput
                description="Particles stay this far from collider surfaces."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="mass"
                label="Mass"
                unit="kg"
                min={0.01}
                max={10}
                step={0.01}
                unboundedInput
                description="Total mass; changing it rescales every particle."
            />
            <BoundProperty
                component={SwitchPropertyLine}
                target={impostor}
                propertyKey="selfCollision"
                label="Self-collision"
                description="The body collides with itself (a folding cloth); costs a spatial hash every substep."
            />
            <BoundProperty component={SwitchPropertyLine} target={impostor} propertyKey="allowSleep" label="Allow sleep" />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="sleepVelocity"
                label="Sleep velocity"
                unit="m/s"
                min={0}
                max={0.2}
                step={0.001}
                unboundedInput
                description="The body sleeps when every particle stays slower than this for the sleep time."
            />
            <BoundProperty
                component={SyncedSliderPropertyLine}
                target={impostor}
                propertyKey="sleepTime"
                label="Sleep time"
                unit="s"
                min={0}
                max={3}
                step={0.05}
                unboundedInput
                description="Seconds below the sleep velocity before the body sleeps."
            />
            <ButtonLine label="Copy parameters as code" onClick={() => copy(parametersAsCode(impostor), "code")} />
            <ButtonLine label="Copy parameters as JSON" onClick={() => copy(parametersAsJson(impostor), "JSON")} />
            {element}
        </>
    );
}
