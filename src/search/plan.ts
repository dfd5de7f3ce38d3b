import { fieldQuery, textTerms, type TextTerm } from "./fulltext.js";
import {
  BODY_RANK,
  fieldScorer,
  SUBSTRING,
  TEXT_RANK,
  tierRank,
  type MatchContext,
  matchSession,
  normalizeSpace,
  type Query,
  type Searchable,
  HELD,
  HELD_ELSEWHERE,
  HELD_NOWHERE,
  longestWord,
} from "./query.js";

/*
 * The one search plan of the browser's list, the search command and the index: which
 * sessions a query finds and how they rank. As in pi's /resume (its session picker), each
 * word is matched on its own, so the words may hit different places: one the name, one
 * the folder or the id, one a message deep in the conversation. A word counts by the best
 * place it is in: the fields the row shows (name, first message, id, folder; ranked by
 * termScore's tiers), else the conversation (BODY_RANK: below what the row shows, above
 * letters scattered over a name or a folder). Field filters (cwd:, model:, dates) must hold.
 *
 * The conversation is searched in the background (src/search/fulltext.ts, or with the
 * index, src/index/index-search.ts): `needOf` tells that search, per session, which words
 * only its conversation can give it (a file lacking one of those is no match, and with the
 * index is never read); it reports which words the conversation holds, and `rank` ranks
 * the session with them.
 */

export interface PlanRank {
  /** null: no match. */
  rank: number | null;
  /** A word counts by its hit in the conversation (the conversation's snippet says why the session matched). */
  byText: boolean;
}

export interface SearchPlan {
  readonly query: Query;
  /** The words, phrases and patterns searched in the conversation (textTerms), in the order `held` and `needOf` follow. */
  readonly terms: readonly TextTerm[];
  /**
   * Per text term, true when the session's own fields do not hold it at all (not even by
   * scattered letters): it matches only if its conversation does. null when it cannot match
   * whatever its conversation holds (a field filter turns it away).
   */
  needOf(s: Searchable): boolean[] | null;
  /** The session's rank, with `held` saying per text term whether its conversation holds it (none, when undefined). */
  rank(s: Searchable, held?: readonly boolean[]): PlanRank;
}

const NO_MATCH: PlanRank = { rank: null, byText: false };
/** The empty query's (a query of filters only has none: restRank asks it of every session). */
const ANY: PlanRank = Object.freeze({ rank: 0, byText: false });

/**
 * Each session's rank per term by its own fields (null: a field filter turns it away), per
 * query: the browser ranks every session again as hits stream in, and asks what each needs
 * of its conversation when the search starts, for the same query; kept only for a context
 * that keeps folded fields (MatchContext.keepFolded: a command ranks once). (Sessions are
 * not changed in place: a changed one is a new object.)
 */
const fieldScores = new WeakMap<Query, WeakMap<Searchable, number[] | null>>();

export function searchPlan(query: Query, ctx?: MatchContext): SearchPlan {
  const terms = textTerms(query);
  const isText = new Set<unknown>(terms);
  /** Each query term's place among the text terms, or -1 for a filter. */
  const textAt = query.terms.map((t) => (isText.has(t) ? terms.indexOf(t as TextTerm) : -1));
  let memo = ctx?.keepFolded ? fieldScores.get(query) : undefined;
  if (!memo && ctx?.keepFolded) fieldScores.set(query, (memo = new WeakMap()));
  const scoresOf = (s: Searchable): number[] | null => {
    let got = memo?.get(s);
    if (got !== undefined) return got;
    const score = fieldScorer(s, ctx);
    got = [];
    for (let k = 0; k < query.terms.length; k++) {
      const sc = score(query.terms[k]);
      if (sc === 0 && textAt[k] < 0) {
        got = null;
        break;
      }
      got.push(sc);
    }
    memo?.set(s, got);
    return got;
  };
  return {
    query,
    terms,
    needOf(s) {
      const scores = scoresOf(s);
      if (!scores) return null;
      const need = terms.map(() => true);
      for (let k = 0; k < scores.length; k++) if (textAt[k] >= 0 && scores[k] > 0) need[textAt[k]] = false;
      return need;
    },
    rank(s, held) {
      if (query.terms.length === 0) return ANY;
      // Without a hit, by its fields alone: no need to score every term of a session that fails one.
      if (!held && !memo?.has(s)) {
        const own = matchSession(query, s, ctx);
        return own === null ? NO_MATCH : { rank: own, byText: false };
      }
      const scores = scoresOf(s);
      if (!scores) return NO_MATCH;
      let total = 0;
      let byText = false;
      for (let k = 0; k < scores.length; k++) {
        const own = scores[k];
        const inText = textAt[k] >= 0 && held?.[textAt[k]] === true;
        if (inText && own < BODY_RANK) {
          total += BODY_RANK;
          byText = true;
        } else if (own === 0) return NO_MATCH;
        else total += own;
      }
      return { rank: total, byText };
    },
  };
}

