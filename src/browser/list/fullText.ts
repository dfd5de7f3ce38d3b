import { fullTextSignature, type BodyHit } from "../../search/fulltext.js";
import type { Query } from "../../search/query.js";
import type { Scope } from "./derive.js";

/*
 * Full-text search as the reducer holds it. The search itself runs in a hook
 * (useFullTextSearch); results are tagged with the key of the search that produced
 * them, so hits of an older query (or scope, or tool toggle) are never applied.
 */

export interface FullTextState {
  /** Also search tool output, tool calls and bash commands. */
  includeTools: boolean;
  /** Key of the search the hits belong to; null before any search. */
  key: string | null;
  /** path → the snippet of the first hit, and which words its conversation holds. */
  hits: ReadonlyMap<string, BodyHit>;
  running: boolean;
  /** Files searched and to search, for the progress shown in the search bar. */
  searched: number;
  total: number;
  /** Hits reported as the index named them, still to be checked against their files. */
  checking: number;
  /**
   * The selected session's hit its file turned down: kept (its snippet saying so) until the
   * cursor leaves it, so the row under the cursor never changes under a key in flight.
   */
  declined: string | null;
  /** Hits reported as the index names them and not yet confirmed by their files: an action on one waits for its file (see update). */
  unchecked: ReadonlySet<string>;
}

