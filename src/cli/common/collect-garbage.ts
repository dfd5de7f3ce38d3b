import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection, now. V8 sizes its heap by what was alive at its last full
 * collection: `index` scans 50,000 sessions (their summaries alive, 120 MB), lets go of them,
 * then indexes text for a minute or more without another full collection, its heap filling
 * with dead objects up to that size. Collected once between the two, it stays under 120 MB.
 * `--expose-gc` is the one flag set after start, and sets nothing else.
 */
export function collectGarbage(): void {
  try {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  } catch {
    // only memory: without it the index is built the same
  }
}
