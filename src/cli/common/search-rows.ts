import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { SessionSummary } from "../../model/types.js";
import { splitPath, type SessionFile } from "../../store/discover.js";
import { asFieldBytes, fieldTextOf, type AnyFieldText, type FieldText } from "../../search/field-text.js";
import { asciiJson, asciiText } from "../../text/ascii-json.js";
import type { AnswerRest } from "./answer-cache.js";
import { idOfName, KeptSearchRow, type RowColumns, type TextEncoding } from "./kept-search-row.js";

/*
 * What `search` reads of each session (ranking, scope, output), kept in the index beside
 * the store's fingerprint (answer-cache.ts) so a search of an unchanged store makes ten
 * thousand small rows instead of ten thousand whole summaries; and, with each row's file
 * identity (path, inode, size, mtime, ctime), the rows a search of a store that changed since
 * starts from (only the files that changed are summarized again). Laid out by column, read
 * with no value made per row: a short JSON head holds what many rows share, each distinct
 * value once (path folders, folders, model and label lists, names: a row's is its place in
 * the list); after it and a newline, the rows' places and lengths as 32-bit integers, a
 * column after another, then the numbers that are not small whole ones (inode, dates, size,
 * label count) as 64-bit floats (a JSON array of 50,000 numbers is a parse and 50,000 values
 * the collector traces to the end; the head was 1.8 MB of such columns); then three texts:
 * the rows' searched fields folded (src/search/field-text.ts), their files' names and their
 * first messages, each row's a slice of it. The first messages come last, after a CRC-32 of
 * each block of them: a search reads the few of the rows it prints (all of them only for a
 * pattern), so the value is kept with all before them as its first part (answer-cache.ts:
 * checked alone) and the blocks are read from the file as asked, each checked by its CRC.
 * The head is padded with spaces so the numbers start 8-byte aligned: read into a buffer of
 * its own, they are viewed in place, not copied. The field text is UTF-8 when well-formed
 * (searched as bytes, never decoded: FieldBytes), else UTF-16; the first messages and the
 * names Latin-1 (a byte a character) when they fit, as pi's file names do, else UTF-16:
 * either is decoded a row at a time, where UTF-8 took three times as long for the 50,000
 * first messages a pattern reads. An id is not written where the file's name ends with it
 * (pi names every file `<time>_<id>.jsonl`).
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
const LAYOUT = 12;

/** The first messages are read and checked in blocks of this many bytes (a CRC-32 each). */
export const MESSAGE_BLOCK = 64 * 1024;

/** The JSON head: what many rows share, and what few rows have. */
interface Head {
  v: number;
  /**
   * These very rows, in this order: a random value each time rows are kept. What is kept by
   * a row's place beside them (search-coverage.ts) is read only with the same stamp.
   */
  stamp: string;
  n: number;
  /** Each distinct value once: path folders (with the separator after), folders, model lists, label lists, names. */
  dirs: string[];
  cwds: string[];
  modelLists: string[][];
  labelLists: string[][];
  names: string[];
  /** Per text (field text, first messages, names): how it is written (one of TEXT_ENCODINGS'). */
  encodings: string[];
  /** Per row whose id its file's name does not end with (idOfName), that id, by the row's place. */
  ids: Record<string, string>;
}

/** Kept rows read back (their fields made as they are read: kept-search-row.ts), with their files' inodes. */
export interface KeptSearchRows {
  rows: SearchRow[];
  /** Row i's file's inode (undefined where unknown). */
  inoAt(i: number): number | undefined;
  /** The rows' searched fields folded, in their order: as bytes (as kept when well-formed), else as text. */
  fieldText: AnyFieldText;
  /** These rows as kept (Head.stamp). */
  stamp: string;
}

/** A new stamp for rows about to be kept (Head.stamp). */
export function rowsStamp(): string {
  return randomBytes(8).toString("hex");
}