/** A file as a check saw it. */
export interface Seen {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export type FullTextAction =
  | { type: "fulltext.start"; key: string; total: number }
  | {
      type: "fulltext.hits";
      key: string;
      hits: readonly (readonly [path: string, hit: BodyHit])[];
      /** Files searched so far; absent for the hits of sessions searched again since they changed (the progress stays). */
      searched?: number;
      /** Hits taken back: their files turned them down, as big and as old as the check saw them (applied after `hits`). */
      drop?: readonly Seen[];
      /** Hits left to check against their files (FullTextState.checking). */
      checking?: number;
      /** Of `hits`, those reported as the index names them (FullTextState.unchecked). */
      unchecked?: readonly string[];
      /** Hits their files confirmed since, or reported checked (applied after `unchecked`). */
      confirmed?: readonly string[];
    }
  | { type: "fulltext.done"; key: string };

export const INITIAL_FULL_TEXT: FullTextState = {
  includeTools: false,
  key: null,
  hits: new Map(),
  running: false,
  searched: 0,
  total: 0,
  checking: 0,
  declined: null,
  unchecked: new Set(),
};

/** What the row of a selected hit its file turned down says, until the cursor leaves it. */
export const NO_LONGER_MATCHES = "(no longer matches the search)";

/** The search the current query, scope and toggle call for; null when none is needed. */
export function fullTextKey(q: Query, scope: Scope, includeTools: boolean): string | null {
  const sig = fullTextSignature(q);
  return sig === null ? null : `${includeTools ? "tools" : "text"}\u0000${scope}\u0000${sig}`;
}

/** The hits that apply to this query/scope/toggle, or undefined. */
export function activeHits(ft: FullTextState, q: Query, scope: Scope): ReadonlyMap<string, BodyHit> | undefined {
  const key = fullTextKey(q, scope, ft.includeTools);
  return key !== null && key === ft.key ? ft.hits : undefined;
}

/**
 * State changes of the full-text actions (hitsShownChanged says whether rows must be
 * re-derived); `selected` is the selected session, whose hit a drop marks instead of removing.
 */
export function reduceFullText(
  ft: FullTextState,
  a: FullTextAction,
  selected: string | null = null,
  current: (path: string) => Omit<Seen, "path"> | undefined = () => undefined,
): FullTextState {
  switch (a.type) {
    case "fulltext.start":
      return {
        ...ft,
        key: a.key,
        hits: new Map(),
        running: true,
        searched: 0,
        total: a.total,
        checking: 0,
        declined: null,
        unchecked: new Set(),
      };
    case "fulltext.hits": {
      if (a.key !== ft.key) return ft;
      const searched = a.searched ?? ft.searched;
      const checking = a.checking ?? ft.checking;
      const unchecked = nextUnchecked(ft.unchecked, a);
      // A take-back of a session with no hit (a changed session searched again, never a hit) changes nothing.
      if (a.hits.length === 0 && !a.drop?.some((d) => ft.hits.has(d.path)))
        return searched === ft.searched && checking === ft.checking && unchecked === ft.unchecked
          ? ft
          : { ...ft, searched, checking, unchecked };
      const hits = new Map(ft.hits);
      let declined = ft.declined;
      for (const [p, h] of a.hits) {
        hits.set(p, h);
        if (p === declined) declined = null;
      }
      for (const { path: p, bytes, mtimeMs } of a.drop ?? []) {
        // A session pi wrote to since the check read it: its newer hit (or its search) stands.
        const now = current(p);
        if (now && (now.bytes !== bytes || now.mtimeMs !== mtimeMs)) continue;
        if (unchecked.has(p)) (unchecked as Set<string>).delete(p); // a copy: nextUnchecked made one when it holds any
        const h = hits.get(p);
        if (h && p === selected) {
          hits.set(p, { ...h, snippet: NO_LONGER_MATCHES });
          declined = p;
        } else hits.delete(p);
      }
      return { ...ft, hits, searched, checking, declined, unchecked };
    }
    case "fulltext.done":
      if (a.key !== ft.key) return ft;
      // Hits still unchecked stay held: a take-back ignored as pi wrote to the file waits for
      // the search of the changed session (which takes it back or confirms it), and a search
      // that failed confirmed nothing more.
      return { ...ft, running: false, searched: ft.total, checking: 0 };
  }
}

/** The paths still to check after a batch of hits: a copy when it changes (or may, by a drop), else the same set. */
function nextUnchecked(
  was: ReadonlySet<string>,
  a: Extract<FullTextAction, { type: "fulltext.hits" }>,
): ReadonlySet<string> {
  const adds = a.unchecked ?? [];
  const checked = a.confirmed ?? [];
  if (
    adds.length === 0 &&
    (was.size === 0 || (!checked.some((p) => was.has(p)) && !a.drop?.some((d) => was.has(d.path))))
  )
    return was;
  const next = new Set(was);
  for (const p of adds) next.add(p);
  for (const p of checked) next.delete(p);
  return next;
}

/** The hits of this search the selected row's action must wait for its file on (update): unchecked, or nothing. */
export function isUnchecked(ft: FullTextState, path: string, q: Query, scope: Scope): boolean {
  return ft.unchecked.has(path) && fullTextKey(q, scope, ft.includeTools) === ft.key;
}

/** The hits without the declined one once the cursor has left it (`selected`); ft itself when nothing goes. */
export function settleDeclined(ft: FullTextState, selected: string | null): FullTextState {
  if (ft.declined === null || ft.declined === selected) return ft;
  const hits = new Map(ft.hits);
  hits.delete(ft.declined);
  return { ...ft, hits, declined: null };
}

/**
 * Whether the rows drawn for this query and scope differ between the two states: only by
 * the hits they show, and no hits shown is no hits shown (a search starting, while the
 * hits of the query before are not this one's, changes no row: not derived again, ~12 ms a
 * key on 10,000 sessions).
 */
export function hitsShownChanged(before: FullTextState, after: FullTextState, q: Query, scope: Scope): boolean {
  const was = activeHits(before, q, scope);
  const now = activeHits(after, q, scope);
  if (!was?.size && !now?.size) return false;
  return was !== now;
}

/**
 * What the search bar says about the full-text search: "full text 120/2000…" while sessions
 * are searched, "full text · checking 900" once every session is answered and hits the
 * index named are being checked against their files, "+tools".
 */
export function fullTextNote(ft: FullTextState, q: Query, scope: Scope): string {
  const tools = ft.includeTools ? " +tools" : "";
  const key = fullTextKey(q, scope, ft.includeTools);
  if (key === null) return ft.includeTools ? "full text +tools" : "";
  if (key !== ft.key) return `full text${tools}…`;
  if (ft.running && ft.checking > 0 && ft.searched >= ft.total) return `full text${tools} · checking ${ft.checking}`;
  if (ft.running) return `full text${tools} ${ft.searched}/${ft.total}…`;
  return `full text${tools}`;
}
