/**
 * The diagnosis rules: a scene built to show each symptom makes its rule fire (and only the rules its symptom
 * explains), and a healthy scene fires none.
 */
import { Collider } from "../../src/core/collider";
import { diagnose, type DiagnosisRule } from "../../src/core/diagnosis";
import type { SoftBody } from "../../src/core/softBody";
import { complianceFromStiffness } from "../../src/core/stiffness";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import type { XpbdWorldOptions } from "../../src/core/xpbdWorldOptions";
import { clothBody, tetBlock } from "../support/coreScenes";

const DT = 1 / 60;

/** Steps `body` alone in a world (with `colliders`) for `steps` steps; returns the rules that fired, printed. */
function fired(name: string, body: SoftBody, steps: number, world: XpbdWorldOptions = {}, colliders: Collider[] = []): DiagnosisRule[] {
    const w = new XpbdWorld(world);
    w.addBody(body);
    colliders.forEach((c) => w.addCollider(c));
    for (let s = 0; s < steps; s++) w.step(DT);
    const findings = diagnose(body, w, DT);
    console.log(
        `${name}: ${findings.map((f) => `${f.id} ${f.figure.toFixed(4)} > ${f.threshold.toFixed(4)}`).join(", ") || "none"} ` +
            `(mean edge ratio ${body.stats.meanEdgeRatio.toFixed(4)}, step ${w.stats.stepMs.toFixed(2)} ms)`,
    );
    return findings.map((f) => f.id);
}

/** A 1 m, 16² cloth hung by its top corners (awake: a sleeping body's step measures nothing). */
function hangingCloth(options: Parameters<typeof clothBody>[1] = {}): SoftBody {
    const { body, columns } = clothBody(16, { allowSleep: false, ...options });
    body.setPinWeight(0, 1);
    body.setPinWeight(columns - 1, 1);
    return body;
}

describe("diagnose", () => {
    test("a healthy cloth at rest and a healthy jelly on the ground fire no rule", () => {
        expect(fired("healthy cloth", hangingCloth(), 180)).toEqual([]);
        const ground = new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]);
        expect(fired("healthy jelly", tetBlock([0.4, 0.4, 0.4], [0, 0.2, 0]), 180, {}, [ground])).toEqual([]);
    });

    test("a rubbery cloth (soft stretch, no tethers to hold it): the whole cloth stretches", () => {
        const body = hangingCloth({ stretchCompliance: complianceFromStiffness(0.1, "distance"), tethers: false });
        expect(fired("rubbery", body, 180)).toContain("stretch");
    });

    test("a heavy cloth hung without tethers at one substep: stringy next to its pins", () => {
        const body = hangingCloth({ mass: 20, tethers: false });
        expect(fired("heavy at pins", body, 180, { substeps: 1 })).toContain("pinStretch");
    });

    test("a cloth slammed onto a sphere at 15 m/s: contacts jitter, and it passes through thin things", () => {
        const { body } = clothBody(16, { plane: "xz", origin: [0, 0.3, 0] });
        body.setLinearVelocity(0, -15, 0);
        const sphere = new Collider([{ kind: "sphere", center: [0, 0, 0], radius: 0.25 }]);
        const rules = fired("slammed", body, 1, { substeps: 2 }, [sphere]);
        expect(rules).toContain("contactJitter");
        expect(rules).toContain("tunnelling");
    });

    test("a jelly with no volume stiffness squashed on the ground: it collapses", () => {
        const ground = new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]);
        const jelly = tetBlock([0.4, 0.4, 0.4], [0, 0.2, 0], {
            mass: 20,
            volumeCompliance: complianceFromStiffness(0, "volume"),
            stretchCompliance: complianceFromStiffness(0.2, "distance"),
        });
        expect(fired("collapsing jelly", jelly, 180, {}, [ground])).toContain("collapse");
    });

    test("a 64² cloth at the default quality makes slow steps; a 32² one does not", () => {
        const big = clothBody(64, { allowSleep: false }).body;
        expect(fired("64² cloth", big, 1)).toEqual(["slowStep"]);
        expect(fired("32² cloth", clothBody(32, { allowSleep: false }).body, 1)).toEqual([]);
    });
});