/** Each distinct value once, and every row's place in that list (-1 where it has none: undefined). */
function dictionary<T>(values: readonly (T | undefined)[], keyOf: (v: T) => string): { at: Int32Array; list: T[] } {
  const seen = new Map<string, number>();
  const list: T[] = [];
  const at = new Int32Array(values.length);
  values.forEach((v, k) => {
    if (v === undefined) {
      at[k] = -1;
      return;
    }
    const key = keyOf(v);
    let i = seen.get(key);
    if (i === undefined) {
      seen.set(key, (i = list.length));
      list.push(v);
    }
    at[k] = i;
  });
  return { at, list };
}

/** The three texts after the numbers (field text, first messages, names): how each may be written (Head.encodings' order). */
const TEXTS = 3;
const FIELD_ENCODINGS: readonly string[] = ["utf8", "utf16le"];
const TEXT_ENCODINGS: readonly string[] = ["latin1", "utf16le"];
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
/** Bytes a character takes (the first messages and the names). */
const widthOf = (e: TextEncoding) => (e === "utf16le" ? 2 : 1);

/**
 * The columns written as 32-bit integers, in this order, after the JSON: the places of each
 * row's path folder, folder, model list, label list (-1: none) and name (-1: none), and the
 * lengths of its part of each text (the field text's in its units: bytes when UTF-8, else
 * characters; the others' in characters).
 */
const INTS = ["dir", "cwd", "models", "labels", "name", "folded", "firstMessage", "base"] as const;
/**
 * The columns written as floats, after those: NaN where a row has none (an inode discovery
 * did not know, an invalid date, a ctime not known). In the machine's byte order: the index
 * and what is kept beside it are this machine's.
 */
const FLOATS = ["ino", "modified", "bytes", "mtimeMs", "ctimeMs", "labelCount"] as const;

/**
 * The rows' bytes, and how many of them come before the first messages (AnswerToKeep.part:
 * read and checked alone). `files`: the store's files as discovery saw them (their inodes are
 * kept with the rows).
 */
