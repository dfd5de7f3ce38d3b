import { readdirSync, statSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { isAbsolute, join, sep } from "node:path";
import type { Diagnostic } from "../model/types.js";
import { decodeName, fsPath } from "./fs-path.js";
import { statNumbers } from "./stat-numbers.js";

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
 * The files discovery found, by column: each folder's path once, the files' names, and four
 * numbers a file (inode, size, mtime, ctime) in one array. A command whose answer was kept
 * for this very store needs no more than that (its fingerprint: store-fingerprint.ts), and
 * 50,000 objects and paths made and collected for nothing were a quarter of such a
 * relaunch's CPU; `files` makes them on first use.
 */
export class FoundFiles {
  readonly diagnostics: Diagnostic[] = [];
  /** Each folder's path, the separator after it, in discovery order; a file's path is its folder's and its name. */
  readonly prefixes: string[] = [];
  /** Where each folder's files start in `names`. */
  readonly starts: number[] = [];
  /** Every file's name, in discovery order. */
  readonly names: string[] = [];
  /** Per file, at 4 × its place: its inode, size, mtime and ctime (milliseconds, as fs.Stats gives them). */
  numbers = new Float64Array(4096);
  private made?: SessionFile[];

  /**
   * Stats `path` (`prefix` and `name`, or the name alone from inside its folder) and adds it
   * when it is a regular file: its numbers go straight into `numbers` (stat-numbers.ts, no
   * fs.Stats object). Throws what statSync throws.
   */
  addIfFile(prefix: string, name: string, path: string | Buffer): void {
    const i = this.names.length;
    if (4 * i + 4 > this.numbers.length) {
      const more = new Float64Array(this.numbers.length * 2);
      more.set(this.numbers);
      this.numbers = more;
    }
    // Written before it is known to be a file: past names.length they are never read.
    if (!statNumbers(path, this.numbers, 4 * i)) return;
    if (this.prefixes.length === 0 || this.prefixes[this.prefixes.length - 1] !== prefix) {
      this.prefixes.push(prefix);
      this.starts.push(i);
    }
    this.names.push(name);
    this.made = undefined;
  }

  /** Every file as one record, in discovery order: made once, on first use. */
  get files(): SessionFile[] {
    return (this.made ??= this.make());
  }

  private make(): SessionFile[] {
    const { prefixes, starts, names, numbers } = this;
    const files = new Array<SessionFile>(names.length);
    for (let g = 0; g < prefixes.length; g++) {
      const end = g + 1 < starts.length ? starts[g + 1] : names.length;
      for (let i = starts[g]; i < end; i++)
        files[i] = {
          path: prefixes[g] + names[i],
          bytes: numbers[4 * i + 1],
          mtimeMs: numbers[4 * i + 2],
          ino: numbers[4 * i],
          ctimeMs: numbers[4 * i + 3],
        };
    }
    return files;
  }
}

/** The path's folder, separator included, and its last part (the two make the path again as it was). */
export function splitPath(path: string): [string, string] {
  const at = path.lastIndexOf(sep) + 1;
  return [path.slice(0, at), path.slice(at)];
}

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
): Promise<FoundFiles> {
  const found = new FoundFiles();
  const { diagnostics } = found;
  /** `inside`: the working folder is the file's folder (its name alone is stat'ed). */
  const addFile = (prefix: string, name: string, inside: boolean) => {
    try {
      found.addIfFile(prefix, name, fsPath(inside ? name : prefix + name));
    } catch (err) {
      const path = prefix + name;
      diagnostics.push({ path, kind: "unreadable", reason: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
  };
  // Names as bytes: one that is not UTF-8 is still listed (src/store/fs-path.ts).
  const top = readdirSync(root, { withFileTypes: true, encoding: "buffer" });
  const folders: string[] = [];
  for (const d of top) {
    const name = decodeName(d.name);
    const p = join(root, name);
    if (name.endsWith(".jsonl") && (d.isFile() || d.isSymbolicLink())) addFile(...splitPath(p), false);
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
  return found;

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
        addFile(prefix, n, inside);
        // A folder can hold thousands of sessions: never block the UI for more than ~2 ms.
        if (yielding && ++sinceYield === 256) {
          sinceYield = 0;
          await yieldToLoop();
        }
      }
    }
  }
}
