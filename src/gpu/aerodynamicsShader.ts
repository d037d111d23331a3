import { WORKGROUP_SIZE } from "./predictShader.js";
import { PARAMS_WGSL } from "./substepParams.js";

/**
 * The step's forces, as the core's `computeAerodynamicForces` and the external forces: `triangleForces` gives each
 * surface triangle its aerodynamic force (drag and lift on the air's velocity relative to it), one thread per
 * triangle; `gatherForces` sums each particle's incident triangles (in triangle order, the order the core adds
 * them in), caps the sum so the particle cannot overshoot the air's velocity within the step, and adds the
 * external force: the force every substep's prediction applies. Gathering per particle instead of scattering
 * per triangle needs no atomics and keeps the sum's order fixed.
 *
 * Layout (group 0): 0 Params (dynamic), 1 pos, 2 vel, 3 triangles, 4 triangle forces, 5 info (incidence range in
 * y, z), 6 incidence (triangle indices), 7 external forces, 8 forces.
 */
export const AERODYNAMICS_WGSL = /* wgsl */ `
${PARAMS_WGSL}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> triangles: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> triangleForce: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> info: array<vec4<i32>>;
@group(0) @binding(6) var<storage, read> incidence: array<u32>;
@group(0) @binding(7) var<storage, read> externalForce: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> force: array<vec4<f32>>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn triangleForces(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = id.x;
    if (t >= P.triangleCount) {
        return;
    }
    let tri = triangles[t];
    triangleForce[t] = vec4<f32>(0.0);
    let u = P.wind - (vel[tri.x].xyz + vel[tri.y].xyz + vel[tri.z].xyz) / 3.0;
    let speed2 = dot(u, u);
    // Under 0.1 mm/s relative to the air the force is below 1e-8 N/m².
    if (speed2 < 1e-8) {
        return;
    }
    let xa = pos[tri.x].xyz;
    let c = cross(pos[tri.y].xyz - xa, pos[tri.z].xyz - xa);
    let doubleArea = sqrt(dot(c, c));
    if (doubleArea == 0.0) {
        return;
    }
    let n = c / doubleArea;
    let un = dot(u, n);
    let speed = sqrt(speed2);
    let alongU = P.dragCoefficient * abs(un) - (P.liftCoefficient * un * un) / speed;
    let alongN = P.liftCoefficient * un * speed;
    triangleForce[t] = vec4<f32>(P.airFactor * doubleArea * (alongU * u + alongN * n), 0.0);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn gatherForces(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= P.particleCount) {
        return;
    }
    var f = vec3<f32>(0.0);
    if (P.airFactor != 0.0) {
        let range = info[k];
        for (var e = range.y; e < range.z; e++) {
            f += triangleForce[incidence[e]].xyz;
        }
        // The cap: |Δv| = |F| w dt may not exceed the particle's speed relative to the air.
        let dv = f * (pos[k].w * P.dt);
        let dv2 = dot(dv, dv);
        let relative = P.wind - vel[k].xyz;
        let relative2 = dot(relative, relative);
        if (dv2 > relative2) {
            f = f * sqrt(relative2 / dv2);
        }
    }
    force[k] = vec4<f32>(externalForce[k].xyz + f, 0.0);
}
`;
