/** React hooks the soft-body panes use to follow the session (re-render on change, poll live figures). */
import { useObservableState, usePollingObservable } from "@babylonjs/inspector";
import type { Nullable } from "@babylonjs/core/types";
import type { XpbdInspectorSession } from "./inspectorSession.js";
import type { XpbdSessionService } from "./sessionService.js";

/** The current session of the session service; re-renders when it is replaced. */
export function useSession(service: XpbdSessionService): Nullable<XpbdInspectorSession> {
    return useObservableState(() => service.session, service.onSessionChanged);
}

/** Re-renders the caller whenever the session reports a change; returns the session's change counter. */
export function useSessionVersion(session: XpbdInspectorSession): number {
    return useObservableState(() => session.version, session.onChangedObservable);
}

/** A value read every `delayMs` (for live figures such as stats and legend min/max). */
export function usePolled<T>(read: () => T, delayMs = 250): T {
    const polling = usePollingObservable(delayMs);
    return useObservableState(read, polling);
}
