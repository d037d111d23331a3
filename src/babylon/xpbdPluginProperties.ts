/**
 * The base of {@link XpbdPlugin} that holds its core {@link XpbdWorld} and exposes the world's settings as
 * properties (quality tier, wind, air), each setter validating before it forwards.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { finiteNonNegative, finiteVector3, positiveInteger, type StepStats, type XpbdWorld } from "../core/index.js";

/** The world settings of a plugin, forwarded to its core world; see {@link XpbdPlugin}. */
export abstract class XpbdPluginProperties {
    /**
     * @param world - the plugin's core world
     * @internal
     */
    protected constructor(
        /** The core world (bodies, colliders, stats, events). */
        public readonly world: XpbdWorld,
    ) {}

    /** The defaults version of the plugin's world, and of the impostors that give none (see {@link XpbdPluginOptions.defaultsVersion}). */
    public get defaultsVersion(): number {
        return this.world.defaultsVersion;
    }

    /** Figures of the last step, summed over the bodies (substep time, residuals, contacts, sleeping bodies…). */
    public get stats(): StepStats {
        return this.world.stats;
    }

    /** Substeps per Havok step (positive integer). */
    public get substeps(): number {
        return this.world.substeps;
    }
    public set substeps(value: number) {
        this.world.substeps = positiveInteger(value, "substeps");
    }

    /** Solver iterations per substep (positive integer). */
    public get iterations(): number {
        return this.world.iterations;
    }
    public set iterations(value: number) {
        this.world.iterations = positiveInteger(value, "iterations");
    }

    /**
     * Wind velocity (m/s, world) on every impostor (scaled per impostor by its `windScale`). The getter returns a
     * new Vector3 holding the world's current wind (editing it changes nothing: assign it back); the setter copies the value
     * into the core world, taking effect at the next step. Gusts: assign a new value every frame.
     * Per frame, {@link getWindToRef} reads it without allocating.
     * @throws RangeError when a component is not finite
     */
    public get wind(): Vector3 {
        return this.getWindToRef(new Vector3());
    }
    public set wind(value: Vector3) {
        this.world.wind.set(finiteVector3([value.x, value.y, value.z], "wind"));
    }

    /** Writes the wind velocity (m/s, world) into `result` and returns it. */
    public getWindToRef(result: Vector3): Vector3 {
        const w = this.world.wind;
        return result.set(w[0], w[1], w[2]);
    }

    /** Air density ρ (kg/m³, ≥ 0; 0 turns aerodynamics off). Default 1.2. */
    public get airDensity(): number {
        return this.world.airDensity;
    }
    public set airDensity(value: number) {
        this.world.airDensity = finiteNonNegative(value, "airDensity");
    }
}
