import type { Ranked } from "../../search/best.js";
import type { EntryHit } from "../../search/fulltext.js";
import { TIER_WEIGHT, type Query } from "../../search/query.js";
import { whyMatched } from "../../search/why.js";
import { sessionTitle } from "../../model/session-title.js";
import { formatAge } from "../../text/format.js";
import type { Line } from "./output.js";
import type { SearchRow } from "./search-rows.js";

/* What `search` prints of the sessions it found: JSON, or lines for a terminal or a pipe. */

/** A session found at the plan's rank (src/search/plan.ts: matchSession's tiers per word, a word only deeper in the conversation BODY_RANK), with its snippets when made. */
export interface Found extends Ranked<SearchRow> {
  snippets?: EntryHit[];
}

/** The rank as a number a script can compare within one result set (its tiers are the integer part). */
function score(f: Found): number {
  return Math.round((f.rank / TIER_WEIGHT) * 1000) / 1000;
}

export function resultJson(f: Found, query: Query): Record<string, unknown> {
  const snippets = f.snippets ?? [];
  const why = snippets.length ? undefined : whyMatched(query, f.s);
  return {
    path: f.s.path,
    id: f.s.id,
    name: f.s.name ?? null,
    cwd: f.s.cwd,
    modified: Number.isNaN(f.s.modified.getTime()) ? null : f.s.modified.toISOString(),
    score: score(f),
    snippets: snippets.length
      ? snippets.map((h) => ({ entryId: h.entryId, role: h.role, text: h.text, match: h.match }))
      : why
        ? [{ entryId: null, role: "session", text: why, match: null }]
        : [],
  };
}

/** A snippet with its hit as a piece to mark (the writer marks it: src/cli/common/output.ts). */
function marked(h: EntryHit): Line {
  const { start, length } = h.match;
  if (length === 0) return [h.text];
  return [h.text.slice(0, start), { mark: h.text.slice(start, start + length) }, h.text.slice(start + length)];
}

/** The lines `search` prints of what it found (the writer sanitizes them and cuts them to a terminal's width). */
export function formatResults(found: Found[], query: Query, withCwd: boolean): Line[] {
  const now = Date.now();
  const out: Line[] = [];
  for (const f of found) {
    // Each field a piece of its own, sanitized on its own: one cannot run into the next.
    const head = [formatAge(f.s.modified, now).padStart(4), "  ", f.s.id.slice(0, 8), "  ", sessionTitle(f.s)];
    if (withCwd) head.push("  (", f.s.cwd, ")");
    out.push(head);
    if (f.snippets?.length) for (const h of f.snippets) out.push([`      ${h.role}: `, ...marked(h)]);
    else {
      const why = whyMatched(query, f.s);
      if (why) out.push([`      ${why}`]);
    }
  }
  return out;
}
