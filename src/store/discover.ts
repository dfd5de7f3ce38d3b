import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic } from "../model/types.js";

export interface SessionFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * Finds candidate session files in both layouts at once: `*.jsonl` directly in the store
 * (a flat custom dir) and in its first-level folders (pi's per-cwd folders, symlinks
 * followed). File names are never parsed.
 */
export async function discoverFiles(root: string): Promise<{ files: SessionFile[]; diagnostics: Diagnostic[] }> {
  const files: SessionFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const addFile = async (path: string) => {
    try {
      const st = await stat(path);
      if (st.isFile()) files.push({ path, bytes: st.size, mtimeMs: st.mtimeMs });
    } catch (err) {
      diagnostics.push({ path, kind: "unreadable", reason: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
  };
  const top = await readdir(root, { withFileTypes: true });
  const folders: string[] = [];
  const pending: Promise<void>[] = [];
  for (const d of top) {
    const p = join(root, d.name);
    if (d.name.endsWith(".jsonl") && (d.isFile() || d.isSymbolicLink())) pending.push(addFile(p));
    else if (d.isDirectory()) folders.push(p);
    else if (d.isSymbolicLink()) {
      pending.push(
        stat(p).then(
          (st) => void (st.isDirectory() && folders.push(p)),
          () => undefined,
        ),
      );
    }
  }
  await Promise.all(pending);
  await Promise.all(
    folders.map(async (dir) => {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (err) {
        diagnostics.push({ path: dir, kind: "unreadable-folder", reason: (err as NodeJS.ErrnoException).code ?? String(err) });
        return;
      }
      await Promise.all(names.filter((n) => n.endsWith(".jsonl")).map((n) => addFile(join(dir, n))));
    }),
  );
  return { files, diagnostics };
}
