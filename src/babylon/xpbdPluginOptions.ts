/**
 * The options of an {@link XpbdPlugin}, and their mapping onto the core world's options (the defaults live in the
 * core: an option not given stays undefined there).
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { Nullable } from "@babylonjs/core/types";
import { booleanValue, positiveInteger, resolveDefaultsVersion, type XpbdWorldOptions } from "../core/index.js";
import { BACKEND_OPTIONS, type XpbdBackendOption } from "./gpuBackend.js";
import type { XpbdLodOptions } from "./levelOfDetail.js";

/** Options of an {@link XpbdPlugin}; every field has a default. */
export interface XpbdPluginOptions {
    /** Fixed substeps per Havok step (the quality tier). Default 5 (see `XpbdWorldOptions.substeps`). */
    substeps?: number;
    /** Solver iterations per substep, two passes over the constraints each. Default 1. */
    iterations?: number;
    /** Broad-phase grid cell edge in metres (about the size of a typical collider). Default 0.5. */
    cellSize?: number;
    /**
     * Wind velocity (m/s, world) blowing on every impostor's surface triangles: quadratic drag and lift per
     * triangle against the air's velocity relative to it (see the core's `applyAerodynamics`). Default zero (still
     * air: moving cloth is still slowed by the air). Copied; change it later with {@link XpbdPlugin.wind}.
     */
    wind?: Vector3;
    /** Air density ρ in kg/m³ (≥ 0; 0 turns aerodynamics off, still-air drag included). Default 1.2 (air at 20 °C, sea level). */
    airDensity?: number;
    /**
     * Level of detail of every impostor that gives none of its own (`SoftImpostorOptions.lod`): fewer substeps beyond
     * `distances[0]` metres from the active camera, asleep beyond `distances[1]` or outside its view (see
     * {@link XpbdLodOptions}); change it later with {@link XpbdPlugin.lod}. Default none: every impostor gets every
     * substep wherever the camera is.
     */
    lod?: XpbdLodOptions;
    /** Whether to time each phase of the plugin's work into {@link XpbdPlugin.timings}. Default false. */
    profile?: boolean;
    /** Events one step can hold (sleep, wake, over-stretch, invalid state, capacity); more are dropped and reported. Default 256. */
    eventCapacity?: number;
    /**
     * Broad-phase grid entries (collider shape × grid cell it overlaps). Shapes that do not fit are tested against
     * every particle: still correct, slower; reported. Default 65,536.
     */
    gridCapacity?: number;
    /**
     * Whether the impostors collide with each other (cloth on cloth, cloth on jelly, jelly on jelly), filtered by their
     * `membership` / `collideWith` masks as against Havok bodies (see `XpbdWorldOptions.softContacts`). Free while
     * the impostors' bounds stay apart; see docs/plugin.md for the cost of touching ones. Default true.
     */
    softContacts?: boolean;
    /** Contact candidates between impostors (particle–triangle pairs) one substep can hold; see docs/plugin.md. Default 65,536. */
    softContactCapacity?: number;
    /**
     * Where the impostors are simulated: `"cpu"`, `"webgpu"` (compute shaders on a `GPUDevice`: the engine's when it
     * is a `WebGPUEngine`, else {@link gpuDevice}) or `"auto"`: WebGPU when the scene's engine is a `WebGPUEngine`,
     * the CPU otherwise. An impostor that uses a feature the WebGPU solver lacks runs on the CPU, with one warning
     * naming the feature; `impostor.backend` says where each one runs. See docs/webgpu.md. Default `"auto"`.
     */
    backend?: XpbdBackendOption;
    /**
     * The device of the WebGPU backend when the scene's engine is not a `WebGPUEngine` (for instance Dawn's in Node,
     * under a `NullEngine`). Default: the engine's device.
     */
    gpuDevice?: GPUDevice;
    /**
     * Defaults version of the plugin's world and, unless they give their own, of its impostors (see
     * docs/versioning.md): a scene built with version n behaves the same in every later release. Default the newest
     * (`LATEST_DEFAULTS_VERSION`).
     */
    defaultsVersion?: number;
}

/** The core world's options for a plugin with `options` in a physics engine with `gravity`; throws naming the option. */
export function worldOptions(options: XpbdPluginOptions, gravity: Vector3): XpbdWorldOptions {
    const wind = options.wind ?? Vector3.ZeroReadOnly;
    return {
        defaultsVersion: resolveDefaultsVersion(options.defaultsVersion, "XpbdPlugin: defaultsVersion"),
        gravity: [gravity.x, gravity.y, gravity.z],
        // The defaults live in the core (`XpbdWorldOptions`): undefined takes them.
        substeps: options.substeps,
        iterations: options.iterations,
        cellSize: options.cellSize,
        wind: [wind.x, wind.y, wind.z],
        airDensity: options.airDensity,
        eventCapacity:
            options.eventCapacity === undefined ? undefined : positiveInteger(options.eventCapacity, "XpbdPlugin: eventCapacity"),
        gridCapacity: options.gridCapacity === undefined ? undefined : positiveInteger(options.gridCapacity, "XpbdPlugin: gridCapacity"),
        softContacts: options.softContacts === undefined ? undefined : booleanValue(options.softContacts, "XpbdPlugin: softContacts"),
        softContactCapacity:
            options.softContactCapacity === undefined
                ? undefined
                : positiveInteger(options.softContactCapacity, "XpbdPlugin: softContactCapacity"),
    };
}

/** The `GPUDevice` of a `WebGPUEngine`, else null. */
export function engineDevice(engine: AbstractEngine): Nullable<GPUDevice> {
    // `WebGPUEngine` keeps its device in `_device` (its public API has no getter for it).
    return engine.isWebGPU ? ((engine as unknown as { _device?: GPUDevice })._device ?? null) : null;
}

/**
 * The device the plugin's WebGPU backend runs on for `options` in a scene drawn by `engine`, or null for the CPU
 * backend; throws naming the option when it is invalid or asks for WebGPU without a device.
 */
export function backendDevice(options: XpbdPluginOptions, engine: AbstractEngine): Nullable<GPUDevice> {
    const backend = options.backend ?? "auto";
    if (!BACKEND_OPTIONS.includes(backend)) {
        throw new Error(`XpbdPlugin: backend must be one of ${BACKEND_OPTIONS.map((b) => `"${b}"`).join(", ")}, got ${String(backend)}`);
    }
    if (backend === "cpu") {
        return null;
    }
    const device = options.gpuDevice ?? engineDevice(engine);
    if (backend === "webgpu" && !device) {
        throw new Error(
            'XpbdPlugin: backend "webgpu" needs a WebGPUEngine or the option gpuDevice; this engine is not WebGPU ' +
                '(use backend "auto" to fall back to the CPU)',
        );
    }
    return backend === "auto" && !engine.isWebGPU ? null : device;
}
