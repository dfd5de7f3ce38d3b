import { statSync } from "node:fs";
import { resolve } from "node:path";
import { discoverFiles } from "../store/discover.js";
import { forEachLimited } from "../store/pool.js";
import { isDiagnostic, probeSessionFile } from "../store/scan-file.js";
import { CliError, usageError } from "./errors.js";

/** pi's rule: a path if it has a slash or ends in .jsonl, else a session id or id prefix. */
export function looksLikePath(arg: string): boolean {
  return arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl");
}

/** Resolves `<path | id | unique id prefix>` to a session file path, or throws a CliError. */
/** `storeDir` is asked for only when the argument is an id, so a path works without a store. */
export async function resolveSession(arg: string, storeDir: () => string, cwd: string): Promise<string> {
  // Every id starts with "": an empty argument would pick whichever session comes first.
  if (!arg.trim()) throw usageError("the session must not be empty (give a path, an id or an id prefix)");
  if (looksLikePath(arg)) {
    const path = resolve(cwd, arg);
    try {
      if (statSync(path).isFile()) return path;
    } catch {
      // fall through
    }
    throw new CliError(`no session file at ${path}`);
  }
  const dir = storeDir();
  const { files } = await discoverFiles(dir);
  const exact: { path: string; id: string }[] = [];
  const prefixed: { path: string; id: string }[] = [];
  await forEachLimited(files, 16, async (f) => {
    const p = await probeSessionFile(f, 4096);
    if (!p || isDiagnostic(p)) return;
    if (p.id === arg) exact.push({ path: p.path, id: p.id });
    else if (p.id.startsWith(arg)) prefixed.push({ path: p.path, id: p.id });
  });
  if (exact.length === 1) return exact[0].path;
  const hits = exact.length > 1 ? exact : prefixed;
  if (hits.length === 1) return hits[0].path;
  if (hits.length === 0) throw new CliError(`no session matches '${arg}' in ${dir}`);
  const shown = hits.slice(0, 3).map((h) => (exact.length > 1 ? h.path : h.id));
  throw new CliError(`'${arg}' is ambiguous: ${hits.length} sessions match (${shown.join(", ")}${hits.length > 3 ? ", …" : ""}); give more of the id or a path`);
}
