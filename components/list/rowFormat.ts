import { displayWidth, padToWidth, sanitizeLine, truncateStartToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { ListRow } from "../state/derive.js";
import type { ToneName } from "../theme.js";
import { formatAge, formatBytes } from "../../src/text/format.js";

export const SELECTED_MARKER = "❯ ";
export const UNREADABLE_MARKER = "✗ ";
/** A marked row (Space) for a bulk delete: "❯✓ " or " ✓ " in place of the two-column marker. */
export const MARK_GLYPH = "✓";

export function rowTitle(row: ListRow): string {
  const s = row.session;
  return sanitizeLine(s.name ?? "") || sanitizeLine(s.firstMessage) || "(no messages)";
}

export function rowTone(row: ListRow, selected: boolean): ToneName | undefined {
  const s = row.session;
  if (s.unreadable) return "unreadable";
  if (selected) return "selected";
  if (s.provisional) return "provisional";
  if (s.name) return "named";
  return undefined;
}

export function cwdColumnWidth(width: number): number {
  return Math.min(32, Math.floor(width * 0.3));
}

/**
 * One list row as a string of exactly `width` columns:
 * marker, tree glyphs, title | age | messages | size | [cwd].
 * Done here, not by ink, so ink never has to measure or wrap.
 */
/** The session open in the pi that launched the browser (pi extension). */
export const OPEN_MARKER = "[open in pi] ";

/**
 * The row in pieces, for highlighting what a search matched: `title` is the title column
 * (tree glyphs and flags in `lead` before it), `cwd` the folder column ("" without it).
 * Joined they are formatRow's string.
 */
export interface RowParts {
  lead: string;
  title: string;
  /** The title is the session's name (matched fuzzily), else its first message (exactly). */
  titleIsName: boolean;
  right: string;
  cwd: string;
}

export function formatRowParts(row: ListRow, o: { width: number; selected: boolean; showCwd: boolean; now: number; marked?: boolean; open?: boolean }): RowParts {
  const s = row.session;
  const titleIsName = !!sanitizeLine(s.name ?? "");
  const age = padToWidth(formatAge(s.modified, o.now), 4, "right");
  const msgs = padToWidth(s.provisional ? "…" : String(s.messageCount), 5, "right");
  const size = padToWidth(formatBytes(s.bytes, true), 5, "right");
  const cwdW = o.showCwd ? cwdColumnWidth(o.width) : 0;
  const cwd = o.showCwd ? " " + padToWidth(truncateStartToWidth(sanitizeLine(s.cwd), cwdW), cwdW) : "";
  const right = ` ${age} ${msgs} ${size}`;
  const marker = o.marked ? (o.selected ? SELECTED_MARKER[0] : " ") + MARK_GLYPH + " " : o.selected ? SELECTED_MARKER : "  ";
  const titleW = o.width - marker.length - displayWidth(right + cwd);
  if (titleW < 4) return { lead: "", title: truncateToWidth(marker + rowTitle(row), o.width), titleIsName, right: "", cwd: "" };
  const lead = marker + row.prefix + (o.open ? OPEN_MARKER : "") + (s.unreadable ? UNREADABLE_MARKER : "");
  const leadW = displayWidth(lead) - marker.length;
  if (leadW >= titleW) return { lead: "", title: marker + padToWidth(lead.slice(marker.length) + rowTitle(row), titleW), titleIsName, right, cwd };
  return { lead, title: padToWidth(rowTitle(row), titleW - leadW), titleIsName, right, cwd };
}

export function formatRow(row: ListRow, o: { width: number; selected: boolean; showCwd: boolean; now: number; marked?: boolean; open?: boolean }): string {
  const p = formatRowParts(row, o);
  return p.lead + p.title + p.right + p.cwd;
}
