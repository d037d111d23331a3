/**
 * The parts of Havok's WASM bindings and of Babylon's `HavokPlugin` internals that the readers use: Babylon types
 * them as `any` or keeps them private, so their shapes are written down here, once.
 */
import type { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape";
import type { Quat, Vec3 } from "../core/tupleMath.js";

/** Havok's shape handle: a one-element array holding a 64-bit id. */
export type ShapeId = [bigint];

/** The raw Havok bindings this reader calls (Babylon types `HavokPlugin._hknp` as `any`). */
export interface HavokNative {
    Result: { RESULT_OK: number };
    HEAPU8: Uint8Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    HP_Shape_GetBoundingBox(shape: ShapeId, worldFromShape: [Vec3, Quat]): [number, [Vec3, Vec3]];
    /** `[centre of mass, mass, inertia per unit mass, inertia orientation]` for density-derived mass. */
    HP_Shape_BuildMassProperties(shape: ShapeId): [number, [Vec3, number, Vec3, Quat]];
    HP_Shape_CreateDebugDisplayGeometry(shape: ShapeId): [number, unknown];
    /** `[positions pointer, vertex count, indices pointer, triangle count]`. */
    HP_DebugGeometry_GetInfo(geometry: unknown): [number, [number, number, number, number]];
    HP_DebugGeometry_Release(geometry: unknown): number;
    HP_Shape_GetNumChildren(shape: ShapeId): [number, number];
    HP_Shape_GetChildShape(shape: ShapeId, index: number): [number, ShapeId];
    /** Raw WASM export (no embind wrapper): writes translation, rotation, scale as 10 float32s at `out`; 0 is OK. */
    _HP_Shape_GetChildQSTransform(shape: bigint, index: number, out: number): number;
    HP_Body_GetQTransform(body: unknown): [number, [Vec3, Quat]];
    HP_Body_SetQTransform(body: unknown, transform: [Vec3, Quat]): number;
    HP_Body_GetActivationState(body: unknown): [unknown, { value: number }];
    /** `[membership, collide]` masks of a shape's collision filter. */
    HP_Shape_GetFilterInfo(shape: ShapeId): [number, [number, number]];
}

/** The Babylon-side data of a (non-instanced) Havok body that this reader uses (`PhysicsBody._pluginData`). */
export interface HavokBodyData {
    hpBodyId: unknown;
    /** The body's floating-origin region; its origin is the zero vector unless that mode is on. */
    worldRegion?: { floatingOrigin: { x: number; y: number; z: number } };
}

/** The plugin internals this reader relies on (present in `@babylonjs/core` 9.35). */
export interface HavokPluginInternals {
    _hknp: HavokNative;
    /** Every shape Babylon created, by Havok id: how a container's children get their Babylon `type` back. */
    _shapes: Map<bigint, PhysicsShape>;
}

/** The plugin seen with the internals above. */
export function internals(plugin: HavokPlugin): HavokPluginInternals {
    // `_shapes` is private in Babylon's typings; both members exist at runtime in 9.35.
    return plugin as unknown as HavokPluginInternals;
}
