import { statSync } from "node:fs";
import { searchStore, type FileSeen, type FullTextFn } from "../search/fulltext.js";
import { fsPath } from "../store/fs-path.js";
import { searchEarly, type EarlyOptions } from "./early-answer.js";
import { readTextStates, searchWithIndex } from "./index-search.js";
import { openStoreIndex, type StoreIndex } from "./store-index.js";

/** A file's size and modification time now (none when it is gone: a take-back then applies). */
function statOf(path: string): FileSeen {
  try {
    const st = statSync(fsPath(path));
    return { bytes: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return { bytes: -1, mtimeMs: -1 };
  }
}

/**
 * The browser's full-text search over a store: answered by the persistent index where it
 * covers a session, by reading the file where it does not (src/index/index-search.ts).
 * The index is opened at the first search; if it cannot be used, or fails, every search
 * from then on reads the files as before.
 */
export function storeSearch(
  storeDir: string,
  env: NodeJS.ProcessEnv = process.env,
  early: Pick<EarlyOptions, "checkFirst" | "above"> = {},
): FullTextFn {
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
    /** Hits the early answer reported and did not take back: what reading the files must confirm if it fails. */
    const standing = new Set<string>();
    if (idx) {
      try {
        const { onMiss, onChecking } = opts;
        // A caller that can take back a hit (the browser's list) is answered early: early-answer.ts.
        const soon =
          onMiss && onChecking
            ? await searchEarly(idx.db, targets, query, {
                ...opts,
                ...early,
                onMatch: (path, snippet, held, unchecked) => {
                  standing.add(path);
                  opts.onMatch(path, snippet, held, unchecked);
                },
                onMiss: (path, seen) => {
                  standing.delete(path);
                  onMiss(path, seen);
                },
                onChecking,
              })
            : null;
        if (soon) return soon;
        const r = await searchWithIndex(idx.db, targets, query, {
          includeTools: opts.includeTools,
          signal: opts.signal,
          concurrency: opts.concurrency,
          onMatch: (h) => opts.onMatch(h.path, h.snippet, h.held),
          // The browser shows a screenful of what may be tens of thousands of hits.
          snippets: "lazy",
          need: opts.need,
          onProgress: opts.onProgress,
        });
        return { searched: r.searched, matched: r.matched, aborted: r.aborted, readWhole: r.readWhole };
      } catch {
        // The index failed mid-search: from now on, files only. Every file is read below: a
        // hit searchWithIndex reported was checked against its file and is found again; one
        // the early answer named and its file does not hold is taken back then.
        usable = false;
        idx.close();
        index = undefined;
      }
    }
    // As each named file was before it is read: written to meanwhile, its take-back is ignored.
    const seen = new Map([...standing].map((p) => [p, statOf(p)] as const));
    const read = await searchStore(
      targets.map((t) => t.path),
      query,
      {
        ...opts,
        onMatch: (path, snippet, held) => {
          standing.delete(path);
          opts.onMatch(path, snippet, held);
        },
      },
    );
    if (!read.aborted) for (const p of standing) opts.onMiss?.(p, seen.get(p)!);
    return { ...read, readWhole: read.searched };
  };
  // Fast enough to search as the user types: a search of 10,000 sessions the index covers
  // holds the thread ~15 ms, so it starts once the key's frame is drawn (10 ms after the
  // key's state; drawing it takes longer), not 40 ms later. (Of 50,000 it holds it 0.3-0.8 s
  // for a common word; waiting 150 ms after such a search, for the keys to pause, cost more
  // at both sizes than it saved, once no search starts while keys wait: useFullTextSearch.)
  search.debounceMs = 10;
  search.warm = (busy) => {
    const idx = open();
    // The search that follows finds the index unusable (or closed), and says so by reading the files.
    if (idx) readTextStates(idx.db, busy).catch(() => {});
  };
  return search;
}
