/** XpbdRecorder's lifecycle: start, stop, the ends it comes to by itself, disposal. */
import { Logger } from "@babylonjs/core/Misc/logger";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { createHavokScene, type HavokScene } from "../support/havokScene";
import { XpbdPlugin } from "../../src/babylon/xpbdPlugin";
import { ClothImpostor } from "../../src/babylon/clothImpostor";
import { SoftBodyImpostor } from "../../src/babylon/softBodyImpostor";
import { XpbdRecorder } from "../../src/babylon/xpbdRecorder";
import { parseReplay, serializeReplay, XpbdDataError, XpbdReplayer } from "../../src/core/index";

describe("XpbdRecorder", () => {
    let h: HavokScene;
    let xpbd: XpbdPlugin;
    beforeEach(async () => {
        h = await createHavokScene();
        xpbd = new XpbdPlugin(h.scene);
        new ClothImpostor(CreateGround("cloth", { width: 1, height: 1, subdivisions: 6 }, h.scene), { mass: 0.2, pins: [0, 6] }, xpbd);
    });
    afterEach(() => h.dispose());

    test("records the steps between start and stop; stop returns the recording, start again begins a new one", () => {
        const recorder = new XpbdRecorder(xpbd);
        expect(recorder.getClassName()).toBe("XpbdRecorder");
        expect(() => recorder.stop()).toThrow("XpbdRecorder.stop: nothing was recorded (call start first)");
        recorder.start();
        expect(() => recorder.start()).toThrow("XpbdRecorder.start: already recording (stop first)");
        h.step(12);
        expect(recorder.stepCount).toBe(12);
        const replay = recorder.stop();
        expect(recorder.stopReason).toBe("stopped");
        expect(replay.steps.length).toBe(12);
        h.step(3);
        expect(recorder.stop()).toBe(replay);
        expect(new XpbdReplayer(parseReplay(serializeReplay(replay))).run().divergedAtStep).toBeNull();
        recorder.start();
        h.step(2);
        expect(recorder.stop().steps.length).toBe(2);
    });

    test("stops by itself when full, or when an impostor joins or leaves (with a warning)", () => {
        const full = new XpbdRecorder(xpbd, { maxSteps: 5 });
        const ends: string[] = [];
        full.onStoppedObservable.add((r) => ends.push(r.stopReason ?? ""));
        full.start();
        h.step(8);
        expect(full.isRecording).toBe(false);
        expect(full.stop().steps.length).toBe(5);
        expect(ends).toEqual(["full"]);

        const warn = jest.spyOn(Logger, "Warn").mockImplementation(() => {});
        const changed = new XpbdRecorder(xpbd);
        changed.start();
        h.step(4);
        new SoftBodyImpostor(CreateBox("jelly", { size: 0.3 }, h.scene), { resolution: 2 }, xpbd);
        expect(changed.isRecording).toBe(false);
        expect(changed.stopReason).toBe("sceneChanged");
        expect(changed.stop().steps.length).toBe(4);
        expect(warn).toHaveBeenCalledWith(
            'XpbdRecorder: SoftBodyImpostor of mesh "jelly" joined the plugin; the recording stopped after 4 steps (a recording keeps the impostors it started with)',
        );
        warn.mockRestore();
    });

    test("dispose removes its observers; a disposed plugin cannot be recorded; a damaged replay file is refused", () => {
        // Observers removed are dropped at the next tick; those left count.
        const counts = () =>
            [xpbd.onBeforeWorldStepObservable, xpbd.onAfterWorldStepObservable, xpbd.onImpostorAddedObservable].map(
                (o) => o.observers.filter((observer) => !observer._willBeUnregistered).length,
            );
        const before = counts();
        const recorder = new XpbdRecorder(xpbd);
        recorder.start();
        expect(counts()).toEqual(before.map((n) => n + 1));
        h.step(3);
        const bytes = new Uint8Array(serializeReplay(recorder.stop()));
        recorder.start();
        recorder.dispose();
        expect(counts()).toEqual(before);
        bytes[bytes.length - 9] ^= 4;
        expect(() => parseReplay(bytes)).toThrow(XpbdDataError);
        expect(() => parseReplay(bytes)).toThrow(/^replay is corrupted: its checksum is/);
        xpbd.dispose();
        expect(() => new XpbdRecorder(xpbd).start()).toThrow("XpbdRecorder.start: the XpbdPlugin is disposed");
    });
});
