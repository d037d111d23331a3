/**
 * Snapshots and replays from the Inspector: save the simulation's state to a file and restore it from one
 * (`XpbdPlugin.saveState` / `restoreState`), and record a replay (`XpbdRecorder`) that downloads when stopped.
 */
import { ButtonLine, FileUploadLine, MessageBar, useObservableState } from "@babylonjs/inspector";
import { useState, type ReactElement } from "react";
import type { XpbdPlugin } from "../babylon/xpbdPlugin.js";
import { parseSnapshot, serializeReplay, serializeSnapshot, XpbdDataError } from "../core/index.js";
import { downloadBytes, fileStem } from "./fileTransfer.js";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import { useSessionVersion } from "./sessionHooks.js";

/** File name endings. */
export const STATE_FILE_EXTENSION = ".xpbdstate";
export const REPLAY_FILE_EXTENSION = ".xpbdreplay";

/** The state and replay lines of `plugin`. */
export function StatePanel({ plugin, session }: { plugin: XpbdPlugin; session: XpbdInspectorSession }): ReactElement {
    useSessionVersion(session);
    const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
    const recorder = session.recorder;
    const recording = recorder?.isRecording ?? false;
    const steps = useObservableState(() => recorder?.stepCount ?? 0, plugin.onAfterStepObservable);
    const stem = fileStem(plugin.scene.metadata?.name ?? plugin.impostors[0]?.mesh.name);
    return (
        <>
            <ButtonLine
                label="Save state"
                onClick={() => {
                    const bytes = serializeSnapshot(plugin.saveState());
                    downloadBytes(bytes, `${stem}${STATE_FILE_EXTENSION}`);
                    setMessage({ ok: true, text: `State saved at t = ${plugin.world.time.toFixed(2)} s (${bytes.byteLength} bytes).` });
                }}
            />
            <FileUploadLine
                label="Restore state"
                accept={`${STATE_FILE_EXTENSION},application/octet-stream`}
                onClick={(files) => {
                    const file = files[0];
                    if (!file) return;
                    void file.arrayBuffer().then((bytes) => {
                        try {
                            plugin.restoreState(parseSnapshot(bytes));
                            setMessage({ ok: true, text: `Restored "${file.name}": t = ${plugin.world.time.toFixed(2)} s.` });
                        } catch (error) {
                            if (!(error instanceof XpbdDataError)) throw error;
                            setMessage({ ok: false, text: `"${file.name}" was not restored: ${error.message}` });
                        }
                    });
                }}
            />
            {recording ? (
                <ButtonLine
                    label={`Stop and download replay (${steps} steps)`}
                    appearance="primary"
                    onClick={() => {
                        const replay = recorder!.stop();
                        const bytes = serializeReplay(replay);
                        downloadBytes(bytes, `${stem}${REPLAY_FILE_EXTENSION}`);
                        setMessage({ ok: true, text: `Replay of ${replay.steps.length} steps downloaded (${bytes.byteLength} bytes).` });
                        session.notifyChanged();
                    }}
                />
            ) : (
                <ButtonLine
                    label="Record replay"
                    onClick={() => {
                        session.startRecording();
                        setMessage(null);
                    }}
                />
            )}
            {message && <MessageBar intent={message.ok ? "success" : "error"} message={message.text} staticItem />}
        </>
    );
}
