import { createClothGrid } from "../../src/meshing/clothGrid";
import { BendConstraints } from "../../src/core/bendConstraints";
import { IsometricBendConstraints } from "../../src/core/isometricBendConstraints";
import type { BendModel } from "../../src/core/bendSet";
import { SoftBody } from "../../src/core/softBody";
import { StepStats } from "../../src/core/stepStats";
import { SubstepContext } from "../../src/core/substepContext";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { seededRandom } from "../support/seededRandom";

type Vec3 = [number, number, number];

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec3): number => Math.sqrt(dot(a, a));
const unit = (a: Vec3): Vec3 => {
    const l = length(a);
    return [a[0] / l, a[1] / l, a[2] / l];
};
/** `a + s·b + t·c` */
const along = (a: Vec3, s: number, b: Vec3, t = 0, c: Vec3 = [0, 0, 0]): Vec3 => [
    a[0] + s * b[0] + t * c[0],
    a[1] + s * b[1] + t * c[1],
    a[2] + s * b[2] + t * c[2],
];

/** Rotation of `p` by `angle` about the axis through `origin` along the unit vector `k` (Rodrigues). */
function rotateAbout(p: Vec3, origin: Vec3, k: Vec3, angle: number): Vec3 {
    const v = sub(p, origin);
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const kxv = cross(k, v);
    const kv = dot(k, v);
    return [
        origin[0] + v[0] * c + kxv[0] * s + k[0] * kv * (1 - c),
        origin[1] + v[1] * c + kxv[1] * s + k[1] * kv * (1 - c),
        origin[2] + v[2] * c + kxv[2] * s + k[2] * kv * (1 - c),
    ];
}

/** s = Σ Kᵢ xᵢ of element `e` of `bend` at positions `x`. */
function bendVector(bend: IsometricBendConstraints, x: ArrayLike<number>, e: number): Vec3 {
    const s: Vec3 = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
        const p = bend.indices[4 * e + k];
        const w = bend.weights[4 * e + k];
        s[0] += w * x[3 * p];
        s[1] += w * x[3 * p + 1];
        s[2] += w * x[3 * p + 2];
    }
    return s;
}

/** A flat grid cloth's descriptor (1 m square, `segments`² quads, plane "xy" unless told). */
function gridDescriptor(segments: number, plane: "xy" | "xz" = "xy") {
    const grid = createClothGrid({ width: 1, height: 1, segmentsX: segments, segmentsY: segments, plane });
    const t = grid.topology;
    return {
        grid,
        descriptor: { positions: Array.from(t.positions), triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend },
    };
}

