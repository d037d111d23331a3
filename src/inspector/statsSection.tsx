/** The "Soft bodies (XPBD)" section of the Inspector's Statistics pane: the plugin's figures of the last step. */
import {
    StatsServiceIdentity,
    StringifiedPropertyLine,
    MessageBar,
    type IStatsService,
    type ServiceDefinition,
} from "@babylonjs/inspector";
import type { Scene } from "@babylonjs/core/scene";
import type { ReactElement } from "react";
import type { StepStats } from "../core/index.js";
import { XpbdPlugin } from "../babylon/xpbdPlugin.js";
import type { XpbdInspectorServiceDefinition } from "./serviceDefinition.js";
import { usePolled } from "./sessionHooks.js";

/** The section's identity in the Statistics pane. */
export const STATS_SECTION = "Soft bodies (XPBD)";

/** A line of the section: label, how to read it, precision and unit. */
type StatLine = readonly [label: string, read: (s: StepStats, p: XpbdPlugin) => number, precision?: number, units?: string];

const LINES: readonly StatLine[] = [
    ["Step time", (s) => s.stepMs, 3, "ms"],
    ["Substep time", (s) => s.substepMs, 4, "ms"],
    ["Substeps × iterations", (_s, p) => p.substeps * p.iterations],
    ["Bodies", (s) => s.bodies],
    ["Sleeping bodies", (s) => s.sleepingBodies],
    ["Particles", (s) => s.particles],
    ["Stretch constraints", (s) => s.stretchConstraints],
    ["Shear constraints", (s) => s.shearConstraints],
    ["Bend constraints", (s) => s.bendConstraints],
    ["Volume constraints", (s) => s.volumeConstraints],
    ["Tethers", (s) => s.tethers],
    ["Pins", (s) => s.pins],
    ["Contacts", (s) => s.contacts],
    ["Contact candidates", (s) => s.contactCandidates],
    ["Soft contacts", (s) => s.softContacts],
    ["Soft contact candidates", (s) => s.softContactCandidates],
    ["Max contact correction", (s) => s.maxContactCorrection * 1000, 3, "mm"],
    ["Max stretch residual", (s) => s.maxStretchResidual, 5],
    ["Mean stretch residual", (s) => s.meanStretchResidual, 5],
    ["Max bend residual", (s) => s.maxBendResidual, 4, "rad"],
    ["Mean bend residual", (s) => s.meanBendResidual, 4, "rad"],
    ["Max volume residual", (s) => s.maxVolumeResidual, 5],
    ["Mean volume residual", (s) => s.meanVolumeResidual, 5],
    ["Max edge ratio", (s) => s.maxEdgeRatio, 5],
    ["Mean edge ratio", (s) => s.meanEdgeRatio, 5],
    ["Over-stretched edges", (s) => s.overStretchedEdges],
    ["Kinetic energy", (s) => s.kineticEnergy, 5, "J"],
];

function XpbdStats({ context: scene }: { context: Scene }): ReactElement {
    // One string per poll, so the section re-renders only when a figure changed.
    const text = usePolled(() => {
        const plugin = XpbdPlugin.FromScene(scene);
        return plugin ? LINES.map(([, read]) => read(plugin.stats, plugin)).join("|") : "";
    }, 500);
    if (!text) {
        return <MessageBar intent="info" message="This scene has no XpbdPlugin." staticItem />;
    }
    const values = text.split("|").map(Number);
    return (
        <>
            {LINES.map(([label, , precision, units], i) => (
                <StringifiedPropertyLine
                    key={label}
                    uniqueId={`Xpbd${label}`}
                    label={label}
                    value={values[i]}
                    precision={precision}
                    units={units}
                />
            ))}
        </>
    );
}

const definition: ServiceDefinition<[], [IStatsService]> = {
    friendlyName: "XPBD soft body stats",
    consumes: [StatsServiceIdentity],
    factory: (stats) => {
        const registrations = [
            stats.addSection({ identity: STATS_SECTION, order: 10 }),
            stats.addSectionContent({ key: "XpbdStats", section: STATS_SECTION, component: XpbdStats }),
        ];
        return { dispose: () => registrations.forEach((r) => r.dispose()) };
    },
};

/** Adds the soft-body figures to the Statistics pane. */
export const XpbdStatsServiceDefinition: XpbdInspectorServiceDefinition = definition;
