import { randomBytes } from "node:crypto";
import type { SessionSummary } from "../../model/types.js";
import { splitPath, type SessionFile } from "../../store/discover.js";
import { fieldTextOf, type FieldText } from "../../search/field-text.js";
import { asciiJson, asciiText } from "../../text/ascii-json.js";
import { idOfName, KeptSearchRow, type RowColumns, type TextEncoding } from "./kept-search-row.js";

/*
 * What `search` reads of each session (ranking, scope, output), kept in the index beside
 * the store's fingerprint (answer-cache.ts) so a search of an unchanged store makes ten
 * thousand small rows instead of ten thousand whole summaries; and, with each row's file
 * identity (path, inode, size, mtime, ctime), the rows a search of a store that changed since
 * starts from (only the files that changed are summarized again). Laid out by column: JSON
 * arrays of plain values parse several times faster than an object per row. A folder, a
 * path's folder or a model list, shared by many rows, is written once: half the text to parse.
 * After the JSON and a newline, the rows' numbers that are not small whole ones (inode, dates,
 * size) as 64-bit floats, a column after another (parsing them as JSON text was two thirds of
 * the JSON's parse at 50,000 sessions, and each one a number object made); then three texts: the
 * rows' searched fields folded (src/search/field-text.ts), their first messages and their
 * files' names, each read back in one copy and each row's a slice of it, where JSON would
 * escape every character past ASCII and parse them one by one (at 50,000 sessions the first
 * messages were 6.7 of the JSON's 18 MB and most of the time its parse took: 180 → 55 ms
 * without them and the ids; the names, 3.4 of the 5.1 MB left, were 50,000 strings parsed).
 * Each text is Latin-1 (a byte a character) when it fits, as pi's file names do, else
 * UTF-16: either is decoded as a copy, where UTF-8 with a few emoji in it took ~100 ms for
 * the 10 MB of field text, and 25 ms more than UTF-16 for the 50,000 first messages a phrase
 * or a pattern reads one by one. An id is not written where the file's name ends with it (pi
 * names every file `<time>_<id>.jsonl`).
 */

/** The fields of a summary that search uses (matchSession's, cwdScope's, the output's, the index's target). */
export type SearchRow = Pick<
  SessionSummary,
  | "path"
  | "id"
  | "name"
  | "firstMessage"
  | "cwd"
  | "models"
  | "labelCount"
  | "labels"
  | "modified"
  | "bytes"
  | "mtimeMs"
  | "ctimeMs"
>;

/** Written into the value: rows of another layout are not read (the command scans instead). */
const LAYOUT = 10;

interface Columns {
  v: number;
  /**
   * These very rows, in this order: a random value each time rows are kept. What is kept by
   * a row's place beside them (search-coverage.ts) is read only with the same stamp.
   */
  stamp: string;
  /** Per row: its path's folder (with the separator after it) as a place in `dirs`; the path is that and its file's name. */
  dir: number[];
  dirs: string[];
  /** Per row, the length of its file's name (UTF-16 units) in the names' text (the last of the three). */
  base: number[];
  /** Per text (field text, first messages, names): how it is written (one of TEXT_ENCODINGS'). */
  encodings: string[];
  /** Per row whose id its file's name does not end with (idOfName), that id, by the row's place. */
  ids: Record<string, string>;
  /** null: no name (undefined in the summary). */
  name: Array<string | null>;
  /** Per row, the length of its first message in the text after the field text. */
  firstMessage: number[];
  /** Per row: its folder's place in `cwds`. */
  cwd: number[];
  cwds: string[];
  /** Per row: its model list's place in `modelLists`. */
  models: number[];
  modelLists: string[][];
  labelCount: number[];
  /** null: no labels kept (undefined in the summary). */
  labels: Array<string[] | null>;
  /** Per row, the length of its part of the field text after the JSON. */
  folded: readonly number[];
}

/** Kept rows read back (their fields made as they are read: kept-search-row.ts), with their files' inodes. */
export interface KeptSearchRows {
  rows: SearchRow[];
  /** Row i's file's inode (undefined where unknown). */
  inoAt(i: number): number | undefined;
  /** The rows' searched fields folded, in their order. */
  fieldText: FieldText;
  /** These rows as kept (Columns.stamp). */
  stamp: string;
}

/** A new stamp for rows about to be kept (Columns.stamp). */
export function rowsStamp(): string {
  return randomBytes(8).toString("hex");
}

