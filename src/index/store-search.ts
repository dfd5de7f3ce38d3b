import { searchStore, type FullTextFn } from "../search/fulltext.js";
import { searchWithIndex } from "./index-search.js";
import { openStoreIndex, type StoreIndex } from "./store-index.js";

/**
 * The browser's full-text search over a store: answered by the persistent index where it
 * covers a session, by reading the file where it does not (src/index/index-search.ts).
 * The index is opened at the first search; if it cannot be used, or fails, every search
 * from then on reads the files as before.
 */
export function storeSearch(storeDir: string, env: NodeJS.ProcessEnv = process.env): FullTextFn {
  let index: StoreIndex | undefined;
  let usable = true;
  const open = (): StoreIndex | undefined => {
    if (index || !usable) return index;
    index = openStoreIndex(storeDir, () => {}, { env });
    // Not there (turned off, no cache folder) or not openable: try again next search only if it may appear.
    if (!index) usable = env.PI_SESSIONS_INDEX !== "0";
    return index;
  };
  const search: FullTextFn = async (targets, query, opts) => {
    const idx = open();
    if (idx) {
      try {
        // The first progress comes once the index has named every target's lines, which
        // holds the thread (see debounceMs below).
        const began = performance.now();
        let held: number | undefined;
        const r = await searchWithIndex(idx.db, targets, query, {
          includeTools: opts.includeTools,
          signal: opts.signal,
          concurrency: opts.concurrency,
          onMatch: (h) => opts.onMatch(h.path, h.snippet, h.held),
          // The browser shows a screenful of what may be tens of thousands of hits.
          snippets: "lazy",
          need: opts.need,
          onProgress: (n) => {
            if (held === undefined) search.debounceMs = debounceFor((held = performance.now() - began));
            opts.onProgress?.(n);
          },
        });
        return { searched: r.searched, matched: r.matched, aborted: r.aborted, readWhole: r.readWhole };
      } catch {
        // The index failed mid-search: from now on, files only. Hits already reported stand
        // (each was checked against its file).
        usable = false;
        idx.close();
        index = undefined;
      }
    }
    const read = await searchStore(
      targets.map((t) => t.path),
      query,
      opts,
    );
    return { ...read, readWhole: read.searched };
  };
  // Fast enough to search as the user types: a search of 10,000 sessions the index covers
  // holds the thread ~15 ms, so it starts once the key's frame is drawn (10 ms after the
  // key's state; drawing it takes longer), not 40 ms later. Of 50,000, it held it 0.3-0.8 s
  // for a common word: started at every key, the next keys waited for it; after such a
  // search the next waits for the keys to pause (debounceFor).
  search.debounceMs = MIN_DEBOUNCE_MS;
  return search;
}

const MIN_DEBOUNCE_MS = 10;
/** As the search without the index waits (useFullTextSearch's default). */
const MAX_DEBOUNCE_MS = 150;

/** How long after the last key the next search starts, for one that held the thread `heldMs` before its first result. */
export function debounceFor(heldMs: number): number {
  // Only a search that held it longer than the wait itself: a common word at 10,000 sessions
  // (~15-100 ms) let a word typed after it wait 150 ms instead of 10 (84 → 206-277 ms to its answer).
  return heldMs >= MAX_DEBOUNCE_MS ? MAX_DEBOUNCE_MS : MIN_DEBOUNCE_MS;
}
