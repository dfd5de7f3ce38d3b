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
  /**
   * alignedRows: each line is asked for once, in order; its row (the caller's array) is let
   * go as it is made, not held until the last line is written (350,000 cells at 50,000 rows).
   */
  once?: boolean;
}

/** The last column keeps this many cells on a terminal too narrow for the others. */
const MIN_LAST = 10;

/**
 * Rows of cells (already sanitized) as aligned lines: every column but the last padded to
 * its widest cell by display width, two spaces apart, the last left ragged so wide
 * characters in it can't misalign the others. No line ends in spaces.
 */
export function alignRows(rows: string[][], opts: AlignOptions = {}): string[] {
  const aligned = alignedRows(rows, opts);
  const out = new Array<string>(aligned.length);
  for (let i = 0; i < out.length; i++) out[i] = aligned.line(i);
  return out;
}

/** Rows measured for alignment, each line made when asked for (alignRows' lines, in any order). */
export interface AlignedRows {
  readonly length: number;
  line(i: number): string;
}

/**
 * alignRows with the widths measured now and each line made when asked for: `list` writes
 * 50,000 lines a chunk at a time, and no chunk but the one being written is held.
 */
export function alignedRows(rows: string[][], opts: AlignOptions = {}): AlignedRows {
  if (!rows.length) return { length: 0, line: () => "" };
  let last = 0;
  for (const r of rows) if (r.length - 1 > last) last = r.length - 1;
  // Each padded cell's width, measured once (padding needs it again), and whether it is
  // padded at once (plain): 50,000 rows' cells tested once each rather than twice.
  const cellWidths = new Int32Array(rows.length * last);
  const plain = new Uint8Array(rows.length * last);
  const widths = new Array<number>(last).fill(0);
  // A cell that is not printable ASCII, measured once however often it comes: list's CWD
  // cells are a few hundred folders over 50,000 rows (a fifth of them not ASCII there).
  const measured = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let c = 0; c < last; c++) {
      const cell = r[c] ?? "";
      let w: number;
      let p: boolean;
      if (PRINTABLE_ASCII.test(cell)) {
        w = cell.length;
        p = true;
      } else {
        let m = measured.get(cell);
        if (m === undefined) measured.set(cell, (m = displayWidth(cell) * 2 + (isPlain(cell) ? 1 : 0)));
        w = m >> 1;
        p = (m & 1) === 1;
      }
      cellWidths[i * last + c] = w;
      plain[i * last + c] = p ? 1 : 0;
      if (w > widths[c]) widths[c] = w;
    }
  }
  let before = 0;
  for (const w of widths) before += w + 2;
  const room = opts.columns === undefined ? undefined : Math.max(MIN_LAST, opts.columns - before);
  const right = widths.map((_, c) => !!opts.right?.has(c));
  // One string a line, built by concatenation: at 50,000 rows the cells' arrays and joins
  // were a good part of `list`'s formatting and its garbage.
  const line = (i: number): string => {
    const r = rows[i];
    if (opts.once) {
      if (!r) throw new Error(`alignedRows: line ${i} asked for more than once`);
      rows[i] = undefined as unknown as string[];
    }
    let line = "";
    for (let c = 0; c < last; c++) {
      const cell = r[c] ?? "";
      const k = i * last + c;
      line +=
        (plain[k] ? padPlain(cell, cellWidths[k], widths[c], right[c]) : padWide(cell, widths[c], right[c])) + "  ";
    }
    const tail = r[last] ?? "";
    return (line + (room === undefined ? tail : truncateToWidth(tail, room))).trimEnd();
  };
  return { length: rows.length, line };
}

// Printable ASCII is one column a character; text of simple code points without escapes
// (width.ts) is as wide as the sum of its characters, and truncateToWidth leaves it whole
// when it fits: such a cell is padded at once rather than by padToWidth's cut and measure.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ESCAPE = /[\u001b\u009b]/;

/** Not ASCII, but padded as it is: simple code points without escapes (see above). */
function isPlain(s: string): boolean {
  return !ESCAPE.test(s) && isSimpleText(s);
}

/**
 * padToWidth(s, width, right ? "right" : "left") for a cell `own` columns wide (its
 * displayWidth, at most `width`).
 */
export function pad(s: string, own: number, width: number, right: boolean): string {
  return PRINTABLE_ASCII.test(s) || isPlain(s) ? padPlain(s, own, width, right) : padWide(s, width, right);
}

const padWide = (s: string, width: number, right: boolean) => padToWidth(s, width, right ? "right" : "left");

function padPlain(s: string, own: number, width: number, right: boolean): string {
  const gap = width - own;
  if (gap <= 0) return s;
  return right ? spaces(gap) + s : s + spaces(gap);
}

let SPACES = " ".repeat(64);
function spaces(n: number): string {
  while (SPACES.length < n) SPACES += SPACES;
  return SPACES.slice(0, n);
}
