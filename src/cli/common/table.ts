import { displayWidth, padToWidth, truncateToWidth } from "../../text/sanitize.js";

export interface AlignOptions {
  /** Columns aligned to the right (numbers). */
  right?: ReadonlySet<number>;
  /**
   * The terminal's width: the last column is cut to what the others leave of it (at least
   * MIN_LAST). Undefined for a pipe, where nothing is ever cut.
   */
  columns?: number;
}

/** The last column keeps this many cells on a terminal too narrow for the others. */
const MIN_LAST = 10;

/**
 * Rows of cells (already sanitized) as aligned lines: every column but the last padded to
 * its widest cell by display width, two spaces apart, the last left ragged so wide
 * characters in it can't misalign the others. No line ends in spaces.
 */
export function alignRows(rows: string[][], opts: AlignOptions = {}): string[] {
  if (!rows.length) return [];
  const last = Math.max(...rows.map((r) => r.length)) - 1;
  const widths: number[] = [];
  for (const r of rows) for (let c = 0; c < last; c++) widths[c] = Math.max(widths[c] ?? 0, displayWidth(r[c] ?? ""));
  const before = widths.reduce((n, w) => n + w + 2, 0);
  const room = opts.columns === undefined ? undefined : Math.max(MIN_LAST, opts.columns - before);
  return rows.map((r) => {
    const cells = widths.map((w, c) => padToWidth(r[c] ?? "", w, opts.right?.has(c) ? "right" : "left"));
    const tail = r[last] ?? "";
    cells.push(room === undefined ? tail : truncateToWidth(tail, room));
    return cells.join("  ").trimEnd();
  });
}
