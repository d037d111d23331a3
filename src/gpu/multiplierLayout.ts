/**
 * The layout of a body's multiplier buffer, the one definition the host code and the shaders use. Besides the
 * multipliers it holds what the particle pass keeps between its dispatches and the coupling's sums, because that
 * pass already binds WebGPU's default limit of 8 storage buffers. In 32-bit words:
 *
 * - `[0, lambdaCount)`: the multipliers (`ConstraintRecords.lambdaCount` f32: the constraints', then one soft-pin
 *   multiplier per particle), zeroed by the predict pass every substep;
 * - `[lambdaCount, lambdaCount + TOUCH_WORDS × particles)`: the particles' touch records for restitution (see
 *   {@link TOUCH_WORDS}; the shader finds them from `Params.lambdaCount`), each cleared by the substep's velocity pass;
 * - from {@link impulseBase} on, `ACCUMULATOR_WORDS` per dynamic collider: the impulse accumulators of two-way
 *   coupling (see `colliderImpulses.ts`), zeroed after each step's read-back copy.
 */

/**
 * Words per particle of its touch record: the normal of the last contact of the substep with a collider that
 * bounces (f32 bits), and that collider's slot + 1 (0: none). The particle pass writes it and reads it back for
 * restitution at the end of the substep.
 */
export const TOUCH_WORDS = 4;

/**
 * Word where the impulse accumulators start, after the multipliers and the touch records of `particleCount`
 * particles: rounded up to a multiple of 4 (16 bytes), so that the accumulators' copy starts aligned.
 */
export function impulseBase(lambdaCount: number, particleCount: number): number {
    return Math.ceil((lambdaCount + TOUCH_WORDS * particleCount) / 4) * 4;
}
