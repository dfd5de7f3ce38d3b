#!/usr/bin/env node
// The program users run (the package `bin`, bundled to dist/bundle/cli.js). It checks the
// Node version, turns on Node's compile cache, then loads the rest (dist/bundle/app.js).
// Kept free of anything newer than the syntax every Node since 14 parses, so an old Node
// reaches the version check and says so in one line.
import { mkdirSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { compileCacheDir } from "./launcher/cache-dir.js";
import { nodeTooOld } from "./launcher/node-version.js";
import { isSubcommand } from "./launcher/subcommand.js";
import { trace } from "./launcher/trace.js";

const tooOld = nodeTooOld(process.version);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
trace("started");

function home(): string {
  try {
    return homedir();
  } catch {
    return ""; // no home folder: the cache stays off
  }
}

const env = process.env;
const dir = compileCacheDir(env, home(), process.platform);
// Made here first, mode 0700 (Node would make it 0755): it holds the index too, which holds
// the user's first messages (src/index/cache-folder.ts checks it is theirs before use).
if (dir) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Node says why in its own status, and the program runs without the cache.
  }
}
const cache = dir ? module.enableCompileCache(dir) : undefined;
if (env.PI_SESSIONS_DEBUG_CODE_CACHE === "1") {
  const names = Object.entries(module.constants.compileCacheStatus);
  const status = cache ? (names.find(([, v]) => v === cache.status)?.[0] ?? String(cache.status)) : "OFF";
  process.stderr.write(
    `pi-sessions: code cache ${status.toLowerCase()}${cache?.message ? `: ${cache.message}` : ""}\n`,
  );
}

// A literal path would be bundled into this file; the program is its own module so the
// check above runs before any of it is parsed. A subcommand (a first word that is no
// option) runs from the command line's own bundle, without the browser's chunks.
const APP = isSubcommand(process.argv[2]) ? "./chunks/commands.js" : "./app.js";
const { main } = (await import(APP)) as {
  main(argv: string[], hooks: { onFirstFrame?: () => void; program?: string }): Promise<number>;
};
trace("program loaded");
let flushed = false;
process.exitCode = await main(process.argv.slice(2), {
  // This very script: what a command starts again in a child (a search's background index).
  program: fileURLToPath(import.meta.url),
  // Node writes the cache at exit; the browser may hand the process over to pi and stay
  // long, so write it once the first frame is up, when start-up code has been compiled.
  onFirstFrame() {
    if (!cache || flushed) return;
    flushed = true;
    setTimeout(() => module.flushCompileCache?.(), 1000).unref();
  },
});
