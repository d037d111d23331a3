/**
 * A simulated future release: the package's modules loaded afresh (a separate jest module registry) with a defaults
 * table that has one more version, equal to the newest except for the fields `change` edits. Everything loaded through
 * the returned `load` sees that table; modules imported normally by the test still see the real one.
 */
import type { XpbdDefaults } from "../../src/core/defaultsTable";

type Writable<T> = { -readonly [K in keyof T]: T[K] extends object ? Writable<T[K]> : T[K] };

/**
 * Loads `paths` (relative to this file, e.g. `"../../src/core/index"`) in a registry whose defaults table ends with
 * `change(copy of the newest entry)`; `version` is that new entry's version. With `inPlace`, the changed copy
 * replaces the newest entry instead: a release that broke the rules and edited a released version.
 */
export function futureRelease(
    change: (next: Writable<XpbdDefaults>) => void,
    paths: readonly string[],
    inPlace = false,
): { load: <T>(path: string) => T; version: number } {
    let version = 0;
    const modules = new Map<string, unknown>();
    jest.isolateModules(() => {
        jest.doMock("../../src/core/defaultsTable", () => {
            const actual = jest.requireActual<typeof import("../../src/core/defaultsTable")>("../../src/core/defaultsTable");
            const newest = actual.DEFAULTS_TABLE[actual.DEFAULTS_TABLE.length - 1];
            const next = JSON.parse(JSON.stringify(newest)) as Writable<XpbdDefaults>;
            change(next);
            const kept = inPlace ? actual.DEFAULTS_TABLE.slice(0, -1) : actual.DEFAULTS_TABLE;
            version = kept.length + 1;
            return { ...actual, DEFAULTS_TABLE: Object.freeze([...kept, next]) };
        });
        // Load the entry points inside the isolated registry; later `load` calls return what they loaded.
        for (const path of paths) {
            modules.set(path, jest.requireActual(path));
        }
    });
    return {
        version,
        load<T>(path: string): T {
            const module = modules.get(path);
            if (!module) {
                throw new Error(`futureRelease: ${path} was not loaded (add it to the list)`);
            }
            return module as T;
        },
    };
}
