import type { SearchTarget } from "./fulltext.js";
import { rankBounds, restRank, type SearchPlan } from "./plan.js";
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
  return b.rank - a.rank || byNewest(a.s, b.s);
}

/** A session's modified time, from its Date. */
const dateOf = (s: Session) => s.modified.getTime();

/** byRelevance's order at the same rank: the newer session (by `timeOf`), then by path. */
function byNewest<S extends Session>(a: S, b: S, timeOf: (s: S) => number = dateOf): number {
  return timeOf(b) - timeOf(a) || (a.path < b.path ? -1 : 1);
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
 *
 * Sessions are ranked only when the line may reach them: grouped by a bound of their rank
 * told from the field text (rankBounds), a group is ranked once its bound reaches the best
 * ranked so far. A group whose bound is its rank (a word in 15,000 first messages) is
 * never ranked as a whole: only its newest few, as many as the page has left, enter the line
 * (`timeOf`: a session's modified time, where its Date need not be made).
 */
export async function bestFirst<S extends Session, H extends { held: readonly boolean[] }>(
  plan: SearchPlan,
  scoped: readonly S[],
  body: BodySource<H> | null,
  limit: number,
  ctx?: MatchContext,
  timeOf?: (s: S) => number,
): Promise<{ found: Ranked<S>[]; hits: Map<string, H> }> {
  const hits = new Map<string, H>();
  const rest = body ? restRank(plan, ctx) : undefined;
  // [the best rank it may have, whether that needs a hit in its conversation] per session.
  type Line = Ranked<S> & { needsText: boolean };
  let line: Line[] = [];
  let i = 0;
  const groups = groupsOf(plan, scoped, ctx);
  let g = 0;
  // Sessions whose hit gave them less than they might have had, at that rank: best first.
  const later: Ranked<S>[] = [];
  const found: Ranked<S>[] = [];
  /** The best rank in line, or -Infinity. */
  const top = () => Math.max(i < line.length ? line[i].rank : -Infinity, later.length > 0 ? later[0].rank : -Infinity);
  /** Ranks a group's sessions into the line (a group whose bound is exact: its best `room`). */
  const rankGroup = ({ bound, exact, at }: Group, room: number) => {
    const fresh: Line[] = line.slice(i);
    if (exact)
      for (const k of newest(scoped, at, room, timeOf)) fresh.push({ s: scoped[k], rank: bound, needsText: false });
    else
      for (const k of at) {
        const s = scoped[k];
        const may = body?.mayHold(s);
        // Sessions whose fields hold none of the words, which only their conversation can rank.
        const ruled = may?.every(Boolean) ? rest?.of(s) : undefined;
        if (ruled === null) continue;
        if (ruled !== undefined) {
          fresh.push({ s, rank: ruled, needsText: true });
          continue;
        }
        const r = plan.rank(s, may);
        if (r.rank !== null) fresh.push({ s, rank: r.rank, needsText: r.byText });
      }
    line = fresh.sort(byRelevance);
    i = 0;
  };
  while (found.length < limit) {
    // A group that may hold a session as good as the best in line is ranked first.
    while (g < groups.length && groups[g].bound >= top()) rankGroup(groups[g++], limit - found.length);
    const next = i < line.length ? line[i] : undefined;
    if (!next && later.length === 0) break;
    if (later.length > 0 && (!next || byRelevance(later[0], next) <= 0)) {
      found.push(later.shift()!);
      continue;
    }
    const f = next!;
    i++;
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

/** Sessions (by their place) whose rank is at most `bound`; `exact`: it is their rank. */
interface Group {
  bound: number;
  exact: boolean;
  at: number[];
}

/** The sessions grouped by their rank's bound, the highest first (one group of all when the context cannot bound them). */
function groupsOf(plan: SearchPlan, scoped: readonly Session[], ctx?: MatchContext): Group[] {
  const bounds = rankBounds(plan, scoped, ctx);
  if (!bounds) return [{ bound: Infinity, exact: false, at: scoped.map((_, k) => k) }];
  const { bound, exact } = bounds;
  const byBound = new Map<number, Group>();
  const exactBy = new Map<number, Group>();
  for (let k = 0; k < scoped.length; k++) {
    const b = bound[k];
    const isExact = exact[k] === 1;
    const into = isExact ? exactBy : byBound;
    let group = into.get(b);
    if (!group) into.set(b, (group = { bound: b, exact: isExact, at: [] }));
    group.at.push(k);
  }
  // At the same bound, the group to rank in full first (either is ranked before the line passes it).
  return [...byBound.values(), ...exactBy.values()].sort((a, b) => b.bound - a.bound);
}

/** The best `n` of these sessions (by place) at the same rank: the newest, then by path (byRelevance's order). */
function newest<S extends Session>(
  scoped: readonly S[],
  at: readonly number[],
  n: number,
  timeOf?: (s: S) => number,
): number[] {
  const order = (a: number, b: number) => byNewest(scoped[a], scoped[b], timeOf);
  if (at.length <= n || n > NEWEST_BY_INSERTION) return [...at].sort(order).slice(0, n);
  // The best n so far, best first: a session enters only when better than the last of them.
  const best: number[] = [];
  for (const k of at) {
    if (best.length === n && order(k, best[n - 1]) >= 0) continue;
    let j = best.length;
    while (j > 0 && order(k, best[j - 1]) < 0) j--;
    best.splice(j, 0, k);
    if (best.length > n) best.pop();
  }
  return best;
}

/** Up to this many of a group are picked one by one (newest); more, and the group is sorted. */
const NEWEST_BY_INSERTION = 64;
