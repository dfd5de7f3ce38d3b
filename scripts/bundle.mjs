#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc -p .`) into dist/bundle with esbuild.
// Why: loading Ink and React as hundreds of separate ES modules takes over 300 ms; one
// bundle loads in a fraction of that, which is most of the launch → first frame budget.
//   dist/bundle/cli.js         the program users run (the `bin`, src/bin.ts): checks the Node
//                              version, turns on Node's compile cache, then loads app.js
//   dist/bundle/app.js         the browser and everything else, split into chunks per command
//   dist/bundle/chunks/commands-*.js  the subcommands (src/cli/entry.ts) as one file: cli.js
//                              loads it for `list`, `search`, … instead of app.js
//   dist/bundle/chunks/scan-worker.js  the store scan's worker thread (src/scan/scan-worker.ts)
//   dist/bundle/chunks/text-worker.js  a text reader's worker thread for `pi-sessions index`
//                              (src/index/text-worker.ts)
// dist/src stays the unbundled build (the pi extension, tests).
import { build } from "esbuild";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
      if (a.importer === SLOW)
        return { path: "lazy-string-width", namespace: "pi-sessions-lazy", pluginData: a.resolveDir };
      return { path: SHIM };
    });
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-lazy" }, (a) => ({
      resolveDir: a.pluginData,
      // esbuild bundles a require()d ES module behind a lazy initialiser.
      contents:
        "let sw; export default function stringWidth(s, o) { sw ??= require('string-width').default; return sw(s, o); }",
    }));
  },
};

// RE2's engine (re2js, for `re:` patterns: src/search/pattern.ts) takes 20–50 ms to
// load, and few commands meet a pattern: it is loaded on the first one compiled.
// pattern.ts uses nothing of it but RE2JS.compile and RE2JS.CASE_INSENSITIVE.
const PATTERN = join(ROOT, "dist", "src", "search", "pattern.js");
const lazyRe2 = {
  name: "lazy-re2js",
  setup(b) {
    b.onResolve({ filter: /^re2js$/ }, (a) => {
      // The real one stays out of the bundle (~260 KB that every launch would parse), required
      // from node_modules on first use: it is a dependency, installed with the package.
      if (a.namespace === "pi-sessions-lazy-re2js") return { path: "re2js", external: true };
      if (a.importer !== PATTERN)
        throw new Error(`bundle: re2js imported by ${a.importer}: only pattern.js is made lazy`);
      return { path: "lazy-re2js", namespace: "pi-sessions-lazy-re2js", pluginData: a.resolveDir };
    });
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-lazy-re2js" }, (a) => ({
      resolveDir: a.pluginData,
      contents: [
        "let real; const load = () => (real ??= require('re2js').RE2JS);",
        "export const RE2JS = {",
        "  get CASE_INSENSITIVE() { return load().CASE_INSENSITIVE; },",
        "  compile: (source, flags) => load().compile(source, flags),",
        "};",
      ].join("\n"),
    }));
  },
};

// Ink's reconciler imports its React devtools bridge only with DEV=true and
// react-devtools-core installed; the bundle leaves the bridge out (an empty module).
const withoutInkDevtools = {
  name: "without-ink-devtools",
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (a) =>
      /[\\/]ink[\\/]build[\\/]reconciler\.js$/.test(a.importer)
        ? { path: "ink-devtools", namespace: "pi-sessions-empty" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "pi-sessions-empty" }, () => ({ contents: "" }));
  },
};

const common = {
  absWorkingDir: ROOT,
  outdir: OUT,
  bundle: true,
  platform: "node",
  target: "node22",
  minify: process.env.PI_SESSIONS_BUNDLE_MINIFY !== "0",
  sourcemap: "linked",
  // React, its reconciler and scheduler choose their build from NODE_ENV at runtime; fixing
  // it here selects the production builds (15–20% faster) and leaves the others out.
  // The build's own id: answers kept in the index by another build are never served
  // (src/cli/common/answer-cache.ts). npm gives every packed file the same mtime, so a
  // file's size and mtime cannot tell two versions apart.
  define: { "process.env.NODE_ENV": JSON.stringify("production"), __PI_SESSIONS_BUILD__: JSON.stringify(randomUUID()) },
  logLevel: "warning",
};

// Some dependencies are CommonJS and call require(); an ES module bundle has none.
const REQUIRE_BANNER = {
  js: "import { createRequire as __piSessionsRequire } from 'node:module'; const require = __piSessionsRequire(import.meta.url);",
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
    // Entry names matter: src/scan/scan-in-worker.ts finds its worker as ./scan-worker.js,
    // and that code is in a chunk (checked below).
    entryPoints: { "chunks/scan-worker": "dist/src/scan/scan-worker.js" },
    format: "esm",
    banner: REQUIRE_BANNER,
  }),
  build({
    ...common,
    // src/index/text-readers.ts finds its worker as ./text-worker.js beside the code that starts
    // it (the subcommands' chunk; checked below).
    entryPoints: { "chunks/text-worker": "dist/src/index/text-worker.js" },
    format: "esm",
    banner: REQUIRE_BANNER,
  }),
  build({
    ...common,
    // A subcommand's code in one file (src/cli/entry.ts): src/bin.ts loads it instead of app.js.
    entryPoints: { "chunks/commands": "dist/src/cli/entry.js" },
    format: "esm",
    banner: REQUIRE_BANNER,
    // No Ink here: only string-width's fast path.
    plugins: [fastStringWidth, lazyRe2],
  }),
  build({
    ...common,
    entryPoints: { app: "dist/components/app/main.js" },
    format: "esm",
    // Each command's code (and the browser's Ink and React) in chunks of its own, loaded by
    // the command that runs: `list` and `search` do not parse the browser's 600 KB.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    banner: REQUIRE_BANNER,
    plugins: [fastStringWidth, lazyRe2, withoutInkDevtools],
  }),
]);

// The scan worker is found beside the code that starts it: a bundle where it is not would
// scan on the UI's thread, silently. Checked here rather than trusted.
// The same for the text readers' worker (pi-sessions index reads files on it).
for (const worker of ["scan-worker.js", "text-worker.js"])
  for (const dir of [OUT, join(OUT, "chunks")].filter((d) => existsSync(d))) {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".js") || name === worker) continue;
      if (readFileSync(join(dir, name), "utf8").includes(`"./${worker}"`) && !existsSync(join(dir, worker)))
        throw new Error(`bundle: ${name} looks for ./${worker} beside it, and it is not there`);
    }
  }
