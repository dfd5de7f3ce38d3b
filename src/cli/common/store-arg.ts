import { cpSync, rmSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { output } from "./output.js";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { checkStore, locateStore, StoreError, storeExists, type StoreLocation } from "../../store/locate.js";
import type { CliIO } from "./io.js";

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

function holdsJsonl(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.endsWith(".jsonl"));
  } catch {
    return false;
  }
}

/**
 * `dir/sessions` when `dir` looks like pi's agent folder (~/.pi/agent) rather than its
 * store: no session file where discovery looks (the folder and its first-level folders),
 * but a `sessions` folder beside pi's other files.
 */
export function agentFolderSessions(dir: string): string | undefined {
  const sessions = join(dir, "sessions");
  if (!isDir(sessions)) return undefined;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (names.some((n) => n.endsWith(".jsonl"))) return undefined;
  if (names.some((n) => isDir(join(dir, n)) && holdsJsonl(join(dir, n)))) return undefined;
  return sessions;
}

/**
 * A fresh copy of the demo store in the system's temp folder (timestamps kept, so ages
 * read as in the original): renames, labels, forks and deletes made while trying it out
 * never change the files of the checkout or the installed package.
 */
export function copyDemoStore(dir: string): string {
  const root = mkdtempSync(join(tmpdir(), "pi-sessions-demo-"));
  const copy = join(root, "sessions");
  cpSync(dir, copy, { recursive: true, preserveTimestamps: true });
  // Gone when the program ends (after a pi it started has exited): no folder left behind
  // at every run. Only this fresh copy is removed, never a store of the user's.
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  return copy;
}

/**
 * The store a command works on. `fallback` (the bundled demo store, used by `npm start`)
 * applies only when nothing was configured and ~/.pi/agent/sessions does not exist; the
 * browser then opens a copy of it (source "fallback").
 */
export function storeFromArgs(flag: string | undefined, io: CliIO, fallback?: string): StoreLocation {
  const loc = locateStore({ flag, env: io.env, cwd: io.cwd, home: io.env.HOME || undefined });
  for (const w of loc.warnings ?? []) output(io).note(`pi-sessions: ${w}\n`);
  if (fallback && loc.source === "default" && !storeExists(loc)) {
    const demo: StoreLocation = { dir: resolve(io.cwd, fallback), source: "fallback" };
    checkStore(demo);
    return { dir: copyDemoStore(demo.dir), source: "fallback" };
  }
  checkStore(loc);
  // Only a folder the user named can be the agent folder by mistake.
  const named = loc.source === "--session-dir" || loc.source === "PI_CODING_AGENT_SESSION_DIR";
  const inner = named ? agentFolderSessions(loc.dir) : undefined;
  if (inner) {
    const how = loc.source === "--session-dir" ? `--session-dir ${inner}` : `${loc.source}=${inner}`;
    throw new StoreError(
      `no sessions in ${loc.dir}, which looks like pi's agent folder: its sessions are in ${inner} (use ${how})`,
    );
  }
  return loc;
}
