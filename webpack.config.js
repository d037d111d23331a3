// Two builds, chosen by `--env`:
//   webpack                      the playground (playground/index.ts → dist-playground/), minified by swc
//                                (`npm run build:playground`); `webpack serve` too
//   webpack --env outDir=DIR     the playground into DIR (the browser tests build it into test-results/)
//   webpack --env fast           no minification and no source maps: the browser tests' build (quickest)
//   webpack --env umd            the UMD library bundle dist/babylon-xpbd.umd.js (global BABYLONXPBD); with
//                                --env outDir=DIR into DIR instead (the browser tests build it into test-results/)
import path from "node:path";
import { fileURLToPath } from "node:url";
import HtmlWebpackPlugin from "html-webpack-plugin";
import MinimizerPlugin from "minimizer-webpack-plugin";

const root = path.dirname(fileURLToPath(import.meta.url));

/** ts-loader without type-checking: `npm run typecheck` / `tsc -p tsconfig.build.json` do that, much faster. */
const tsRule = (configFile) => ({
    test: /\.tsx?$/,
    exclude: /node_modules/,
    loader: "ts-loader",
    options: { transpileOnly: true, configFile: path.join(root, configFile) },
});

// Sources import siblings as "./x.js" (valid Node ESM in dist/); webpack maps those back to the .ts / .tsx files
// (the Inspector panes are React components in .tsx).
const resolve = { extensions: [".ts", ".tsx", ".js"], extensionAlias: { ".js": [".ts", ".tsx", ".js"] } };

/**
 * swc (Rust, already here for jest) instead of webpack's default terser: terser, with two compress passes in one worker
 * on two cores, spent 5–10 minutes minifying the Inspector chunk (several MB of React / Fluent UI / Inspector); with
 * swc the whole build takes about 2, for output within 2% of terser's size.
 */
const swcMinimizer = new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: true, mangle: true } });

/**
 * The playground. Babylon is imported by deep paths everywhere, which keeps the bundle near 1 MB; Havok's wasm
 * is found through `new URL("HavokPhysics.wasm", import.meta.url)` and emitted as an asset without any loader.
 */
function playground(env, argv) {
    const mode = argv.mode ?? (env.WEBPACK_SERVE ? "development" : "production");
    return {
        name: "playground",
        context: root,
        mode,
        entry: path.join(root, "playground/index.ts"),
        devtool: env.fast ? false : mode === "development" ? "eval-cheap-module-source-map" : "source-map",
        optimization: env.fast ? { minimize: false } : { minimizer: [swcMinimizer] },
        output: {
            path: path.resolve(root, env.outDir ?? "dist-playground"),
            filename: "[name].[contenthash:8].js",
            chunkFilename: "[name].[contenthash:8].js",
            assetModuleFilename: "[name].[contenthash:8][ext]",
            clean: true,
        },
        resolve,
        module: { rules: [tsRule("tsconfig.json")] },
        plugins: [new HtmlWebpackPlugin({ template: path.join(root, "playground/index.html") })],
        // Babylon's core chunk is legitimately ~1 MB; webpack's 244 KB hint is noise here.
        performance: { hints: false },
        devServer: {
            host: "localhost",
            port: 8080,
            open: false,
            hot: false,
            static: false, // everything the page needs comes out of the bundle
            client: { overlay: { errors: true, warnings: false } },
        },
    };
}

/**
 * Every `@babylonjs/core/...` deep import becomes the one global `BABYLON` (and the `babylonjs` UMD package for
 * CommonJS/AMD consumers), so the bundle holds only our code and its users bring their own Babylon.
 */
function babylonExternal({ request }, callback) {
    if (request === "@babylonjs/core" || request?.startsWith("@babylonjs/core/")) {
        return callback(null, { root: "BABYLON", commonjs: "babylonjs", commonjs2: "babylonjs", amd: "babylonjs" });
    }
    callback();
}

/** The UMD library bundle, built after `tsc -p tsconfig.build.json` has type-checked and emitted dist/. */
function umd(env, argv) {
    return {
        name: "umd",
        context: root,
        mode: argv.mode ?? "production",
        entry: path.join(root, "src/index.ts"),
        devtool: "source-map",
        output: {
            path: path.resolve(root, env.outDir ?? "dist"),
            filename: "babylon-xpbd.umd.js",
            library: { name: "BABYLONXPBD", type: "umd" },
            // Works as a <script> in a page or a worker, and under require().
            globalObject: "typeof self !== 'undefined' ? self : this",
            // dist/ also holds tsc's ES modules: never wipe it here.
            clean: false,
        },
        resolve,
        externals: babylonExternal,
        module: { rules: [tsRule("tsconfig.build.json")] },
    };
}

export default (env = {}, argv = {}) => (env.umd ? umd(env, argv) : playground(env, argv));
