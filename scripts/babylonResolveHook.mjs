// A Node ES-module resolve hook for the scripts that run the compiled plugin (dist/) under Node: the library imports
// Babylon by extensionless deep paths ("@babylonjs/core/Maths/math.vector"), which bundlers and jest resolve but
// Node's ESM resolver does not, since @babylonjs/core has no "exports" map. Registered with `module.register`
// (see scripts/bench-plugin.mjs); every other specifier resolves as usual.
export async function resolve(specifier, context, nextResolve) {
    if (specifier.startsWith("@babylonjs/core/") && !specifier.endsWith(".js")) {
        return nextResolve(`${specifier}.js`, context);
    }
    return nextResolve(specifier, context);
}
