/** Stops the static server that globalSetup started. */
export default async function globalTeardown(): Promise<void> {
    const server = globalThis.__e2eServer?.server;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
}
