import { Collider } from "../../src/core/collider";
import { ColliderShape, THIN_BOX_HALF_EXTENT } from "../../src/core/colliderShape";
import type { ColliderShapeDescriptor } from "../../src/core/colliderShapeDescriptor";
import { SoftBody } from "../../src/core/softBody";
import { XpbdWorld } from "../../src/core/xpbdWorld";

/**
 * Sheets without a real inside: a ground box made from a flat mesh (Havok gives it a fraction of a millimetre of
 * height) and an open mesh. A fast particle crosses them within one substep; it must come back to the side it came
 * from instead of being pushed out through the far face.
 */
describe("thin colliders keep a fast particle on the side it came from", () => {
    const sheets: { name: string; shape: ColliderShapeDescriptor }[] = [
        {
            name: "a box 0.2 mm thick (a flat ground mesh as a Havok box)",
            shape: { kind: "box", center: [0, 0, 0], halfExtents: [5, 1e-4, 5] },
        },
        {
            name: "an open mesh quad",
            shape: { kind: "mesh", positions: [-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5], indices: [0, 2, 1, 0, 3, 2] },
        },
    ];

    test.each(sheets)("$name", ({ shape }) => {
        expect(new ColliderShape(shape).twoSided).toBe(true);
        const thickness = 0.01;
        const world = new XpbdWorld();
        world.addCollider(new Collider([shape]));
        const body = new SoftBody({ positions: [0.3, 0.5, -0.2] }, { thickness });
        // 8 m/s down: 2.7 cm per substep at the default 5 substeps, more than the thickness plus the sheet.
        body.setLinearVelocity(0, -8, 0);
        world.addBody(body);
        let lowest = Infinity;
        for (let s = 0; s < 120; s++) {
            world.step(1 / 60);
            lowest = Math.min(lowest, body.positions[1]);
        }
        expect(lowest).toBeGreaterThan(0);
        // At rest on top, `thickness` above the sheet (the box's top face is 0.1 mm above 0).
        expect(Math.abs(body.positions[1] - thickness)).toBeLessThan(2e-4);
    });

    test("a box thicker than the threshold keeps its inside (a particle inside goes out through the nearest face)", () => {
        const thick = new ColliderShape({ kind: "box", center: [0, 0, 0], halfExtents: [5, 2 * THIN_BOX_HALF_EXTENT, 5] });
        expect(thick.twoSided).toBe(false);
        expect(new ColliderShape({ kind: "sphere", center: [0, 0, 0], radius: 0.5 }).twoSided).toBe(false);
    });
});
