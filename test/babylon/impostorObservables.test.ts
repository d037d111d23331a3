/**
 * The impostor observables on real Havok: sleep, wake, over-stretch and invalid state each fire after the step that
 * caused them, on the impostor it happened to (and on no other), with the event's figures.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor, type ClothImpostorOptions } from "../../src/babylon/clothImpostor";
import type { SoftImpostor, SoftImpostorEvent } from "../../src/babylon/softImpostor";

type Kind = "sleep" | "wake" | "overStretch" | "invalid";
interface Seen {
    kind: Kind;
    impostor: SoftImpostor;
    source: SoftImpostor;
    element: number;
    value: number;
    ratio: number;
}

describe("impostor observables", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    let seen: Seen[];
    beforeEach(async () => {
        h = await createHavokScene();
        xpbd = new XpbdPlugin(h.scene);
        seen = [];
    });
    afterEach(() => h.dispose());

    /** A 1 m cloth at height y, pinned at two corners of its edge, whose four observables record into `seen`. */
    function cloth(name: string, x: number, options: ClothImpostorOptions): ClothImpostor {
        const mesh = CreateGround(name, { width: 1, height: 1, subdivisions: 6 }, h.scene);
        mesh.position.set(x, 2, 0);
        const impostor = new ClothImpostor(mesh, { mass: 0.2, pins: [0, 6], ...options }, xpbd);
        const record = (kind: Kind) => (event: SoftImpostorEvent) => {
            // The edge's ratio now, after the step, from the particles: what an over-stretch event must report.
            let ratio = 0;
            if (event.element >= 0) {
                const { indices, restLengths } = impostor.body.stretch;
                const [a, b] = [3 * indices[2 * event.element], 3 * indices[2 * event.element + 1]];
                const x = impostor.body.positions;
                ratio = Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]) / restLengths[event.element];
            }
            seen.push({ kind, impostor: event.impostor, source: impostor, element: event.element, value: event.value, ratio });
        };
        impostor.onSleepObservable.add(record("sleep"));
        impostor.onWakeObservable.add(record("wake"));
        impostor.onOverStretchObservable.add(record("overStretch"));
        impostor.onInvalidStateObservable.add(record("invalid"));
        return impostor;
    }

    it("sleep and wake fire on the cloth that slept and woke, not on its awake neighbour", () => {
        const sleeper = cloth("sleeper", -1.5, { sleepTime: 0.2 });
        const awake = cloth("awake", 1.5, { allowSleep: false });
        let steps = 0;
        while (!sleeper.body.sleeping && steps < 600) {
            h.step();
            steps++;
        }
        console.log(
            `the pinned cloth fell asleep after ${steps} steps; events: ${seen.map((s) => `${s.kind}@${s.source.mesh.name}`).join(", ")}`,
        );
        expect(sleeper.body.sleeping).toBe(true);
        expect(seen.map((s) => [s.kind, s.impostor, s.source])).toEqual([["sleep", sleeper, sleeper]]);
        seen.length = 0;
        sleeper.applyImpulse(new Vector3(0, 0, 0.05), sleeper.getCenterOfMass());
        h.step();
        expect(sleeper.body.sleeping).toBe(false);
        expect(seen.map((s) => [s.kind, s.impostor, s.source])).toEqual([["wake", sleeper, sleeper]]);
        expect(awake.body.sleeping).toBe(false);
    });

    it("over-stretch fires on the stretched cloth with its most stretched edge and that edge's ratio (> 1.5)", () => {
        // One of the two corner pins of the "pulled" cloth jumps 3 m away from the other: its 1 m edge between them
        // must stretch ×4 and the cloth far more than ×1.5 somewhere.
        const pulled = cloth("pulled", -1.5, { allowSleep: false });
        cloth("hanging", 1.5, { allowSleep: false });
        h.step(5);
        expect(seen).toEqual([]);
        const corner = pulled.vertexToParticle[6];
        const x0 = pulled.body.positions;
        pulled.body.setPinTarget(corner, x0[3 * corner] + 3, x0[3 * corner + 1], x0[3 * corner + 2]);
        h.step();
        const first = seen[0];
        console.log(
            `over-stretch: ${seen.length} event(s), first on ${first?.source.mesh.name}: edge ${first?.element} at ×${first?.value.toFixed(3)}`,
        );
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.every((s) => s.kind === "overStretch" && s.impostor === pulled && s.source === pulled)).toBe(true);
        expect(first.value).toBeGreaterThan(1.5);
        // The reported ratio is that edge's, measured after the step (1e-9: the same positions).
        expect(Math.abs(first.value - first.ratio)).toBeLessThan(1e-9);
        // And that edge is the most stretched one.
        let max = 0;
        const { indices, restLengths } = pulled.body.stretch;
        const x = pulled.body.positions;
        for (let c = 0; c < restLengths.length; c++) {
            const [a, b] = [3 * indices[2 * c], 3 * indices[2 * c + 1]];
            max = Math.max(max, Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]) / restLengths[c]);
        }
        expect(first.value).toBeCloseTo(max, 12);
    });

    it("invalid state fires on the cloth that went non-finite, which is restored at rest to its last valid positions", () => {
        const broken = cloth("broken", -1.5, { allowSleep: false });
        const fine = cloth("fine", 1.5, { allowSleep: false });
        h.step(5);
        expect(seen).toEqual([]);
        broken.body.velocities[4] = NaN;
        // The twin, stopped by hand where it is: what the broken one must do once restored at rest where it was.
        fine.body.velocities.fill(0);
        h.step();
        console.log(`invalid state: ${seen.map((s) => `${s.kind}@${s.source.mesh.name}`).join(", ")}`);
        expect(seen.map((s) => [s.kind, s.impostor, s.source])).toEqual([["invalid", broken, broken]]);
        const apart = broken.body.positions.map((x, k) => Math.abs(x - fine.body.positions[k] + (k % 3 === 0 ? 3 : 0)));
        // The same to round-off (the twins hang 3 m apart, so their coordinates round differently).
        expect(Math.max(...apart)).toBeLessThan(1e-9);
        expect(broken.body.velocities.every(Number.isFinite)).toBe(true);
    });
});
