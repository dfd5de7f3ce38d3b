import { createHash } from "node:crypto";
import type { Diagnostic } from "../model/types.js";
import type { SessionFile } from "./discover.js";
import { readIsRacy } from "./file-identity.js";

/**
 * Whether a file of the store changed within a tick of `discoveredFrom` (Date.now() before
 * discovery): what is read of the store now may be older than its fingerprint says
 * (readIsRacy), so nothing is kept of this run, nor served.
 */
export function storeIsRacy(files: readonly SessionFile[], discoveredFrom: number): boolean {
  return files.some((f) => readIsRacy(f.mtimeMs, f.ctimeMs, discoveredFrom));
}

/**
 * The store as discovery saw it (every file's path, inode, size, mtime and ctime), in one
 * value. In discovery's order, not sorted: a folder lists the same way while it does not
 * change, and if it did list otherwise the cost is a miss, never a wrong answer. Paths in one text and the numbers in one array: ten thousand
 * small updates of the hash cost twice as much.
 */
export function storeFingerprint(found: { files: readonly SessionFile[]; diagnostics: readonly Diagnostic[] }) {
  const h = createHash("sha256");
  const { files } = found;
  const numbers = new Float64Array(files.length * 4 + 1);
  numbers[0] = files.length;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    numbers[i * 4 + 1] = f.ino ?? -1;
    numbers[i * 4 + 2] = f.bytes;
    numbers[i * 4 + 3] = f.mtimeMs;
    numbers[i * 4 + 4] = f.ctimeMs ?? -1;
  }
  h.update(numbers);
  // A path holds no NUL.
  h.update(files.map((f) => f.path).join("\0"));
  for (const d of found.diagnostics) h.update(`\n!${d.path}\0${d.kind}\0${d.reason}`);
  return h.digest("hex");
}
