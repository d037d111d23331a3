// Lint rules of the repository: typescript-eslint's recommended set, TSDoc syntax, explicit `.js` extensions on
// relative imports in shipped code, and the layer rule (imports point down only: core ← meshing ← gpu ← babylon ←
// inspector ← playground).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import tsdoc from "eslint-plugin-tsdoc";

/** Relative imports of shipped code name the emitted `.js` file, as ES modules in browsers and Node require. */
const explicitExtension = {
    meta: { type: "problem", messages: { missing: "relative import '{{source}}' needs an explicit .js extension" }, schema: [] },
    create(context) {
        const check = (node) => {
            const source = node.source?.value;
            if (typeof source === "string" && source.startsWith(".") && !source.endsWith(".js")) {
                context.report({ node: node.source, messageId: "missing", data: { source } });
            }
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
    },
};

/** `no-restricted-imports` patterns that keep a layer from importing the layers above it. */
function layer(forbidden, message) {
    return { "no-restricted-imports": ["error", { patterns: [{ group: forbidden, message }] }] };
}

export default tseslint.config(
    { ignores: ["dist/", "dist-playground/", "docs-api/", "test-results/", "node_modules/", "**/*.d.ts"] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        plugins: { tsdoc, local: { rules: { "explicit-extension": explicitExtension } } },
        languageOptions: { globals: { console: "readonly", performance: "readonly", window: "readonly", document: "readonly" } },
        rules: {
            "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
            "no-constant-condition": ["error", { checkLoops: false }],
        },
    },
    { files: ["src/**/*.{ts,tsx}", "playground/**/*.ts"], rules: { "local/explicit-extension": "error" } },
    // TSDoc syntax where the API reference comes from.
    { files: ["src/**/*.{ts,tsx}"], rules: { "tsdoc/syntax": "error" } },
    {
        files: ["src/core/**"],
        rules: layer(
            ["**/meshing/**", "**/gpu/**", "**/babylon/**", "**/inspector/**", "@babylonjs/*", "@babylonjs/**"],
            "src/core imports nothing above it and no Babylon",
        ),
    },
    {
        files: ["src/meshing/**"],
        rules: layer(
            ["**/gpu/**", "**/babylon/**", "**/inspector/**", "@babylonjs/*", "@babylonjs/**"],
            "src/meshing imports only src/core",
        ),
    },
    {
        files: ["src/gpu/**"],
        rules: layer(
            ["**/babylon/**", "**/inspector/**", "@babylonjs/*", "@babylonjs/**"],
            "src/gpu imports only src/core and src/meshing, no Babylon",
        ),
    },
    { files: ["src/babylon/**"], rules: layer(["**/inspector/**"], "src/babylon does not import the Inspector layer") },
    {
        files: ["**/*.{mjs,cjs,js}"],
        languageOptions: {
            globals: {
                process: "readonly",
                require: "readonly",
                module: "writable",
                __dirname: "readonly",
                URL: "readonly",
                setTimeout: "readonly",
            },
        },
        rules: { "@typescript-eslint/no-require-imports": "off" },
    },
);
