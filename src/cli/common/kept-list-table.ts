import { formatAgeOf } from "../../text/format.js";
import { keptBytes, type KeptFile } from "./kept-file.js";

/*
 * The text `list`'s answer kept for a relaunch on an unchanged store (answer-cache.ts, as
 * `list --json` and `stats` keep theirs). Its AGE column says how long ago each session was
 * written, by the clock: what is kept is each line as written but its AGE cell, and the
 * times the ages are of; at output the ages, their column's width and padding are made
 * again as the table makes them (the column is first, left-aligned, printable ASCII).
 *
 * Layout (little-endian): "PLT1", the rows' count n (the header not counted), the AGE
 * column's width when kept, 4 bytes unused; n times (float64, NaN: none); n + 1 line ends
 * (uint32, into the text); the text: each line's rest after its AGE cell and two spaces,
 * with its "\n".
 */

const MAGIC = 0x31544c50; // "PLT1"
const HEAD = 16;
/** The AGE column's title: the table's header (list.ts) and what a kept table makes again. */
export const AGE_TITLE = "AGE";
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The AGE cells of these times at `now`, and the column's width with its title. */
function agesOf(times: ArrayLike<number>, now: number): { ages: string[]; width: number } {
  const ages = new Array<string>(times.length);
  let width = AGE_TITLE.length;
  for (let i = 0; i < times.length; i++) {
    const age = formatAgeOf(times[i], now);
    ages[i] = age;
    if (age.length > width) width = age.length;
  }
  return { ages, width };
}

/**
 * Collects a text list's lines as they are written, to keep them: `add` each piece written
 * (whole lines, each ending in "\n"), then `finish`. Undefined from finish when a line is
 * not what was expected of it (its AGE cell): nothing is kept then.
 */
export class KeptTableWriter {
  private readonly ages: string[];
  private readonly width: number;
  private readonly parts: Buffer[] = [];
  private readonly ends: number[] = [];
  private at = 0;
  private line = 0;
  private wrong = false;

  /** `times`: each row's modified time (its AGE), in the table's order; `now`: the table's clock. */
  constructor(
    private readonly times: Float64Array,
    now: number,
  ) {
    const { ages, width } = agesOf(times, now);
    this.ages = ages;
    this.width = width;
  }

  /** The AGE cell line `i` starts with (0: the header), padded, and the two spaces after it. */
  private cell(i: number): string {
    const age = i === 0 ? AGE_TITLE : this.ages[i - 1];
    return age + " ".repeat(this.width - age.length + 2);
  }

  add(text: string): void {
    if (this.wrong) return;
    const rests: string[] = [];
    let from = 0;
    while (from < text.length) {
      const eol = text.indexOf("\n", from);
      const cell = eol < 0 || this.line > this.times.length ? undefined : this.cell(this.line);
      if (cell === undefined || eol < from + cell.length || !text.startsWith(cell, from)) {
        this.wrong = true;
        return;
      }
      const rest = text.slice(from + cell.length, eol + 1);
      rests.push(rest);
      this.at += Buffer.byteLength(rest);
      this.ends.push(this.at);
      from = eol + 1;
      this.line++;
    }
    this.parts.push(Buffer.from(rests.join("")));
  }

  /**
   * What is kept, in pieces (the head, then the lines' rests as they were added: joined into
   * one more buffer they would be held twice); undefined when the lines written were not the
   * header and a line for each time.
   */
  finish(): Uint8Array[] | undefined {
    if (this.wrong || this.line !== this.times.length + 1) return undefined;
    const n = this.times.length;
    const head = Buffer.allocUnsafe(HEAD + 8 * n + 4 * (n + 1));
    const view = new DataView(head.buffer, head.byteOffset, head.length);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, n, true);
    view.setUint32(8, this.width, true);
    view.setUint32(12, 0, true);
    for (let i = 0; i < n; i++) view.setFloat64(HEAD + 8 * i, this.times[i], true);
    for (let i = 0; i <= n; i++) view.setUint32(HEAD + 8 * n + 4 * i, this.ends[i], true);
    return [head, ...this.parts];
  }
}

