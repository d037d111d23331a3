/**
 * The Diagnosis section of a selected impostor: which rows of the symptom → state → action table fire for it after
 * the last step (`diagnose` in the core), each with its measured figure and what to do. Polled twice a second.
 */
import { MessageBar } from "@babylonjs/inspector";
import type { ReactElement } from "react";
import { diagnose } from "../core/index.js";
import type { SoftImpostor } from "../babylon/softImpostor.js";
import { usePolled } from "./sessionHooks.js";

/** The findings of `impostor`, or a healthy message. */
export function DiagnosisPanel({ impostor }: { impostor: SoftImpostor }): ReactElement {
    // One string per poll, so the panel re-renders only when a finding changed.
    const text = usePolled(
        () =>
            JSON.stringify(
                diagnose(impostor.body, impostor.plugin.world, impostor.plugin.lastStepSeconds).map((f) => [
                    f.id,
                    f.symptom,
                    `${f.state}: ${f.figure.toPrecision(4)} (threshold ${f.threshold.toPrecision(4)})`,
                    f.action,
                ]),
            ),
        500,
    );
    const findings = JSON.parse(text) as [string, string, string, string][];
    if (findings.length === 0) {
        return <MessageBar intent="success" message="No symptom: every rule is below its threshold." staticItem />;
    }
    return (
        <>
            {findings.map(([id, symptom, figure, action]) => (
                <div key={id} data-diagnosis={id}>
                    <MessageBar intent="warning" title={symptom} message={`${figure}. Try: ${action}.`} staticItem />
                </div>
            ))}
        </>
    );
}
