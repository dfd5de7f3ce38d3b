import {
  displayWidth,
  padToWidth,
  sanitizeLine,
  truncatePathToWidth,
  truncateStartToWidth,
  truncateToWidth,
} from "../../src/text/sanitize.js";
import { sessionTitle } from "../../src/model/session-title.js";
import type { ListRow, Scope } from "../../src/browser/list/derive.js";
import type { SortKey } from "../../src/search/sort.js";
import type { ToneName } from "../theme/theme.js";
import { formatAge, formatBytes } from "../../src/text/format.js";

export const SELECTED_MARKER = "❯ ";
export const UNREADABLE_MARKER = "✗ ";
/** A marked row (Space) for a bulk delete: "❯✓ " or " ✓ " in place of the two-column marker. */
export const MARK_GLYPH = "✓";

export function rowTitle(row: ListRow): string {
  return sessionTitle(row.session);
}

export function rowTone(row: ListRow, selected: boolean): ToneName | undefined {
  const s = row.session;
  if (s.unreadable) return "unreadable";
  if (selected) return "selected";
  if (s.provisional) return "provisional";
  if (s.name) return "named";
  return undefined;
}

/** Which time the age column shows: the last change (default), or creation (sorted by it). */
export type AgeOf = "modified" | "created";

/** The age column follows the sort: creation when sorted by it, else the last change. */
export function ageOfSort(sort: SortKey): AgeOf {
  return sort === "created" ? "created" : "modified";
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

export interface RowFormatOptions {
  width: number;
  selected: boolean;
  showCwd: boolean;
  now: number;
  marked?: boolean;
  open?: boolean;
  ageOf?: AgeOf;
  /** pi's Ctrl+P: the last column shows the session's file path (in place of its folder). */
  showPath?: boolean;
}

export function formatRowParts(row: ListRow, o: RowFormatOptions): RowParts {
  const s = row.session;
  const titleIsName = !!sanitizeLine(s.name ?? "");
  // The age column shows what the list is sorted by: creation when sorted by it, else the last change.
  const age = padToWidth(formatAge(o.ageOf === "created" ? s.created : s.modified, o.now), 4, "right");
  // Counts are never cut ("1000…" for 100,000 reads as a thousand): a count past five
  // digits widens its own cell, taking the room from the title.
  const count = s.provisional ? "…" : String(s.messageCount);
  const msgs = padToWidth(count, Math.max(5, count.length), "right");
  const size = padToWidth(formatBytes(s.bytes, true), 5, "right");
  const column = o.showCwd || o.showPath;
  const cwdW = column ? cwdColumnWidth(o.width) : 0;
  // Another machine's session: its host before the folder, as scp names it (host:/path), or before the title.
  const host =
    s.host === undefined
      ? ""
      : truncateToWidth(sanitizeLine(s.host), column ? Math.max(4, Math.floor(cwdW / 2)) : 16) + ":";
  // A file path keeps its end (the file name's id tells sessions apart); a folder its last parts.
  const shown = o.showPath
    ? host + truncateStartToWidth(sanitizeLine(s.path), Math.max(1, cwdW - displayWidth(host)))
    : host + truncatePathToWidth(sanitizeLine(s.cwd), Math.max(1, cwdW - displayWidth(host)));
  const cwd = column ? " " + padToWidth(shown, cwdW) : "";
  const right = ` ${age} ${msgs} ${size}`;
  const marker = o.marked
    ? (o.selected ? SELECTED_MARKER[0] : " ") + MARK_GLYPH + " "
    : o.selected
      ? SELECTED_MARKER
      : "  ";
  const titleW = o.width - marker.length - displayWidth(right + cwd);
  if (titleW < 4)
    return { lead: "", title: truncateToWidth(marker + rowTitle(row), o.width), titleIsName, right: "", cwd: "" };
  const lead =
    marker +
    row.prefix +
    (o.open ? OPEN_MARKER : "") +
    (s.unreadable ? UNREADABLE_MARKER : "") +
    (host && !column ? `${host} ` : "");
  const leadW = displayWidth(lead) - marker.length;
  if (leadW >= titleW)
    return {
      lead: "",
      title: marker + padToWidth(lead.slice(marker.length) + rowTitle(row), titleW),
      titleIsName,
      right,
      cwd,
    };
  return { lead, title: padToWidth(rowTitle(row), titleW - leadW), titleIsName, right, cwd };
}

export function formatRow(row: ListRow, o: RowFormatOptions): string {
  const p = formatRowParts(row, o);
  return p.lead + p.title + p.right + p.cwd;
}

/** The column headings above the rows, aligned with formatRow's columns. */
export function formatHeader(width: number, showCwd: boolean, ageOf: AgeOf = "modified", showPath = false): string {
  const column = showCwd || showPath;
  const cwdW = column ? cwdColumnWidth(width) : 0;
  const right = ` ${padToWidth(ageOf === "created" ? "MADE" : "AGE", 4, "right")} ${padToWidth("MSGS", 5, "right")} ${padToWidth("SIZE", 5, "right")}${column ? " " + padToWidth(showPath ? "FILE" : "FOLDER", cwdW) : ""}`;
  const titleW = width - 2 - displayWidth(right);
  if (titleW < 4) return truncateToWidth("  TITLE", width);
  return "  " + padToWidth("TITLE", titleW) + right;
}

/** The list pane's title and the position its frame shows ("3 of 120"). */
export function listFrameText(scope: Scope, cursor: number, rows: number): { title: string; info: string } {
  return {
    title:
      scope === "cwd"
        ? "Sessions · this folder"
        : scope === "hosts"
          ? "Sessions · every host"
          : "Sessions · all folders",
    info: rows ? `${cursor + 1} of ${rows}` : "",
  };
}
