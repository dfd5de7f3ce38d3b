import { statSync, accessSync, constants, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type StoreSource =
  | "--session-dir"
  | "PI_CODING_AGENT_SESSION_DIR"
  | "project settings"
  | "global settings"
  | "PI_CODING_AGENT_DIR"
  | "default"
  | "fallback";

export interface StoreLocation {
  dir: string;
  source: StoreSource;
  /** Problems met on the way (an unreadable settings file), one line each; absent when none. */
  warnings?: string[];
}

export class StoreError extends Error {
  override name = "StoreError";
}

/** pi's normalizePath: `~` and `~/…` expand to the home folder, a `file://` URL becomes its path. */
export function normalizePiPath(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return join(home, p.slice(2));
  if (/^file:\/\//.test(p)) return fileURLToPath(p);
  return p;
}

/** The `sessionDir` setting of one settings file: a value, `undefined` when unset, or a problem. */
function readSessionDirSetting(file: string): { value?: unknown; warning?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  if (!text) return {};
  try {
    const settings = JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
    if (!settings || typeof settings !== "object" || Array.isArray(settings)) return {};
    return { value: (settings as Record<string, unknown>).sessionDir };
  } catch (err) {
    // pi reads such a file as no settings at all (and reports it); so do we.
    return { warning: `${file} is not valid JSON (${(err as Error).message}); its settings are ignored` };
  }
}

/**
 * Where the session store is, as pi 1.5.2 decides it (main.ts, SettingsManager):
 * `--session-dir`, then `$PI_CODING_AGENT_SESSION_DIR`, then the `sessionDir` setting (the
 * project's `.pi/settings.json` over the agent folder's `settings.json`), each a flat custom
 * folder; else the default store `<agent dir>/sessions` (`$PI_CODING_AGENT_DIR` or
 * `~/.pi/agent`) with a folder per project. Every value may start with `~` or be a `file://`
 * URL; a relative one resolves from the current folder. Nothing is created.
 */
export function locateStore(args: {
  flag?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  cwd?: string;
}): StoreLocation {
  const env = args.env ?? process.env;
  const home = args.home ?? homedir();
  const cwd = args.cwd ?? process.cwd();
  const abs = (p: string) => resolve(cwd, normalizePiPath(p, home));
  if (args.flag) return { dir: abs(args.flag), source: "--session-dir" };
  if (env.PI_CODING_AGENT_SESSION_DIR)
    return { dir: abs(env.PI_CODING_AGENT_SESSION_DIR), source: "PI_CODING_AGENT_SESSION_DIR" };
  const agentDir = env.PI_CODING_AGENT_DIR ? abs(env.PI_CODING_AGENT_DIR) : join(home, ".pi", "agent");
  const warnings: string[] = [];
  const found = (dir: string, source: StoreSource): StoreLocation =>
    warnings.length ? { dir, source, warnings } : { dir, source };
  const project = readSessionDirSetting(join(resolve(cwd), ".pi", "settings.json"));
  const global = readSessionDirSetting(join(agentDir, "settings.json"));
  for (const w of [global.warning, project.warning]) if (w) warnings.push(w);
  // Settings merge key by key, the project's value winning whenever it is set (null included).
  const fromProject = project.value !== undefined;
  const value = fromProject ? project.value : global.value;
  if (typeof value === "string" && value)
    return found(abs(value), fromProject ? "project settings" : "global settings");
  if (value !== undefined && value !== null && value !== "") {
    warnings.push(`the sessionDir setting is not a path (${JSON.stringify(value)}); it is ignored`);
  }
  return found(join(agentDir, "sessions"), env.PI_CODING_AGENT_DIR ? "PI_CODING_AGENT_DIR" : "default");
}

const HOW_TO_POINT =
  "point pi-sessions elsewhere with --session-dir DIR, $PI_CODING_AGENT_SESSION_DIR or pi's sessionDir setting";

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
