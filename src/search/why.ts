import type { SessionSummary } from "../model/types.js";
import { makeSnippet } from "./fulltext.js";
import { matchRanges } from "./match-ranges.js";
import type { Query, Term } from "./query.js";

/*
 * Why a session matched, when the row does not show it: the row's title is the session's
 * name (else its first message) and the folder shows in its own column, both cut to their
 * room, so a hit in the first message behind a name, past the title's room, at the start
 * of a long folder or in the id would otherwise leave the user guessing. The line says
 * where, with the hit in view. Each term is checked: one the row shows may hide another.
 */

/** What a row shows at least: the title's first characters and the folder's last ones. */
export interface Shown {
  title: number;
  folder: number;
}

/** The browser's list at 80 columns and up shows this much of a title and a folder. */
export const ROW_SHOWS: Shown = { title: 24, folder: 28 };

/** Everything shown whole (a pipe): only what is not on the row at all is said. */
const WHOLE: Shown = { title: Infinity, folder: Infinity };

type Matched = Pick<SessionSummary, "name" | "firstMessage" | "id" | "cwd">;

const TEXT_KINDS = new Set<Term["kind"]>(["word", "phrase", "regex"]);

export function whyMatched(query: Query, s: Matched, shown: Shown = WHOLE): string | undefined {
  const terms = query.terms.filter((t) => TEXT_KINDS.has(t.kind));
  for (const t of terms) {
    const one: Query = { ...query, terms: [t] };
    const title = s.name || s.firstMessage;
    const inTitle = matchRanges(one, title, s.name ? "name" : "text");
    const inFolder = matchRanges(one, s.cwd, "cwd");
    const folderFrom = Math.max(0, s.cwd.length - shown.folder);
    if (inTitle.some(([a]) => a < shown.title) || inFolder.some(([a]) => a >= folderFrom)) continue;
    const where = whereHidden(one, s, inTitle[0], inFolder.length > 0);
    if (where) return where;
  }
  return undefined;
}

/** Where a term the row does not show was found, said with the hit in view. */
function whereHidden(one: Query, s: Matched, titleHit: readonly [number, number] | undefined, inFolder: boolean) {
  if (s.name) {
    const hit = matchRanges(one, s.firstMessage, "text")[0];
    if (hit) return `message: ${makeSnippet(s.firstMessage, hit[0], hit[1] - hit[0])}`;
  }
  if (titleHit)
    return `${s.name ? "name" : "message"}: ${makeSnippet(s.name || s.firstMessage, titleHit[0], titleHit[1] - titleHit[0])}`;
  if (inFolder) return `folder: ${s.cwd}`;
  if (matchRanges(one, s.id, "text").length > 0) return `id: ${s.id}`;
  return undefined;
}
