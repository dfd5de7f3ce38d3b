import { plural } from "../../src/text/format.js";
import { truncateToWidth } from "../../src/text/sanitize.js";
import { branchInfo, type ReaderState } from "../../src/browser/reader/readerState.js";

/** The reader's header: where you are and what is shown ("Reader · fix the bug · branch 2 of 3 · match 1 of 4"). */
export function readerHeaderText(r: ReaderState, width: number): string {
  const parts = ["Reader", r.title];
  const branch = branchInfo(r);
  if (branch) parts.push(branch);
  if (r.query)
    parts.push(r.matches.length ? `match ${r.match + 1} of ${r.matches.length}` : `no match for "${r.query}"`);
  if (r.edits.size) parts.push(r.original ? "as written (O)" : `${plural(r.edits.size, "context edit")} applied (O)`);
  parts.push(`tools ${r.tools}`, r.thinking ? "thinking shown" : "thinking hidden");
  return truncateToWidth(parts.join(" · "), width);
}

/**
 * How far through the transcript the cursor is, for the pane's border; "all" when the whole
 * transcript is on the screen (as less and vim say it), where a percentage reads as "more
 * to come".
 */
export function readerProgress(r: ReaderState): string {
  const t = r.transcript;
  if (!t || t.blockCount === 0) return "";
  const tail = t.tail(r.height);
  if (tail.block === 0 && tail.line === 0) return "all";
  return `${Math.round((100 * (r.cursor.block + 1)) / t.blockCount)}%`;
}
