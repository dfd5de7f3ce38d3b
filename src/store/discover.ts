import { readdirSync, statSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { isAbsolute, join, sep } from "node:path";
import type { Diagnostic } from "../model/types.js";
import { decodeName, fsPath } from "./fs-path.js";

export interface SessionFile {
  path: string;
  bytes: number;
  mtimeMs: number;
  /** The file's identity (a file replaced under the same name has another); absent when unknown. */
  ino?: number;
  /**
   * Its last change of any kind (ctime): a rewrite that puts the mtime back (`touch -r`, a
   * sync tool) or a file renamed in on a freed inode still changes it. Absent when unknown.
   */
  ctimeMs?: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A folder's names as strings that round-trip to their bytes (src/store/fs-path.ts). Node's
 * own decoding first (a tenth of the cost of decoding ten thousand names one by one): a name
 * in it with no U+FFFD was valid UTF-8 and is exact; with one, the folder is read again as bytes.
 */
function folderNames(dir: string): string[] {
  const path = fsPath(dir);
  const names = readdirSync(path);
  if (!names.some((n) => n.includes("\ufffd"))) return names;
  return readdirSync(path, { encoding: "buffer" }).map(decodeName);
}

/**
 * Enters a folder to stat its files by name, when the caller allows it: the working folder
 * is the process's, so only a synchronous discovery on the main thread (nothing else runs
 * meanwhile) does it, with `home` to come back to. False: stat by full path.
 * A name of one part is resolved in the folder alone: ten thousand stats by full path
 * (eight parts deep in a typical store) took 49 ms, from inside each folder 40.
 */
function enter(dir: string, home: string | undefined): boolean {
  if (home === undefined || fsPath(dir) !== dir) return false;
  try {
    process.chdir(dir);
    return true;
  } catch {
    return false;
  }
}

/** Back to the working folder (gone meanwhile: nothing to go back to; every path the program uses is a full one). */
function back(home: string): void {
  try {
    if (workingFolder() !== home) process.chdir(home);
  } catch {
    // (see above)
  }
}

/** The working folder to come back to, or undefined when there is none to come back to (deleted). */
function workingFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/**
 * Finds candidate session files in both layouts at once: `*.jsonl` directly in the store
 * (a flat custom dir) and in its first-level folders (pi's per-cwd folders, symlinks
 * followed). File names are never parsed.
 *
 * Synchronous calls, yielding to the event loop between folders and every 256 files:
 * thousands of promise-based stats cost 5–8× more than statSync (each is a threadpool
 * round trip), and discovery is on the path to the first rows (nothing can be sorted
 * newest-first before every file has been stat'ed). At most 256 stats run between yields.
 * A command line with nothing else on its thread passes `{ yielding: false }`: it has
 * nothing to yield to (a hundred-odd turns of the event loop for nothing), and with
 * `fromInside` it stats each folder's files from inside it (enter).
 */
export async function discoverFiles(
  root: string,
  { yielding = true, fromInside = false }: { yielding?: boolean; fromInside?: boolean } = {},
): Promise<{ files: SessionFile[]; diagnostics: Diagnostic[] }> {
  const files: SessionFile[] = [];
  const diagnostics: Diagnostic[] = [];
  /** `name`: the file's name, when the working folder is its folder. */
  const addFile = (path: string, name?: string) => {
    try {
      const st = statSync(fsPath(name ?? path));
      if (st.isFile()) files.push({ path, bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs });
    } catch (err) {
      diagnostics.push({ path, kind: "unreadable", reason: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
  };
  // Names as bytes: one that is not UTF-8 is still listed (src/store/fs-path.ts).
  const top = readdirSync(root, { withFileTypes: true, encoding: "buffer" });
  const folders: string[] = [];
  for (const d of top) {
    const name = decodeName(d.name);
    const p = join(root, name);
    if (name.endsWith(".jsonl") && (d.isFile() || d.isSymbolicLink())) addFile(p);
    else if (d.isDirectory()) folders.push(p);
    else if (d.isSymbolicLink()) {
      try {
        if (statSync(fsPath(p)).isDirectory()) folders.push(p);
      } catch {
        // a dangling link is not a folder of sessions
      }
    }
  }
  // Folders by full path only: a relative one would be resolved inside the one before.
  const home = fromInside && !yielding && isMainThread && isAbsolute(root) ? workingFolder() : undefined;
  try {
    await eachFolder();
  } finally {
    if (home !== undefined) back(home);
  }
  return { files, diagnostics };

  async function eachFolder() {
    for (const dir of folders) {
      if (yielding) await yieldToLoop();
      let names: string[];
      try {
        names = folderNames(dir);
      } catch (err) {
        diagnostics.push({
          path: dir,
          kind: "unreadable-folder",
          reason: (err as NodeJS.ErrnoException).code ?? String(err),
        });
        continue;
      }
      let sinceYield = 0;
      // `dir` is joined already and a name holds no separator: join() would only copy it again.
      const prefix = dir.endsWith(sep) ? dir : dir + sep;
      const inside = enter(dir, home);
      for (const n of names) {
        if (!n.endsWith(".jsonl")) continue;
        addFile(prefix + n, inside ? n : undefined);
        // A folder can hold thousands of sessions: never block the UI for more than ~2 ms.
        if (yielding && ++sinceYield === 256) {
          sinceYield = 0;
          await yieldToLoop();
        }
      }
    }
  }
}
