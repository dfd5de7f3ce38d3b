import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { sanitizeLine } from "../text/sanitize.js";

export const SCOPES = ["cwd", "all"] as const;
export const CONFIG_SORTS = ["recent", "created", "name", "messages", "size", "threaded"] as const;
export const THEMES = ["dark", "light", "none"] as const;
/** After pi exits: the program ends with pi's status, or the browser comes back. */
export const AFTER_PI = ["exit", "return"] as const;
export type AfterPi = (typeof AFTER_PI)[number];

/** The user's settings, every field filled (defaults where the file says nothing valid). */
export interface Config {
  /** Named command → key strings ("ctrl+s", "pageup", "j"); [] unbinds. Checked against the registry by the UI. */
  keys: Record<string, string[]>;
  /** Starting scope; "auto" = the current folder when it has sessions, else all. */
  scope: "auto" | (typeof SCOPES)[number];
  sort: (typeof CONFIG_SORTS)[number];
  threaded: boolean;
  theme: (typeof THEMES)[number];
  searchToolOutput: boolean;
  /** Mouse reporting in the browser (wheel, click, double-click); false leaves the mouse to the terminal. */
  mouse: boolean;
  piCommand?: string;
  /** What happens when a pi started from the browser exits (also --after-pi). */
  afterPi: AfterPi;
  /** Other machines whose stores the browser shows too (`ssh NAME` reaches each; src/remote). */
  hosts: string[];
  /** The ssh program and its options, as a command line ($PI_SESSIONS_SSH overrides it). */
  ssh?: string;
}

export const DEFAULT_CONFIG: Config = {
  keys: {},
  scope: "auto",
  sort: "recent",
  threaded: false,
  theme: "dark",
  searchToolOutput: false,
  mouse: true,
  afterPi: "exit",
  hosts: [],
};

/** --config, else $XDG_CONFIG_HOME/pi-sessions/config.json, else ~/.config/pi-sessions/config.json. */
export function configPath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  if (flag) return resolve(cwd, flag);
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith("/")
      ? env.XDG_CONFIG_HOME
      : join(env.HOME || homedir(), ".config");
  return join(base, "pi-sessions", "config.json");
}

const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  typeof v === "string" && (values as readonly string[]).includes(v);

/**
 * Reads the config file. Never throws: a missing file gives the defaults silently; a
 * broken file, unknown settings and invalid values give one warning line each and the
 * default for that setting. A warning quotes the file (its keys, its JSON's error), so each
 * is sanitized as screen text: the browser prints them before it draws.
 */
export function loadConfig(path: string): { config: Config; warnings: string[] } {
  const warnings: string[] = [];
  const config: Config = { ...DEFAULT_CONFIG, keys: {}, hosts: [] };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      warnings.push(`config ${path}: cannot read it (${(err as NodeJS.ErrnoException).code}); using defaults`);
    return { config, warnings: warnings.map(sanitizeLine) };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    warnings.push(`config ${path}: not valid JSON (${(err as Error).message}); using defaults`);
    return { config, warnings: warnings.map(sanitizeLine) };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    warnings.push(`config ${path}: expected a JSON object; using defaults`);
    return { config, warnings: warnings.map(sanitizeLine) };
  }
  const bad = (key: string, want: string) =>
    warnings.push(`config ${path}: "${key}" must be ${want}; using the default`);
  for (const [key, v] of Object.entries(raw as Record<string, unknown>)) {
    switch (key) {
      case "keys":
        if (!v || typeof v !== "object" || Array.isArray(v)) bad(key, "an object of command → key list");
        else {
          for (const [cmd, binding] of Object.entries(v as Record<string, unknown>)) {
            const list = typeof binding === "string" ? [binding] : binding;
            if (Array.isArray(list) && list.every((b) => typeof b === "string")) config.keys[cmd] = list as string[];
            else bad(`keys.${cmd}`, "a key string or a list of them");
          }
        }
        break;
      case "scope":
        if (v === "auto" || oneOf(SCOPES, v)) config.scope = v;
        else bad(key, `one of auto, ${SCOPES.join(", ")}`);
        break;
      case "sort":
        if (oneOf(CONFIG_SORTS, v)) config.sort = v;
        else bad(key, `one of ${CONFIG_SORTS.join(", ")}`);
        break;
      case "threaded":
      case "searchToolOutput":
      case "mouse":
        if (typeof v === "boolean") config[key] = v;
        else bad(key, "true or false");
        break;
      case "theme":
        if (oneOf(THEMES, v)) config.theme = v;
        else bad(key, `one of ${THEMES.join(", ")}`);
        break;
      case "piCommand":
        if (typeof v === "string" && v.trim()) config.piCommand = v;
        else bad(key, "a command string");
        break;
      case "afterPi":
        if (oneOf(AFTER_PI, v)) config.afterPi = v;
        else bad(key, `one of ${AFTER_PI.join(", ")}`);
        break;
      case "hosts":
        if (Array.isArray(v) && v.every((h) => typeof h === "string" && h.trim()))
          config.hosts = [...new Set((v as string[]).map((h) => h.trim()))];
        else bad(key, 'a list of host names, as `ssh NAME` takes them (["devbox"])');
        break;
      case "ssh":
        if (typeof v === "string" && v.trim()) config.ssh = v;
        else bad(key, 'a command line ("ssh -F ~/.ssh/other_config")');
        break;
      case "$schema":
        break;
      default:
        warnings.push(`config ${path}: unknown setting "${key}" ignored`);
    }
  }
  return { config, warnings: warnings.map(sanitizeLine) };
}
