#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc -p .`) into dist/bundle with esbuild.
// Why: loading Ink and React as hundreds of separate ES modules takes over 300 ms; one
// bundle, split only at the CLI's lazy imports, loads in a fraction of that, which is
// most of the launch → first frame budget. The program users run (the `bin`) is
// dist/bundle/cli.js; dist/src stays the unbundled build (the pi extension, tests).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "bundle");

// Ink imports its React-devtools bridge (and with it `ws`) only when DEV=true; the bundle
// leaves it out and says so if someone tries.
const noDevtools = {
  name: "no-ink-devtools",
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (a) => (/[\\/]ink[\\/]/.test(a.importer) ? { path: "ink-devtools", namespace: "pi-sessions-stub" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-stub" }, () => ({ contents: "throw new Error('pi-sessions: React devtools (DEV=true) are not part of the bundled build; run dist/src/cli.js instead');" }));
  },
};

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

rmSync(OUT, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  // Entry names matter: src/store/scan-in-worker.ts finds its worker as ./scan-worker.js.
  entryPoints: { cli: "dist/src/cli.js", "scan-worker": "dist/src/store/scan-worker.js" },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: process.env.PI_SESSIONS_BUNDLE_MINIFY !== "0",
  sourcemap: "linked",
  // Some dependencies are CommonJS and call require(); an ES module bundle has none.
  banner: { js: "import { createRequire as __piSessionsRequire } from 'node:module'; const require = __piSessionsRequire(import.meta.url);" },
  plugins: [noDevtools, fastStringWidth, rowMemoOutput],
  // React, its reconciler and scheduler pick their production builds at runtime from
  // NODE_ENV (src/cli.ts sets it); deciding here also leaves their development builds out.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  logLevel: "warning",
});
