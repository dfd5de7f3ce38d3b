import type { SearchTarget } from "./fulltext.js";
import { restRank, type SearchPlan } from "./plan.js";
import type { MatchContext, Searchable } from "./query.js";

/* The sessions a search finds, in the browser's order: all of them, or the best few checking as few files as that takes. */

type Session = Searchable & SearchTarget;

/** A session found, at its rank (SearchPlan.rank). */
export interface Ranked<S extends Session = Session> {
  s: S;
  rank: number;
}

/**
 * Higher first: the plan's rank (name hits, then first-message, id and folder hits, then
 * hits deeper in the conversation, then letters scattered over a name), then the newer
 * session. Nothing the index alone knows counts, so the order is the same with and without it.
 */
export function byRelevance(a: Ranked, b: Ranked): number {
  return b.rank - a.rank || b.s.modified.getTime() - a.s.modified.getTime() || (a.s.path < b.s.path ? -1 : 1);
}

/** Every session the plan finds, best first, with `held` saying what each one's conversation holds (its hit's). */
export function rankAll<S extends Session>(
  plan: SearchPlan,
  scoped: readonly S[],
  held: (s: S) => readonly boolean[] | undefined,
): Ranked<S>[] {
  const found: Ranked<S>[] = [];
  for (const s of scoped) {
    const r = plan.rank(s, held(s));
    if (r.rank !== null) found.push({ s, rank: r.rank });
  }
  return found.sort(byRelevance);
}

/** What the conversations hold, asked session by session (the index's plan: src/index/index-search.ts, IndexedPlan). */
export interface BodySource<H extends { held: readonly boolean[] }> {
  /** Per text term, false when the session's conversation cannot hold it. */
  mayHold(t: SearchTarget): readonly boolean[];
  /** The session's hit for what it needs (SearchPlan.needOf), or null. */
  check(t: SearchTarget, need: readonly boolean[]): Promise<H | null>;
}

/**
 * The first `limit` of rankAll's list, with the hits of those: each session's best
 * possible rank (every word its conversation may hold held), best first; a session whose
 * rank needs a hit in its conversation is checked when it comes up, and goes back in line
 * at the rank its hit gives it, if lower. The same list as rankAll's, as long as no date is
 * invalid (then the order's ties are not a total order: not used).
 */
export async function bestFirst<S extends Session, H extends { held: readonly boolean[] }>(
  plan: SearchPlan,
  scoped: readonly S[],
  body: BodySource<H> | null,
  limit: number,
  ctx?: MatchContext,
): Promise<{ found: Ranked<S>[]; hits: Map<string, H> }> {
  const hits = new Map<string, H>();
  const rest = body ? restRank(plan, ctx) : undefined;
  // [the best rank it may have, whether that needs a hit in its conversation] per session.
  type Line = Ranked<S> & { needsText: boolean };
  const line: Line[] = [];
  // Sessions whose fields hold none of the words, which only their conversation can rank
  // (restRank): sorted only if the line reaches them (a word in most sessions' first
  // messages fills the first page with those that hold it); held as two columns until
  // then (at 50,000 sessions, most of them: an object each was garbage).
  const restOf: S[] = [];
  const restRanks: number[] = [];
  let restLine: Line[] = [];
  let restTop = -Infinity;
  for (const s of scoped) {
    const may = body?.mayHold(s);
    const ruled = may?.every(Boolean) ? rest?.of(s) : undefined;
    if (ruled !== undefined) {
      if (ruled === null) continue;
      restOf.push(s);
      restRanks.push(ruled);
      restTop = Math.max(restTop, ruled);
      continue;
    }
    const r = plan.rank(s, may);
    if (r.rank !== null) line.push({ s, rank: r.rank, needsText: r.byText });
  }
  line.sort(byRelevance);
  let restSorted = false;
  let i = 0;
  let j = 0;
  /** The better of the line's next and the rest's next (sorting the rest when it may be). */
  const pick = (): Line | undefined => {
    const a = i < line.length ? line[i] : undefined;
    if (j >= restOf.length || (a && a.rank > restTop)) return a;
    if (!restSorted) {
      restLine = restOf.map((s, k) => ({ s, rank: restRanks[k], needsText: true }));
      restLine.sort(byRelevance);
      restSorted = true;
    }
    const b = restLine[j];
    return a && byRelevance(a, b) <= 0 ? a : b;
  };
  // Sessions whose hit gave them less than they might have had, at that rank: best first.
  const later: Ranked<S>[] = [];
  const found: Ranked<S>[] = [];
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
    // Its hit (if any) is wanted either way: for its rank, or for its snippets.
    const need = body && body.mayHold(f.s).some(Boolean) ? plan.needOf(f.s) : null;
    const hit = need && body ? await body.check(f.s, need) : null;
    if (hit) hits.set(f.s.path, hit);
    const rank = hit || f.needsText ? plan.rank(f.s, hit?.held).rank : f.rank;
    if (rank === null) continue;
    // (Above what it might have had only if its file changed since the index read it.)
    if (rank >= f.rank) {
      found.push({ s: f.s, rank });
      continue;
    }
    const back: Ranked<S> = { s: f.s, rank };
    const at = later.findIndex((x) => byRelevance(back, x) < 0);
    later.splice(at < 0 ? later.length : at, 0, back);
  }
  return { found, hits };
}
