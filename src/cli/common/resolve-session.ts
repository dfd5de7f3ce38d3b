import { statSync } from "node:fs";
import { resolve } from "node:path";
import { discoverFiles } from "../../store/discover.js";
import { forEachLimited } from "../../store/pool.js";
import { isDiagnostic, probeSessionFile } from "../../store/scan-file.js";
import { cwdScope } from "../../store/scope.js";
import { sanitizeLine } from "../../text/sanitize.js";
import { CliError, usageError } from "./errors.js";

/** pi's rule: a path if it has a slash or ends in .jsonl, else a session id or id prefix. */
export function looksLikePath(arg: string): boolean {
  return arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl");
}

/**
 * What the command does with the session when several files have its id: one that reads it
 * takes the one pi opens and says which (`note`); one that writes to it refuses (`write`).
 */
export type SessionUse = { write: true } | { note: (text: string) => void };

/** Resolves `<path | id | unique id prefix>` to a session file path, or throws a CliError. */
/** `storeDir` is asked for only when the argument is an id, so a path works without a store. */
export async function resolveSession(
  arg: string,
  storeDir: () => string,
  cwd: string,
  use: SessionUse,
): Promise<string> {
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
  const { files } = await discoverFiles(dir, { yielding: false, fromInside: true });
  type Hit = { path: string; id: string; cwd: string; mtimeMs: number };
  const exact: Hit[] = [];
  const prefixed: Hit[] = [];
  await forEachLimited(files, 16, async (f) => {
    // pi finds a header within the first 1 MiB (a long cwd or metadata); most fit in 4 KB.
    const p = (await probeSessionFile(f, 4096)) ?? (await probeSessionFile(f, HEADER_SCAN_BYTES));
    if (!p || isDiagnostic(p)) return;
    const hit = { path: p.path, id: p.id, cwd: p.cwd, mtimeMs: f.mtimeMs };
    if (p.id === arg) exact.push(hit);
    else if (p.id.startsWith(arg)) prefixed.push(hit);
  });
  const hits = exact.length > 0 ? exact : prefixed;
  if (hits.length === 0) throw new CliError(`no session matches '${arg}' in ${dir}`);
  // Several files with one id (an `/import` done twice gives x.jsonl and x-1.jsonl): pi
  // opens one of them, so a read does, saying which: the one in this folder's scope, else the
  // newest file. A write refuses: it would change a file the user may not have meant.
  if (hits.every((h) => h.id === hits[0].id)) {
    const ranked = rank(hits, cwdScope(dir, cwd));
    if (ranked.length === 1) return ranked[0].path;
    const id = sanitizeLine(hits[0].id);
    if ("write" in use) {
      const paths = ranked.slice(0, 5).map((h) => h.path);
      const more = ranked.length > 5 ? ` and ${ranked.length - 5} more` : "";
      throw usageError(
        `'${arg}' is ambiguous: ${ranked.length} files have that session id (${paths.join(", ")}${more}); give the path of the one you mean`,
      );
    }
    use.note(
      `pi-sessions: ${ranked.length} files have the session id ${id}; using ${sanitizeLine(ranked[0].path)} (pi's pick: this folder's, else the newest); give a path to choose exactly\n`,
    );
    return ranked[0].path;
  }
  const shown = hits.slice(0, 3).map((h) => h.id);
  throw new CliError(
    `'${arg}' is ambiguous: ${hits.length} sessions match (${shown.join(", ")}${hits.length > 3 ? ", …" : ""}); give more of the id or a path`,
  );
}

const HEADER_SCAN_BYTES = 1024 * 1024;

/** The files of one id in the order pi prefers them: in this folder's scope first, then the newest. */
function rank<T extends { path: string; cwd: string; mtimeMs: number }>(hits: T[], inScope: (h: T) => boolean): T[] {
  return [...hits].sort(
    (a, b) =>
      Number(inScope(b)) - Number(inScope(a)) ||
      b.mtimeMs - a.mtimeMs ||
      (a.path < b.path ? 1 : a.path > b.path ? -1 : 0),
  );
}
