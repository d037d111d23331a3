/** Jest: @swc/jest compiles TypeScript to CommonJS; type-checking is `tsc --noEmit` (see `npm test`). */
module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    testPathIgnorePatterns: ["/node_modules/", "/test/e2e/"],
    transform: {
        "^.+\\.(t|j)sx?$": [
            "@swc/jest",
            { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } },
        ],
    },
    transformIgnorePatterns: ["/node_modules/(?!@babylonjs/)"],
};
