import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

// application/wasm matters: without it Emscripten's streaming compile fails and logs a console error.
const MIME_TYPES: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".map": "application/json",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".png": "image/png",
    ".css": "text/css; charset=utf-8",
};

/** A running static file server. */
export interface StaticServer {
    /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
    url: string;
    server: Server;
}

/**
 * Serves `root` read-only on 127.0.0.1 at a free port; `/` maps to `index.html`.
 * @param root - Absolute path of the folder to serve.
 */
export function serveStatic(root: string): Promise<StaticServer> {
    const server = createServer((req, res) => {
        const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
        const file = path.join(root, path.normalize(urlPath === "/" ? "/index.html" : urlPath));
        const size = file.startsWith(root + path.sep) ? fileSize(file) : undefined;
        if (size === undefined) {
            res.writeHead(404).end();
            return;
        }
        res.writeHead(200, {
            "Content-Type": MIME_TYPES[path.extname(file)] ?? "application/octet-stream",
            "Content-Length": size,
        });
        createReadStream(file).pipe(res);
    });
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as AddressInfo;
            resolve({ url: `http://127.0.0.1:${port}/`, server });
        });
    });
}

function fileSize(file: string): number | undefined {
    try {
        const stat = statSync(file);
        return stat.isFile() ? stat.size : undefined;
    } catch {
        return undefined;
    }
}
