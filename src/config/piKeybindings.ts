import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { normalizePiPath } from "../store/locate.js";
import { parsePiKeybindings, warn } from "../browser/keys/piKeybindings.js";
import type { PiBindings } from "../browser/keys/piKeys.js";

/** Where pi keeps the user's key bindings: `<agent dir>/keybindings.json` (`$PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
export function piKeybindingsPath(env: NodeJS.ProcessEnv = process.env, home = homedir(), cwd = process.cwd()): string {
  const agentDir = env.PI_CODING_AGENT_DIR
    ? resolve(cwd, normalizePiPath(env.PI_CODING_AGENT_DIR, home))
    : join(home, ".pi", "agent");
  return join(agentDir, "keybindings.json");
}

/**
 * The user's pi keybindings.json, as pi reads it (parsePiKeybindings). No file: no
 * bindings and no warning; a file that cannot be read: one warning line, never a throw.
 */
export function loadPiKeybindings(path = piKeybindingsPath()): { bindings: PiBindings; warning?: string } {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { bindings: {} };
    return { bindings: {}, warning: warn(path, [`cannot be read (${code ?? (err as Error).message})`]) };
  }
  return parsePiKeybindings(raw, path);
}
