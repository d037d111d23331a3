/** Copying text for the panes' export buttons. */

/**
 * Writes `text` to the system clipboard.
 * @returns true when it was written; false when the clipboard is unavailable or refused (show the text instead)
 */
export async function copyText(text: string): Promise<boolean> {
    const clipboard = typeof navigator !== "undefined" ? navigator.clipboard : undefined;
    if (!clipboard?.writeText) {
        return false;
    }
    try {
        await clipboard.writeText(text);
        return true;
    } catch {
        return false;
    }
}
