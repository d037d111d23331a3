/**
 * The Inspector's parameter table with a rope (real Havok scene, NullEngine): copy-as-code names `RopeImpostor` and
 * its own options, and the material presets (cloth and soft body only) leave ropes alone.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { RopeImpostor } from "../../src/babylon/ropeImpostor";
import { applyMaterialPreset, ClothPresets, matchingMaterialPreset, SoftBodyPresets } from "../../src/babylon/materialPresets";
import { parametersAsCode, parametersAsJson, parameterTable } from "../../src/inspector/parameterSnippet";

describe("the parameters of a rope", () => {
    let h: HavokScene;
    beforeEach(async () => {
        h = await createHavokScene();
    });
    afterEach(() => h.dispose());

    it("copy as code builds a RopeImpostor with its radius and bend, and no preset matches or applies", () => {
        const xpbd = new XpbdPlugin(h.scene);
        const rope = new RopeImpostor([new Vector3(0, 2, 0), new Vector3(1, 2, 0)], { radius: 0.03, bendStiffness: 0.4 }, xpbd);
        const table = parameterTable(rope);
        expect(table).toMatchObject({ radius: 0.03, bendStiffness: 0.4, mass: 0.2 });
        expect(table).not.toHaveProperty("thickness");
        expect(table).not.toHaveProperty("selfCollision");
        const code = parametersAsCode(rope);
        expect(code).toContain("const rope = new RopeImpostor(mesh, {");
        expect(JSON.parse(parametersAsJson(rope)).kind).toBe("rope");
        expect(matchingMaterialPreset(rope)).toBeNull();
        expect(() => applyMaterialPreset(rope, ClothPresets.silk)).toThrow(/cannot be applied to a RopeImpostor/);
        expect(() => applyMaterialPreset(rope, SoftBodyPresets.jelly)).toThrow(/cannot be applied to a RopeImpostor/);
    });
});
