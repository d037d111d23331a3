/**
 * Milliseconds spent in each phase of the plugin's work, written by {@link XpbdPlugin} while
 * {@link XpbdPlugin.profile} is on (all 0 until then; values stay as they were when it is turned off). The step
 * phases hold the last Havok step's figures (with `physicsEngine.setSubTimeStep` a frame may run several steps, or
 * none), {@link renderSyncMs} the last render-mesh write. One object per plugin, updated in place.
 *
 * The plugin's own cost, beside the solver's, is the sum of `pinTargetsMs`, `colliderSyncMs`, `impulsesMs`,
 * `eventsMs` and `renderSyncMs`.
 */
export interface XpbdPluginTimings {
    /**
     * Pin drivers: every `pinTo` target's world matrix read into its particles' end-of-step pin targets; and each
     * impostor's level of detail chosen (`XpbdPlugin.lod`).
     */
    pinTargetsMs: number;
    /**
     * Collider sync: Havok bodies added and removed, and each body's motion type, pose, velocities, mass
     * properties, material and collision filter read into its core collider.
     */
    colliderSyncMs: number;
    /** The core solver's step (`world.step`, which also reports its own time as `stats.stepMs`). */
    coreStepMs: number;
    /** Impulse hand-back: `applyImpulse` / `applyAngularImpulse` on every dynamic Havok body the soft bodies touched. */
    impulsesMs: number;
    /** Events: the impostors' observables (sleep, wake, over-stretch, invalid state) and {@link XpbdPlugin.onAfterStepObservable}, observers included. */
    eventsMs: number;
    /**
     * Havok's step: from the end of the plugin's `onBeforePhysicsObservable` observer to the start of
     * `onAfterPhysicsObservable` (Babylon's pre-step, Havok's world step, and Babylon's transform sync of every
     * body), plus any `onBeforePhysicsObservable` observer added after the plugin. Not the plugin's cost.
     */
    havokStepMs: number;
    /**
     * Render-mesh sync: every impostor's positions, normals and bounding info written into its mesh (the last frame
     * in which a step ran, or a mesh moved, before it).
     */
    renderSyncMs: number;
    /** Havok steps timed since the plugin was created. */
    steps: number;
    /** Render-mesh syncs timed since the plugin was created. */
    renderSyncs: number;
}

/** A timings object with every figure 0, as a plugin starts. */
export function zeroTimings(): XpbdPluginTimings {
    return {
        pinTargetsMs: 0,
        colliderSyncMs: 0,
        coreStepMs: 0,
        impulsesMs: 0,
        eventsMs: 0,
        havokStepMs: 0,
        renderSyncMs: 0,
        steps: 0,
        renderSyncs: 0,
    };
}
