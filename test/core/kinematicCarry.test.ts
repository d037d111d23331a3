import { Collider, ColliderMotion } from "../../src/core/collider";
import { XpbdWorld } from "../../src/core/xpbdWorld";
import { clothBody } from "../support/coreScenes";

/**
 * A kinematic collider carries what lies on it by friction: a platform that accelerates more gently than μ·g takes a
 * cloth lying on it along without slip; without friction the platform slides out under the cloth.
 */
describe("a kinematic platform carries a cloth by friction", () => {
    const thickness = 0.01;
    const accel = 1; // m/s², under μ·g = 0.5·9.81 = 4.9 m/s²: static friction can supply it.
    const topSpeed = 0.5;

    /** Platform and cloth centre displacements (x) after 0.5 s at rest and 2 s of travel. */
    function ride(friction: number): { platform: number; cloth: number } {
        const world = new XpbdWorld({ airDensity: 0 });
        const { body } = clothBody(8, {
            plane: "xz",
            size: 0.6,
            origin: [0, thickness, 0],
            thickness,
            allowSleep: false,
            staticFriction: friction,
            kineticFriction: friction,
        });
        world.addBody(body);
        const platform = new Collider([{ kind: "box", center: [0, -0.05, 0], halfExtents: [1.5, 0.05, 1.5] }], {
            motion: ColliderMotion.Kinematic,
            friction,
        });
        world.addCollider(platform);
        const centerX = (): number => {
            let sum = 0;
            for (let p = 0; p < body.particleCount; p++) sum += body.positions[3 * p];
            return sum / body.particleCount;
        };
        for (let s = 0; s < 30; s++) world.step(1 / 60);
        const x0 = centerX();
        const p0 = platform.position[0];
        for (let s = 1; s <= 120; s++) {
            platform.setVelocity(Math.min(accel * (s / 60), topSpeed), 0, 0, 0, 0, 0);
            world.step(1 / 60);
        }
        return { platform: platform.position[0] - p0, cloth: centerX() - x0 };
    }

    test("with friction 0.5 the cloth moves with the platform (within 2 mm of its 0.879 m); frictionless it stays (< 1 cm)", () => {
        const held = ride(0.5);
        const slick = ride(0);
        console.log(
            `platform moved ${held.platform.toFixed(4)} m; cloth with friction 0.5 moved ${held.cloth.toFixed(4)} m, ` +
                `frictionless ${slick.cloth.toFixed(4)} m`,
        );
        // The platform moves by the velocity set before each step, held over it: Σ v·dt = 0.87917 m.
        let travel = 0;
        for (let s = 1; s <= 120; s++) travel += Math.min(accel * (s / 60), topSpeed) / 60;
        expect(Math.abs(held.platform - travel)).toBeLessThan(1e-9);
        // No slip: static friction supplies 1 m/s² < μg. 2 mm allows a little creep of the friction's position-level
        // projection per substep (measured 0.1 mm).
        expect(Math.abs(held.cloth - held.platform)).toBeLessThan(0.002);
        expect(Math.abs(slick.cloth)).toBeLessThan(0.01);
    });
});
