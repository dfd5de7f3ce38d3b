import { type Dispatch, useEffect, useRef } from "react";
import type { FullTextFn, SearchTarget } from "../../src/search/fulltext.js";
import type { AppAction, AppState } from "../../src/browser/app/appReducer.js";
import { bodyNeed, coolListFields, inScope, listPlace, warmListFields } from "../../src/browser/list/derive.js";
import type { BodyHit } from "../../src/search/fulltext.js";
import { fullTextKey, type Seen } from "../../src/browser/list/fullText.js";
import { trace, tracing } from "../../src/launcher/trace.js";

export type { FullTextFn };

type TargetsOf = Pick<AppState, "sessions" | "scope" | "launchCwd" | "storeDir">;

/**
 * The last targets made, for the same sessions and scope: a search starts at each pause in
 * typing, and 50,000 targets made again each time were garbage the browser's peak memory
 * grew by. Let go once no query calls for a search (see useFullTextSearch). (Sessions are
 * never changed in place: a changed store is a new map.)
 */
let targetsMemo: { of: TargetsOf; targets: SearchTarget[] } | undefined;

/** The files a search reads: the sessions in scope, most recently modified first, as the scan last saw them. */
export function searchTargets(s: TargetsOf): SearchTarget[] {
  const m = targetsMemo?.of;
  if (m && m.sessions === s.sessions && m.scope === s.scope && m.launchCwd === s.launchCwd && m.storeDir === s.storeDir)
    return targetsMemo!.targets;
  const targets = makeTargets(s);
  targetsMemo = { of: { sessions: s.sessions, scope: s.scope, launchCwd: s.launchCwd, storeDir: s.storeDir }, targets };
  return targets;
}

/** The sessions themselves (each is a target: its path, size, mtime and ctime): no object made per session. */
function makeTargets(s: TargetsOf): SearchTarget[] {
  const list = [];
  for (const x of s.sessions.values()) if (inScope(x, s.scope, s.launchCwd, s.storeDir)) list.push(x);
  return list.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
}

/** How long after the search bar opens its list's field text is made: its frame first (Ink draws at most every 17 ms). */
const WARM_AFTER_MS = 40;

/** Without a KeyStream to ask (tests): no key is ever pending. One function, not one per render (an effect depends on it). */
const NO_KEYS_PENDING = () => false;

/**
 * Runs the full-text search in the background. It starts `debounceMs` after the query
 * (or scope, or tool toggle) last changed, and again once the scan is complete; a newer
 * query aborts the running one. Its start and hits are coalesced into at most one dispatch
 * per `throttleMs`, so typing and moving stay responsive while files are read. A live
 * query follows the store: a session created or appended to after the search read it (the
 * watcher's store.changes) is searched again, alone, and its hit added.
 */
