// Plays a replay file (recorded with XpbdRecorder, or the Inspector's Record button) in plain Node, without Babylon,
// and says whether every step comes out as recorded, or the first step where it does not.
//
//   npm run replay -- bug.xpbdreplay            # builds dist/, then replays
//   node scripts/replay.mjs bug.xpbdreplay [--json] [coreFolder]
//
// coreFolder: where the compiled core is (default dist/core); tests pass the sources compiled afresh.
// Exit status: 0 identical, 1 diverged, 2 the file cannot be played (the error says why).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const json = args.includes("--json");
const [file, folder] = args.filter((a) => a !== "--json");
if (!file) {
    console.error("usage: node scripts/replay.mjs <replay file> [--json] [coreFolder]");
    process.exit(2);
}
const core = folder ?? path.join(import.meta.dirname, "../dist/core");
const { parseReplay, XpbdReplayer } = await import(pathToFileURL(path.join(core, "index.js")).href);

let report;
try {
    const replay = parseReplay(readFileSync(file));
    const started = performance.now();
    report = new XpbdReplayer(replay).run();
    report.ms = performance.now() - started;
    report.defaultsVersion = replay.defaultsVersion;
    report.bodies = replay.bodies.length;
    report.particles = replay.bodies.reduce((n, b) => n + b.masses.length, 0);
} catch (error) {
    console.error(`${file}: ${error.message}`);
    process.exit(2);
}
if (json) {
    console.log(JSON.stringify(report));
} else {
    console.log(
        `${file}: ${report.bodies} bodies, ${report.particles} particles, defaults version ${report.defaultsVersion}; ` +
            `${report.summary} (${(report.ms / 1000).toFixed(2)} s)`,
    );
}
process.exit(report.divergedAtStep === null && report.finalPositionsMatch ? 0 : 1);
