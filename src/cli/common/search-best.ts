import { planWithIndex, searchWithIndex, type IndexedHit, type KnownCoverage } from "../../index/index-search.js";
import { output } from "./output.js";
import type { StoreIndex } from "../../index/store-index.js";
import { bestFirst, type Ranked } from "../../search/best.js";
import { searchStore } from "../../search/fulltext.js";
import type { SearchPlan } from "../../search/plan.js";
import type { MatchContext } from "../../search/query.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CliIO } from "./io.js";
import { KeptRowsUnreadable, type SearchRow } from "./search-rows.js";
import { modifiedTime } from "./kept-search-row.js";

/*
 * Where `search` asks what the sessions' conversations hold (the plan's words, src/search/plan.ts):
 * the index, else the files. The ranking is the plan's (src/search/best.ts).
 */

/** What every session's conversation holds of what it needs (SearchPlan.needOf): the hits, by path. */
export async function textHits(
  index: StoreIndex | undefined,
  sessions: SearchRow[],
  plan: SearchPlan,
  includeTools: boolean,
  io: CliIO,
  known: KnownCoverage | undefined,
  onUnreadable?: (path: string) => void,
): Promise<Map<string, IndexedHit>> {
  const hits = new Map<string, IndexedHit>();
  if (plan.terms.length === 0) return hits;
  const byPath = new Map(sessions.map((s) => [s.path, s]));
  const need = (path: string) => {
    const s = byPath.get(path);
    return s ? plan.needOf(s) : null;
  };
  if (index) {
    try {
      return await searchWithIndex(index.db, sessions, plan.query, {
        includeTools,
        known,
        need,
        snippets: false,
        onUnreadable,
        onMatch: (h) => hits.set(h.path, h),
      }).then(() => hits);
    } catch (err) {
      // Not the index's: kept rows found damaged (searchCommand makes the search again without them).
      if (err instanceof KeptRowsUnreadable) throw err;
      output(io).note(`pi-sessions: searched without the index (${sanitizeLine(String(err))})\n`);
      hits.clear();
    }
  }
  await searchStore(
    sessions.map((s) => s.path),
    plan.query,
    {
      includeTools,
      need,
      onUnreadable,
      onMatch: (path, snippet, held) => hits.set(path, { path, snippet, held: [...held], fromIndex: false, lines: [] }),
    },
  );
  return hits;
}

/**
 * The first `limit` sessions the plan finds, with the hits of those, checking as few files
 * as that takes with the index (bestFirst). Undefined when the index fails (the caller
 * searches without it).
 */
export async function bestWithIndex(
  index: StoreIndex,
  scoped: SearchRow[],
  plan: SearchPlan,
  includeTools: boolean,
  limit: number,
  known: KnownCoverage | undefined,
  ctx?: MatchContext,
  onUnreadable?: (path: string) => void,
): Promise<{ found: Ranked<SearchRow>[]; hits: Map<string, IndexedHit> } | undefined> {
  let body: ReturnType<typeof planWithIndex> = null;
  if (plan.terms.length > 0) {
    try {
      body = planWithIndex(index.db, plan.query, includeTools, known, { onUnreadable });
    } catch {
      return undefined;
    }
  }
  return bestFirst(plan, scoped, body, limit, ctx, modifiedTime);
}
