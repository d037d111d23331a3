import { PARAMS_WGSL } from "./substepParams.js";

/** Threads per workgroup of the per-particle and per-constraint kernels. */
export const WORKGROUP_SIZE = 64;

/** WGSL of a pin slot: the target at the start and the end of the step. */
export const PIN_WGSL = /* wgsl */ `
struct Pin {
    start: vec4<f32>,       // xyz: target at the start of the step; w: soft-pin compliance, or −1 for a weight-1 pin
    end: vec4<f32>,         // xyz: target at the end of the step
}
`;

/**
 * The substep's prediction, one thread per particle (and per multiplier, which it zeroes): the previous position
 * is kept, a free particle takes one explicit step of gravity and its forces (external and aerodynamic), and a
 * weight-1 pin moves onto its target at the substep's fraction of the step. `setInverseMasses` writes new inverse
 * masses into `pos.w` after pin weights changed, keeping the positions.
 *
 * Layout (group 0): 0 Params (dynamic), 1 pos, 2 prev, 3 vel, 4 force, 5 info, 6 pins, 7 lambdas, 8 inverse masses.
 */
export const PREDICT_WGSL = /* wgsl */ `
${PARAMS_WGSL}
${PIN_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> force: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> info: array<vec4<i32>>;
@group(0) @binding(6) var<storage, read> pins: array<Pin>;
@group(0) @binding(7) var<storage, read_write> lambdas: array<f32>;
@group(0) @binding(8) var<storage, read> inverseMasses: array<f32>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn predict(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k < P.lambdaCount) {
        lambdas[k] = 0.0;
    }
    if (k >= P.particleCount) {
        return;
    }
    let x = pos[k];
    prev[k] = x;
    let w = x.w;
    if (w == 0.0) {
        let slot = info[k].x;
        if (slot >= 0) {
            let pin = pins[slot];
            pos[k] = vec4<f32>(pin.start.xyz + (pin.end.xyz - pin.start.xyz) * P.t, 0.0);
        }
        return;
    }
    let v = vel[k].xyz + P.gravityH + force[k].xyz * (w * P.h);
    vel[k] = vec4<f32>(v, 0.0);
    pos[k] = vec4<f32>(x.xyz + v * P.h, w);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn setInverseMasses(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k < P.particleCount) {
        pos[k].w = inverseMasses[k];
    }
}
`;
