/**
 * The per-substep uniform block every kernel reads (`Params` in WGSL) and the small per-dispatch block
 * (`Dispatch`). The step writes one `Params` record per substep into one uniform buffer, 256 bytes apart (WebGPU's
 * dynamic-offset alignment), and each dispatch picks its substep's record by offset: no buffer is written between
 * the dispatches of a step.
 */

/** Bytes between two records of a dynamically offset uniform buffer (WebGPU's `minUniformBufferOffsetAlignment`). */
export const UNIFORM_STRIDE = 256;

/** Bytes of one `Params` record. */
export const PARAMS_SIZE = 160;

/** Bytes of one `Dispatch` record. */
export const DISPATCH_SIZE = 16;

/** WGSL declaration of `Params`; {@link ParamsWords} gives each field's 32-bit word. */
export const PARAMS_WGSL = /* wgsl */ `
struct Params {
    gravityH: vec3<f32>,    // gravity × h (m/s)
    h: f32,                 // substep length (s)
    wind: vec3<f32>,        // the body's wind (windScale × world wind, m/s)
    airFactor: f32,         // ρ/12 (kg/m³), 0 when aerodynamics are off
    alpha: vec4<f32>,       // compliance / h² of stretch, shear, bend, volume
    invH: f32,
    t: f32,                 // fraction of the step reached at the end of this substep
    dt: f32,
    thickness: f32,
    invH2: f32,
    tetherSlack: f32,
    dampingFactor: f32,     // 1 − exp(−damping · dt)
    dragCoefficient: f32,
    liftCoefficient: f32,
    alpha4: f32,            // compliance / h² of a fifth set (shape matching)
    strainLimit: f32,       // the body's strain limit (edge ratio), read by the strain-limit pass
    gasPressureVolume: f32, // P V₀ of the body's gas (Pa m³, 0: none), read by the gas kernels
    particleCount: u32,
    lambdaCount: u32,
    triangleCount: u32,
    slotCount: u32,
    tethers: u32,           // 1 when tethers are projected
    dampPinned: u32,        // 1 when damping is relative to the pinned particles' rigid motion
    poseBase: u32,          // vec4 index of this substep's first collider pose in the collider buffer
    pinLambdaBase: u32,     // index of the first soft-pin multiplier in the multiplier buffer
    gasOrientation: f32,    // +1 when the gas's surface winds counter-clockwise seen from outside, −1 inwards
    attachmentBase: u32,    // vec4 index of the first collider-attachment record in the collider buffer
    motionBase: u32,        // vec4 index of the dynamic colliders' motion header in the collider buffer
    impulseBase: u32,       // word of the multiplier buffer where the impulse accumulators start
    attachmentCount: u32,   // collider-attachment records (the body's attached particles)
}

struct Dispatch {
    first: u32,             // first constraint (constraint kernels) or the pass mode (particle pass)
    count: u32,             // constraints in this batch
    setIndex: u32,          // index into Params.alpha
    lambdaBase: u32,        // multiplier index of the data buffer's constraint 0
}
`;

/** 32-bit word offsets of the `Params` fields written from JavaScript. */
export const ParamsWords = {
    gravityH: 0,
    h: 3,
    wind: 4,
    airFactor: 7,
    alpha: 8,
    invH: 12,
    t: 13,
    dt: 14,
    thickness: 15,
    invH2: 16,
    tetherSlack: 17,
    dampingFactor: 18,
    dragCoefficient: 19,
    liftCoefficient: 20,
    alpha4: 21,
    strainLimit: 22,
    gasPressureVolume: 23,
    particleCount: 24,
    lambdaCount: 25,
    triangleCount: 26,
    slotCount: 27,
    tethers: 28,
    dampPinned: 29,
    poseBase: 30,
    pinLambdaBase: 31,
    gasOrientation: 32,
    attachmentBase: 33,
    motionBase: 34,
    impulseBase: 35,
    attachmentCount: 36,
} as const;

/** Particle-pass modes (`Dispatch.first` of a particle pass), combined as bits. */
export const PassMode = {
    /** The end of a solver pass: tethers, soft pins and contacts. */
    Tail: 1,
    /** The start of a solver pass: tethers. */
    Head: 2,
    /** The end of the substep: velocities from the positions. */
    Velocity: 4,
    /** The end of a solver pass without its tethers (run before the strain limit): soft pins and contacts. */
    Settle: 8,
    /** The start of a step: particles attached to colliders onto their anchors (see `attachmentRecords.ts`). */
    Carry: 16,
    /** The start of a substep: dynamic colliders accelerate and move (the motion kernel only: `colliderMotionShader.ts`). */
    Begin: 32,
} as const;