export function encodeSearchRows(
  sessions: readonly SearchRow[],
  files: readonly SessionFile[],
  fieldText: AnyFieldText = fieldTextOf(sessions),
  stamp: string = rowsStamp(),
): { out: Buffer; part: number } {
  const inoOf = new Map(files.map((f) => [f.path, f.ino]));
  const n = sessions.length;
  const parts = sessions.map((s) => splitPath(s.path));
  const same = (v: string) => v;
  const dir = dictionary(
    parts.map((p) => p[0]),
    same,
  );
  const cwd = dictionary(
    sessions.map((s) => s.cwd),
    same,
  );
  const models = dictionary(
    sessions.map((s) => s.models),
    (m) => JSON.stringify(m),
  );
  const labels = dictionary(
    sessions.map((s) => s.labels),
    (l) => JSON.stringify(l),
  );
  const names = dictionary(
    sessions.map((s) => s.name),
    same,
  );
  const ids: Record<string, string> = {};
  sessions.forEach((s, i) => {
    if (idOfName(parts[i][1]) !== s.id) ids[i] = s.id;
  });
  // The field text as UTF-8 when it can be (searched as bytes), else as UTF-16.
  const fb = asFieldBytes(fieldText);
  const field: { bytes: Uint8Array; lengths: ArrayLike<number>; encoding: string } = fb
    ? { ...fb, encoding: "utf8" }
    : (() => {
        const ft = fieldText as FieldText;
        return { bytes: Buffer.from(ft.text, "utf16le"), lengths: ft.lengths, encoding: "utf16le" };
      })();
  const texts = [sessions.map((s) => s.firstMessage).join(""), parts.map((p) => p[1]).join("")];
  const encodings = texts.map((t): TextEncoding => (NOT_LATIN1.test(t) ? "utf16le" : "latin1"));
  const head: Head = {
    v: LAYOUT,
    stamp,
    n,
    dirs: dir.list,
    cwds: cwd.list,
    modelLists: models.list,
    labelLists: labels.list,
    names: names.list,
    encodings: [field.encoding, ...encodings],
    ids,
  };
  // As ASCII (src/text/ascii-json.ts): read back without decoding UTF-8. It holds no newline.
  const json = asciiJson(head);
  const ints = new Int32Array(INTS.length * n);
  const columns = [dir.at, cwd.at, models.at, labels.at, names.at];
  columns.forEach((col, k) => ints.set(col, k * n));
  for (let i = 0; i < n; i++) {
    ints[5 * n + i] = field.lengths[i];
    ints[6 * n + i] = sessions[i].firstMessage.length;
    ints[7 * n + i] = parts[i][1].length;
  }
  const floats = new Float64Array(FLOATS.length * n);
  sessions.forEach((s, i) => {
    floats[i] = inoOf.get(s.path) ?? NaN;
    floats[n + i] = s.modified.getTime();
    floats[2 * n + i] = s.bytes;
    floats[3 * n + i] = s.mtimeMs;
    floats[4 * n + i] = s.ctimeMs ?? NaN;
    floats[5 * n + i] = s.labelCount;
  });
  const [messageBytes, nameBytes] = texts.map((t, k) => Buffer.byteLength(t, encodings[k]));
  const blocks = Math.ceil(messageBytes / MESSAGE_BLOCK);
  // Spaces after the JSON (JSON.parse skips them): the numbers start 8-byte aligned.
  const headBytes = Math.ceil((json.length + 1) / 8) * 8;
  const out = Buffer.allocUnsafe(
    headBytes + ints.byteLength + floats.byteLength + field.bytes.length + nameBytes + 4 * blocks + messageBytes,
  );
  out.write(json.padEnd(headBytes - 1), 0, "latin1");
  out[headBytes - 1] = 0x0a;
  let at = headBytes;
  out.set(new Uint8Array(ints.buffer), at);
  at += ints.byteLength;
  out.set(new Uint8Array(floats.buffer), at);
  at += floats.byteLength;
  out.set(field.bytes, at);
  at += field.bytes.length;
  at += out.write(texts[1], at, encodings[1]);
  const crcsAt = at;
  const messagesAt = crcsAt + 4 * blocks;
  out.write(texts[0], messagesAt, encodings[0]);
  for (let b = 0; b < blocks; b++) {
    const from = messagesAt + b * MESSAGE_BLOCK;
    out.writeUInt32LE(crc32(out.subarray(from, Math.min(from + MESSAGE_BLOCK, out.length))), crcsAt + 4 * b);
  }
  return { out, part: messagesAt };
}

/** Thrown when a kept row's first message cannot be read as kept (its file replaced since, or a block damaged): the search is made again without the kept rows. */
export class KeptRowsUnreadable extends Error {}

/**
 * The rows' first messages, read a block at a time as asked (from the kept value itself, or
 * from the file after its first part: AnswerRest), each block checked by its CRC once.
 */
export class MessageBlocks {
  readonly #blocks: Buffer[] = [];
  constructor(
    private readonly read: (at: number, length: number) => Buffer,
    private readonly length: number,
    private readonly crcs: Buffer,
  ) {}

