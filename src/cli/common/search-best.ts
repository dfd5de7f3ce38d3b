import {
  planWithIndex,
  searchWithIndex,
  type IndexedHit,
  type IndexedPlan,
  type KnownCoverage,
} from "../../index/index-search.js";
import { output } from "./output.js";
import type { StoreIndex } from "../../index/store-index.js";
import { searchStore, textTerms } from "../../search/fulltext.js";
import { matchSession, type MatchContext, type Query } from "../../search/query.js";
import { bodyRank, sessionRanker } from "../../search/rank.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CliIO } from "./io.js";
import type { Found } from "./search-output.js";
import type { SearchRow } from "./search-rows.js";

type Ranked = Pick<Found, "s" | "rank">;

/* The sessions `search` finds, in the browser's order: all of them, or the best few with the index. */

/**
 * Higher first: the browser's rank (name hits, then first-message, id and folder hits, then
 * hits deeper in the conversation, then letters scattered over a name), then the newer session. Nothing the index alone knows counts, so
 * the order is the same with and without it.
 */
export function byRelevance(a: Ranked, b: Ranked): number {
  return b.rank - a.rank || b.s.modified.getTime() - a.s.modified.getTime() || (a.s.path < b.s.path ? -1 : 1);
}

export async function textHits(
  index: StoreIndex | undefined,
  sessions: SearchRow[],
  query: Query,
  includeTools: boolean,
  io: CliIO,
  known: KnownCoverage | undefined,
): Promise<Map<string, IndexedHit>> {
  const hits = new Map<string, IndexedHit>();
  if (textTerms(query).length === 0) return hits;
  if (index) {
    try {
      return await searchWithIndex(index.db, sessions, query, {
        includeTools,
        known,
        snippets: false,
        onMatch: (h) => hits.set(h.path, h),
      }).then(() => hits);
    } catch (err) {
      output(io).note(`pi-sessions: searched without the index (${sanitizeLine(String(err))})\n`);
      hits.clear();
    }
  }
  await searchStore(
    sessions.map((s) => s.path),
    query,
    {
      includeTools,
      onMatch: (path, snippet) => hits.set(path, { path, snippet, fromIndex: false, lines: [] }),
    },
  );
  return hits;
}

/** Every session the query matches, best first (the browser's rank; a hit only deeper in the conversation counts as BODY_RANK). */
export function rankAll(scoped: SearchRow[], query: Query, hits: Map<string, IndexedHit>, ctx?: MatchContext): Found[] {
  const rank = sessionRanker(query, ctx);
  const found: Found[] = [];
  for (const s of scoped) {
    const r = rank(s, hits.has(s.path));
    if (r.rank !== null) found.push({ s, rank: r.rank, snippets: [] });
  }
  return found.sort(byRelevance);
}

/**
 * The first `limit` of rankAll's list, with the hits of those, checking as few files as
 * that takes: each session's best possible rank (a text hit, unless the index rules it
 * out), best first; a session whose rank needs a text hit is checked when it comes up, and
 * goes back in line at its rank without one if it has none. The same list as rankAll's, as
 * long as no date is invalid (then the order's ties are not a total order: not used).
 * Undefined when the index fails (the caller searches without it).
 */
export async function bestWithIndex(
  index: StoreIndex,
  scoped: SearchRow[],
  query: Query,
  includeTools: boolean,
  limit: number,
  known: KnownCoverage | undefined,
  ctx?: MatchContext,
): Promise<{ found: Found[]; hits: Map<string, IndexedHit> } | undefined> {
  const hits = new Map<string, IndexedHit>();
  let plan: IndexedPlan | null = null;
  if (textTerms(query).length > 0) {
    try {
      plan = planWithIndex(index.db, query, includeTools, known);
    } catch {
      return undefined;
    }
  }
  const rank = sessionRanker(query, ctx);
  const body = plan ? bodyRank(query, ctx) : undefined;
  // [the rank it has without a text hit (null: none; undefined: not worked out yet), the
  // rank it may have] per session. (No snippets: all but the few shown are only ranked.)
  type Line = Ranked & { without: number | null | undefined; needsText: boolean };
  const line: Line[] = [];
  // Sessions whose fields hold none of the words, which only a text hit can rank (bodyRank):
  // sorted only if the line reaches them (a word in most sessions' first messages fills the
  // first page with those that hold it).
  const rest: Line[] = [];
  let restTop = -Infinity;
  for (const s of scoped) {
    const mayText = !!plan?.mayMatch(s);
    const ruled = mayText ? body?.of(s) : undefined;
    if (ruled !== undefined) {
      if (ruled === null) continue;
      rest.push({ s, rank: ruled, without: undefined, needsText: true });
      restTop = Math.max(restTop, ruled);
      continue;
    }
    const r = rank(s, mayText);
    if (r.rank !== null) line.push({ s, rank: r.rank, without: r.own, needsText: r.byText });
  }
  line.sort(byRelevance);
  let restSorted = false;
  let i = 0;
  let j = 0;
  /** The better of the line's next and the rest's next (sorting the rest when it may be). */
  const pick = (): Line | undefined => {
    const a = i < line.length ? line[i] : undefined;
    if (j >= rest.length || (a && a.rank > restTop)) return a;
    if (!restSorted) {
      rest.sort(byRelevance);
      restSorted = true;
    }
    const b = rest[j];
    return a && byRelevance(a, b) <= 0 ? a : b;
  };
  // Sessions that had no text hit after all, at their rank without one: best first.
  const later: Found[] = [];
  const found: Found[] = [];
  while (found.length < limit) {
    const next = pick();
    if (!next && later.length === 0) break;
    if (later.length > 0 && (!next || byRelevance(later[0], next) <= 0)) {
      found.push(later.shift()!);
      continue;
    }
    const f = next!;
    if (f === line[i]) i++;
    else j++;
    // Its text hit (if any) is wanted either way: for its rank, or for its snippets.
    const hit = plan?.mayMatch(f.s) ? await plan.check(f.s) : null;
    if (hit) hits.set(f.s.path, hit);
    if (hit || !f.needsText) {
      found.push({ s: f.s, rank: f.rank, snippets: [] });
      continue;
    }
    const without = f.without === undefined ? matchSession(query, f.s, ctx) : f.without;
    if (without === null) continue;
    const back: Found = { s: f.s, rank: without, snippets: [] };
    const at = later.findIndex((x) => byRelevance(back, x) < 0);
    later.splice(at < 0 ? later.length : at, 0, back);
  }
  return { found, hits };
}
