import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the process's heaps grow past what their last full collection found alive,
 * in percent, once the browser's is large (a V8 flag is the whole process's: the scan worker's
 * heap too). Left to itself V8 lets a large heap grow up to 4× before
 * collecting: at 50,000 sessions (~170 MB alive) every key's rows and every checked slice of
 * a search is garbage promoted to the old space, and the browser's RSS reached 510–610 MB
 * before a collection. At 1.5× its peak was 378–449 MB, a query's CPU told apart from the
 * build before only by the noise (2.0–3.0 s against 2.0–2.5 s at load 6); 1.2× saved little
 * more and cost 1.5–2 s of CPU on a query (docs/performance.md, the browser on that store).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The heap in use after a full collection from which the growth is held: 10,000 sessions use up
 * to ~87 MB (held from the start, `parser cache` took 1.2–1.6 s of CPU against 0.6–1.2 s, for
 * 185–190 MB against 199–229 MB);
 * 50,000 pass it while their summaries are read, before the limits that matter are set.
 */
export const LARGE_HEAP_BYTES = 100 * 1024 * 1024;

/**
 * The V8 releases known to have the flag (11–14: Node 20–25). Another may have dropped it, and
 * V8 writes an unknown flag's error straight to the terminal, under the browser's screen.
 */
const KNOWN_V8 = /^1[1-4]\./;

/**
 * The flag to set, or undefined when V8 is not one known to have it, when node was started with
 * its own (a user's or the bench's choice), or when node's flags are frozen (setting one then
 * aborts the process, uncatchable).
 * Only node's own arguments can carry these: node refuses to start with the growth in NODE_OPTIONS.
 */
export function heapGrowthFlag(execArgv: readonly string[], v8Version = process.versions.v8): string | undefined {
  if (!KNOWN_V8.test(v8Version)) return undefined;
  if (execArgv.some((a) => /^--freeze[-_]flags[-_]after[-_]init/.test(a))) return undefined;
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return undefined;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** A full (major) collection: only after one does the heap's size say what is alive. */
function isMajor(entry: PerformanceEntry): boolean {
  return (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

/**
 * Watches the collections from now (50,000 sessions pass `fromBytes` while their summaries are
 * read) and sets the process's heap growth after the first full (major) collection that leaves
 * `fromBytes` in use, once the returned function says the program's modules are loaded (V8
 * reads the flag at each full collection, so it holds from the next). A young collection is not
 * enough: after one, the heap still holds the old space's garbage, which at 10,000 sessions
 * (~87 MB alive) passed 100 MB during a search. Not before the modules are loaded: a changed V8
 * flag is a new compile-cache fingerprint, so each module compiled after it would have its
 * cached code rejected and rewritten, run after run. Watching only from then missed the
 * collections of the summaries' reading, and the next full one came at 4× (peak RSS 502–537 MB
 * against 414 MB at 50,000 sessions).
 */
export function holdHeapGrowth(execArgv = process.execArgv, fromBytes = LARGE_HEAP_BYTES): () => void {
  const flag = heapGrowthFlag(execArgv);
  if (flag === undefined) return () => {};
  let large = false;
  let loaded = false;
  const hold = (): void => {
    if (!large || !loaded) return;
    large = false;
    setFlagsFromString(flag);
  };
  try {
    const gcs = new PerformanceObserver((list) => {
      if (!list.getEntries().some(isMajor)) return;
      if (getHeapStatistics().used_heap_size < fromBytes) return;
      gcs.disconnect();
      large = true;
      hold();
    });
    gcs.observe({ entryTypes: ["gc"] });
  } catch {
    // only memory: without it the browser works the same
  }
  return () => {
    loaded = true;
    hold();
  };
}
