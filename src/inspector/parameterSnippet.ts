/**
 * The current parameter table of an impostor, as code (`new ClothImpostor(mesh, { … }, xpbd)`) or JSON, for
 * pasting tuned values back into an app.
 */
import type { SoftImpostor } from "../babylon/softImpostor.js";
import type { SoftImpostorOptionValues } from "../babylon/softImpostorOptions.js";

/** Options worth copying, in the order they are written. */
const ORDER: readonly (keyof SoftImpostorOptionValues)[] = [
    "mass",
    "stretchStiffness",
    "shearStiffness",
    "bendStiffness",
    "volumeStiffness",
    "shapeMatching",
    "pressure",
    "resolution",
    "radius",
    "damping",
    "friction",
    "staticFriction",
    "thickness",
    "selfCollision",
    "allowSleep",
    "sleepVelocity",
    "sleepTime",
    "membership",
    "collideWith",
];

/** The impostor's options (rounded) plus the plugin's quality tier. */
export function parameterTable(impostor: SoftImpostor): Record<string, number | boolean> {
    const options = impostor.getOptions() as unknown as Record<string, unknown>;
    const table: Record<string, number | boolean> = {};
    const keys = [
        ...ORDER,
        ...Object.keys(options)
            .filter((k) => !ORDER.includes(k as keyof SoftImpostorOptionValues))
            .sort(),
    ];
    for (const key of keys) {
        // A rope's thickness is its radius, and it has no surface to collide with itself.
        if (impostor.kind === "rope" && (key === "thickness" || key === "selfCollision")) {
            continue;
        }
        const value = options[key];
        if (typeof value === "boolean") {
            table[key] = value;
        } else if (typeof value === "number") {
            table[key] = round(value);
        }
    }
    return table;
}

/** `new ClothImpostor(mesh, { … }, xpbd);` with every option, preceded by the plugin's substeps and iterations. */
export function parametersAsCode(impostor: SoftImpostor): string {
    const table = parameterTable(impostor);
    const className = impostor.getClassName();
    const lines = Object.entries(table).map(([key, value]) => `    ${key}: ${formatValue(key, value)},`);
    const plugin = impostor.plugin;
    return [
        `// Solver quality (plugin-wide): new XpbdPlugin(scene, { substeps: ${plugin.substeps}, iterations: ${plugin.iterations} })`,
        `const ${impostor.kind} = new ${className}(mesh, {`,
        ...lines,
        "}, xpbd);",
    ].join("\n");
}

/** The same table as JSON (`{ kind, substeps, iterations, options }`). */
export function parametersAsJson(impostor: SoftImpostor): string {
    const plugin = impostor.plugin;
    return JSON.stringify(
        { kind: impostor.kind, substeps: plugin.substeps, iterations: plugin.iterations, options: parameterTable(impostor) },
        null,
        2,
    );
}

function formatValue(key: string, value: number | boolean): string {
    if ((key === "membership" || key === "collideWith") && typeof value === "number") {
        return `0x${(value >>> 0).toString(16)}`;
    }
    return String(value);
}

function round(value: number): number {
    return Number.isInteger(value) ? value : Number(value.toPrecision(6));
}
