import { asciiText } from "../text/ascii-json.js";

/*
 * One of the snapshot's columns (a JSON array written as ASCII, src/text/ascii-json.ts), read
 * a row at a time: the browser's first screen shows thirty rows of 50,000, and parsing a whole
 * column of first messages or usage cost 170–190 ms of it. Where each element lies is found
 * once (quotes found by indexOf, brackets counted), then a row is parsed on its own. Once many
 * rows were asked for (a search, the usage view) the column is parsed whole, as before.
 */

/** Rows parsed one by one before the column is parsed whole. */
export const ROWS_BEFORE_WHOLE = 1024;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/** Where the string whose opening quote is at `at` ends: the index of its closing quote. */
function stringEnd(b: Uint8Array, at: number): number {
  let q = at;
  for (;;) {
    q = b.indexOf(QUOTE, q + 1);
    if (q < 0) throw new Error("snapshot: a column's string does not end");
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
}

/**
 * Each top-level element's [start, end) in `b` from `from` (the array's "["), two numbers a
 * row; undefined when the array does not hold exactly `n` elements (not this snapshot's column).
 */
export function elementBounds(b: Uint8Array, from: number, n: number): Int32Array | undefined {
  if (b[from] !== OPEN_ARRAY) return undefined;
  const out = new Int32Array(2 * n);
  let row = 0;
  let depth = 0;
  let start = from + 1;
  for (let p = from + 1; p < b.length; p++) {
    const c = b[p];
    if (c === QUOTE) p = stringEnd(b, p);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_OBJECT) depth--;
    else if (c === CLOSE_ARRAY) {
      if (depth-- > 0) continue;
      if (p > start || row > 0) {
        if (row >= n) return undefined;
        out[2 * row] = start;
        out[2 * row + 1] = p;
        row++;
      }
      return row === n ? out : undefined;
    } else if (c === COMMA && depth === 0) {
      if (row >= n) return undefined;
      out[2 * row] = start;
      out[2 * row + 1] = p;
      row++;
      start = p + 1;
    }
  }
  return undefined;
}

/** A column's values by row: one row parsed when asked for, or the whole column once many were. */
export class JsonColumn {
  private whole: unknown[] | undefined;
  private bounds: Int32Array | undefined;
  private readonly rows = new Map<number, unknown>();

  /** `bytes` from `from` hold the column's JSON array of `n` values. */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly from: number,
    private readonly n: number,
  ) {}

  /** Every row's value (parsed now if not yet). */
  all(): unknown[] {
    if (!this.whole) {
      this.whole = JSON.parse(asciiText(this.bytes, this.from)) as unknown[];
      // A value already handed out stays the same object.
      for (const [i, v] of this.rows) this.whole[i] = v;
      this.rows.clear();
      this.bounds = undefined;
    }
    return this.whole;
  }

  at(i: number): unknown {
    if (this.whole) return this.whole[i];
    if (this.rows.has(i)) return this.rows.get(i);
    if (this.rows.size >= ROWS_BEFORE_WHOLE) return this.all()[i];
    this.bounds ??= elementBounds(this.bytes, this.from, this.n);
    // Not an array of n values: parsed whole, and JSON.parse says what is wrong.
    if (!this.bounds) return this.all()[i];
    const v = JSON.parse(asciiText(this.bytes, this.bounds[2 * i], this.bounds[2 * i + 1])) as unknown;
    this.rows.set(i, v);
    return v;
  }
}