/** Each distinct value once, and every row's place in that list. */
function dictionary<T>(values: readonly T[], keyOf: (v: T) => string): { at: number[]; list: T[] } {
  const seen = new Map<string, number>();
  const list: T[] = [];
  const at = values.map((v) => {
    const k = keyOf(v);
    let i = seen.get(k);
    if (i === undefined) {
      seen.set(k, (i = list.length));
      list.push(v);
    }
    return i;
  });
  return { at, list };
}

/** The three texts after the floats (field text, first messages, names): how each may be written. */
const TEXTS = 3;
const TEXT_ENCODINGS: readonly string[] = ["latin1", "utf16le"];
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
/** Bytes a character takes. */
const widthOf = (e: TextEncoding) => (e === "utf16le" ? 2 : 1);

/**
 * The columns written as floats, in this order, after the JSON: NaN where a row has none (an
 * inode discovery did not know, an invalid date, a ctime not known). In the machine's byte
 * order: the index and what is kept beside it are this machine's.
 */
const FLOATS = ["ino", "modified", "bytes", "mtimeMs", "ctimeMs"] as const;
const FLOAT_BYTES = FLOATS.length * Float64Array.BYTES_PER_ELEMENT;

/** `files`: the store's files as discovery saw them (their inodes are kept with the rows). */
export function encodeSearchRows(
  sessions: readonly SearchRow[],
  files: readonly SessionFile[],
  fieldText: FieldText = fieldTextOf(sessions),
  stamp: string = rowsStamp(),
): Uint8Array {
  const inoOf = new Map(files.map((f) => [f.path, f.ino]));
  const parts = sessions.map((s) => splitPath(s.path));
  const dir = dictionary(
    parts.map((p) => p[0]),
    (d) => d,
  );
  const cwd = dictionary(
    sessions.map((s) => s.cwd),
    (c) => c,
  );
  const ft = fieldText;
  const ids: Record<string, string> = {};
  sessions.forEach((s, i) => {
    if (idOfName(parts[i][1]) !== s.id) ids[i] = s.id;
  });
  const models = dictionary(
    sessions.map((s) => s.models),
    (m) => JSON.stringify(m),
  );
  const texts = [ft.text, sessions.map((s) => s.firstMessage).join(""), parts.map((p) => p[1]).join("")];
  const encodings = texts.map((t): TextEncoding => (NOT_LATIN1.test(t) ? "utf16le" : "latin1"));
  const c: Columns = {
    v: LAYOUT,
    stamp,
    dir: dir.at,
    dirs: dir.list,
    base: parts.map((p) => p[1].length),
    encodings,
    ids,
    name: sessions.map((s) => s.name ?? null),
    firstMessage: sessions.map((s) => s.firstMessage.length),
    cwd: cwd.at,
    cwds: cwd.list,
    models: models.at,
    modelLists: models.list,
    labelCount: sessions.map((s) => s.labelCount),
    labels: sessions.map((s) => s.labels ?? null),
    folded: ft.lengths,
  };
  // As ASCII (src/text/ascii-json.ts): read back without decoding UTF-8. It holds no newline.
  const json = asciiJson(c);
  const n = sessions.length;
  const floats = new Float64Array(FLOATS.length * n);
  sessions.forEach((s, i) => {
    floats[i] = inoOf.get(s.path) ?? NaN;
    floats[n + i] = s.modified.getTime();
    floats[2 * n + i] = s.bytes;
    floats[3 * n + i] = s.mtimeMs;
    floats[4 * n + i] = s.ctimeMs ?? NaN;
  });
  const textBytes = texts.reduce((sum, t, k) => sum + Buffer.byteLength(t, encodings[k]), 0);
  const out = Buffer.allocUnsafe(json.length + 1 + floats.byteLength + textBytes);
  out.write(json, 0, "latin1");
  out[json.length] = 0x0a;
  out.set(new Uint8Array(floats.buffer), json.length + 1);
  let at = json.length + 1 + floats.byteLength;
  texts.forEach((t, k) => (at += out.write(t, at, encodings[k])));
  return out;
}