export function useFullTextSearch(
  s: AppState,
  search: FullTextFn,
  dispatch: Dispatch<AppAction>,
  debounceMs = search.debounceMs ?? 150,
  throttleMs = 50,
  keysPending: () => boolean = NO_KEYS_PENDING,
  keysQueued: () => boolean = keysPending,
): void {
  const key = fullTextKey(s.query, s.scope, s.fullText.includeTools);
  // No search, none running: its targets are not kept for the next one.
  useEffect(() => {
    if (key === null) targetsMemo = undefined;
  }, [key]);
  const latest = useRef(s);
  latest.current = s;
  // Read when a search is scheduled, not a dependency of the effect: the search function's
  // debounceMs is a property it may change while it runs, which must not start it again.
  const debounce = useRef(debounceMs);
  debounce.current = debounceMs;
  const scanDone = s.scan.done;
  /** The running or finished search of `key`: its abort, and the files as it took them (by path once the store changes: size, mtime). */
  const live = useRef<{
    key: string;
    ac: AbortController;
    targets: readonly SearchTarget[];
    searched?: Map<string, SearchTarget>;
  } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const ac = new AbortController();
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    let lastFlush = 0;
    /** The least time between two dispatches: throttleMs, or more when one costs more (see flush). */
    let gap = throttleMs;
    let hits: [string, BodyHit][] = [];
    /** Hits taken back (their files turned them down), and how many are left to check. */
    let drop: Seen[] = [];
    /** Hits reported as the index names them, and hits their files confirmed (FullTextState.unchecked). */
    let unchecked: string[] = [];
    let confirmed: string[] = [];
    let checking: number | undefined;
    let searched = 0;
    /**
     * The words each hit holds, one copy per set of words (the hits of a search hold one of a
     * few): 36,000 hits at 50,000 sessions kept an array each. Never changed once made.
     */
    const heldCopies = new Map<number, boolean[]>();
    const heldCopy = (held: readonly boolean[]) => {
      // Keyed by the words as bits under a leading 1 (so lengths differ): nothing made per hit.
      if (held.length > 52) return [...held];
      let k = 1;
      for (let i = 0; i < held.length; i++) k = k * 2 + (held[i] ? 1 : 0);
      let copy = heldCopies.get(k);
      if (!copy) heldCopies.set(k, (copy = [...held]));
      return copy;
    };
    /** The search's start, said with its first hits or progress (see start). */
    let started: AppAction | null = null;
    const flush = () => {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      const t0 = Date.now();
      if (ac.signal.aborted) return;
      if (started) dispatch(started);
      started = null;
      const batch = hits;
      const dropped = drop;
      const named = unchecked;
      const checked = confirmed;
      hits = [];
      drop = [];
      unchecked = [];
      confirmed = [];
      dispatch({
        type: "fulltext.hits",
        key,
        hits: batch,
        searched,
        drop: dropped,
        checking,
        unchecked: named,
        confirmed: checked,
      });
      if (tracing)
        trace(`full text: ${batch.length} hits, ${dropped.length} dropped, dispatched in ${Date.now() - t0} ms`);
      // Each batch ranks every session again: on 50,000 that took 100-200 ms, and at one
      // every 50 ms the search had no time left to search. Four times what the last one
      // cost leaves it at least four fifths of the thread.
      lastFlush = Date.now();
      gap = Math.max(throttleMs, 4 * (lastFlush - t0));
    };
    const schedule = () => {
      if (ac.signal.aborted || flushTimer) return;
      // Never at once: hits reported together (the early answer's whole answer) are one batch,
      // not their first alone and then the rest (each batch ranks every session again).
      flushTimer = setTimeout(flush, Math.max(0, gap - (Date.now() - lastFlush)));
    };
    const start = () => {
      const st = latest.current;
      const targets = searchTargets(st);
      live.current = { key, ac, targets };
      // Said with the first hits, at most throttleMs from now, or with the end: a search the
      // index answers in a few milliseconds is one frame (the results), not three.
      started = { type: "fulltext.start", key, total: targets.length };
      lastFlush = Date.now();
      trace(`full text: search of ${targets.length}`);
      search(targets, st.query, {
        includeTools: st.fullText.includeTools,
        signal: ac.signal,
        // Each word may be anywhere: in the conversation, or in the session's own fields.
        need: bodyNeed(st.sessions, st.query),
        // The rows about to be shown are checked first; the rest may be shown as the index names them.
        place: listPlace(st.sessions, st.query, {
          sort: st.sort,
          namedOnly: st.namedOnly,
          hosts: st.hosts?.map((h) => h.name),
        }),
        onMatch: (path, snippet, held, isUnchecked) => {
          hits.push([path, { snippet, held: heldCopy(held) }]);
          (isUnchecked ? unchecked : confirmed).push(path);
          schedule();
        },
        // Said with the next batch (the count left to check, twice a second), not in a frame of
        // its own: one per slice cost more than the checking. Until then its row's action waits for its file.
        onConfirmed: (path) => void confirmed.push(path),
        onMiss: (path, seen) => {
          drop.push({ path, ...seen });
          schedule();
        },
        onChecking: (left) => {
          const answered = checking === undefined;
          checking = left;
          // The early answer is whole (its first call): taken in at the next timer, not after
          // the gap a batch of it read before may have set (its checking of the named waits).
          if (answered && !ac.signal.aborted) {
            if (flushTimer) clearTimeout(flushTimer);
            flushTimer = setTimeout(flush, 0);
          } else schedule();
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
    // Keys read and not yet handed to the UI will change the query: a search started now would
    // hold the thread they wait for (a timer runs before the terminal's next read is taken
    // in, and a key that took longer than the debounce to handle let it fire between keys).
    const startWhenKeysPause = () => {
      if (keysPending()) timer = setTimeout(startWhenKeysPause, debounce.current);
      else start();
    };
    let timer = setTimeout(startWhenKeysPause, debounce.current);
    return () => {
      ac.abort();
      if (live.current?.ac === ac) live.current = null;
      clearTimeout(timer);
      if (flushTimer) clearTimeout(flushTimer);
    };
  }, [key, scanDone, search, dispatch, throttleMs, keysPending]);

  // The search bar opened, the list complete: what a first search reads first is read while
  // the query is typed (a search starts only once keys pause: at the last key, at best).
  // Put off while keys wait behind the one being handled, not while that one is: at 50,000
  // sessions one key or another was being handled nearly all the time while typing, and the
  // first search read what the warm-up had not (0.1-0.3 s after the last key).
  const barOpen = s.stack.some((l) => l.kind === "search");
  useEffect(() => {
    if (barOpen && scanDone) search.warm?.(keysQueued);
  }, [barOpen, scanDone, search, keysQueued]);
  // And the list's field text the first word is matched against (derive.ts warmListFields),
  // once the bar's frame is drawn. Not put off while keys wait: a word typed meanwhile would
  // make it at its own derive anyway, and at 50,000 sessions keys typed one after another
  // stay pending until the last one (each is a derive and a frame), so it was made at the first.
  // Once per opening, of the list as it is then: not again at each change of the store while
  // the bar is open (pi writing: ~60 ms each at 50,000 sessions, for a word maybe never typed).
  useEffect(() => {
    if (!barOpen || !scanDone) return;
    const timer = setTimeout(() => {
      const st = latest.current;
      warmListFields(st.sessions, { scope: st.scope, cwd: st.launchCwd, storeDir: st.storeDir, sort: st.sort });
    }, WARM_AFTER_MS);
    // Closed with nothing typed: the text is not kept for a search that may never come.
    return () => {
      clearTimeout(timer);
      coolListFields();
    };
  }, [barOpen, scanDone]);

  // The sessions changed (pi wrote): those the search has not read as they are now are searched again.
  const sessions = s.sessions;
  useEffect(() => {
    const run = live.current;
    if (!run || run.key !== key || run.ac.signal.aborted) return;
    const st = latest.current;
    // What the search took, by path: made when the store first changes under it.
    const searched = (run.searched ??= new Map(run.targets.map((t) => [t.path, t])));
    const changed = searchTargets(st).filter((t) => {
      const was = searched.get(t.path);
      return !was || was.bytes !== t.bytes || was.mtimeMs !== t.mtimeMs;
    });
    if (changed.length === 0) return;
    for (const t of changed) searched.set(t.path, t);
    const hits: [string, BodyHit][] = [];
    const finish = (whole: boolean) => {
      if (run.ac.signal.aborted) return;
      // Read from the files as they are now: the hits found are checked, and a session searched
      // whole without one loses the hit it had (an unchecked one whose take-back the reducer
      // ignored as pi was writing to it stays listed otherwise). A search that failed takes nothing back.
      const found = new Set(hits.map(([p]) => p));
      const drop: Seen[] = whole
        ? changed.filter((t) => !found.has(t.path)).map(({ path, bytes, mtimeMs }) => ({ path, bytes, mtimeMs }))
        : [];
      if (hits.length || drop.length)
        dispatch({
          type: "fulltext.hits",
          key: run.key,
          hits,
          confirmed: [...found],
          ...(drop.length ? { drop } : {}),
        });
    };
    search(changed, st.query, {
      includeTools: st.fullText.includeTools,
      signal: run.ac.signal,
      need: bodyNeed(st.sessions, st.query),
      onMatch: (path, snippet, held) => void hits.push([path, { snippet, held: [...held] }]),
      onProgress: () => {},
    }).then(
      (r) => finish(!r.aborted),
      () => finish(false),
    );
  }, [sessions, key, search, dispatch]);
}
