import { textTerms } from "../../search/fulltext.js";
import type { PlanRank } from "../../search/plan.js";
import { BODY_RANK, matchSession, type MatchContext, type Query, type Term } from "../../search/query.js";
import type { ListedSession } from "./sessions.js";

/*
 * Each term's score by a session's own fields, kept by the term's text for the next keys:
 * typing "parser cache" ranks every session at every key, and from the space on the first
 * word is the same term at each key (a session whose fields fail it fails the query, the
 * next word not looked at). matchSession of a query is its terms' scores summed, or null
 * when one is 0; one term's is matchSession of that term alone. Exact, as nothing here
 * depends on the other terms. Kept by place in one list of sessions (the list's base
 * order, the same object from key to key): an array a term, not a map keyed by session
 * (a WeakMap of 50,000 sessions cost more than the scores it saved).
 */

/** Terms kept (the current query's, and a few before it). */
const KEPT = 16;

let kept: { list: readonly ListedSession[]; byTerm: Map<string, Float64Array> } | undefined;

/** A term's key: its parsed form (a pattern's object is no key: never kept). */
function keyOf(t: Term): string | undefined {
  return t.kind === "regex" ? undefined : JSON.stringify(t);
}

/** The query's rank of `list[i]` by its fields alone, as matchSession(query, list[i], ctx) gives it. */
export interface FieldRank {
  (i: number): number | null;
  /** With its conversation's hit: which text terms it holds (as searchPlan(query, ctx).rank(list[i], held)). */
  held(i: number, held: readonly boolean[]): PlanRank;
  /** Which text terms it needs of its conversation (as searchPlan(query, ctx).needOf(list[i])). */
  need(i: number): boolean[] | null;
}

const NO_MATCH: PlanRank = { rank: null, byText: false };

/** matchSession for the sessions of `list`, each term's score taken from what the keys before scored in the same list. */
export function fieldRanker(query: Query, ctx: MatchContext, list: readonly ListedSession[]): FieldRank {
  if (kept?.list !== list) kept = { list, byTerm: new Map() };
  const byTerm = kept.byTerm;
  const terms = query.terms.map((t) => {
    const key = keyOf(t);
    let scores = key === undefined ? undefined : byTerm.get(key);
    if (key !== undefined && !scores) {
      if (byTerm.size >= KEPT) byTerm.delete(byTerm.keys().next().value!);
      // NaN: not scored yet.
      byTerm.set(key, (scores = new Float64Array(list.length).fill(NaN)));
    }
    return { one: { terms: [t] } as Query, scores };
  });
  const scoreOf = (k: number, i: number): number => {
    const { one, scores } = terms[k];
    let sc = scores ? scores[i] : NaN;
    if (Number.isNaN(sc)) {
      sc = matchSession(one, list[i], ctx) ?? 0;
      if (scores) scores[i] = sc;
    }
    return sc;
  };
  const rank = (i: number): number | null => {
    let total = 0;
    for (let k = 0; k < terms.length; k++) {
      const sc = scoreOf(k, i);
      if (sc === 0) return null;
      total += sc;
    }
    return total;
  };
  // Each query term's place among the text terms (what `held` is by), or -1 for a filter.
  const text = textTerms(query);
  const textAt = query.terms.map((t) => text.indexOf(t as (typeof text)[number]));
  // searchPlan's rank: a word its conversation holds counts BODY_RANK where its fields rank it lower.
  rank.held = (i: number, held: readonly boolean[]): PlanRank => {
    if (terms.length === 0) return { rank: 0, byText: false };
    let total = 0;
    let byText = false;
    for (let k = 0; k < terms.length; k++) {
      const own = scoreOf(k, i);
      if (textAt[k] >= 0 && held[textAt[k]] === true && own < BODY_RANK) {
        total += BODY_RANK;
        byText = true;
      } else if (own === 0) return NO_MATCH;
      else total += own;
    }
    return { rank: total, byText };
  };
  // searchPlan's needOf: null when a filter turns it away, else the words its fields lack.
  rank.need = (i: number): boolean[] | null => {
    const need = text.map(() => true);
    for (let k = 0; k < terms.length; k++) {
      const sc = scoreOf(k, i);
      if (sc === 0 && textAt[k] < 0) return null;
      if (textAt[k] >= 0 && sc > 0) need[textAt[k]] = false;
    }
    return need;
  };
  return rank;
}
