import { createHash } from "node:crypto";
import type { Diagnostic } from "../model/types.js";
import type { SessionFile } from "./discover.js";

/**
 * The store as discovery saw it, in one value. In discovery's order, not sorted: a folder
 * lists the same way while it does not change, and if it did list otherwise the cost is a
 * miss, never a wrong answer. Paths in one text and the numbers in one array: ten thousand
 * small updates of the hash cost twice as much.
 */
export function storeFingerprint(found: { files: readonly SessionFile[]; diagnostics: readonly Diagnostic[] }) {
  const h = createHash("sha256");
  const { files } = found;
  const numbers = new Float64Array(files.length * 3 + 1);
  numbers[0] = files.length;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    numbers[i * 3 + 1] = f.ino ?? -1;
    numbers[i * 3 + 2] = f.bytes;
    numbers[i * 3 + 3] = f.mtimeMs;
  }
  h.update(numbers);
  // A path holds no NUL.
  h.update(files.map((f) => f.path).join("\0"));
  for (const d of found.diagnostics) h.update(`\n!${d.path}\0${d.kind}\0${d.reason}`);
  return h.digest("hex");
}
