#!/usr/bin/env node
// The program users run (the package `bin`, bundled to dist/bundle/cli.js). It loads the
// rest of the program, dist/bundle/app.cjs, through a V8 code cache (src/launcher).
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import type { LaunchHooks } from "./cli/app.js";
import { codeCachePath } from "./launcher/code-cache.js";
import { loadScript } from "./launcher/load-script.js";

// No NODE_ENV here (src/cli.ts sets it for the unbundled build): the bundle has React's
// production build fixed in at build time, and the pi it resumes gets the user's environment.
const env = process.env;

/** The home folder, or "" where the system has none to give (the cache then stays off). */
function home(): string {
  try {
    return homedir();
  } catch {
    return "";
  }
}

const APP = fileURLToPath(new URL("./app.cjs", import.meta.url));
const app = loadScript<{ main(argv: string[], hooks: LaunchHooks): Promise<number> }>(APP, codeCachePath(APP, env, home(), process.platform));

let saved = false;
const save = () => {
  if (saved) return;
  saved = true;
  app.save();
};
if (env.PI_SESSIONS_DEBUG_CODE_CACHE === "1") process.stderr.write(`pi-sessions: code cache ${app.status}\n`);

process.exitCode = await app.exports.main(process.argv.slice(2), {
  // The cache is written once the first frame is up (off the path to it), or at exit if
  // the browser closes sooner. Only the browser writes it: its start-up is the one that counts.
  onFirstFrame() {
    if (app.status === "accepted") return;
    setTimeout(save, 1000).unref();
    process.once("exit", save);
  },
});
