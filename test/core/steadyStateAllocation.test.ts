import { allocationFigures } from "../support/allocationFigures.js";

/**
 * "The step allocates nothing in steady state", measured: a scene that runs every part of the step (moving and soft
 * pins, wind, cloth and jelly, every collider shape, static / kinematic / dynamic colliders, friction, restitution, a
 * body solved in fewer substeps than the world) is stepped in a child Node process with --expose-gc on the compiled
 * library (jest's sandbox changes what the JIT does), after a warm-up that lets the JIT optimise what runs.
 */
test("a steady-state step allocates nothing but its two clock reads, and 10,000 steps collect no garbage", () => {
    const figures = allocationFigures<{
        warmup: number;
        bytesWithClock: number;
        bytesWithoutClock: number;
        gcEvents: number;
        finite: boolean;
        contacts: number;
        candidates: number[];
        touched: number[];
        colliders: number;
        clothKinematicPins: number;
        clothSoftPins: number;
        dynamicImpulse: number;
    }>("steadyStateAllocation.mjs");
    console.log(
        `warm-up ${figures.warmup} steps; bytes per step ${figures.bytesWithoutClock} without the step timer, ` +
            `${figures.bytesWithClock} with it; ${figures.gcEvents} collections in 10,000 steps`,
    );
    // The scene really runs what it claims to: every collider in contact, both kinds of pins, and a dynamic body carrying the jelly.
    expect(figures.warmup).toBeLessThan(40_000);
    expect(figures.finite).toBe(true);
    expect(figures.contacts).toBeGreaterThan(10);
    expect(figures.colliders).toBe(7);
    // Every shape was queried during the measured steps, and every collider took impulse at the end.
    expect(figures.candidates.every((count) => count > 0)).toBe(true);
    expect(figures.touched.every((impulse) => impulse > 0)).toBe(true);
    expect(figures.clothKinematicPins).toBe(2);
    expect(figures.clothSoftPins).toBe(1);
    // The 2 kg jelly rests on the dynamic box: its impulse per step is m·g·dt = 0.327 N·s.
    expect(figures.dynamicImpulse).toBeGreaterThan(0.3);
    // Without the step timer: nothing. A single number boxed per step would be 16 bytes; the bound leaves room only for
    // the JIT's rare late optimisation of a function that runs once per step, spread over 2,000 steps (the least of
    // three windows is kept, so a one-off shows only if it strikes all three).
    expect(figures.bytesWithoutClock).toBeLessThan(1);
    // With the step timer (the default): its two clock readings (V8 returns each as a 16-byte heap number), nothing else.
    expect(figures.bytesWithClock).toBeLessThanOrEqual(33);
    expect(figures.gcEvents).toBe(0);
});
