import { type Dispatch, useEffect, useRef } from "react";
import type { FullTextFn, SearchTarget } from "../../src/search/fulltext.js";
import type { AppAction, AppState } from "../../src/browser/app/appReducer.js";
import { inScope } from "../../src/browser/list/derive.js";
import { fullTextKey } from "../../src/browser/list/fullText.js";

export type { FullTextFn };

/** The files a search reads: the sessions in scope, most recently modified first, as the scan last saw them. */
export function searchTargets(s: Pick<AppState, "sessions" | "scope" | "launchCwd" | "storeDir">): SearchTarget[] {
  const list = [];
  for (const x of s.sessions.values()) if (inScope(x, s.scope, s.launchCwd, s.storeDir)) list.push(x);
  list.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  return list.map((x) => ({ path: x.path, bytes: x.bytes, mtimeMs: x.mtimeMs, ctimeMs: x.ctimeMs }));
}

/**
 * Runs the full-text search in the background. It starts `debounceMs` after the query
 * (or scope, or tool toggle) last changed, and again once the scan is complete; a newer
 * query aborts the running one. Its start and hits are coalesced into at most one dispatch
 * per `throttleMs`, so typing and moving stay responsive while files are read.
 */
export function useFullTextSearch(
  s: AppState,
  search: FullTextFn,
  dispatch: Dispatch<AppAction>,
  debounceMs = search.debounceMs ?? 150,
  throttleMs = 50,
): void {
  const key = fullTextKey(s.query, s.scope, s.fullText.includeTools);
  const latest = useRef(s);
  latest.current = s;
  const scanDone = s.scan.done;
  useEffect(() => {
    if (key === null) return;
    const ac = new AbortController();
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = 0;
    let hits: [string, string][] = [];
    let searched = 0;
    /** The search's start, said with its first hits or progress (see start). */
    let started: AppAction | null = null;
    const flush = () => {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      lastFlush = Date.now();
      if (ac.signal.aborted) return;
      if (started) dispatch(started);
      started = null;
      const batch = hits;
      hits = [];
      dispatch({ type: "fulltext.hits", key, hits: batch, searched });
    };
    const schedule = () => {
      if (ac.signal.aborted || flushTimer) return;
      const wait = throttleMs - (Date.now() - lastFlush);
      if (wait <= 0) flush();
      else flushTimer = setTimeout(flush, wait);
    };
    const start = () => {
      const st = latest.current;
      const targets = searchTargets(st);
      // Said with the first hits, at most throttleMs from now, or with the end: a search the
      // index answers in a few milliseconds is one frame (the results), not three.
      started = { type: "fulltext.start", key, total: targets.length };
      lastFlush = Date.now();
      search(targets, st.query, {
        includeTools: st.fullText.includeTools,
        signal: ac.signal,
        onMatch: (path, snippet) => {
          hits.push([path, snippet]);
          schedule();
        },
        onProgress: (n) => {
          searched = n;
          schedule();
        },
      }).then(
        () => {
          if (ac.signal.aborted) return;
          flush();
          dispatch({ type: "fulltext.done", key });
        },
        () => {
          if (ac.signal.aborted) return;
          flush();
          dispatch({ type: "fulltext.done", key });
        },
      );
    };
    const timer = setTimeout(start, debounceMs);
    return () => {
      ac.abort();
      clearTimeout(timer);
      if (flushTimer) clearTimeout(flushTimer);
    };
  }, [key, scanDone, search, dispatch, debounceMs, throttleMs]);
}
