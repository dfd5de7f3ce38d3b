import { fullTextSignature } from "../../search/fulltext.js";
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
  /** path → snippet of the first hit. */
  hits: ReadonlyMap<string, string>;
  running: boolean;
  /** Files searched and to search, for the progress shown in the search bar. */
  searched: number;
  total: number;
}

export type FullTextAction =
  | { type: "fulltext.start"; key: string; total: number }
  | {
      type: "fulltext.hits";
      key: string;
      hits: readonly (readonly [path: string, snippet: string])[];
      searched: number;
    }
  | { type: "fulltext.done"; key: string };

export const INITIAL_FULL_TEXT: FullTextState = {
  includeTools: false,
  key: null,
  hits: new Map(),
  running: false,
  searched: 0,
  total: 0,
};

/** The search the current query, scope and toggle call for; null when none is needed. */
export function fullTextKey(q: Query, scope: Scope, includeTools: boolean): string | null {
  const sig = fullTextSignature(q);
  return sig === null ? null : `${includeTools ? "tools" : "text"}\u0000${scope}\u0000${sig}`;
}

/** The hits that apply to this query/scope/toggle, or undefined. */
export function activeHits(ft: FullTextState, q: Query, scope: Scope): ReadonlyMap<string, string> | undefined {
  const key = fullTextKey(q, scope, ft.includeTools);
  return key !== null && key === ft.key ? ft.hits : undefined;
}

/** State changes of the full-text actions; `changedHits` says whether rows must be re-derived. */
export function reduceFullText(ft: FullTextState, a: FullTextAction): { ft: FullTextState; changedHits: boolean } {
  switch (a.type) {
    case "fulltext.start":
      return {
        ft: { ...ft, key: a.key, hits: new Map(), running: true, searched: 0, total: a.total },
        changedHits: ft.hits.size > 0 || ft.key !== a.key,
      };
    case "fulltext.hits": {
      if (a.key !== ft.key) return { ft, changedHits: false };
      if (a.hits.length === 0) return { ft: { ...ft, searched: a.searched }, changedHits: false };
      const hits = new Map(ft.hits);
      for (const [p, s] of a.hits) hits.set(p, s);
      return { ft: { ...ft, hits, searched: a.searched }, changedHits: true };
    }
    case "fulltext.done":
      if (a.key !== ft.key) return { ft, changedHits: false };
      return { ft: { ...ft, running: false, searched: ft.total }, changedHits: false };
  }
}

/** What the search bar says about the full-text search: "full text 120/2000", "+tools". */
export function fullTextNote(ft: FullTextState, q: Query, scope: Scope): string {
  const tools = ft.includeTools ? " +tools" : "";
  const key = fullTextKey(q, scope, ft.includeTools);
  if (key === null) return ft.includeTools ? "full text +tools" : "";
  if (key !== ft.key) return `full text${tools}…`;
  if (ft.running) return `full text${tools} ${ft.searched}/${ft.total}…`;
  return `full text${tools}`;
}
