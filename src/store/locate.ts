import { statSync, accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export type StoreSource = "--session-dir" | "PI_CODING_AGENT_SESSION_DIR" | "PI_CODING_AGENT_DIR" | "default" | "fallback";

export interface StoreLocation {
  dir: string;
  source: StoreSource;
}

export class StoreError extends Error {
  override name = "StoreError";
}

function expandHome(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p;
}

/**
 * Where the session store is, in pi's order: --session-dir, $PI_CODING_AGENT_SESSION_DIR,
 * $PI_CODING_AGENT_DIR/sessions, ~/.pi/agent/sessions. Nothing is created.
 */
export function locateStore(args: { flag?: string; env?: NodeJS.ProcessEnv; home?: string; cwd?: string }): StoreLocation {
  const env = args.env ?? process.env;
  const home = args.home ?? homedir();
  const cwd = args.cwd ?? process.cwd();
  const abs = (p: string) => resolve(cwd, expandHome(p, home));
  if (args.flag) return { dir: abs(args.flag), source: "--session-dir" };
  if (env.PI_CODING_AGENT_SESSION_DIR) return { dir: abs(env.PI_CODING_AGENT_SESSION_DIR), source: "PI_CODING_AGENT_SESSION_DIR" };
  if (env.PI_CODING_AGENT_DIR) return { dir: join(abs(env.PI_CODING_AGENT_DIR), "sessions"), source: "PI_CODING_AGENT_DIR" };
  return { dir: join(home, ".pi", "agent", "sessions"), source: "default" };
}

const HOW_TO_POINT = "point pi-sessions elsewhere with --session-dir DIR or $PI_CODING_AGENT_SESSION_DIR";

/** Throws a one-line StoreError naming the path when the store can't be read. */
export function checkStore(loc: StoreLocation): void {
  let st;
  try {
    st = statSync(loc.dir);
  } catch {
    throw new StoreError(`no session store at ${loc.dir} (from ${loc.source}); ${HOW_TO_POINT}`);
  }
  if (!st.isDirectory()) throw new StoreError(`${loc.dir} is not a folder (from ${loc.source}); ${HOW_TO_POINT}`);
  try {
    accessSync(loc.dir, constants.R_OK | constants.X_OK);
  } catch {
    throw new StoreError(`cannot read the session store at ${loc.dir} (permission denied); ${HOW_TO_POINT}`);
  }
}

/** True when the store folder exists (used to fall back to a demo store). */
export function storeExists(loc: StoreLocation): boolean {
  try {
    return statSync(loc.dir).isDirectory();
  } catch {
    return false;
  }
}