  /** The bytes from `start` to `end` (of the messages); throws KeptRowsUnreadable when they are not as kept. */
  bytes(start: number, end: number): Buffer {
    if (start === end) return EMPTY;
    const first = Math.floor(start / MESSAGE_BLOCK);
    const last = Math.floor((end - 1) / MESSAGE_BLOCK);
    if (first === last) return this.#block(first).subarray(start - first * MESSAGE_BLOCK, end - first * MESSAGE_BLOCK);
    const parts: Buffer[] = [];
    for (let b = first; b <= last; b++) parts.push(this.#block(b));
    return Buffer.concat(parts).subarray(start - first * MESSAGE_BLOCK, end - first * MESSAGE_BLOCK);
  }

  #block(b: number): Buffer {
    const had = this.#blocks[b];
    if (had) return had;
    const from = b * MESSAGE_BLOCK;
    let bytes: Buffer;
    try {
      bytes = this.read(from, Math.min(MESSAGE_BLOCK, this.length - from));
    } catch (err) {
      throw new KeptRowsUnreadable(`kept search rows: ${(err as Error).message}`);
    }
    if (crc32(bytes) !== this.crcs.readUInt32LE(4 * b)) throw new KeptRowsUnreadable("kept search rows: damaged");
    return (this.#blocks[b] = bytes);
  }
}

const EMPTY = Buffer.alloc(0);

const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isLists = (v: unknown) => Array.isArray(v) && v.every(isStrings);

/** The head, when it is a head of this layout. */
function headOf(value: Uint8Array, eol: number): Head | undefined {
  let h: Head;
  try {
    h = JSON.parse(asciiText(value, 0, eol)) as Head;
  } catch {
    return undefined;
  }
  if (!h || h.v !== LAYOUT || typeof h.stamp !== "string" || !Number.isSafeInteger(h.n) || h.n < 0) return undefined;
  if (!isStrings(h.dirs) || !isStrings(h.cwds) || !isStrings(h.names)) return undefined;
  if (!isLists(h.modelLists) || !isLists(h.labelLists)) return undefined;
  if (!h.ids || typeof h.ids !== "object" || !Object.values(h.ids).every((id) => typeof id === "string"))
    return undefined;
  const e = h.encodings;
  if (!Array.isArray(e) || e.length !== TEXTS || !FIELD_ENCODINGS.includes(e[0])) return undefined;
  if (!TEXT_ENCODINGS.includes(e[1]) || !TEXT_ENCODINGS.includes(e[2])) return undefined;
  return h;
}

/** Whether every place of a column (n of them from `from`) is in a list of `size`, or -1 where `none` may be. */
function placesIn(ints: Int32Array, from: number, n: number, size: number, none = false): boolean {
  const low = none ? -1 : 0;
  for (let i = from; i < from + n; i++) if (ints[i] < low || ints[i] >= size) return false;
  return true;
}

/**
 * Where each row's part of a text starts (in bytes from `at`: `width` bytes per unit of its
 * lengths, n of them from `from`), one more entry where the last ends; undefined when a length is negative.
 */
function startsOf(ints: Int32Array, from: number, n: number, at: number, width: number): Float64Array | undefined {
  const starts = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const len = ints[from + i];
    if (len < 0) return undefined;
    starts[i] = at;
    at += width * len;
  }
  starts[n] = at;
  return starts;
}

/** A view of `count` elements of a value's bytes from `at`, in place when aligned, else copied. */
function numbers<T extends Int32Array | Float64Array>(
  make: { new (b: ArrayBuffer, at: number, n: number): T; new (n: number): T; BYTES_PER_ELEMENT: number },
  value: Uint8Array,
  at: number,
  count: number,
): T {
  const start = value.byteOffset + at;
  if (start % make.BYTES_PER_ELEMENT === 0) return new make(value.buffer as ArrayBuffer, start, count);
  const copy = new make(count);
  new Uint8Array(copy.buffer).set(value.subarray(at, at + count * make.BYTES_PER_ELEMENT));
  return copy;
}

