/*
 * A search row read back from the kept columns (search-rows.ts), whose fields are made when
 * first read: a search ranks 50,000 rows by their place in the field text and reads the
 * path, first message and date of the few it prints. Made eagerly, the rows' paths, dates
 * and first messages were most of decoding them and of the garbage after.
 */

import type { Placed } from "../../search/row-finder.js";

/** How a text of the kept value is written: a byte a character when every one fits, else UTF-16. */
export type TextEncoding = "latin1" | "utf16le";

/** The decoded columns every row of one kept value reads from (search-rows.ts: INTS, FLOATS). */
export interface RowColumns {
  /** The first messages (Latin-1 or UTF-16: `messageEncoding`), read as asked. */
  messages: { bytes(start: number, end: number): Buffer };
  /** Per row, the byte where its first message starts in them (one more entry: where the last ends). */
  messageAt: Float64Array;
  /** How the first messages are written. */
  messageEncoding: TextEncoding;
  /** The rows' files' names, one after another; row i's from baseAt[i] to baseAt[i + 1]. */
  names: string;
  baseAt: Float64Array;
  /**
   * Per row, column after column: the places of its path folder, folder, model list, label
   * list (-1: none) and name (-1: none); then the lengths of its field text part, first
   * message and file name (search-rows.ts: INTS).
   */
  ints: Int32Array;
  /** ino, modified, bytes, mtimeMs, ctimeMs, labelCount: a column after another, NaN where none. */
  floats: Float64Array;
  n: number;
  ids: Readonly<Record<string, string>>;
  dirs: readonly string[];
  cwds: readonly string[];
  modelLists: ReadonlyArray<readonly string[]>;
  labelLists: ReadonlyArray<readonly string[]>;
  nameList: readonly string[];
}

/** The id a session file's name ends with, as pi names them (`<time>_<id>.jsonl`), or "". */
export function idOfName(base: string): string {
  const at = base.lastIndexOf("_");
  return at >= 0 && base.endsWith(".jsonl") ? base.slice(at + 1, -".jsonl".length) : "";
}

/** The furthest a Date's time may be from 1970 (ECMAScript's time range). */
const MAX_TIME = 8.64e15;

/**
 * One row (SearchRow's fields, as the eager rows had them: a missing name, labels or ctime
 * is undefined). What is read again (path, date) is kept once made; the rest is cheap.
 */
export class KeptSearchRow implements Placed {
  // Private: a row has no own fields to copy or compare, only SearchRow's getters.
  readonly #c: RowColumns;
  readonly #i: number;
  #path: string | undefined = undefined;
  #modified: Date | undefined = undefined;
  constructor(c: RowColumns, i: number) {
    this.#c = c;
    this.#i = i;
  }

  get path(): string {
    return (this.#path ??= this.#c.dirs[this.#c.ints[this.#i]] + this.#base());
  }
  get id(): string {
    return this.#c.ids[this.#i] ?? idOfName(this.#base());
  }
  get name(): string | undefined {
    const at = this.#c.ints[4 * this.#c.n + this.#i];
    return at < 0 ? undefined : this.#c.nameList[at];
  }
  get firstMessage(): string {
    const c = this.#c;
    return c.messages.bytes(c.messageAt[this.#i], c.messageAt[this.#i + 1]).toString(c.messageEncoding);
  }
  get cwd(): string {
    return this.#c.cwds[this.#c.ints[this.#c.n + this.#i]];
  }
  /** Shared by the rows with the same list: search only reads it. */
  get models(): string[] {
    return this.#c.modelLists[this.#c.ints[2 * this.#c.n + this.#i]] as string[];
  }
  get labelCount(): number {
    return this.#c.floats[5 * this.#c.n + this.#i];
  }
  /** Shared by the rows with the same list, as models. */
  get labels(): string[] | undefined {
    const at = this.#c.ints[3 * this.#c.n + this.#i];
    return at < 0 ? undefined : (this.#c.labelLists[at] as string[]);
  }
  get modified(): Date {
    return (this.#modified ??= new Date(this.#c.floats[this.#c.n + this.#i]));
  }
  /** modified's time, without the Date: as the Date would tell it (a damaged kept value orders as its Date). */
  get modifiedTime(): number {
    const t = this.#c.floats[this.#c.n + this.#i];
    // A Date's TimeClip: NaN past its range, a fraction cut off, -0 as 0.
    return Math.abs(t) <= MAX_TIME ? Math.trunc(t) + 0 : NaN;
  }
  get bytes(): number {
    return this.#c.floats[2 * this.#c.n + this.#i];
  }
  get mtimeMs(): number {
    return this.#c.floats[3 * this.#c.n + this.#i];
  }
  get ctimeMs(): number | undefined {
    const ctime = this.#c.floats[4 * this.#c.n + this.#i];
    return Number.isNaN(ctime) ? undefined : ctime;
  }
  /** The file's name (a slice of all of them). */
  #base(): string {
    return this.#c.names.slice(this.#c.baseAt[this.#i], this.#c.baseAt[this.#i + 1]);
  }
  /** Its place in the rows it was read with (rowFinder finds it there at once). */
  get place(): number {
    return this.#i;
  }
  /** The file's inode as discovery saw it when the rows were kept (undefined where unknown). */
  get ino(): number | undefined {
    const inode = this.#c.floats[this.#i];
    return Number.isNaN(inode) ? undefined : inode;
  }
}

/**
 * A row's modified time: a kept row's without a Date made (a search checks every row's date
 * is valid: 50,000 Dates were ~30 ms, and garbage held to the end).
 */
export function modifiedTime(s: { modified: Date }): number {
  return s instanceof KeptSearchRow ? s.modifiedTime : s.modified.getTime();
}
