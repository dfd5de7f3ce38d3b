import type { AppliedEdit } from "../../src/model/context.js";
import { rowText } from "../../src/model/row-text.js";
import type { SessionIndex } from "../../src/store/session-index.js";
import { rowPrefix, type TreeView } from "../../src/model/tree-view.js";
import { displayWidth, sanitizeLine, truncateToWidth } from "../../src/text/sanitize.js";

/** One tree row as display-ready, sanitized pieces (so a memoised row compares strings). */
export interface TreeRowParts {
  id: string;
  selected: boolean;
  /** Gutters, connectors and fold marks: `│  ├⊟ `. */
  prefix: string;
  /** `• ` on entries of the active path. */
  active: string;
  /** `◆ ` on search matches. */
  match: string;
  /** `[label] ` when labelled. */
  label: string;
  /** `✎ ` replaced, `⊘ ` omitted by a context edit in effect on the active branch. */
  edit: string;
  text: string;
  kind: string;
  /** ` ← active` on the leaf. */
  leaf: string;
}

/**
 * When a label was set, as pi's /tree says it (Shift+T): "14:03" today, "11/26 14:03" this
 * year, "25/11/26 14:03" before; local time. Empty for a timestamp that is not a date.
 */
export function labelTime(timestamp: string, now: Date): string {
  const d = new Date(timestamp);
  if (Number.isNaN(d.getTime())) return "";
  const time = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  if (d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate())
    return time;
  if (d.getFullYear() === now.getFullYear()) return `${d.getMonth() + 1}/${d.getDate()} ${time}`;
  return `${String(d.getFullYear()).slice(-2)}/${d.getMonth() + 1}/${d.getDate()} ${time}`;
}

export const CURSOR = "❯ ";
export const NO_CURSOR = "  ";

/** The pieces of row `i`, its text cut so the whole row fits `width`. */
export function treeRowParts(
  view: TreeView,
  index: SessionIndex,
  calls: ReadonlyMap<string, string>,
  folded: ReadonlySet<string>,
  matches: ReadonlySet<string>,
  i: number,
  cursor: number,
  width: number,
  /** The row that carries `← active`: the leaf, or its nearest visible ancestor when the leaf is hidden. */
  activeRowId: string | undefined = index.leafId ?? undefined,
  edits?: ReadonlyMap<string, AppliedEdit>,
  original = false,
  /** pi's Shift+T: a label says when it was set ("[wip] 14:03 "). */
  labelTimes = false,
  now = new Date(),
): TreeRowParts {
  const row = view.rows[i];
  const node = index.byId.get(row.id)!;
  const applied = edits?.get(row.id);
  // As the model sees it: a replaced entry reads its replacement (O shows the original).
  const rt =
    applied?.kind === "replace" && !original
      ? rowText({ ...node, text: applied.text ?? "", toolCalls: undefined, hasText: true }, calls)
      : rowText(node, calls);
  const edit = applied ? (applied.kind === "omit" ? "⊘ " : "✎ ") : "";
  const prefix = rowPrefix(view, row, folded);
  const active = view.activeIds.has(row.id) ? "• " : "";
  const match = matches.has(row.id) ? "◆ " : "";
  const rawLabel = index.labels.get(row.id);
  const at = labelTimes && rawLabel ? index.labelTimestamps.get(row.id) : undefined;
  const when = at ? labelTime(at, now) : "";
  const label = rawLabel ? `[${truncateToWidth(sanitizeLine(rawLabel), 24)}] ${when ? `${when} ` : ""}` : "";
  const leaf = row.id === activeRowId ? " ← active" : "";
  const used =
    displayWidth(CURSOR) +
    displayWidth(prefix) +
    displayWidth(active) +
    displayWidth(match) +
    displayWidth(label) +
    displayWidth(edit) +
    displayWidth(leaf);
  const text = truncateToWidth(sanitizeLine(rt.text), Math.max(1, width - used));
  return { id: row.id, selected: i === cursor, prefix, active, match, label, edit, text, kind: rt.kind, leaf };
}
