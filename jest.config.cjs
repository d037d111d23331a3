/** Jest: @swc/jest compiles TypeScript to CommonJS; type-checking is `tsc --noEmit` (see `npm test`). */
module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    testPathIgnorePatterns: ["/node_modules/", "/test/e2e/"],
    // Each test file runs in a vm context, whose globals are read through an interceptor: Math.floor or Infinity in the
    // solver's loops cost 160–660 ns a read there against 2–8 ns in Node. Handed to each module as locals, they do not.
    sandboxInjectedGlobals: ["Math", "Infinity", "Number"],
    // Vulkan on SwiftShader for the WebGPU tests (test/gpu): set before any worker starts.
    globalSetup: "<rootDir>/test/gpu/support/vulkanSetup.ts",
    // Sources import siblings as "./x.js" (what Node ESM needs in dist/); jest resolves those to the .ts files.
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
    transform: {
        "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }],
    },
    transformIgnorePatterns: ["/node_modules/(?!@babylonjs/)"],
};
