import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SessionProbe } from "../model/types.js";
import { fsPath } from "./fs-path.js";
import { isDiagnostic, probeSessionFile } from "./scan-file.js";
import { cwdFolderName } from "./scope.js";

/**
 * The newest sessions of the launch folder's project folder (pi's default layout), probed
 * on this thread with blocking reads: a few milliseconds, so the browser can put rows on
 * the screen before Ink has even loaded. [] when the store has no such folder (a flat
 * custom folder, or another project): the worker's scan covers everything anyway.
 */
export async function quickProbe(storeDir: string, cwd: string, limit = 80): Promise<SessionProbe[]> {
  const dir = join(storeDir, cwdFolderName(cwd));
  let names: string[];
  try {
    names = readdirSync(fsPath(dir)).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const files: { path: string; bytes: number; mtimeMs: number }[] = [];
  for (const n of names) {
    try {
      const path = join(dir, n);
      const st = statSync(fsPath(path));
      if (st.isFile()) files.push({ path, bytes: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // gone or unreadable: the full scan reports it
    }
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const probes: SessionProbe[] = [];
  for (const f of files.slice(0, limit)) {
    const p = await probeSessionFile(f, undefined, { sync: true });
    if (p && !isDiagnostic(p)) probes.push(p);
  }
  return probes;
}
