/**
 * `SupportForecast`: the host's forecast of what the GPU bodies give a dynamic body during a step whose impulses come
 * back late, and the part of it each step's figures take back.
 */
import { Collider, ColliderMotion } from "../../src/core/collider";
import { SupportForecast } from "../../src/babylon/supportForecast";

const GRAVITY = [0, -9.81, 0];
const DT = 1 / 60;

/** A dynamic 10 kg box collider. */
function crate(): Collider {
    return new Collider([{ kind: "box", center: [0, 0, 0], halfExtents: [0.1, 0.1, 0.1] }], {
        motion: ColliderMotion.Dynamic,
        mass: 10,
        inertia: [0.1, 0.1, 0.1],
    });
}

describe("SupportForecast", () => {
    test("forecasts the support of the steps that arrived, along gravity, and takes each step's forecast back once", () => {
        const forecast = new SupportForecast();
        const box = crate();
        const out = new Float64Array(3);
        // Before any figures: nothing to forecast.
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(Array.from(box.forecastImpulse)).toEqual([0, 0, 0]);
        // Step 1 (started at t = 0) comes back from two bodies of a group, each holding half the box's weight and
        // pushing it sideways a little; the step gave no forecast.
        const half = (10 * 9.81 * DT) / 2;
        forecast.arrive(box, 0, [0.01, half, 0], [0, 0, 0], out);
        expect(Array.from(out)).toEqual([0, 0, 0]);
        forecast.arrive(box, 0, [0.01, half, 0], [0, 0, 0], out);
        // The next step's forecast is the whole support, along gravity only (the sideways push is not forecast).
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(Math.abs(box.forecastImpulse[0])).toBe(0);
        expect(box.forecastImpulse[1]).toBeCloseTo(2 * half, 12);
        expect(Math.abs(box.forecastImpulse[2])).toBe(0);
        const given = Float64Array.from(box.forecastImpulse);
        // That step's figures come back from both bodies carrying the forecast: the first takes it back, the second
        // does not (the host gave it once).
        forecast.arrive(box, DT, [0, half, 0], given, out);
        expect(Array.from(out)).toEqual(Array.from(given));
        forecast.arrive(box, DT, [0, half, 0], given, out);
        expect(Array.from(out)).toEqual([0, 0, 0]);
    });

    test("forecasts the mean support of the steps that arrived since the last step, not the last one's", () => {
        const forecast = new SupportForecast();
        const box = crate();
        const out = new Float64Array(3);
        // A read that brings back three steps at once, their support changing from step to step.
        for (const [k, jy] of [0.5, 2, 0.8].entries()) {
            forecast.arrive(box, k * DT, [0, jy, 0], [0, 0, 0], out);
        }
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(box.forecastImpulse[1]).toBeCloseTo(1.1, 12);
        // Figures that arrive after the forecast count for the next one; a second call in the same step changes nothing.
        forecast.arrive(box, 3 * DT, [0, 3, 0], [0, 0, 0], out);
        forecast.give([box], GRAVITY);
        expect(box.forecastImpulse[1]).toBeCloseTo(1.1, 12);
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(box.forecastImpulse[1]).toBeCloseTo(3, 12);
        // With no figures since, the last mean stands (the support is assumed to hold).
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(box.forecastImpulse[1]).toBeCloseTo(3, 12);
    });

    test("gives nothing in a step without GPU steps, in zero gravity, or to a body that is no longer dynamic", () => {
        const forecast = new SupportForecast();
        const box = crate();
        const out = new Float64Array(3);
        forecast.arrive(box, 0, [0, 1, 0], [0, 0, 0], out);
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(box.forecastImpulse[1]).toBeCloseTo(1, 12);
        // The next host step steps no GPU body (all asleep): `give` is not called, and the forecast is cleared.
        forecast.beginStep();
        expect(Array.from(box.forecastImpulse)).toEqual([0, 0, 0]);
        forecast.beginStep();
        forecast.give([box], [0, 0, 0]);
        expect(Array.from(box.forecastImpulse)).toEqual([0, 0, 0]);
        box.motion = ColliderMotion.Kinematic;
        forecast.beginStep();
        forecast.give([box], GRAVITY);
        expect(Array.from(box.forecastImpulse)).toEqual([0, 0, 0]);
    });
});