/** Where everything of a kept value is (the first messages' places from their own start), or undefined when it is not rows of this layout. */
function layoutOf(value: Uint8Array) {
  const eol = value.indexOf(0x0a);
  if (eol < 0) return undefined;
  const h = headOf(value, eol);
  if (!h) return undefined;
  const { n } = h;
  const intsAt = eol + 1;
  const floatsAt = intsAt + INTS.length * 4 * n;
  const textAt = floatsAt + FLOATS.length * 8 * n;
  if (textAt > value.length) return undefined;
  const ints = numbers(Int32Array, value, intsAt, INTS.length * n);
  const floats = numbers(Float64Array, value, floatsAt, FLOATS.length * n);
  const ok =
    placesIn(ints, 0, n, h.dirs.length) &&
    placesIn(ints, n, n, h.cwds.length) &&
    placesIn(ints, 2 * n, n, h.modelLists.length) &&
    placesIn(ints, 3 * n, n, h.labelLists.length, true) &&
    placesIn(ints, 4 * n, n, h.names.length, true);
  if (!ok) return undefined;
  // The field text, the names, the CRCs of the first messages' blocks, then the messages: their lengths must add up.
  const [fieldEncoding, messageEncoding, nameEncoding] = h.encodings as [
    "utf8" | "utf16le",
    TextEncoding,
    TextEncoding,
  ];
  const fieldStarts = startsOf(ints, 5 * n, n, textAt, fieldEncoding === "utf8" ? 1 : 2);
  if (!fieldStarts) return undefined;
  // One separator between two rows' parts.
  const fieldEnd = fieldStarts[n] + (n > 1 ? (fieldEncoding === "utf8" ? 1 : 2) * (n - 1) : 0);
  const baseAt = startsOf(ints, 7 * n, n, 0, 1);
  const messageAt = baseAt && startsOf(ints, 6 * n, n, 0, widthOf(messageEncoding));
  if (!messageAt || !baseAt) return undefined;
  const namesEnd = fieldEnd + widthOf(nameEncoding) * baseAt[n];
  const messageBytes = messageAt[n];
  const part = namesEnd + 4 * Math.ceil(messageBytes / MESSAGE_BLOCK);
  if (part > value.length) return undefined;
  return {
    h,
    ints,
    floats,
    textAt,
    fieldEnd,
    fieldEncoding,
    nameEncoding,
    messageEncoding,
    baseAt,
    messageAt,
    namesEnd,
    part,
    messageBytes,
  };
}

/**
 * The rows, or undefined when the value is not rows of this layout (the caller scans
 * instead). `value`: the whole kept value, or its first part alone (encodeSearchRows' part) with the
 * rest read from its file as asked (`rest`). A first message that cannot then be read as
 * kept throws KeptRowsUnreadable.
 */
export function decodeSearchRows(value: Uint8Array, rest?: AnswerRest): KeptSearchRows | undefined {
  const l = layoutOf(value);
  if (!l) return undefined;
  const { h, ints, floats, messageAt, baseAt, part } = l;
  const { n } = h;
  const b = Buffer.from(value.buffer, value.byteOffset, value.length);
  const crcs = b.subarray(l.namesEnd, part);
  let messages: MessageBlocks;
  if (rest) {
    if (value.length !== part || rest.length !== l.messageBytes) return undefined;
    messages = new MessageBlocks((at, length) => rest.read(at, length), rest.length, crcs);
  } else {
    if (value.length !== part + l.messageBytes) return undefined;
    messages = new MessageBlocks((at, length) => b.subarray(part + at, part + at + length), l.messageBytes, crcs);
  }
  const lengths = ints.subarray(5 * n, 6 * n);
  const fieldText: AnyFieldText =
    l.fieldEncoding === "utf8"
      ? { bytes: b.subarray(l.textAt, l.fieldEnd), lengths }
      : { text: b.toString("utf16le", l.textAt, l.fieldEnd), lengths };
  const names = b.toString(l.nameEncoding, l.fieldEnd, l.namesEnd);
  const { stamp, ids, dirs, cwds, modelLists, labelLists } = h;
  const shared: RowColumns = {
    messages,
    messageAt,
    messageEncoding: l.messageEncoding,
    names,
    baseAt,
    ints,
    floats,
    n,
    ids,
    dirs,
    cwds,
    modelLists,
    labelLists,
    nameList: h.names,
  };
  const rows = new Array<SearchRow>(n);
  for (let i = 0; i < n; i++) rows[i] = new KeptSearchRow(shared, i);
  const inoAt = (i: number) => (Number.isNaN(floats[i]) ? undefined : floats[i]);
  return { rows, inoAt, fieldText, stamp };
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
