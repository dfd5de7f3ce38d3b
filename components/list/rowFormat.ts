import { padToWidth, sanitizeLine, truncateStartToWidth, truncateToWidth } from "../../src/text/sanitize.js";
import type { ListRow } from "../state/derive.js";
import type { ToneName } from "../theme.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** now / 5m / 3h / 2d / 3w / 4mo / 2y */
export function formatAge(then: number, now: number): string {
  const d = Math.max(0, now - then);
  if (d < MIN) return "now";
  if (d < HOUR) return `${Math.floor(d / MIN)}m`;
  if (d < DAY) return `${Math.floor(d / HOUR)}h`;
  if (d < 7 * DAY) return `${Math.floor(d / DAY)}d`;
  if (d < 30 * DAY) return `${Math.floor(d / (7 * DAY))}w`;
  if (d < 365 * DAY) return `${Math.floor(d / (30 * DAY))}mo`;
  return `${Math.floor(d / (365 * DAY))}y`;
}

/** 512B, 1.2K, 34K, 1.5M, 2.0G: at most 5 columns. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ["K", "M", "G", "T"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return v < 10 ? `${v.toFixed(1)}${units[i]}` : `${Math.round(v)}${units[i]}`;
}

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

export function formatRow(row: ListRow, o: { width: number; selected: boolean; showCwd: boolean; now: number; marked?: boolean; open?: boolean }): string {
  const s = row.session;
  const age = padToWidth(formatAge(s.modified.getTime(), o.now), 4, "right");
  const msgs = padToWidth(s.provisional ? "…" : String(s.messageCount), 5, "right");
  const size = padToWidth(formatSize(s.bytes), 5, "right");
  const cwdW = o.showCwd ? cwdColumnWidth(o.width) : 0;
  const cwd = o.showCwd ? " " + padToWidth(truncateStartToWidth(sanitizeLine(s.cwd), cwdW), cwdW) : "";
  const right = ` ${age} ${msgs} ${size}${cwd}`;
  const marker = o.marked ? (o.selected ? SELECTED_MARKER[0] : " ") + MARK_GLYPH + " " : o.selected ? SELECTED_MARKER : "  ";
  const titleW = o.width - marker.length - right.length;
  if (titleW < 4) return truncateToWidth(marker + rowTitle(row), o.width);
  const flag = (o.open ? OPEN_MARKER : "") + (s.unreadable ? UNREADABLE_MARKER : "");
  const title = padToWidth(row.prefix + flag + rowTitle(row), titleW);
  return marker + title + right;
}