describe("isometric bending element (Bergou et al.)", () => {
    test("for random flat quads the cotangent weights give s = 0, and a fold of θ about the hinge gives |s| = |e|θ along the normal", () => {
        const random = seededRandom(20240611);
        const theta = 1e-3;
        let worstFlat = 0;
        let worstSum = 0;
        let worstFold = 0;
        let worstNormal = 0;
        for (let trial = 0; trial < 50; trial++) {
            // A random plane: unit normal n and an orthonormal basis u, v of the plane, through a random origin.
            const n = unit([random() - 0.5, random() - 0.5, random() - 0.5]);
            const u = unit(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
            const v = cross(n, u);
            const origin: Vec3 = [4 * random() - 2, 4 * random() - 2, 4 * random() - 2];
            // Hinge c–d of random length and direction in the plane; wings a, b on opposite sides of the hinge line,
            // with feet anywhere from a bit before c to a bit past d (obtuse triangles included).
            const hingeLength = 0.5 + 1.5 * random();
            const phi = 2 * Math.PI * random();
            const dir = along([0, 0, 0], Math.cos(phi), u, Math.sin(phi), v);
            const perp = cross(n, dir);
            const c = along(origin, random() - 0.5, u, random() - 0.5, v);
            const d = along(c, hingeLength, dir);
            const a = along(c, hingeLength * (1.6 * random() - 0.3), dir, hingeLength * (0.3 + 1.2 * random()), perp);
            const b = along(c, hingeLength * (1.6 * random() - 0.3), dir, -hingeLength * (0.3 + 1.2 * random()), perp);
            const positions = new Float64Array([...a, ...b, ...c, ...d]);
            const bend = new IsometricBendConstraints(new Int32Array([0, 1, 2, 3]), positions, 1);
            const w = bend.weights;
            const weightScale = Math.abs(w[0]) + Math.abs(w[1]) + Math.abs(w[2]) + Math.abs(w[3]);
            worstSum = Math.max(worstSum, Math.abs(w[0] + w[1] + w[2] + w[3]) / weightScale);
            worstFlat = Math.max(worstFlat, length(bendVector(bend, positions, 0)) / hingeLength);
            expect(bend.hingeLengths2[0]).toBeCloseTo(hingeLength * hingeLength, 12);

            // Fold wing b about the hinge by θ; the weights stay those of the rest shape.
            const folded = new Float64Array(positions);
            folded.set(rotateAbout(b, c, dir, theta), 3);
            const s = bendVector(bend, folded, 0);
            worstFold = Math.max(worstFold, Math.abs(length(s) / (hingeLength * theta) - 1));
            worstNormal = Math.max(worstNormal, 1 - Math.abs(dot(s, n)) / length(s));
        }
        console.log(
            `50 random flat quads: max |ΣK|/Σ|K| ${worstSum.toExponential(2)}, max |s|/|e| flat ${worstFlat.toExponential(2)}, ` +
                `max ||s|/(|e|θ) − 1| ${worstFold.toExponential(2)}, max 1 − |s·n|/|s| ${worstNormal.toExponential(2)}`,
        );
        // Flat: s is a sum of four terms of size |K||x| ≲ 10 m, so rounding leaves ~1e-15 m; 1e-12 of the element
        // size is far above rounding and far below any real error (a wrong weight gives s of order |e|).
        expect(worstSum).toBeLessThan(1e-12);
        expect(worstFlat).toBeLessThan(1e-12);
        // Folded: exactly |s| = K_b·|x_b' − x_b| = (|e|/h_b)·2h_b sin(θ/2) = |e|·2 sin(θ/2), i.e. |e|θ(1 − θ²/24), 4e-8 off
        // at θ = 1e-3, along the bisecting normal (cos(θ/2) = 1 − 1.25e-7). 1e-6 allows that plus rounding (|s| ~ 1e-3
        // m against ~1e-15 m of rounding); a weight off by even 0.1% fails it.
        expect(worstFold).toBeLessThan(1e-6);
        expect(worstNormal).toBeLessThan(1e-6);
    });
});

describe("bending model selection", () => {
    /** A 1 m grid cloth rolled onto a cylinder of radius 0.5 m about the y axis (adjacent columns fold 0.125 rad). */
    function curvedDescriptor() {
        const { descriptor } = gridDescriptor(8);
        const radius = 0.5;
        const p = descriptor.positions;
        for (let i = 0; i < p.length; i += 3) {
            const angle = p[i] / radius;
            p[i] = radius * Math.sin(angle);
            p[i + 2] = radius * (1 - Math.cos(angle));
        }
        return descriptor;
    }

    test('"auto" picks the isometric model for a flat cloth and the dihedral one for a curved mesh', () => {
        const flat = new SoftBody(gridDescriptor(8).descriptor, { bendModel: "auto" });
        expect(flat.bend).toBeInstanceOf(IsometricBendConstraints);
        // The default is "auto".
        expect(new SoftBody(gridDescriptor(8, "xz").descriptor).bend).toBeInstanceOf(IsometricBendConstraints);
        const curved = new SoftBody(curvedDescriptor(), { bendModel: "auto" });
        expect(curved.bend).toBeInstanceOf(BendConstraints);
        // Explicit choices are honoured where they apply.
        expect(new SoftBody(gridDescriptor(8).descriptor, { bendModel: "dihedral" }).bend).toBeInstanceOf(BendConstraints);
        expect(new SoftBody(gridDescriptor(8).descriptor, { bendModel: "isometric" }).bend).toBeInstanceOf(IsometricBendConstraints);
    });

    test('"isometric" on a curved mesh throws an Error that says it needs a flat rest shape; an unknown model is a RangeError', () => {
        expect(() => new SoftBody(curvedDescriptor(), { bendModel: "isometric" })).toThrow(/flat/);
        expect(() => new SoftBody(gridDescriptor(4).descriptor, { bendModel: "quadratic" as BendModel })).toThrow(RangeError);
    });
});

describe("isometric and dihedral bending give the same stiffness for small folds", () => {
    /**
     * Tip droop (m) of a horizontal 1 m × 0.2 m cantilever strip, 5 × 1 quads, clamped by pinning its first two
     * columns (one pinned column would be a hinge the strip swings down about freely), after 300 steps with damping
     * 5/s. The mesh is coarse and the substeps many (20) so that the droop is set by the bend compliance and not by
     * the solver: a finer strip (20 × 4 quads) at the default 5 substeps droops ~0.87 m whatever the compliance,
     * because one Gauss–Seidel pass per substep cannot carry the root moment along 20 hinges.
     */
    function droop(bendModel: BendModel, bendCompliance: number): number {
        const grid = createClothGrid({ width: 1, height: 0.2, segmentsX: 5, segmentsY: 1, plane: "xz" });
        const t = grid.topology;
        const body = new SoftBody(
            { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 0.1 },
            { bendModel, bendCompliance, tethers: false, damping: 5, allowSleep: false },
        );
        expect(body.bend).toBeInstanceOf(bendModel === "isometric" ? IsometricBendConstraints : BendConstraints);
        for (let j = 0; j < grid.rows; j++) {
            body.setPinWeight(j * grid.columns, 1);
            body.setPinWeight(j * grid.columns + 1, 1);
        }
        const world = new XpbdWorld({ substeps: 20 });
        world.addBody(body);
        for (let s = 0; s < 300; s++) {
            world.step(1 / 60);
        }
        // It has settled (the figure is a rest state, not a snapshot of a swing).
        expect(world.stats.kineticEnergy).toBeLessThan(1e-10);
        let tip = 0;
        for (let j = 0; j < grid.rows; j++) {
            tip += body.positions[3 * (j * grid.columns + grid.columns - 1) + 1];
        }
        return -tip / grid.rows;
    }

    test("a cantilever strip droops the same with either model, and in proportion to the compliance", () => {
        const isometric = droop("isometric", 0.1);
        const dihedral = droop("dihedral", 0.1);
        const isometricSoft = droop("isometric", 0.3);
        const dihedralSoft = droop("dihedral", 0.3);
        const isometricStiff = droop("isometric", 0.03);
        console.log(
            `cantilever tip droop: α 0.1 isometric ${isometric.toFixed(5)} m, dihedral ${dihedral.toFixed(5)} m; ` +
                `α 0.3 ${isometricSoft.toFixed(5)} / ${dihedralSoft.toFixed(5)} m; α 0.03 isometric ${isometricStiff.toFixed(5)} m`,
        );
        // A few centimetres: small folds (the slope at the tip is under 0.1 rad, spread over four hinges).
        expect(isometric).toBeGreaterThan(0.02);
        expect(isometric).toBeLessThan(0.2);
        // The droop is the compliance's doing (linear in α, as a beam's is), not the solver's: tripling α about
        // triples it. Within 15%: the residual solver stiffness adds a small α-independent part (measured ×3.2).
        expect(isometricSoft / isometric).toBeGreaterThan(3 * 0.85);
        expect(isometricSoft / isometric).toBeLessThan(3 * 1.15);
        expect(isometric / isometricStiff).toBeGreaterThan(3 * 0.85);
        expect(isometric / isometricStiff).toBeLessThan(3 * 1.15);
        // Same energy θ²/2α to first order in θ: the isometric constraint measures |e|·2sin(θ/2) ≈ |e|θ(1 − θ²/24)
        // where the dihedral one measures θ, so with hinge angles ≲ 0.1 rad the stiffnesses differ by ≲ 0.05%.
        // 1% allows that with room for the two models' different convergence per pass (measured: 0.01–0.07%);
        // a compliance off by the hinge length squared (×25 here) would change the droop several-fold.
        expect(Math.abs(isometric - dihedral) / dihedral).toBeLessThan(0.01);
        expect(Math.abs(isometricSoft - dihedralSoft) / dihedralSoft).toBeLessThan(0.01);
    });
});

describe("in-plane stretch is not bending", () => {
    /** The 10 × 10 grid in the xy plane with x scaled by (1 + 0.2·y): a non-affine stretch within the plane. */
    function stretchedInPlane(rest: ArrayLike<number>): Float64Array {
        const x = new Float64Array(rest);
        for (let i = 0; i < x.length; i += 3) {
            x[i] *= 1 + 0.2 * x[i + 1];
        }
        return x;
    }

    test("a flat cloth stretched unevenly in its plane has zero bend residual and no bend correction; a fold does not", () => {
        const { descriptor } = gridDescriptor(10);
        const body = new SoftBody(descriptor, { bendModel: "isometric", bendCompliance: 0 });
        const bend = body.bend as IsometricBendConstraints;
        expect(bend).toBeInstanceOf(IsometricBendConstraints);
        const x = stretchedInPlane(body.restPositions);
        // The stretch is not affine, so s = ΣKᵢxᵢ itself is not zero: it has an in-plane part the constraint must ignore.
        let largestS = 0;
        for (let e = 0; e < bend.count; e++) {
            largestS = Math.max(largestS, length(bendVector(bend, x, e)) / Math.sqrt(bend.hingeLengths2[e]));
        }
        const stats = new StepStats();
        const residual = new Float32Array(body.particleCount);
        bend.measure(x, residual, stats);
        console.log(
            `in-plane stretch: max |s|/|e| ${largestS.toExponential(3)}, max bend residual ${stats.maxBendResidual.toExponential(3)}`,
        );
        expect(largestS).toBeGreaterThan(1e-3);
        // Everything stays in z = 0, so s·n is exactly 0 up to rounding (~1e-16); 1e-9 rad is far below any fold.
        expect(stats.maxBendResidual).toBeLessThan(1e-9);
        expect(Math.max(...residual)).toBeLessThan(1e-9);
        // One rigid (α = 0) projection sweep leaves the stretched cloth where it is.
        const context = new SubstepContext();
        context.setStep(1 / 60, 5);
        const projected = new Float64Array(x);
        bend.project(projected, body.inverseMasses, context, false);
        let moved = 0;
        for (let k = 0; k < x.length; k++) {
            moved = Math.max(moved, Math.abs(projected[k] - x[k]));
        }
        console.log(`in-plane stretch: largest move of a rigid bend sweep ${moved.toExponential(3)} m`);
        expect(moved).toBeLessThan(1e-12);

        // Contrast: fold the cloth about the column x = 0 (a straight line of vertical hinges) by θ = 0.3 rad, turning
        // the half x > 0 rigidly about the y axis.
        const foldAngle = 0.3;
        const folded = (source: Float64Array): Float64Array => {
            const out = new Float64Array(source);
            for (let i = 0; i < out.length; i += 3) {
                if (out[i] > 0) {
                    out[i + 2] = out[i] * Math.sin(foldAngle);
                    out[i] *= Math.cos(foldAngle);
                }
            }
            return out;
        };
        bend.measure(folded(new Float64Array(body.restPositions)), residual, stats);
        const restFold = stats.maxBendResidual;
        const fold = folded(x);
        bend.measure(fold, residual, stats);
        console.log(
            `fold of ${foldAngle} rad: max bend residual ${restFold.toFixed(6)} (unstretched), ${stats.maxBendResidual.toFixed(6)} (stretched)`,
        );
        // Unstretched, every hinge of the fold has its two wings at equal heights, so s = |e|·2 sin(θ/2) exactly,
        // along the element normal: the residual |C|/|e| is 2 sin(θ/2) to rounding (1e-9 is far above it).
        expect(Math.abs(restFold - 2 * Math.sin(foldAngle / 2))).toBeLessThan(1e-9);
        // Stretched as well, the fold still shows: clearly positive (the wings' stretch changes it by ~10%).
        expect(stats.maxBendResidual).toBeGreaterThan(0.2);
        projected.set(fold);
        bend.project(projected, body.inverseMasses, context, false);
        moved = 0;
        for (let k = 0; k < x.length; k++) {
            moved = Math.max(moved, Math.abs(projected[k] - fold[k]));
        }
        expect(moved).toBeGreaterThan(1e-3);
    });
});

describe("a soft cloth with stiff bending stays stable", () => {
    // An almost stretch-free cloth (stretch stiffness 0) with stiff bending, every quad split the same way, hung by three
    // soft pins: its elements stretch unevenly in their planes, where a projection along a gradient that ignores how
    // the normal turns pumps energy in (the cloth flew off to 1e30 m). With the exact gradient the energy only falls.
    test.each([2, 6, 12])(
        "%i×%i, soft pins: after 5 s, still hanging near its pins with no more energy than it started with",
        (segments) => {
            const grid = createClothGrid({
                width: 0.5,
                height: 0.5,
                segmentsX: segments,
                segmentsY: segments,
                plane: "xz",
                origin: [0, 0.3, 0],
                alternateDiagonals: false,
            });
            const t = grid.topology;
            const body = new SoftBody(
                { positions: t.positions, triangles: t.triangles, stretch: t.stretch, shear: t.shear, bend: t.bend, mass: 3 },
                {
                    stretchCompliance: 1,
                    shearCompliance: 4.4e-3,
                    bendCompliance: 2e-3,
                    damping: 0,
                    dragCoefficient: 0,
                    liftCoefficient: 0,
                    allowSleep: false,
                },
            );
            const n = body.particleCount;
            const pinned = [1, Math.floor(n / 2), n - 3];
            body.setPinWeight(pinned[0], 0.4);
            body.setPinWeight(pinned[1], 0.8);
            body.setPinWeight(pinned[2], 0.95);
            const world = new XpbdWorld();
            world.addBody(body);
            const energy = (): number => {
                let e = 0;
                for (let p = 0; p < n; p++) {
                    const m = 1 / body.inverseMasses[p];
                    const v = body.velocities;
                    e += 0.5 * m * (v[3 * p] ** 2 + v[3 * p + 1] ** 2 + v[3 * p + 2] ** 2) + m * 9.81 * body.positions[3 * p + 1];
                }
                return e;
            };
            const start = energy();
            let farthest = 0;
            for (let s = 0; s < 300; s++) {
                world.step(1 / 60);
                for (const x of body.positions) {
                    farthest = Math.max(farthest, Math.abs(x));
                }
            }
            console.log(
                `${segments}×${segments}: energy ${start.toFixed(3)} J → ${energy().toFixed(3)} J, farthest coordinate ${farthest.toFixed(3)} m`,
            );
            // Soft pins hold it (a stretch compliance of 1 m/N lets it sag a few metres at most under 3 kg), and energy
            // is only lost: the pins' springs store some, so the bound is the start (within 1%).
            expect(farthest).toBeLessThan(10);
            expect(energy()).toBeLessThan(start + 0.01 * Math.abs(start));
        },
    );
});
