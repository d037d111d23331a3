/**
 * Argument checks shared by every layer, so that a value is judged the same way (and the error reads the same)
 * whether it comes through the core or the Babylon API. Each takes the name to print (the Babylon layer prefixes the
 * API, e.g. `"ClothImpostor: damping"`). Plain JavaScript callers can pass anything: a value of the wrong type is a
 * TypeError, a number out of range a RangeError, and neither is ever coerced (`"0.5"` is not a stiffness).
 */

/** How a rejected value is shown: strings quoted, so that `"2"` does not read as the number 2. */
export function describeValue(value: unknown): string {
    return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function requireNumber(value: unknown, name: string): asserts value is number {
    if (typeof value !== "number") {
        throw new TypeError(`${name} must be a number, got ${describeValue(value)} (${typeof value})`);
    }
}

/**
 * Throws naming `name` and the key when `options` has a key outside `known`: a misspelt option (`center` for
 * `origin`) would otherwise be ignored without a word by plain JavaScript callers, which TypeScript does not check.
 */
export function knownKeys(options: object, known: readonly string[], name: string): void {
    for (const key of Object.keys(options)) {
        if (!known.includes(key)) {
            throw new TypeError(`${name} has no option ${describeValue(key)} (its options: ${known.join(", ")})`);
        }
    }
}

/** Returns `value` if it is an integer ≥ 1; otherwise throws naming `name`. */
export function positiveInteger(value: number, name: string): number {
    requireNumber(value, name);
    if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    return value;
}

/** Returns `value` if it is an integer ≥ 0; otherwise throws naming `name`. */
export function nonNegativeInteger(value: number, name: string): number {
    requireNumber(value, name);
    if (!Number.isInteger(value) || value < 0) {
        throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
    }
    return value;
}

/** Returns `value` if it is an integer in [0, `count`) (an index into `count` things); otherwise throws naming `name`. */
export function indexBelow(value: number, count: number, name: string): number {
    requireNumber(value, name);
    if (!Number.isInteger(value) || value < 0 || value >= count) {
        throw new RangeError(`${name} ${value} is out of range [0, ${count})`);
    }
    return value;
}

/** Returns `value` if it is a finite number; otherwise throws naming `name`. */
export function finiteNumber(value: number, name: string): number {
    requireNumber(value, name);
    if (!Number.isFinite(value)) {
        throw new RangeError(`${name} must be a finite number, got ${value}`);
    }
    return value;
}

/** Returns `value` if it is a number above 1 (a length ratio; `Infinity` allowed); otherwise throws naming `name`. */
export function ratioAboveOne(value: number, name: string): number {
    requireNumber(value, name);
    if (!(value > 1)) {
        throw new RangeError(`${name} must be greater than 1, got ${value}`);
    }
    return value;
}

/** Returns the first three entries of `value` as a new vector if they are finite numbers; otherwise throws naming `name`. */
export function finiteVector3(value: ArrayLike<number>, name: string): [number, number, number] {
    return [finiteNumber(value[0], `${name}.x`), finiteNumber(value[1], `${name}.y`), finiteNumber(value[2], `${name}.z`)];
}

/** Returns `value` if it is a finite number ≥ 0; otherwise throws naming `name`. */
export function finiteNonNegative(value: number, name: string): number {
    requireNumber(value, name);
    if (!(value >= 0) || !Number.isFinite(value)) {
        throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
    }
    return value;
}

/** Returns `value` if it is a positive finite number; otherwise throws naming `name`. */
export function positiveFinite(value: number, name: string): number {
    requireNumber(value, name);
    if (!(value > 0) || !Number.isFinite(value)) {
        throw new RangeError(`${name} must be a positive finite number, got ${value}`);
    }
    return value;
}

/** Returns `value` if it is a number in [0, 1]; otherwise throws naming `name`. */
export function unitInterval(value: number, name: string): number {
    requireNumber(value, name);
    if (!(value >= 0 && value <= 1)) {
        throw new RangeError(`${name} must be in [0, 1], got ${value}`);
    }
    return value;
}

/** Returns `value` if it is a boolean; otherwise throws naming `name` (a string such as `"false"` is truthy). */
export function booleanValue(value: boolean, name: string): boolean {
    if (typeof value !== "boolean") {
        throw new TypeError(`${name} must be a boolean, got ${describeValue(value)} (${typeof value})`);
    }
    return value;
}

/**
 * Returns `value` as an unsigned 32-bit mask if it is a 32-bit integer, signed or not (`~GROUP` is negative in
 * JavaScript and means every group but one); otherwise throws naming `name`.
 */
export function mask32(value: number, name: string): number {
    requireNumber(value, name);
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff) {
        throw new RangeError(`${name} must be a 32-bit integer mask, got ${value}`);
    }
    return value >>> 0;
}

/** A strain limit: 0 (off) or a finite edge ratio greater than 1. Returns it. */
export function strainLimitValue(value: number, name: string): number {
    if (!(value === 0 || (value > 1 && Number.isFinite(value)))) {
        throw new RangeError(`${name} must be 0 (off) or a finite edge ratio greater than 1, got ${describeValue(value)}`);
    }
    return value;
}
