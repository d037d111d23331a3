import { Collider } from "../../src/core/collider";
import { complianceFromStiffness } from "../../src/core/stiffness";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { tetBlock } from "../support/coreScenes";

/** A soft 20 kg jelly block resting on the ground for 4 s; returns its volume ratio and height. */
function rest(volumeConstraints: boolean): { volume: number; height: number } {
    const world = new XpbdWorld();
    const block = tetBlock([0.6, 0.6, 0.6], [0, 0.31, 0], {
        mass: 20,
        // Soft edges: on their own they let the block spread under its weight, which is what tets are for.
        stretchCompliance: complianceFromStiffness(0.2, "distance"),
        volumeCompliance: 0,
        allowSleep: false,
    });
    block.volume.enabled = volumeConstraints;
    world.addBody(block);
    world.addCollider(new Collider([{ kind: "plane", normal: [0, 1, 0], offset: 0 }]));
    for (let s = 0; s < 240; s++) {
        world.step(1 / 60);
    }
    let top = -Infinity;
    let bottom = Infinity;
    for (let i = 1; i < block.positions.length; i += 3) {
        top = Math.max(top, block.positions[i]);
        bottom = Math.min(bottom, block.positions[i]);
    }
    return { volume: world.stats.volumeRatio, height: top - bottom };
}

describe("a tet block resting on the ground", () => {
    const kept = rest(true);
    const collapsed = rest(false);

    test("keeps ≥ 90% of its rest volume with volume constraints (stiffness 1)", () => {
        console.log(
            `with volume constraints: volume ${kept.volume.toFixed(4)}, height ${kept.height.toFixed(4)} m; ` +
                `without: volume ${collapsed.volume.toFixed(4)}, height ${collapsed.height.toFixed(4)} m`,
        );
        expect(kept.volume).toBeGreaterThanOrEqual(0.9);
    });

    test("is demonstrably flatter without them (loses > 10% of its height and volume)", () => {
        expect(collapsed.height).toBeLessThan(kept.height * 0.9);
        expect(collapsed.volume).toBeLessThan(0.9);
    });
});