/** A kept table made ready to write at one moment: its bytes, a chunk at a time. */
export interface KeptTable {
  /**
   * The table's lines as they are now, in chunks of about `chunk` bytes, made in one buffer
   * (a chunk is good until the next is asked for: Output.cleanChunks writes each first).
   */
  chunks(chunk?: number): Iterable<Uint8Array>;
}

/** What keptTable reads a kept table from: a kept answer's file (answer-cache.ts), or its bytes (keptBytes). */
type KeptTableFile = Pick<KeptFile, "bytes" | "read">;

/** Fills `into` from `at`: whether there were that many bytes. */
const readAll = (file: KeptTableFile, into: Uint8Array, at: number) => file.read(into, at) === into.length;

/**
 * The kept table's lines with their ages at `now`, or undefined when it cannot say what the
 * table would say now: not kept in this layout, or cut to a terminal (`columns`) while the
 * AGE column's width is not what it was (the last column is cut to what the others leave).
 * Its lines are read from the file as they are written, a chunk at a time (read whole, its
 * ten megabytes at 50,000 sessions were that much more memory touched).
 */
export function keptTable(
  kept: KeptTableFile | Uint8Array,
  now: number,
  columns: number | undefined,
): KeptTable | undefined {
  const file = kept instanceof Uint8Array ? keptBytes("", kept) : kept;
  // Nothing listed: no table, only what was said on stderr.
  if (file.bytes === 0) return { chunks: () => [] };
  const head = Buffer.alloc(HEAD);
  if (!readAll(file, head, 0) || head.readUInt32LE(0) !== MAGIC) return undefined;
  const n = head.readUInt32LE(4);
  const keptWidth = head.readUInt32LE(8);
  const textAt = HEAD + 8 * n + 4 * (n + 1);
  if (file.bytes < textAt) return undefined;
  // Read into the arrays themselves (little-endian: swapped on a machine that is not).
  const times = new Float64Array(n);
  const ends = new Uint32Array(n + 1);
  if (!readAll(file, new Uint8Array(times.buffer), HEAD) || !readAll(file, new Uint8Array(ends.buffer), HEAD + 8 * n))
    return undefined;
  if (!LITTLE_ENDIAN) {
    Buffer.from(times.buffer).swap64();
    Buffer.from(ends.buffer).swap32();
  }
  const textLength = file.bytes - textAt;
  for (let i = 1; i <= n; i++) if (ends[i] < ends[i - 1]) return undefined;
  if (ends[n] !== textLength) return undefined;
  const { ages, width } = agesOf(times, now);
  if (columns !== undefined && width !== keptWidth) return undefined;
  return {
    *chunks(chunk = 1 << 20) {
      let out = Buffer.allocUnsafe(chunk);
      let at = 0;
      // The kept lines' text from `inFrom` to `inTo` is in `input`, read a chunk at a time.
      let input = Buffer.allocUnsafe(Math.min(chunk, textLength));
      let inFrom = 0;
      let inTo = 0;
      let from = 0;
      for (let i = 0; i <= n; i++) {
        const age = i === 0 ? AGE_TITLE : ages[i - 1];
        const need = width + 2 + ends[i] - from;
        if (at + need > out.length) {
          if (at) yield out.subarray(0, at);
          // The same buffer again, written out by now (fresh ones were 10 MB more memory touched).
          if (need > out.length) out = Buffer.allocUnsafe(need);
          at = 0;
        }
        if (ends[i] > inTo) {
          // The next lines' text from this line's start (a line longer than the buffer: one of its size).
          if (ends[i] - from > input.length) input = Buffer.allocUnsafe(ends[i] - from);
          inFrom = from;
          inTo = from + file.read(input.subarray(0, Math.min(input.length, textLength - from)), textAt + from);
          if (ends[i] > inTo) throw new Error("a kept table was cut short while read");
        }
        // ASCII: one byte a character.
        for (let c = 0; c < age.length; c++) out[at++] = age.charCodeAt(c);
        out.fill(0x20, at, at + width - age.length + 2);
        at += width - age.length + 2;
        at += input.copy(out, at, from - inFrom, ends[i] - inFrom);
        from = ends[i];
      }
      if (at) yield out.subarray(0, at);
    },
  };
}
