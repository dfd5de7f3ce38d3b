import type { FilesRow } from "./index-db.js";

/*
 * What a file's text read for the index is made of, between the thread that reads it
 * (text-index.ts's readFileText, on a text reader or not) and the one that writes it.
 */

/** A file's row as the text index reads it: the file as the scan saw it, and what the text index read of it. */
export interface TextRow extends FilesRow {
  text_ino: number | null;
  text_size: number | null;
  text_end: number | null;
  /** readPrint of the first text_size bytes, as they were read (null: not known, read it whole again). */
  text_print: string | null;
  /** 1 when the tool texts of [0, text_end) are indexed too. */
  text_tools: number;
  /** 1 when every line of [0, text_end) is indexed (not one too long to be). */
  text_whole: number | null;
}

/** A file's rows to index, as columns (one entry per FTS row): what a text reader hands over. */
export interface TextRows {
  offs: number[];
  lens: number[];
  tools: number[];
  texts: string[];
  chars: number;
}

export const noRows = (): TextRows => ({ offs: [], lens: [], tools: [], texts: [], chars: 0 });

/** Where a file's read text goes: `start` once before any rows (forget: its earlier rows go first), then its rows. */
export interface TextSink {
  start(forget: boolean): void;
  rows(rows: TextRows): void;
}

/** The files row's text state after a "new" pass: ino, size, mtime, ctime, end, print, whole, tools. */
export type TextState = [number, number, number, number, number, string | null, number, number];

/** What reading a file for the index found, besides its rows: which texts, and (pass "new") the state to write after them. */
export interface FileText {
  kinds: "chat" | "both";
  state?: TextState;
}

/**
 * Each row of a file in order, given to `put` (what the writing thread inserts): its text a
 * string, or (packed rows) its UTF-8 bytes, which SQLite takes as they are: FTS5 tokenizes a
 * blob's bytes as the UTF-8 text a string is bound as, with no string made and encoded again.
 */
export type EachRow = (put: (off: number, len: number, tool: number, text: string | Buffer) => void) => void;

export const eachOf =
  ({ offs, lens, tools, texts }: TextRows): EachRow =>
  (put) => {
    for (let i = 0; i < texts.length; i++) put(offs[i]!, lens[i]!, tools[i]!, texts[i]!);
  };

/**
 * A file's rows packed as bytes in a reader's buffer, from `at`: per row its offset (f64), its
 * line's length (u32), tool (u8), its text's UTF-8 length (u32), then that text. A reader
 * sends a group's files as one buffer it transfers (not copied) rather than arrays of strings
 * structured-cloned: those strings lived on the writing thread's heap from their arrival to
 * their turn, long enough to be promoted, and its old generation grew with the files ahead.
 */
export interface PackedRows {
  at: number;
  count: number;
  chars: number;
}

/** Bytes a row takes in a packed buffer besides its text. */
const ROW_HEAD = 17;

/** Packs rows into a growing buffer, from one that is handed in (a pool's, or a fresh one). */
export class RowPacker {
  pos = 0;
  constructor(public buf: Buffer) {}

  /** Room for `more` bytes past pos: a larger buffer (the old one left to be collected) if need be. */
  private room(more: number): void {
    if (this.pos + more <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.pos + more, 2 * this.buf.length));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  add({ offs, lens, tools, texts }: TextRows): void {
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i]!;
      // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, 4); counted
      // exactly when that bound does not fit, not to grow the buffer for room never used.
      if (this.pos + ROW_HEAD + 3 * t.length > this.buf.length) this.room(ROW_HEAD + Buffer.byteLength(t, "utf8"));
      const buf = this.buf;
      buf.writeDoubleLE(offs[i]!, this.pos);
      buf.writeUInt32LE(lens[i]!, this.pos + 8);
      buf[this.pos + 12] = tools[i]!;
      const n = buf.write(t, this.pos + ROW_HEAD, "utf8");
      buf.writeUInt32LE(n, this.pos + 13);
      this.pos += ROW_HEAD + n;
    }
  }
}

/** The rows packed from `at` (RowPacker), each text as its UTF-8 bytes (a view of `buf`). */
export const eachPacked =
  (buf: Buffer, { at, count }: PackedRows): EachRow =>
  (put) => {
    let p = at;
    for (let i = 0; i < count; i++) {
      const n = buf.readUInt32LE(p + 13);
      put(buf.readDoubleLE(p), buf.readUInt32LE(p + 8), buf[p + 12]!, buf.subarray(p + ROW_HEAD, p + ROW_HEAD + n));
      p += ROW_HEAD + n;
    }
  };
