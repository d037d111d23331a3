import { execFileSync } from "node:child_process";
import path from "node:path";
import { BASE_URL_ENV } from "./browser";
import { serveStatic, type StaticServer } from "./staticServer";

/** Where the tests' production build of the playground goes (gitignored with the rest of test-results/). */
export const PLAYGROUND_BUILD_DIR = path.resolve(__dirname, "../../../test-results/playground");

declare global {
    // Shared with globalTeardown, which runs in the same context.
    var __e2eServer: StaticServer | undefined;
}

/** Builds the playground once, serves it, and publishes its URL to the test workers through the environment. */
export default async function globalSetup(): Promise<void> {
    const root = path.resolve(__dirname, "../../..");
    const started = Date.now();
    execFileSync(
        process.execPath,
        [
            require.resolve("webpack-cli/bin/cli.js"),
            // Production (tree shaking, the page as users get it) without minification or source maps: minifying the
            // lazily loaded Inspector chunk alone takes minutes on two cores.
            ...["--mode", "production", "--stats", "errors-warnings", "--env", `outDir=${PLAYGROUND_BUILD_DIR}`, "--env", "fast"],
        ],
        { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
    );
    globalThis.__e2eServer = await serveStatic(PLAYGROUND_BUILD_DIR);
    process.env[BASE_URL_ENV] = globalThis.__e2eServer.url;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nplayground built in ${seconds} s, served at ${globalThis.__e2eServer.url}`);
}
