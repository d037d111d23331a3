/**
 * Argument checks shared by every layer, so that a value is judged the same way (and the error reads the same)
 * whether it comes through the core or the Babylon API.
 */

/** Returns `value` if it is an integer ≥ 1; otherwise throws a RangeError naming `name`. */
export function positiveInteger(value: number, name: string): number {
    if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    return value;
}
