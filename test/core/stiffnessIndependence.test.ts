import { Collider } from "../../src/core/collider";
import { complianceFromStiffness } from "../../src/core/stiffness";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody, minY, tetBlock } from "../support/coreScenes";

/**
 * XPBD's promise: compliance is a material property, so the quality tier (substeps) changes accuracy, not
 * stiffness. Plain PBD would sag several times more at 4 substeps than at 20.
 */
describe("stiffness does not depend on the quality tier", () => {
    /** Sag (m) of the lowest particle of a 12×12 cloth hanging from its top row, stretch stiffness 0.25, no tethers. */
    function sag(substeps: number): number {
        const world = new XpbdWorld({ substeps, iterations: 1 });
        const { body, columns } = clothBody(12, {
            allowSleep: false,
            tethers: false,
            damping: 5,
            stretchCompliance: complianceFromStiffness(0.25, "distance"),
            shearCompliance: complianceFromStiffness(0.25, "distance"),
        });
        for (let i = 0; i < columns; i++) {
            body.setPinWeight(i, 1);
        }
        world.addBody(body);
        const rest = minY(body);
        for (let s = 0; s < 300; s++) {
            world.step(1 / 60);
        }
        return rest - minY(body);
    }

    test("the sag of a hanging cloth at 4, 10 (the default) and 40 substeps agrees within 10%, 2%", () => {
        const coarse = sag(4);
        const standard = sag(10);
        const fine = sag(40);
        console.log(`sag at 4 substeps ${coarse.toFixed(4)} m, at 10 ${standard.toFixed(4)} m, at 40 ${fine.toFixed(4)} m`);
        // The cloth must really stretch for the comparison to mean anything (≥ 2% of its 1 m length).
        expect(fine).toBeGreaterThan(0.02);
        // One Gauss–Seidel sweep per substep leaves a residual that shrinks with h. At 4 substeps (4 sweeps a step)
        // it makes this soft, untethered cloth 8% softer than converged; at the default 10 about 1%. Plain PBD would
        // sag several times more at 4 than at 40, since its stiffness itself depends on the sweeps.
        expect(Math.abs(coarse - fine) / fine).toBeLessThan(0.1);
        expect(Math.abs(standard - fine) / fine).toBeLessThan(0.02);
    });

    /** Volume ratio of a heavy, soft tet block resting on the ground under its own weight. */
    function squeezed(substeps: number): number {
        const world = new XpbdWorld({ substeps, iterations: 1 });
        const block = tetBlock([1, 0.5, 1], [0, 0.25, 0], {
            allowSleep: false,
            damping: 5,
            stretchCompliance: complianceFromStiffness(0.3, "distance"),
            volumeCompliance: complianceFromStiffness(0.3, "volume"),
            mass: 50,
            thickness: 0.001,
        });
        world.addBody(block);
        world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
        for (let s = 0; s < 240; s++) {
            world.step(1 / 60);
        }
        return world.stats.volumeRatio;
    }

    test("the volume of a squeezed tet block at 4 and 20 substeps agrees within 2% of the rest volume", () => {
        const coarse = squeezed(4);
        const fine = squeezed(20);
        console.log(`volume ratio at 4 substeps ${coarse.toFixed(4)}, at 20 substeps ${fine.toFixed(4)}`);
        // It must really be squeezed for the comparison to mean anything.
        expect(fine).toBeLessThan(0.99);
        expect(Math.abs(coarse - fine)).toBeLessThan(0.02);
    });
});