/** What restRank says of the sessions whose fields hold none of a query's words. */
export interface RestRank {
  /**
   * The best rank the session can have, when its fields hold none of the query's words
   * (each then counts BODY_RANK if its conversation holds it); undefined when it must be
   * ranked in full (it holds one, or might), null when the field filters turn it away.
   */
  of(s: Searchable): number | null | undefined;
}

/**
 * For a query whose every text term the context can rule on (words and phrases without a
 * capital or a space): a session holding none of them in its fields can only match each
 * by its conversation (BODY_RANK) or by letters scattered over its name or folder (tier 2,
 * below BODY_RANK), so its best rank is the field filters' and BODY_RANK per term, as the
 * plan would say with every word held, without matching its fields. A search ranking ten
 * thousand sessions for a word in most of their conversations leaves those to the end of
 * the line, unsorted until reached. Undefined when the query has no such terms or the
 * context cannot rule.
 */
export function restRank(plan: SearchPlan, ctx?: MatchContext): RestRank | undefined {
  const mayHold = ctx?.mayHold;
  const { terms, query } = plan;
  if (!mayHold || terms.length === 0) return undefined;
  const texts: string[] = [];
  for (const t of terms) {
    if (t.kind === "regex" || t.cased) return undefined;
    const text = t.kind === "phrase" ? normalizeSpace(t.text) : t.text;
    if (!text || text.includes(" ")) return undefined;
    texts.push(text);
  }
  const filters = searchPlan(fieldQuery(query), ctx);
  const textRank = terms.length * BODY_RANK;
  return {
    of(s) {
      for (const text of texts) if (mayHold(text, s)) return undefined;
      const filtered = filters.rank(s).rank;
      return filtered === null ? null : filtered + textRank;
    },
  };
}

/** The most a text term's best field can count (a name hit at pi's best score, as tierRank clamps it). */
const NAME_MOST = tierRank(0, -Infinity);
/** What a field filter counts when it holds. */
const FILTER_MOST = SUBSTRING;

/** Upper bounds of sessions' ranks, told from where the field text holds the words (rankBounds). */
export interface RankBounds {
  /** Per session: at least plan.rank(s, held) for any `held` (a session whose bound is below a rank found already need not be ranked). */
  bound: Float64Array;
  /** Per session, 1 where the bound is its rank whatever the conversation holds (every term a field's TEXT_RANK). */
  exact: Uint8Array;
}

/**
 * Each session's bound without its fields read (a command ranking 50,000 sessions for a
 * word in 15,000 first messages need only rank those that can be among the first few):
 * per word, TEXT_RANK where a field other than the name holds it (exact: the conversation
 * cannot add to it), BODY_RANK where no field does (the conversation's, above letters
 * scattered over a name), a name's best otherwise; filters as if they held. Worked out a
 * term at a time over the context's holders by place (a call per session and term was
 * 30–80 ms at 50,000 sessions). Undefined when the context cannot say where words are
 * (then every session is ranked).
 */
export function rankBounds(
  plan: SearchPlan,
  scoped: readonly Searchable[],
  ctx?: MatchContext,
): RankBounds | undefined {
  const whereHeld = ctx?.whereHeld;
  const placeOf = ctx?.placeOf;
  if (!whereHeld || !placeOf) return undefined;
  const n = scoped.length;
  const places = new Int32Array(n);
  for (let k = 0; k < n; k++) places[k] = placeOf(scoped[k]);
  const bound = new Float64Array(n);
  const exact = new Uint8Array(n).fill(1);
  /** Adds a word's bound. */
  const addWord = (text: string) => {
    const held = text ? whereHeld(text) : undefined;
    for (let k = 0; k < n; k++) {
      const p = places[k];
      const where = p < 0 || !held ? HELD : held[p];
      if (where === HELD_NOWHERE) {
        bound[k] += BODY_RANK;
        exact[k] = 0;
      } else if (where === HELD_ELSEWHERE) bound[k] += TEXT_RANK;
      else {
        bound[k] += NAME_MOST;
        exact[k] = 0;
      }
    }
  };
  /** Adds the same to every session's bound, which is then not exact. */
  const addAll = (most: number) => {
    for (let k = 0; k < n; k++) bound[k] += most;
    exact.fill(0);
  };
  for (const t of plan.query.terms) {
    if (t.kind === "word" && !t.cased) addWord(t.text);
    else if (t.kind === "phrase" && !t.cased) {
      // A field holding the phrase holds each of its words: where one is held nowhere, so is
      // the phrase. One word is enough to lower the bound: the longest, held by the fewest
      // (a scan and an array per word, "i" and "the" held by nearly every session, cost more).
      const word = longestWord(normalizeSpace(t.text).split(" "));
      const held = word ? whereHeld(word) : undefined;
      for (let k = 0; k < n; k++)
        bound[k] += held && places[k] >= 0 && held[places[k]] === HELD_NOWHERE ? BODY_RANK : NAME_MOST;
      exact.fill(0);
    } else if (t.kind === "field" || t.kind === "date") addAll(FILTER_MOST);
    else if (t.kind === "never") exact.fill(0);
    else addAll(NAME_MOST);
  }
  return { bound, exact };
}
