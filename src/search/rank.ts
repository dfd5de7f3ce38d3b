import { fieldQuery, textTerms } from "./fulltext.js";
import { BODY_RANK, type MatchContext, matchSession, type Query } from "./query.js";

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
