import { Collider } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody, minY } from "../support/coreScenes";

/**
 * Collision filtering: a body and a collider touch only when each one's `collideWith` mask shares a bit with the
 * other's `membership`. A cloth dropped onto a table it does not collide with falls through it in free fall; onto one
 * it collides with, it rests on the table's top.
 */
describe("collision filtering", () => {
    const thickness = 0.01;

    /** Lowest particle (y) after 1 s, for a cloth dropped from 0.2 m above a table top at y = 0. */
    function drop(body: { membership?: number; collideWith?: number }, table: { membership?: number; collideWith?: number }): number {
        const world = new XpbdWorld({ airDensity: 0 });
        const cloth = clothBody(6, { plane: "xz", size: 0.5, origin: [0, 0.2, 0], thickness, allowSleep: false, ...body });
        world.addBody(cloth.body);
        world.addCollider(new Collider([{ kind: "box", center: [0, -0.05, 0], halfExtents: [1, 0.05, 1] }], table));
        for (let s = 0; s < 60; s++) world.step(1 / 60);
        return minY(cloth.body);
    }

    test.each([
        ["default masks", {}, {}, true],
        ["shared group 2", { membership: 2, collideWith: 2 }, { membership: 2 | 4, collideWith: 2 }, true],
        ["the body does not collide with the table's group", { collideWith: ~4 }, { membership: 4 }, false],
        ["the table does not collide with the body's group", { membership: 2 }, { collideWith: 1 }, false],
    ] as const)("%s", (_name, body, table, collides) => {
        const low = drop(body, table);
        // Resting: on the top face at y = 0, one thickness above it (1 mm for the sag between contacts). Falling
        // through: 1 s of free fall from 0.2 m ends at 0.2 − ½·g·1² = −4.7 m (symplectic Euler falls ½·g·t·h = 1.6 cm further; 5 cm).
        const expected = collides ? thickness : 0.2 - 0.5 * 9.81;
        console.log(`${_name}: lowest particle after 1 s at ${low.toFixed(4)} m (expected ${expected.toFixed(4)} m)`);
        expect(Math.abs(low - expected)).toBeLessThan(collides ? 0.001 : 0.05);
    });
});
