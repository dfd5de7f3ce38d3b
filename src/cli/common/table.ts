import { displayWidth, padToWidth, truncateToWidth } from "../../text/sanitize.js";
import { isSimpleText } from "../../text/width.js";

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
  let last = 0;
  for (const r of rows) if (r.length - 1 > last) last = r.length - 1;
  // Each padded cell's width, measured once (padding needs it again).
  const cellWidths = new Int32Array(rows.length * last);
  const widths = new Array<number>(last).fill(0);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let c = 0; c < last; c++) {
      const w = cellWidth(r[c] ?? "");
      cellWidths[i * last + c] = w;
      if (w > widths[c]) widths[c] = w;
    }
  }
  let before = 0;
  for (const w of widths) before += w + 2;
  const room = opts.columns === undefined ? undefined : Math.max(MIN_LAST, opts.columns - before);
  const right = widths.map((_, c) => !!opts.right?.has(c));
  // One string a line, built by concatenation: at 50,000 rows the cells' arrays and joins
  // were a good part of `list`'s formatting and its garbage.
  const out = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let line = "";
    for (let c = 0; c < last; c++) line += pad(r[c] ?? "", cellWidths[i * last + c], widths[c], right[c]) + "  ";
    const tail = r[last] ?? "";
    out[i] = (line + (room === undefined ? tail : truncateToWidth(tail, room))).trimEnd();
  }
  return out;
}

// Printable ASCII is one column a character; text of simple code points without escapes
// (width.ts) is as wide as the sum of its characters, and truncateToWidth leaves it whole
// when it fits: such a cell is padded at once rather than by padToWidth's cut and measure.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ESCAPE = /[\u001b\u009b]/;

function cellWidth(s: string): number {
  return PRINTABLE_ASCII.test(s) ? s.length : displayWidth(s);
}

/**
 * padToWidth(s, width, right ? "right" : "left") for a cell `own` columns wide (its
 * displayWidth, at most `width`).
 */
export function pad(s: string, own: number, width: number, right: boolean): string {
  if (!PRINTABLE_ASCII.test(s) && (ESCAPE.test(s) || !isSimpleText(s)))
    return padToWidth(s, width, right ? "right" : "left");
  const gap = width - own;
  if (gap <= 0) return s;
  return right ? spaces(gap) + s : s + spaces(gap);
}

let SPACES = " ".repeat(64);
function spaces(n: number): string {
  while (SPACES.length < n) SPACES += SPACES;
  return SPACES.slice(0, n);
}
