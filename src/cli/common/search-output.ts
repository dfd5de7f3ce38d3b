import type { Ranked } from "../../search/best.js";
import type { EntryHit } from "../../search/fulltext.js";
import { TIER_WEIGHT, type Query } from "../../search/query.js";
import { whyMatched } from "../../search/why.js";
import { sessionTitle } from "../../model/session-title.js";
import { formatAge } from "../../text/format.js";
import { sanitizeLine, truncateToWidth } from "../../text/sanitize.js";
import type { CliIO } from "./io.js";
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

/** The hit marked: reverse video on a terminal, «» in a pipe. */
function marked(h: EntryHit, tty: boolean): string {
  const { start, length } = h.match;
  const [a, b] = tty ? ["\x1b[7m", "\x1b[27m"] : ["«", "»"];
  if (length === 0) return h.text;
  return h.text.slice(0, start) + a + h.text.slice(start, start + length) + b + h.text.slice(start + length);
}

export function formatResults(found: Found[], query: Query, io: CliIO, withCwd: boolean): string {
  // A terminal's rows are cut to its width; a pipe gets them whole (grep, awk).
  const fit = (line: string) => (io.columns === undefined ? line : truncateToWidth(line, io.columns));
  const now = Date.now();
  const out: string[] = [];
  for (const f of found) {
    const head = [formatAge(f.s.modified, now).padStart(4), sanitizeLine(f.s.id.slice(0, 8)), sessionTitle(f.s)];
    if (withCwd) head.push(`(${sanitizeLine(f.s.cwd)})`);
    out.push(fit(head.join("  ")));
    const lines = f.snippets?.length
      ? f.snippets.map((h) => `${h.role}: ${marked(h, io.isTTY)}`)
      : [whyMatched(query, f.s)].filter((x): x is string => !!x);
    // Snippets are sanitized already; the marks are ours.
    for (const l of lines) out.push(`      ${l}`);
  }
  return out.join("\n") + "\n";
}
