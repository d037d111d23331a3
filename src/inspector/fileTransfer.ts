/** Files for the panes' save and record buttons: downloading bytes, reading an uploaded file. */

/** Offers `bytes` as a download named `fileName` (an anchor with `download`, clicked; the object URL is released after). */
export function downloadBytes(bytes: ArrayBuffer, fileName: string): void {
    const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    link.remove();
    // Revoked once the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name for `scene`'s downloads: its name, made safe, or "scene". */
export function fileStem(name: string | undefined): string {
    const stem = (name ?? "").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
    return stem === "" ? "scene" : stem;
}
