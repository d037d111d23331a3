/**
 * Copy buttons with a visible fallback: when the clipboard is unavailable (no permission, insecure context), the
 * text appears in a read-only text area to copy by hand.
 */
import { MessageBar, TextAreaPropertyLine } from "@babylonjs/inspector";
import { useCallback, useState, type ReactElement } from "react";
import { copyText } from "./clipboard.js";

/** What {@link useCopyWithFallback} returns. */
export interface CopyWithFallback {
    /** Copies `text`; shows it in the fallback area when the clipboard refuses. */
    copy(text: string, what: string): Promise<void>;
    /** The fallback area, or a confirmation line after a successful copy (null before any copy). */
    element: ReactElement | null;
}

/** State and UI of copy buttons (one fallback area per panel). */
export function useCopyWithFallback(uniqueId: string): CopyWithFallback {
    const [result, setResult] = useState<{ text: string; what: string; copied: boolean } | null>(null);
    const copy = useCallback(async (text: string, what: string) => {
        const copied = await copyText(text);
        setResult({ text, what, copied });
    }, []);
    let element: ReactElement | null = null;
    if (result?.copied) {
        element = <MessageBar intent="success" message={`${result.what} copied to the clipboard.`} staticItem />;
    } else if (result) {
        element = (
            <>
                <MessageBar intent="warning" title="Clipboard unavailable" message={`Copy the ${result.what} below by hand.`} staticItem />
                <TextAreaPropertyLine
                    uniqueId={`${uniqueId}-fallback`}
                    label={result.what}
                    value={result.text}
                    onChange={() => undefined}
                />
            </>
        );
    }
    return { copy, element };
}
