#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc -p .`) into dist/bundle with esbuild.
// Why: loading Ink and React as hundreds of separate ES modules takes over 300 ms; one
// bundle loads in a fraction of that, which is most of the launch → first frame budget.
//   dist/bundle/cli.js         the program users run (the `bin`, src/bin.ts): a small ES module
//                              that loads app.cjs through a V8 code cache (src/launcher)
//   dist/bundle/app.cjs        everything else, as one CommonJS script: vm.Script can cache its
//                              compiled code, which Node 20 cannot do for ES modules
//   dist/bundle/scan-worker.js the store scan's worker thread (src/store/scan-worker.ts)
// dist/src stays the unbundled build (the pi extension, tests).
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "bundle");

// string-width for the whole bundle goes through src/text/width.ts's fast path: Ink,
// widest-line, wrap-ansi and cli-truncate get src/text/string-width-shim.ts, and the
// real string-width (reached from src/text/slow-width.ts) is evaluated on first use
// through require(), so its ICU segmenter is not built at startup. One copy, too:
// wrap-ansi's nested string-width 7 is left out.
const SHIM = join(ROOT, "dist", "src", "text", "string-width-shim.js");
const SLOW = join(ROOT, "dist", "src", "text", "slow-width.js");
const fastStringWidth = {
  name: "fast-string-width",
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (a) => {
      if (a.namespace === "pi-sessions-lazy") return undefined; // the real one
      if (a.importer === SLOW) return { path: "lazy-string-width", namespace: "pi-sessions-lazy", pluginData: a.resolveDir };
      return { path: SHIM };
    });
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-lazy" }, (a) => ({
      resolveDir: a.pluginData,
      // esbuild bundles a require()d ES module behind a lazy initialiser.
      contents: "let sw; export default function stringWidth(s, o) { sw ??= require('string-width').default; return sw(s, o); }",
    }));
  },
};

// Ink's renderer gets its Output class wrapped by components/render/rowMemoOutput.ts, so a
// frame redraws only the screen rows that changed (the rest of Ink is untouched).
const INK_OUTPUT = join(ROOT, "node_modules", "ink", "build", "output.js");
const ROW_MEMO = join(ROOT, "dist", "components", "render", "rowMemoOutput.js");
const rowMemoOutput = {
  name: "ink-row-memo-output",
  setup(b) {
    b.onResolve({ filter: /^\.\/output\.js$/ }, (a) => (/[\\/]ink[\\/]build[\\/]renderer\.js$/.test(a.importer) ? { path: "ink-output", namespace: "pi-sessions-ink-output" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-ink-output" }, () => ({
      resolveDir: ROOT,
      contents: `import InkOutput from ${JSON.stringify(INK_OUTPUT)}; import { withRowMemo } from ${JSON.stringify(ROW_MEMO)}; export default withRowMemo(InkOutput);`,
    }));
  },
};

// A script cannot use top-level await. Ink's reconciler awaits only in development
// (DEV=true: devtools, its package.json), which the bundle leaves out anyway; the
// patch fails the build if Ink's code no longer reads as expected.
const RECONCILER_AWAITS = [
  ["await import('./devtools.js');", "throw new Error('pi-sessions: React devtools (DEV=true) are not part of the bundled build; run dist/src/cli.js instead');"],
  ["? await loadPackageJson()", "? undefined"],
];
const inkReconcilerWithoutAwait = {
  name: "ink-reconciler-without-await",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (a) => {
      let src = readFileSync(a.path, "utf8");
      for (const [from, to] of RECONCILER_AWAITS) {
        if (!src.includes(from)) throw new Error(`bundle: Ink's reconciler changed (no "${from}"); revisit scripts/bundle.mjs`);
        src = src.replace(from, to);
      }
      return { contents: src, loader: "js" };
    });
  },
};

// yoga-layout (Ink's layout engine) instantiates its WebAssembly with a top-level await.
// In the script it exports the same object, filled in once that is done, and the promise
// as `yogaReady`; components/app/layoutReady.ts becomes that promise, and the browser
// awaits it before its first render (Ink touches yoga only when rendering).
const YOGA_INDEX = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
const yogaWithoutAwait = {
  name: "yoga-without-await",
  setup(b) {
    b.onLoad({ filter: YOGA_INDEX }, (a) => {
      const src = readFileSync(a.path, "utf8");
      if (!src.includes("const Yoga = wrapAssembly(await loadYoga());")) throw new Error("bundle: yoga-layout's index changed; revisit scripts/bundle.mjs");
      return {
        resolveDir: dirname(a.path),
        contents: [
          "import loadYoga from '../binaries/yoga-wasm-base64-esm.js';",
          "import wrapAssembly from './wrapAssembly.js';",
          "const Yoga = {};",
          "export const yogaReady = loadYoga().then((m) => { Object.assign(Yoga, wrapAssembly(m)); });",
          "export default Yoga;",
          "export * from './generated/YGEnums.js';",
        ].join("\n"),
      };
    });
    b.onResolve({ filter: /[\\/]layoutReady\.js$/ }, () => ({ path: "layout-ready", namespace: "pi-sessions-layout-ready" }));
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-layout-ready" }, () => ({ resolveDir: ROOT, contents: "export { yogaReady as layoutReady } from 'yoga-layout';" }));
  },
};

const common = {
  absWorkingDir: ROOT,
  outdir: OUT,
  bundle: true,
  platform: "node",
  target: "node20",
  minify: process.env.PI_SESSIONS_BUNDLE_MINIFY !== "0",
  sourcemap: "linked",
  // React, its reconciler and scheduler choose their build from NODE_ENV at runtime; fixing
  // it here selects the production builds (15–20% faster) and leaves the others out.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  logLevel: "warning",
};

rmSync(OUT, { recursive: true, force: true });
await Promise.all([
  build({
    ...common,
    entryPoints: { cli: "dist/src/bin.js" },
    format: "esm",
  }),
  build({
    ...common,
    // Entry names matter: src/store/scan-in-worker.ts finds its worker as ./scan-worker.js.
    entryPoints: { "scan-worker": "dist/src/store/scan-worker.js" },
    format: "esm",
    // Some dependencies are CommonJS and call require(); an ES module bundle has none.
    banner: { js: "import { createRequire as __piSessionsRequire } from 'node:module'; const require = __piSessionsRequire(import.meta.url);" },
  }),
  build({
    ...common,
    entryPoints: { app: "dist/src/cli/app.js" },
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    plugins: [fastStringWidth, rowMemoOutput, inkReconcilerWithoutAwait, yogaWithoutAwait],
    // src/launcher/load-script.ts passes the script's own URL under this name.
    define: { ...common.define, "import.meta.url": "__piSessionsUrl" },
  }),
]);