/** The rows, or undefined when the value is not rows of this layout (the caller scans instead). */
export function decodeSearchRows(value: Uint8Array): KeptSearchRows | undefined {
  const eol = value.indexOf(0x0a);
  if (eol < 0) return undefined;
  let c: Columns;
  try {
    c = JSON.parse(asciiText(value, 0, eol)) as Columns;
  } catch {
    return undefined;
  }
  if (
    !c ||
    c.v !== LAYOUT ||
    typeof c.stamp !== "string" ||
    !Array.isArray(c.dir) ||
    !Array.isArray(c.dirs) ||
    !Array.isArray(c.cwds)
  )
    return undefined;
  if (!Array.isArray(c.modelLists) || !c.ids || typeof c.ids !== "object") return undefined;
  const may = c.encodings;
  if (!Array.isArray(may) || may.length !== TEXTS || !may.every((e) => TEXT_ENCODINGS.includes(e))) return undefined;
  const [fieldEncoding, messageEncoding, nameEncoding] = may as TextEncoding[];
  const n = c.dir.length;
  const lists = [c.base, c.name, c.firstMessage, c.cwd, c.models, c.labelCount, c.labels, c.folded];
  if (!lists.every((col) => Array.isArray(col) && col.length === n)) return undefined;
  // The floats, then the three texts.
  const textAt = eol + 1 + FLOAT_BYTES * n;
  if (textAt > value.length) return undefined;
  // Copied (the value's bytes need not be aligned for a Float64Array's view).
  const floats = new Float64Array(FLOATS.length * n);
  new Uint8Array(floats.buffer).set(value.subarray(eol + 1, textAt));
  // The field text, the first messages, the names: their lengths must add up to the
  // value. The field text and the names are decoded here (each row's name a slice of
  // them); a row's first message when it is read.
  const b = Buffer.from(value.buffer, value.byteOffset, value.length);
  const fieldChars = c.folded.reduce((sum, len) => sum + len, 0) + Math.max(0, n - 1);
  if (!Number.isFinite(fieldChars)) return undefined;
  const fieldEnd = textAt + widthOf(fieldEncoding) * fieldChars;
  const messageAt = new Float64Array(n + 1);
  let at = fieldEnd;
  for (let i = 0; i < n; i++) {
    const len = c.firstMessage[i];
    if (!Number.isInteger(len) || len < 0) return undefined;
    messageAt[i] = at;
    at += widthOf(messageEncoding) * len;
  }
  messageAt[n] = at;
  const baseAt = new Float64Array(n + 1);
  let chars = 0;
  for (let i = 0; i < n; i++) {
    const len = c.base[i];
    if (!Number.isInteger(len) || len < 0) return undefined;
    baseAt[i] = chars;
    chars += len;
  }
  baseAt[n] = chars;
  if (at + widthOf(nameEncoding) * chars !== value.length) return undefined;
  const text = b.toString(fieldEncoding, textAt, fieldEnd);
  const names = b.toString(nameEncoding, at, value.length);
  for (let i = 0; i < n; i++) {
    if (typeof c.dirs[c.dir[i]] !== "string" || typeof c.cwds[c.cwd[i]] !== "string") return undefined;
    if (!Array.isArray(c.modelLists[c.models[i]])) return undefined;
  }
  for (const id of Object.values(c.ids)) if (typeof id !== "string") return undefined;
  // Not the lengths the places were made of (base, firstMessage): held by every row, for nothing.
  const { base: _base, firstMessage: _firstMessage, stamp, ...columns } = c;
  const shared: RowColumns = { ...columns, bytes: b, messageAt, messageEncoding, names, baseAt, floats, n };
  const rows = new Array<SearchRow>(n);
  for (let i = 0; i < n; i++) rows[i] = new KeptSearchRow(shared, i);
  const inoAt = (i: number) => (Number.isNaN(floats[i]) ? undefined : floats[i]);
  return { rows, inoAt, fieldText: { text, lengths: c.folded }, stamp };
}

/**
 * The kept rows still true of the store's files now (same path, inode, size, mtime and ctime), and
 * the files that are not (changed, new, renamed, or not sessions when the rows were kept).
 */
export function rowsStillTrue(
  kept: KeptSearchRows,
  files: readonly SessionFile[],
): { rows: SearchRow[]; todo: SessionFile[] } {
  const at = new Map(kept.rows.map((r, i) => [r.path, i]));
  const rows: SearchRow[] = [];
  const todo: SessionFile[] = [];
  for (const f of files) {
    const i = at.get(f.path);
    const r = i === undefined ? undefined : kept.rows[i];
    if (
      r &&
      f.ino !== undefined &&
      f.ctimeMs !== undefined &&
      kept.inoAt(i!) === f.ino &&
      r.bytes === f.bytes &&
      r.mtimeMs === f.mtimeMs &&
      r.ctimeMs === f.ctimeMs
    )
      rows.push(r);
    else todo.push(f);
  }
  return { rows, todo };
}
