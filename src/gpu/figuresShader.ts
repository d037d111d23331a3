import { WORKGROUP_SIZE } from "./predictShader.js";

/** Threads of the one workgroup that reduces the body's figures. */
export const FIGURES_REDUCE_SIZE = 64;

/** Bytes of the `FigureParams` uniform (see {@link FIGURES_WGSL}). */
export const FIGURE_PARAMS_SIZE = 48;

/**
 * 32-bit words of the reduced figures, in this order: kinetic energy (J), the largest squared speed of a free
 * particle (m²/s²), the largest edge ratio, Σ (ratio − 1), the largest |ratio − 1|, Σ |ratio − 1|, over-stretched
 * edges, the largest |V / V₀ − 1|, Σ |V / V₀ − 1|, Σ V (m³), the most stretched edge (a u32: its index among the
 * stretch constraints, the first of equals), the invalid particles (a u32), the largest bend residual (rad, or the
 * isometric model's normal offset over the hinge length), Σ bend residual; then padding to a multiple of 16 bytes.
 */
export const FIGURE_WORDS = 16;

/** Where the figures of {@link FIGURE_WORDS} are: the words that are not f32. */
export const FIGURE_MOST_STRETCHED = 10;
/** See {@link FIGURE_WORDS}. */
export const FIGURE_INVALID = 11;

/** `FigureParams.bendModel`: which bend records the body has. */
export enum FigureBendModel {
    None = 0,
    Isometric = 1,
    Dihedral = 2,
}

/**
 * The body's figures on the GPU, as the core's `measureBody` and the world's sleep test compute them on the CPU, from
 * the particles after the steps submitted so far:
 *
 * - `residuals` (one thread per stretch edge, tet and bend element): each particle's largest |length / rest − 1|
 *   over its stretch edges, largest |V / V₀ − 1| over its tets and largest bend residual over its bend elements
 *   (the heatmaps), with `atomicMax` on the bits of the non-negative f32 (for those the bits order as the numbers
 *   do). A maximum does not depend on the order threads write in, so the arrays are deterministic.
 * - `reduce` (one workgroup): the scalar figures. Each thread sums and maximises a fixed stride of particles, edges,
 *   tets and bend elements, then a fixed tree adds the threads' partial figures: the same order on every run, no
 *   float atomics. The edge ratios are summed as ratio − 1 (small numbers next to the ratios near 1, so f32 keeps
 *   more of the mean). The most stretched edge is the arg-max of the ratio, ties to the lower index, as the CPU's
 *   first-of-equals. A particle is invalid when a coordinate of its position or velocity is not finite or beyond
 *   `farBits` (the CPU's `MAX_COORDINATE`), or a coordinate of its velocity is not finite: tested on the bits, since
 *   WGSL lets a compiler assume floats finite.
 *
 * The bend residual is the core's `measure` of the body's model: the dihedral model's |θ − θ₀| (wrapped into
 * [0, π]; 0 for a degenerate hinge, as `writeHinge`'s NaN), the isometric model's |s · n̂| / |e₀| (s the
 * cotangent-weighted sum of the wings' offsets from the hinge, n̂ the hinge plane's normal, 0 when it has none).
 *
 * Layout (group 0): 0 FigureParams, 1 pos (w: inverse mass), 2 vel, 3 masses, 4 distance records, 5 volume records,
 * 6 bend records (either model's, read as vec4s), 7 the residual words (stretch per particle, then volume, then
 * bend), 8 the figures ({@link FIGURE_WORDS}).
 */
