import { WORKGROUP_SIZE } from "./predictShader.js";

/** Threads of the one workgroup that reduces the body's figures. */
export const FIGURES_REDUCE_SIZE = 64;

/** Bytes of the `FigureParams` uniform (see {@link FIGURES_WGSL}). */
export const FIGURE_PARAMS_SIZE = 32;

/**
 * 32-bit words of the reduced figures, in this order: kinetic energy (J), the largest squared speed of a free
 * particle (m²/s²), the largest edge ratio, Σ (ratio − 1), the largest |ratio − 1|, Σ |ratio − 1|, over-stretched
 * edges, the largest |V / V₀ − 1|, Σ |V / V₀ − 1|, Σ V (m³); then padding to a multiple of 16 bytes.
 */
export const FIGURE_WORDS = 12;

/**
 * The body's figures on the GPU, as the core's `measureBody` and the world's sleep test compute them on the CPU, from
 * the particles after the steps submitted so far:
 *
 * - `residuals` (one thread per stretch edge and per tet): each particle's largest |length / rest − 1| over its
 *   stretch edges and largest |V / V₀ − 1| over its tets (the heatmaps), with `atomicMax` on the bits of the
 *   non-negative f32 (for those the bits order as the numbers do). A maximum does not depend on the order threads
 *   write in, so the arrays are deterministic.
 * - `reduce` (one workgroup): the scalar figures. Each thread sums and maximises a fixed stride of particles, edges
 *   and tets, then a fixed tree adds the threads' partial figures: the same order on every run, no float atomics.
 *   The edge ratios are summed as ratio − 1 (small numbers next to the ratios near 1, so f32 keeps more of the mean).
 *
 * Layout (group 0): 0 FigureParams, 1 pos (w: inverse mass), 2 vel, 3 masses, 4 distance records, 5 volume records,
 * 6 the residual words (stretch per particle, then volume per particle), 7 the figures ({@link FIGURE_WORDS}).
 */
export const FIGURES_WGSL = /* wgsl */ `
struct FigureParams {
    particleCount: u32,
    stretchFirst: u32,
    stretchCount: u32,
    volumeFirst: u32,
    volumeCount: u32,
    overStretchRatio: f32,
    _pad0: u32,
    _pad1: u32,
}
struct Edge {
    i: u32,
    j: u32,
    rest: f32,
    _pad: f32,
}
struct Tet {
    particles: vec4<u32>,
    rest: vec4<f32>,
}
@group(0) @binding(0) var<uniform> F: FigureParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> masses: array<f32>;
@group(0) @binding(4) var<storage, read> edges: array<Edge>;
@group(0) @binding(5) var<storage, read> tets: array<Tet>;
@group(0) @binding(6) var<storage, read_write> residual: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> figures: array<f32, ${FIGURE_WORDS}>;

var<workgroup> sums: array<vec4<f32>, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> maxima: array<vec4<f32>, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> volumeSums: array<vec2<f32>, ${FIGURES_REDUCE_SIZE}>;

fn edgeRatio(e: Edge) -> f32 {
    return length(pos[e.j].xyz - pos[e.i].xyz) / e.rest;
}

fn tetError(t: Tet) -> vec2<f32> {
    let a = pos[t.particles.x].xyz;
    let ab = pos[t.particles.y].xyz - a;
    let ac = pos[t.particles.z].xyz - a;
    let ad = pos[t.particles.w].xyz - a;
    let volume = dot(ab, cross(ac, ad)) / 6.0;
    return vec2<f32>(abs(volume / t.rest.x - 1.0), volume);
}

@compute @workgroup_size(${WORKGROUP_SIZE})
fn residuals(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k < F.stretchCount) {
        let e = edges[F.stretchFirst + k];
        let bits = bitcast<u32>(abs(edgeRatio(e) - 1.0));
        atomicMax(&residual[e.i], bits);
        atomicMax(&residual[e.j], bits);
    }
    if (k < F.volumeCount) {
        let t = tets[F.volumeFirst + k];
        let bits = bitcast<u32>(tetError(t).x);
        let n = F.particleCount;
        atomicMax(&residual[n + t.particles.x], bits);
        atomicMax(&residual[n + t.particles.y], bits);
        atomicMax(&residual[n + t.particles.z], bits);
        atomicMax(&residual[n + t.particles.w], bits);
    }
}

@compute @workgroup_size(${FIGURES_REDUCE_SIZE})
fn reduce(@builtin(local_invocation_index) i: u32) {
    // sums: kinetic energy, Σ (ratio − 1), Σ |ratio − 1|, over-stretched edges;
    // maxima: squared speed of a free particle, ratio, |ratio − 1|, |V / V₀ − 1|; volumeSums: Σ |V / V₀ − 1|, Σ V.
    var s = vec4<f32>(0.0);
    var m = vec4<f32>(0.0);
    var v = vec2<f32>(0.0);
    for (var k = i; k < F.particleCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let u = vel[k].xyz;
        let speed2 = dot(u, u);
        s.x += 0.5 * masses[k] * speed2;
        if (pos[k].w != 0.0) {
            m.x = max(m.x, speed2);
        }
    }
    for (var k = i; k < F.stretchCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let ratio = edgeRatio(edges[F.stretchFirst + k]);
        s.y += ratio - 1.0;
        s.z += abs(ratio - 1.0);
        s.w += select(0.0, 1.0, ratio > F.overStretchRatio);
        m.y = max(m.y, ratio);
        m.z = max(m.z, abs(ratio - 1.0));
    }
    for (var k = i; k < F.volumeCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let e = tetError(tets[F.volumeFirst + k]);
        v += e;
        m.w = max(m.w, e.x);
    }
    sums[i] = s;
    maxima[i] = m;
    volumeSums[i] = v;
    workgroupBarrier();
    for (var stride = ${FIGURES_REDUCE_SIZE / 2}u; stride > 0u; stride = stride >> 1u) {
        if (i < stride) {
            sums[i] += sums[i + stride];
            maxima[i] = max(maxima[i], maxima[i + stride]);
            volumeSums[i] += volumeSums[i + stride];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        figures[0] = sums[0].x;
        figures[1] = maxima[0].x;
        figures[2] = maxima[0].y;
        figures[3] = sums[0].y;
        figures[4] = maxima[0].z;
        figures[5] = sums[0].z;
        figures[6] = sums[0].w;
        figures[7] = maxima[0].w;
        figures[8] = volumeSums[0].x;
        figures[9] = volumeSums[0].y;
    }
}
`;
