import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { transformFileSync } from "@swc/core";

/**
 * Compiles the library's `src/core` and `src/meshing` to ES modules in a fresh temporary folder and returns that
 * folder (it holds `core/index.js` and `meshing/index.js`, as dist/ does).
 *
 * For tests that must run the solver in a plain Node child process (jest's sandbox slows it down about tenfold, or
 * changes what the JIT does) but must test the sources, not a dist/ that `jest` alone does not rebuild. Type-only
 * transpilation with swc: a few hundred milliseconds, no type checking (`npm test` does that).
 */
export function compileSources(): string {
    const root = path.join(__dirname, "../../src");
    const out = mkdtempSync(path.join(tmpdir(), "xpbd-src-"));
    writeFileSync(path.join(out, "package.json"), '{ "type": "module" }\n');
    for (const folder of ["core", "meshing"]) {
        mkdirSync(path.join(out, folder));
        for (const name of readdirSync(path.join(root, folder))) {
            if (!name.endsWith(".ts") || name.endsWith(".d.ts")) continue;
            const { code } = transformFileSync(path.join(root, folder, name), {
                jsc: { parser: { syntax: "typescript" }, target: "es2022" },
                module: { type: "es6" },
                swcrc: false,
                configFile: false,
            });
            writeFileSync(path.join(out, folder, name.replace(/\.ts$/, ".js")), code);
        }
    }
    return out;
}
