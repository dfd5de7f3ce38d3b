import { fieldQuery, textTerms } from "./fulltext.js";
import { BODY_RANK, type MatchContext, matchSession, normalizeSpace, type Query } from "./query.js";

type Ranked = Parameters<typeof matchSession>[1];

/** A session's rank for a query: by its own fields, and with a full-text hit if it has one. */
export interface SessionRank {
  /** By its name, first message, id and folder alone (null: they do not match). */
  own: number | null;
  /** Its rank (null: no match); `byText` when the full-text hit made it (the snippet goes with it). */
  rank: number | null;
  byText: boolean;
}

/**
 * The one ranking of the browser's list and the search command: a session matches by its
 * own fields, or by a full-text hit (`textHit`) when the field filters (cwd:, model:, …)
 * hold; a term found only deeper in the conversation counts BODY_RANK, so a hit the row
 * shows ranks first. The text rank is taken when it is the better one.
 */
export function sessionRanker(query: Query, ctx?: MatchContext): (s: Ranked, textHit: boolean) => SessionRank {
  const fields = fieldQuery(query);
  const textRank = textTerms(query).length * BODY_RANK;
  return (s, textHit) => {
    const own = matchSession(query, s, ctx);
    if (!textHit) return { own, rank: own, byText: false };
    const filtered = matchSession(fields, s, ctx);
    const byText = filtered !== null && (own === null || filtered + textRank > own);
    return { own, rank: byText ? filtered + textRank : own, byText };
  };
}

/** What bodyRank says of the sessions that hold none of a query's words. */
export interface BodyRank {
  /**
   * The rank the session has with a full-text hit, when its fields hold none of the query's
   * words (so its own rank, if any, is below that); undefined when it must be ranked in full
   * (it holds one, or might), null when the field filters turn it away.
   */
  of(s: Ranked): number | null | undefined;
}

/**
 * For a query whose every text term the context can rule on (words and phrases without a
 * capital or a space): a session holding none of them in its fields can only match by
 * letters scattered over its name or folder (tier 2, below BODY_RANK), so with a full-text
 * hit its rank is the field filters' and BODY_RANK per term, as sessionRanker would say,
 * without matching its fields. A search ranking ten thousand sessions for a word in most
 * of their conversations leaves those to the end of the line, unsorted until reached.
 * Undefined when the query has no such terms or the context cannot rule.
 */
export function bodyRank(query: Query, ctx?: MatchContext): BodyRank | undefined {
  const mayHold = ctx?.mayHold;
  const terms = textTerms(query);
  if (!mayHold || terms.length === 0) return undefined;
  const texts: string[] = [];
  for (const t of terms) {
    if (t.kind === "regex" || t.cased) return undefined;
    const text = t.kind === "phrase" ? normalizeSpace(t.text) : t.text;
    if (!text || text.includes(" ")) return undefined;
    texts.push(text);
  }
  const fields = fieldQuery(query);
  const textRank = terms.length * BODY_RANK;
  return {
    of(s) {
      for (const text of texts) if (mayHold(text, s)) return undefined;
      const filtered = matchSession(fields, s, ctx);
      return filtered === null ? null : filtered + textRank;
    },
  };
}
