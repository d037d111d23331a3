import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * Runs one of the allocation scripts of this folder (they measure the compiled library with `scripts/allocationProbe.mjs`)
 * in a child Node process with --expose-gc, and returns the figures it prints as JSON. A child process, because jest's
 * sandbox changes what the JIT does and so what a step allocates.
 */
export function allocationFigures<T>(script: string): T {
    const file = path.join(__dirname, script);
    return JSON.parse(execFileSync(process.execPath, ["--expose-gc", file], { encoding: "utf8", timeout: 300_000 })) as T;
}
