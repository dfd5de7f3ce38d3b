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
