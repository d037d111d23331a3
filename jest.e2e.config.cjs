/**
 * Browser tests: `npm run test:e2e`. globalSetup builds the playground with webpack and serves it on 127.0.0.1;
 * each test file drives Debian's Chromium (WebGL2 on SwiftShader: slow, hence the long timeout and one worker).
 */
module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test/e2e"],
    testMatch: ["**/test/e2e/**/*.e2e.ts"],
    globalSetup: "<rootDir>/test/e2e/support/globalSetup.ts",
    globalTeardown: "<rootDir>/test/e2e/support/globalTeardown.ts",
    testTimeout: 120_000,
    maxWorkers: 1,
    // Sources import siblings as "./x.js" (what Node ESM needs in dist/); jest resolves those to the .ts files.
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
    transform: {
        "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }],
    },
    transformIgnorePatterns: ["/node_modules/"],
};
