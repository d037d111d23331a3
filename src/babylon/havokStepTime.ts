/**
 * The length of the Havok step that is about to run. Babylon's `onBeforePhysicsObservable` passes no time step, so
 * it is derived here from the same inputs Babylon and the Havok plugin use (verified against `@babylonjs/core` 9.35):
 * - `HavokPlugin(false, …)`: Havok always advances by its fixed `getTimeStep()`.
 * - `HavokPlugin(true, …)` (the default): Havok advances by the delta handed to `PhysicsEngine._step`, which is the
 *   sub time step when `setSubTimeStep(ms)` is on, the engine's lockstep time step in deterministic lockstep, 16 ms
 *   with `useConstantAnimationDeltaTime`, otherwise the frame delta clamped between
 *   `Scene.MinDeltaTime` and `Scene.MaxDeltaTime`; `_step` then clamps it to at most 0.1 s and replaces a non-positive value by 1/60 s.
 */
import { Scene } from "@babylonjs/core/scene";
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine";

/** The constructor flag Babylon keeps on the plugin (a private field in the typings). */
interface HavokPluginStepMode {
    _useDeltaForWorldStep: boolean;
}

/** Seconds the next Havok step of `scene` will simulate (call from `onBeforePhysicsObservable`). */
export function havokStepSeconds(scene: Scene, physicsEngine: PhysicsEngine, plugin: HavokPlugin): number {
    if (!(plugin as unknown as HavokPluginStepMode)._useDeltaForWorldStep) {
        return plugin.getTimeStep();
    }
    let ms: number;
    const subTimeStep = physicsEngine.getSubTimeStep();
    const engine = scene.getEngine();
    if (subTimeStep > 0) {
        ms = subTimeStep;
    } else if (engine.isDeterministicLockStep()) {
        ms = engine.getTimeStep();
    } else if (scene.useConstantAnimationDeltaTime) {
        ms = 16;
    } else {
        ms = Math.max(Scene.MinDeltaTime, Math.min(engine.getDeltaTime(), Scene.MaxDeltaTime));
    }
    const seconds = ms / 1000;
    return seconds > 0.1 ? 0.1 : seconds <= 0 ? 1 / 60 : seconds;
}
