import type { SessionSummary } from "../model/types.js";
import { makeSnippet } from "./fulltext.js";
import { matchRanges } from "./match-ranges.js";
import type { Query } from "./query.js";

/*
 * Why a session matched, when the row does not show it: the row's title is the session's
 * name (else its first message) and the folder shows in its own column, so a hit in the
 * first message behind a name, or in the id, would otherwise leave the user guessing. The
 * line says where, with the hit in view.
 */
export function whyMatched(query: Query, s: Pick<SessionSummary, "name" | "firstMessage" | "id">): string | undefined {
  if (!query.terms.some((t) => t.kind === "word" || t.kind === "phrase" || t.kind === "regex")) return undefined;
  if (s.name && matchRanges(query, s.name, "name").length > 0) return undefined;
  if (s.name) {
    const hit = matchRanges(query, s.firstMessage, "text")[0];
    if (hit) return `message: ${makeSnippet(s.firstMessage, hit[0], hit[1] - hit[0])}`;
  } else if (matchRanges(query, s.firstMessage, "text").length > 0) return undefined;
  if (matchRanges(query, s.id, "text").length > 0) return `id: ${s.id}`;
  return undefined;
}