export const FIGURES_WGSL = /* wgsl */ `
struct FigureParams {
    particleCount: u32,
    stretchFirst: u32,
    stretchCount: u32,
    volumeFirst: u32,
    volumeCount: u32,
    overStretchRatio: f32,
    farBits: u32,
    bendFirst: u32,
    bendCount: u32,
    bendModel: u32,
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
@group(0) @binding(6) var<storage, read> bends: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> residual: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> figures: array<u32, ${FIGURE_WORDS}>;

const PI = 3.141592653589793;
const NO_EDGE = 0xffffffffu;
const MAX_FINITE_BITS = 0x7f7fffffu;

var<workgroup> sums: array<vec4<f32>, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> maxima: array<vec4<f32>, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> moreSums: array<vec4<f32>, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> bendMaxima: array<f32, ${FIGURES_REDUCE_SIZE}>;
var<workgroup> mostStretched: array<u32, ${FIGURES_REDUCE_SIZE}>;

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

// The bend element's particles (wings a, b, hinge c, d), from the first vec4 of either model's record.
fn bendParticles(e: u32) -> vec4<u32> {
    let stride = select(2u, 3u, F.bendModel == ${FigureBendModel.Isometric}u);
    return bitcast<vec4<u32>>(bends[(F.bendFirst + e) * stride]);
}

// The bend residual of element e (see the header).
fn bendError(e: u32) -> f32 {
    let p = bendParticles(e);
    let a = pos[p.x].xyz;
    let b = pos[p.y].xyz;
    let c = pos[p.z].xyz;
    let d = pos[p.w].xyz;
    if (F.bendModel == ${FigureBendModel.Isometric}u) {
        let record = (F.bendFirst + e) * 3u;
        let k = bends[record + 1u];
        let ac = a - c;
        let bc = b - c;
        let dc = d - c;
        let n = cross(dc, bc - ac);
        let n2 = dot(n, n);
        if (n2 < 1e-30) {
            return 0.0;
        }
        return abs(dot(k.x * ac + k.y * bc + k.w * dc, n)) / sqrt(n2 * bends[record + 2u].x);
    }
    let edge = d - c;
    let n1 = cross(c - a, d - a);
    let n2 = cross(d - b, c - b);
    let eLen2 = dot(edge, edge);
    let n1Len2 = dot(n1, n1);
    let n2Len2 = dot(n2, n2);
    if (eLen2 < 1e-20 || n1Len2 < 1e-24 * eLen2 * eLen2 || n2Len2 < 1e-24 * eLen2 * eLen2) {
        return 0.0;
    }
    // As the dihedral kernel: a flat hinge's sine is often −0, which SwiftShader's atan2 takes to π.
    let sine = dot(cross(n1, n2), edge) / sqrt(eLen2);
    let error = abs(atan2(select(sine, 0.0, sine == 0.0), dot(n1, n2)) - bends[(F.bendFirst + e) * 2u + 1u].x);
    return select(error, 2.0 * PI - error, error > PI);
}

// Whether a coordinate of the vector is not finite or farther than limit (f32 bits) from 0: on the bits, where
// the magnitudes order as the numbers, and infinities and NaNs come after every finite number.
fn beyond(v: vec3<f32>, limit: u32) -> bool {
    let bits = bitcast<vec3<u32>>(v) & vec3<u32>(0x7fffffffu);
    return any(bits > vec3<u32>(limit));
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
    if (k < F.bendCount) {
        let p = bendParticles(k) + vec4<u32>(2u * F.particleCount);
        let bits = bitcast<u32>(bendError(k));
        atomicMax(&residual[p.x], bits);
        atomicMax(&residual[p.y], bits);
        atomicMax(&residual[p.z], bits);
        atomicMax(&residual[p.w], bits);
    }
}

@compute @workgroup_size(${FIGURES_REDUCE_SIZE})
fn reduce(@builtin(local_invocation_index) i: u32) {
    // sums: kinetic energy, Σ (ratio − 1), Σ |ratio − 1|, over-stretched edges;
    // maxima: squared speed of a free particle, ratio, |ratio − 1|, |V / V₀ − 1|;
    // moreSums: Σ |V / V₀ − 1|, Σ V, Σ bend residual, invalid particles; bendMaxima; mostStretched: the ratio's edge.
    var s = vec4<f32>(0.0);
    var m = vec4<f32>(0.0);
    var v = vec4<f32>(0.0);
    var bendMax = 0.0;
    var edge = NO_EDGE;
    for (var k = i; k < F.particleCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let x = pos[k];
        let u = vel[k].xyz;
        let speed2 = dot(u, u);
        s.x += 0.5 * masses[k] * speed2;
        if (x.w != 0.0) {
            m.x = max(m.x, speed2);
        }
        // As the CPU's containment: positions finite and within the far limit, velocities finite.
        v.w += select(0.0, 1.0, beyond(x.xyz, F.farBits) || beyond(u, MAX_FINITE_BITS));
    }
    for (var k = i; k < F.stretchCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let ratio = edgeRatio(edges[F.stretchFirst + k]);
        s.y += ratio - 1.0;
        s.z += abs(ratio - 1.0);
        s.w += select(0.0, 1.0, ratio > F.overStretchRatio);
        // Strictly larger: this thread's edges come in increasing order, so a tie keeps the lower index.
        if (edge == NO_EDGE || ratio > m.y) {
            edge = k;
        }
        m.y = max(m.y, ratio);
        m.z = max(m.z, abs(ratio - 1.0));
    }
    for (var k = i; k < F.volumeCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let e = tetError(tets[F.volumeFirst + k]);
        v.x += e.x;
        v.y += e.y;
        m.w = max(m.w, e.x);
    }
    for (var k = i; k < F.bendCount; k += ${FIGURES_REDUCE_SIZE}u) {
        let e = bendError(k);
        v.z += e;
        bendMax = max(bendMax, e);
    }
    sums[i] = s;
    maxima[i] = m;
    moreSums[i] = v;
    bendMaxima[i] = bendMax;
    mostStretched[i] = edge;
    workgroupBarrier();
    for (var stride = ${FIGURES_REDUCE_SIZE / 2}u; stride > 0u; stride = stride >> 1u) {
        if (i < stride) {
            let other = mostStretched[i + stride];
            let ratio = maxima[i].y;
            let otherRatio = maxima[i + stride].y;
            if (other != NO_EDGE && (mostStretched[i] == NO_EDGE || otherRatio > ratio || (otherRatio == ratio && other < mostStretched[i]))) {
                mostStretched[i] = other;
            }
            sums[i] += sums[i + stride];
            maxima[i] = max(maxima[i], maxima[i + stride]);
            moreSums[i] += moreSums[i + stride];
            bendMaxima[i] = max(bendMaxima[i], bendMaxima[i + stride]);
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        figures[0] = bitcast<u32>(sums[0].x);
        figures[1] = bitcast<u32>(maxima[0].x);
        figures[2] = bitcast<u32>(maxima[0].y);
        figures[3] = bitcast<u32>(sums[0].y);
        figures[4] = bitcast<u32>(maxima[0].z);
        figures[5] = bitcast<u32>(sums[0].z);
        figures[6] = bitcast<u32>(sums[0].w);
        figures[7] = bitcast<u32>(maxima[0].w);
        figures[8] = bitcast<u32>(moreSums[0].x);
        figures[9] = bitcast<u32>(moreSums[0].y);
        figures[${FIGURE_MOST_STRETCHED}] = mostStretched[0];
        figures[${FIGURE_INVALID}] = u32(moreSums[0].w);
        figures[12] = bitcast<u32>(bendMaxima[0]);
        figures[13] = bitcast<u32>(moreSums[0].z);
    }
}
`;
