import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * What collectGarbage asks V8 for: a full collection that also gives memory back (V8's
 * "last resort": the young generation shrunk, the old one compacted, its empty pages
 * released). A plain full collection left V8's heap at its size: at 50,000 sessions, after
 * the first `list`'s scan, 93 MB with 46 MB alive (the young generation alone 32 MB of it).
 */
export const GC_OPTIONS = { type: "major", execution: "sync", flavor: "last-resort" } as const;

/**
 * A full garbage collection, now, giving the free memory back. V8 sizes its heap by what was alive at its last full
 * collection: `index` scans 50,000 sessions (their summaries alive, 120 MB), lets go of them,
 * then indexes text for a minute or more without another full collection, its heap filling
 * with dead objects up to that size. Collected once between the two, it stays under 120 MB.
 * `--expose-gc` is the one flag set after start, and sets nothing else.
 */
export function collectGarbage(): void {
  try {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as (options: typeof GC_OPTIONS) => void)(GC_OPTIONS);
  } catch {
    // only memory: without it the index is built the same
  }
}
