/**
 * Looking up the defaults of a defaults version (the table itself is `defaultsTable.ts`). Every constructor that
 * fills in defaults takes a `defaultsVersion` option and reads them here.
 */
import { describeValue } from "./argumentChecks.js";
import { DEFAULTS_TABLE, type XpbdDefaults } from "./defaultsTable.js";

/** The newest defaults version this build knows: what every `defaultsVersion` option defaults to. */
export const LATEST_DEFAULTS_VERSION: number = DEFAULTS_TABLE.length;

/**
 * Returns `version` if this build knows it, or the newest version when it is undefined; otherwise throws a
 * RangeError naming `name` (a TypeError for a value that is not a number).
 */
export function resolveDefaultsVersion(version: number | undefined, name = "defaultsVersion"): number {
    if (version === undefined) {
        return DEFAULTS_TABLE.length;
    }
    if (typeof version !== "number") {
        throw new TypeError(`${name} must be a number, got ${describeValue(version)} (${typeof version})`);
    }
    if (!Number.isInteger(version) || version < 1 || version > DEFAULTS_TABLE.length) {
        throw new RangeError(
            `${name} must be an integer from 1 to ${DEFAULTS_TABLE.length} (the defaults versions this build of babylon-xpbd knows), ` +
                `got ${version}`,
        );
    }
    return version;
}

/** Every default of a defaults version (the newest when `version` is undefined). Frozen; throws like {@link resolveDefaultsVersion}. */
export function getDefaults(version?: number): XpbdDefaults {
    return DEFAULTS_TABLE[resolveDefaultsVersion(version) - 1];
}
