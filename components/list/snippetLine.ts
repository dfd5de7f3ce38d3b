import { padToWidth, sanitizeLine } from "../../src/text/sanitize.js";
import type { ListRow } from "../../src/browser/list/derive.js";

/** Screen lines a row takes: two when a full-text snippet goes under it. */
export function rowHeight(row: ListRow): number {
  return row.snippet ? 2 : 1;
}

/**
 * The line under a row that matched by its text: indented past the marker and tree
 * glyphs, "“…snippet…”", exactly `width` columns. The snippet is sanitized already;
 * sanitizing again costs little and keeps this safe on its own.
 */
export function formatSnippetLine(row: ListRow, width: number): string {
  const indent = " ".repeat(2 + Math.min(row.prefix.length, 12)) + "  ↳ ";
  return padToWidth(indent + sanitizeLine(row.snippet ?? ""), width);
}
