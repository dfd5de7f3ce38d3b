import { createHash } from "node:crypto";
import { sep } from "node:path";
import type { Diagnostic } from "../model/types.js";
import { FoundFiles, type SessionFile } from "./discover.js";
import { readIsRacy } from "./file-identity.js";

/** What discovery found, as it hands it over (FoundFiles), or as records (tests, a scan's own list). */
type Found = FoundFiles | { files: readonly SessionFile[]; diagnostics: readonly Diagnostic[] };

/** The found files by column (FoundFiles's layout), made of records when they are not already. */
function columnsOf(
  found: Found,
): Pick<FoundFiles, "prefixes" | "starts" | "names" | "numbers"> & { diagnostics: readonly Diagnostic[] } {
  if (found instanceof FoundFiles) return found;
  const prefixes: string[] = [];
  const starts: number[] = [];
  const names: string[] = [];
  const numbers = new Float64Array(found.files.length * 4);
  found.files.forEach((f, i) => {
    const at = f.path.lastIndexOf(sep) + 1;
    const prefix = f.path.slice(0, at);
    if (prefixes.length === 0 || prefixes[prefixes.length - 1] !== prefix) {
      prefixes.push(prefix);
      starts.push(i);
    }
    names.push(f.path.slice(at));
    // A missing ctime is the mtime, as readIsRacy takes it (-1 would make no file racy).
    numbers.set([f.ino ?? -1, f.bytes, f.mtimeMs, f.ctimeMs ?? f.mtimeMs], 4 * i);
  });
  return { prefixes, starts, names, numbers, diagnostics: found.diagnostics };
}

/**
 * Whether a file of the store changed within a tick of `discoveredFrom` (Date.now() before
 * discovery): what is read of the store now may be older than its fingerprint says
 * (readIsRacy), so nothing is kept of this run, nor served.
 */
export function storeIsRacy(found: Found, discoveredFrom: number): boolean {
  const { names, numbers } = columnsOf(found);
  for (let i = 0; i < names.length; i++)
    if (readIsRacy(numbers[4 * i + 2], numbers[4 * i + 3], discoveredFrom)) return true;
  return false;
}

/**
 * The store as discovery saw it (every file's path, inode, size, mtime and ctime), in one
 * value. In discovery's order, not sorted: a folder lists the same way while it does not
 * change, and if it did list otherwise the cost is a miss, never a wrong answer. The numbers
 * in one array, and each folder's path once with its files' names (a path holds no NUL, a
 * name no separator: a folder's names end with two NULs): ten thousand small updates of the
 * hash cost twice as much, and 50,000 whole paths joined were a tenth of a relaunch.
 */
export function storeFingerprint(found: Found): string {
  const h = createHash("sha256");
  const { prefixes, starts, names, numbers, diagnostics } = columnsOf(found);
  h.update(Float64Array.of(names.length));
  h.update(numbers.subarray(0, 4 * names.length));
  for (let g = 0; g < prefixes.length; g++) {
    const end = g + 1 < starts.length ? starts[g + 1] : names.length;
    h.update(`${prefixes[g]}\0${names.slice(starts[g], end).join("\0")}\0\0`);
  }
  for (const d of diagnostics) h.update(`\n!${d.path}\0${d.kind}\0${d.reason}`);
  return h.digest("hex");
}
