import { Collider } from "../../src/core/collider";
import { complianceFromStiffness } from "../../src/core/stiffness";
import type { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

/** Angles (radians) between the normals of every pair of triangles that share an edge: the cloth's folds. */
function dihedralAngles(body: SoftBody): number[] {
    const x = body.positions;
    const tri = body.triangles;
    const normals: number[][] = [];
    const byEdge = new Map<string, number[]>();
    for (let t = 0; t < tri.length / 3; t++) {
        const [a, b, c] = [3 * tri[3 * t], 3 * tri[3 * t + 1], 3 * tri[3 * t + 2]];
        const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
        const e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
        const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        const length = Math.hypot(n[0], n[1], n[2]);
        normals.push(n.map((value) => value / length));
        for (let k = 0; k < 3; k++) {
            const p = tri[3 * t + k];
            const q = tri[3 * t + ((k + 1) % 3)];
            const key = p < q ? `${p},${q}` : `${q},${p}`;
            byEdge.set(key, [...(byEdge.get(key) ?? []), t]);
        }
    }
    const angles: number[] = [];
    for (const pair of byEdge.values()) {
        if (pair.length !== 2) continue;
        const [n, m] = [normals[pair[0]], normals[pair[1]]];
        angles.push(Math.acos(Math.min(1, Math.max(-1, n[0] * m[0] + n[1] * m[1] + n[2] * m[2]))));
    }
    return angles;
}

describe("bending stiffness", () => {
    /**
     * Max and mean fold angle (degrees) of a 1 m, 10×10 cloth dropped flat on a 15 cm sphere, after 3 s. At 20×20
     * the default 5 substeps cannot carry the bending far enough for the stiffness to show (one Gauss–Seidel pass per
     * substep; see isometricBending.test.ts): there bend 0 and 1 give 29.5° / 4.9° and 28.8° / 4.1°.
     */
    function drape(bendStiffness: number): { max: number; mean: number } {
        const world = new XpbdWorld({ airDensity: 0 });
        const { body } = clothBody(10, {
            plane: "xz",
            origin: [0, 0.5, 0],
            bendCompliance: complianceFromStiffness(bendStiffness, "bend"),
            allowSleep: false,
        });
        world.addBody(body);
        world.addCollider(new Collider([{ kind: "sphere", center: [0, 0.3, 0], radius: 0.15 }]));
        for (let s = 0; s < 180; s++) world.step(1 / 60);
        const angles = dihedralAngles(body);
        const degrees = 180 / Math.PI;
        return { max: Math.max(...angles) * degrees, mean: (angles.reduce((a, b) => a + b, 0) / angles.length) * degrees };
    }

    test("a cloth with bend stiffness 0 drapes into sharper folds than with 1", () => {
        const limp = drape(0);
        const half = drape(0.5);
        const stiff = drape(1);
        console.log(
            `fold angles over a sphere (max / mean): bend 0 ${limp.max.toFixed(2)}° / ${limp.mean.toFixed(3)}°, ` +
                `bend 0.5 ${half.max.toFixed(2)}° / ${half.mean.toFixed(3)}°, bend 1 ${stiff.max.toFixed(2)}° / ${stiff.mean.toFixed(3)}°`,
        );
        // Limp cloth folds sharply around the sphere; stiff cloth sits on it like a dish. Twice as sharp, max and
        // mean (measured ×3.0 and ×3.7), is a margin no solver noise reaches.
        expect(limp.max).toBeGreaterThan(2 * stiff.max);
        expect(limp.mean).toBeGreaterThan(2 * stiff.mean);
        // Halfway on the slider is already at what 5 substeps can hold (measured 10.05° vs 9.97°): stiffer than
        // limp by the same margin, and no sharper than rigid beyond noise.
        expect(limp.max).toBeGreaterThan(2 * half.max);
        expect(half.max).toBeGreaterThan(0.95 * stiff.max);
    });
});

describe("shear stiffness", () => {
    /**
     * Largest departure (degrees) from 90° of a cell's corner angle of a 1 m, 10×10 curtain pinned along its top edge,
     * under gravity tilted 45° in its plane (which leans its columns sideways), after 3 s. The triangles' edges are
     * stretch constraints, so the in-plane shape only gives when stretch is soft (0.5 here), and the tethers
     * (which forbid a leaning column) are off.
     */
    function skew(shearStiffness: number, substeps = 5): number {
        const world = new XpbdWorld({ airDensity: 0, substeps, gravity: [6.94, -6.94, 0] });
        const { body, columns } = clothBody(10, {
            shearCompliance: complianceFromStiffness(shearStiffness, "distance"),
            allowSleep: false,
            tethers: false,
            stretchCompliance: complianceFromStiffness(0.5, "distance"),
        });
        for (let c = 0; c < columns; c++) body.setPinWeight(c, 1);
        world.addBody(body);
        for (let s = 0; s < 180; s++) world.step(1 / 60);
        const x = body.positions;
        let worst = 0;
        for (let r = 0; r + 1 < columns; r++) {
            for (let c = 0; c + 1 < columns; c++) {
                const o = 3 * (r * columns + c);
                const a = 3 * (r * columns + c + 1);
                const b = 3 * ((r + 1) * columns + c);
                const u = [x[a] - x[o], x[a + 1] - x[o + 1], x[a + 2] - x[o + 2]];
                const v = [x[b] - x[o], x[b + 1] - x[o + 1], x[b + 2] - x[o + 2]];
                const cos = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (Math.hypot(u[0], u[1], u[2]) * Math.hypot(v[0], v[1], v[2]));
                worst = Math.max(worst, Math.abs(Math.acos(cos) * (180 / Math.PI) - 90));
            }
        }
        return worst;
    }

    test("with soft stretch, a curtain with shear stiffness 0 skews more than with 1 (at 20 substeps)", () => {
        const limp = skew(0, 20);
        const stiff = skew(1, 20);
        const limpDefault = skew(0);
        const stiffDefault = skew(1);
        console.log(
            `largest skew of a cell: shear 0 ${limp.toFixed(3)}°, shear 1 ${stiff.toFixed(3)}° at 20 substeps; ` +
                `${limpDefault.toFixed(3)}° and ${stiffDefault.toFixed(3)}° at the default 5`,
        );
        // Measured ×1.58 at 20 substeps. At the default 5 substeps the shear stiffness does not show (1.31° vs
        // 1.34°): one pass per substep leaves more skew than the shear constraints remove. That gap is not asserted.
        expect(limp).toBeGreaterThan(1.3 * stiff);
    });
});
