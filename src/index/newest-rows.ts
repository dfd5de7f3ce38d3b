import { asciiJson, asciiText } from "../text/ascii-json.js";
import { LAYOUT, type StoredRow } from "./snapshot-codec.js";

/*
 * Beside the snapshot (its row NEWEST_ID, written in the same transaction): the sessions that
 * come first by last activity, what a list row shows of each and its file's identity. The
 * browser's first screen of `--all` (src/scan/snapshot-first.ts) reads this alone: at 50,000
 * sessions the whole snapshot is 33 MB read out of SQLite and its identities parsed (0.9 s of
 * a 1.4 s launch to the first rows on a loaded two-core machine), for a screenful of rows.
 */

/** The snapshot's row holding the newest rows (the body is 1, the list text 2, the columns from 16). */
export const NEWEST_ID = 3;

/**
 * The record's own format, first in its head: a record of another format is not read. Then
 * the snapshot's layout and generation it was made for (the body's head must say the same).
 */
export const NEWEST_FORMAT = "newest 1 ";

/** The head a record made for a snapshot of this layout and generation `gen` starts with. */
export const newestHead = (gen: string) => `${NEWEST_FORMAT}${LAYOUT}${gen}\n`;

/** Rows kept: a screenful of the tallest terminal; a taller one reads the whole snapshot. */
export const NEWEST_KEEP = 256;

/** What a list row shows and the list's default order sorts by: the only values kept. */
export const ROW_KEYS: ReadonlySet<string> = new Set([
  "path",
  "id",
  "cwd",
  "name",
  "parentSessionPath",
  "created",
  "modified",
  "messageCount",
  "firstMessage",
  "bytes",
  "mtimeMs",
  "ctimeMs",
]);

/** One of the newest rows: its place in the snapshot, its file's identity, its summary's ROW_KEYS. */
export interface NewestRow {
  i: number;
  path: string;
  ino: number;
  size: number;
  mtime: number;
  ctime: number;
  row: StoredRow;
}

/** The record: the snapshot's generation and row count, its newest rows (newest first), and the newest `modified` left out (null: none). */
export interface NewestRecord {
  gen: string;
  n: number;
  rows: NewestRow[];
  next: number | null;
}

const modifiedOf = (r: NewestRow) => r.row.modified as number;

/**
 * The newest rows of a snapshot as its builder takes them in (add, in row order), at most
 * `keep` held beyond a batch: a session with a summary and a `modified` time (a row with a
 * diagnostic has none), as the first screen picks them.
 */
export class NewestRows {
  private held: NewestRow[] = [];
  /** The oldest `modified` of the rows kept after the last trim (an older row is left out at once). */
  private floor = -Infinity;
  private next: number | null = null;

  constructor(private readonly keep = NEWEST_KEEP) {}

  add(i: number, e: Omit<NewestRow, "i" | "row">, summary: StoredRow): void {
    const m = summary.modified;
    // As the column reads back: JSON holds no NaN or Infinity (null there, no time).
    if (typeof m !== "number" || !Number.isFinite(m)) return;
    if (m < this.floor) {
      this.leftOut(m);
      return;
    }
    const row: StoredRow = {};
    for (const k of Object.keys(summary)) {
      const v = summary[k];
      // As the snapshot's columns hold it: a key set to undefined is no key.
      if (v !== undefined && ROW_KEYS.has(k)) row[k] = v;
    }
    this.held.push({ i, path: e.path, ino: e.ino, size: e.size, mtime: e.mtime, ctime: e.ctime, row });
    if (this.held.length >= 2 * this.keep) this.trim();
  }

  /** The record's bytes: its head (newestHead), then its JSON. */
  bytes(gen: string, n: number): Uint8Array {
    this.trim();
    const record: NewestRecord = { gen, n, rows: this.held, next: this.next };
    return Buffer.from(`${newestHead(gen)}${asciiJson(record)}`, "latin1");
  }

  private trim(): void {
    // Newest first, then in the snapshot's order.
    this.held.sort((a, b) => modifiedOf(b) - modifiedOf(a) || a.i - b.i);
    if (this.held.length <= this.keep) return;
    for (let k = this.keep; k < this.held.length; k++) this.leftOut(modifiedOf(this.held[k]));
    this.held.length = this.keep;
    this.floor = modifiedOf(this.held[this.keep - 1]);
  }

  private leftOut(m: number): void {
    if (this.next === null || m > this.next) this.next = m;
  }
}

/** Whether a record's bytes (or its first ones) are of this format, for a snapshot of this layout and generation `gen`. */
export function isNewestOf(bytes: Uint8Array | string, gen: string): boolean {
  const head = newestHead(gen);
  const text =
    typeof bytes === "string" ? bytes.slice(0, head.length) : asciiText(bytes, 0, Math.min(bytes.length, head.length));
  return text === head;
}

/**
 * The record out of its row's bytes, when it is one for generation `gen` (isNewestOf);
 * undefined when it is of another (or none), or damaged: then it is as if missing.
 */
export function readNewest(bytes: Uint8Array | string | undefined, gen: string): NewestRecord | undefined {
  if (bytes === undefined || !isNewestOf(bytes, gen)) return undefined;
  const text = typeof bytes === "string" ? bytes : asciiText(bytes);
  let r: NewestRecord;
  try {
    r = JSON.parse(text.slice(newestHead(gen).length)) as NewestRecord;
  } catch {
    return undefined;
  }
  if (r?.gen !== gen || typeof r.n !== "number" || !Array.isArray(r.rows)) return undefined;
  return r;
}
