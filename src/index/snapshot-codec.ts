import { gunzipSync } from "node:zlib";
import { ListMembers } from "./list-members.js";
import type { Diagnostic } from "../model/types.js";
import { asciiText } from "../text/ascii-json.js";
import { JsonColumn } from "./json-column.js";

/*
 * The snapshot (every file's identity and stored summary, what a launch reads) as JSON laid
 * out by column rather than by row: after the layout's line, the identities { n, gen, path:
 * [...], ino: [...], ... }, then how the summaries' columns are laid out { keys, len, shape, ... },
 * each column a row of its own.
 * Ten thousand rows of objects cost JSON.parse about three times what the same values cost
 * as arrays (no object per row to build, no key per field to read), and the identities
 * alone are parsed (a fifth of the bytes) to tell which rows still hold. Each column is a
 * text of its own row (FIRST_CHUNK_ID), parsed when first asked for: the text `list` reads seven of the
 * twenty-odd (at 50,000 sessions the usage, tokens and models columns alone are 12 MB).
 *
 * Beside it (a second text, written in the same transaction): each session's `list --json`
 * element without its lineage (src/model/summary-json.ts), so `list --json` writes them out
 * instead of making them again. The two carry the same random generation; a second text of
 * another generation is not used. That text is kept gzipped, a megabyte at a time (gzip
 * members one after the other, which gunzip reads as one): at 50,000 sessions 46 MB of JSON
 * become 9, and it is read only by `list --json` of a store that changed.
 */

/** One file in the snapshot: its identity, and its stored summary or why it is no session. */
export interface SnapshotEntry {
  path: string;
  ino: number;
  size: number;
  mtime: number;
  /** Its ctime (-1: a read that may be older than the file, src/store/file-identity.ts readIsRacy: never matches). */
  ctime: number;
  /** The summary as stored (summary-codec's storedSummary), or null; or what makes it, asked once as the snapshot is made. */
  summary: StoredRow | null | (() => StoredRow | null);
  diagnostic: Diagnostic | null;
  /** The row's `list --json` element around its lineage (UTF-8, or text), when known; or what makes it, asked once when the list text is made (not all held at once). */
  pieces?: EntryPieces | (() => EntryPieces | undefined);
}

/** An entry's list pieces: as bytes (read out of a snapshot), or as the text they are. */
export type EntryPieces = BytePieces | readonly [head: string, tail: string];

/** A summary as stored. */
export type StoredRow = Record<string, unknown>;

/** A `list --json` element's text before and after its lineage, as UTF-8 bytes. */
export type BytePieces = readonly [head: Uint8Array, tail: Uint8Array];

/**
 * The body's first line, then the identities' length in bytes: a snapshot of another layout
 * is not read (the rows are, and it is written anew). Not JSON, so that a pi-sessions of the
 * one-text layout, which parsed any body starting with "{", takes it for none of its own.
 * With the length, the identities are cut out of the body read whole (a view of it, not a
 * copy) without parsing the rest.
 */
export const LAYOUT = "snapshot 10 ";

/**
 * The summaries' columns are rows of their own, column k at this id + k, each its
 * generation and a newline, then its text: at 50,000 sessions the one body of them all was
 * 39 MB, and SQLite held two more copies of it while it wrote it. A column of another
 * generation, or one too few or too many, and the snapshot is not believed.
 */
export const FIRST_CHUNK_ID = 16;

/** How many bytes of a body hold its first line, at most. */
export const HEAD_BYTES = 32;

/** The first of the snapshot's two texts: what tells which rows still hold, and what lineage needs of them. */
export interface Identities {
  n: number;
  /** The generation the list text must carry. */
  gen: string;
  path: string[];
  ino: number[];
  size: number[];
  mtime: number[];
  ctime: number[];
  diagnostic: Array<Diagnostic | null>;
  /** Per row, its summary's parentSessionPath (null: none, or no summary). */
  parent: Array<string | null>;
}

/** The second text: how the summaries' columns are laid out (each column a row of its own). */
export interface Columns {
  /** Every key any summary has, in the order met. */
  keys: string[];
  /** Per key, the byte length of its column's text: per row, the value (null where the row has no summary or lacks the key; empty when `same`). */
  len: number[];
  /** Per key, the identity column it equals in every row (then not written), or null. */
  same: Array<"path" | "size" | "mtime" | "ctime" | null>;
  /** Per key, 1 when its text is gzipped (PACKED_KEYS; `len` is then the gzipped length), else 0. */
  packed: number[];
  /** Per row, its shape (-1: no summary): which keys it has (so a missing key stays missing, not null). */
  shape: number[];
  /** Per shape, the columns of its keys. */
  shapes: number[][];
  /** Per row, the byte lengths of its list pieces in the list text (-1: none). */
  lh: number[];
  lt: number[];
  /**
   * The list text's gzip members (each holds whole rows): each one's first row, and where each
   * starts in the text as kept, then its length. A reader unzips the members it needs rather
   * than the whole text; absent (a snapshot written before them), the whole text is unzipped.
   */
  lm?: number[];
  lz?: number[];
}

/** A snapshot as stored: its first row, and its columns' rows in order (chunksOf), or read one by one (LazyChunks). */
export interface StoredSnapshot {
  body: string | Uint8Array;
  /** Undefined: rows that are no snapshot's columns (one missing, or not bytes). */
  chunks: ReadonlyArray<string | Uint8Array> | LazyChunks | undefined;
}

/**
 * The column rows read when first asked for: a command that needs seven columns of twenty-odd
 * reads those alone (at 50,000 sessions the others, the usage by day first, are 9 of 22 MB).
 */
export interface LazyChunks {
  /** Each column row's length in bytes, in order (id FIRST_CHUNK_ID + k). */
  lengths: readonly number[];
  /** Column row k as stored (undefined: gone, or not bytes). */
  read(k: number): string | Uint8Array | undefined;
}

/** A column row read late that is not the one its snapshot's head described (another snapshot was written since). */
export class StaleChunk extends Error {
  constructor() {
    super("snapshot: a column row of another snapshot");
  }
}

/** The column rows (id ≥ FIRST_CHUNK_ID, by id) in order, or undefined when one is missing or not bytes. */
export function chunksOf(rows: ReadonlyArray<{ id: unknown; body: unknown }>): Array<string | Uint8Array> | undefined {
  const out: Array<string | Uint8Array> = [];
  for (const r of rows) {
    if (r.id !== FIRST_CHUNK_ID + out.length) return undefined;
    if (!(r.body instanceof Uint8Array) && typeof r.body !== "string") return undefined;
    out.push(r.body);
  }
  return out;
}

/** A snapshot's identities read back (its first text): enough to tell which rows still hold. */
export interface SnapshotIds {
  n: number;
  gen: string;
  path: readonly string[];
  ino: readonly number[];
  size: readonly number[];
  mtime: readonly number[];
  ctime: readonly number[];
  diagnostic(i: number): Diagnostic | null;
  /** Row i's summary's parentSessionPath, or null. */
  parent(i: number): string | null;
}

/** A snapshot read back whole: the identities as arrays, each row's summary made when asked for. */
export interface DecodedSnapshot extends SnapshotIds {
  /** Row i's stored summary (a fresh object), or null. */
  summary(i: number): Record<string, unknown> | null;
  /**
   * The same, its values parsed out of each column for this row alone (JsonColumn): the
   * browser's first screen of `--all` shows a few rows of 50,000 before the rest are made.
   * `only`: these keys alone (a row's picture needs no usage).
   */
  rowSummary(i: number, only?: ReadonlySet<string>): Record<string, unknown> | null;
  /**
   * One summary key's value per row, as stored (null where a row has no summary or lacks the
   * key; a key that is the identity's, its identity column), or undefined when no summary has
   * the key: only that column's text is parsed.
   */
  column(key: string): readonly unknown[] | undefined;
  /** Row i's list pieces out of the list text as kept, or undefined (none, or a list text of another generation). */
  pieces(i: number, list: Uint8Array): BytePieces | undefined;
  /** pieces() alone: it holds none of the columns' bytes (a caller done with them keeps this and lets them go). */
  piecesReader(): PiecesReader;
}

/** Row i's list pieces out of a list text as kept (DecodedSnapshot.pieces). */
export type PiecesReader = ((i: number, list: Uint8Array) => BytePieces | undefined) & {
  /**
   * Whether row i has pieces in this list text, as far as can be told without unzipping more
   * than its first member (a list text of members): a later read may still find its member
   * damaged and give none (then the caller makes them of the whole summary).
   */
  has(i: number, list: Uint8Array): boolean;
  /** The rows will be asked for in an order that jumps (another sort than the rows'): the whole text unzipped once, now. */
  jumpy(list: Uint8Array): void;
};

/**
 * The reader of rows' pieces for a snapshot's generation, row count and piece lengths (-1:
 * none), and its list text's members when known: made apart from decodeSnapshot's closures,
 * which hold its columns' bytes.
 */
function piecesReader(
  gen: string,
  n: number,
  lh: number[] | undefined,
  lt: number[] | undefined,
  lm?: number[],
  lz?: number[],
): PiecesReader {
  const prefix = Buffer.from(gen + "\n");
  // The members of the last list text read (null: its layout does not fit it). A snapshot
  // written before the members were told is one member: gunzip reads concatenated ones whole.
  let members: { from: Uint8Array; list: ListMembers | null } | undefined;
  const fitting = (kept: Uint8Array) => {
    const memberRow = lm && lz ? lm : [0];
    const memberAt = lm && lz ? lz : [0, kept.length];
    return lh && lt && ListMembers.fits(kept, memberRow, memberAt, n)
      ? new ListMembers(kept, prefix, memberRow, memberAt, lh, lt)
      : null;
  };
  const of = (kept: Uint8Array) => {
    if (members?.from !== kept) members = { from: kept, list: fitting(kept) };
    return members.list;
  };
  return Object.assign((i: number, kept: Uint8Array) => of(kept)?.pieces(i), {
    has: (i: number, kept: Uint8Array) => of(kept)?.has(i) ?? false,
    jumpy: (kept: Uint8Array) => of(kept)?.unzipWhole(),
  });
}

/** Where the line that starts at `start` ends (its newline, or the end of the value). */
function lineEnd(value: string | Uint8Array, start: number): number {
  const nl = typeof value === "string" ? value.indexOf("\n", start) : value.indexOf(10, start);
  return nl < 0 ? value.length : nl;
}

/** The text of the body from `start` (written by asciiJson). */
function textOf(value: string | Uint8Array, start = 0, end?: number): string {
  return typeof value === "string" ? value.slice(start, end) : asciiText(value, start, end);
}

/**
 * Where a body's identities lie, from its first HEAD_BYTES bytes (or more): [start, end) in
 * bytes; the summaries start after the newline at `end`. Undefined when no snapshot of this layout.
 */
export function identitiesAt(head: string | Uint8Array): [start: number, end: number] | undefined {
  const text = textOf(head, 0, HEAD_BYTES);
  const nl = text.indexOf("\n");
  if (!text.startsWith(LAYOUT) || nl < 0) return undefined;
  const length = Number(text.slice(LAYOUT.length, nl));
  if (!Number.isSafeInteger(length) || length <= 0) return undefined;
  return [nl + 1, nl + 1 + length];
}

/** SnapshotIds as decodeIdentities reads them, with the arrays they come from. */
export type ReadIdentities = SnapshotIds & { at: Identities };

/** The identities alone (the first text, a fifth of the bytes); undefined when no snapshot of this layout. */
export function decodeIdentities(value: string | Uint8Array): ReadIdentities | undefined {
  const at = identitiesAt(value);
  return at && identitiesOf(textOf(value, ...at));
}

/** The identities out of their own text (the bytes identitiesAt names), or undefined. */
export function identitiesOf(text: string | Uint8Array): ReadIdentities | undefined {
  // Written as ASCII (encodeSnapshot): bytes that are not are no snapshot of ours (JSON.parse will say so).
  const c = JSON.parse(textOf(text)) as Identities;
  if (!c || !Array.isArray(c.path) || c.path.length !== c.n || !Array.isArray(c.parent)) return undefined;
  if (!Array.isArray(c.ctime) || c.ctime.length !== c.n) return undefined;
  return {
    at: c,
    n: c.n,
    gen: c.gen,
    path: c.path,
    ino: c.ino,
    size: c.size,
    mtime: c.mtime,
    ctime: c.ctime,
    diagnostic: (i) => c.diagnostic[i],
    parent: (i) => c.parent[i],
  };
}

type Maker = (cols: unknown[][], i: number) => Record<string, unknown>;

/**
 * A function making one row's summary of a shape, as one object literal of the shape's keys:
 * a launch makes ten thousand, and setting their keys one by one costs four times as much
 * (each a lookup by name). Keys are written as JSON strings, so any text is a key and only a key.
 */
function shapeMaker(keys: readonly string[], shape: readonly number[]): Maker {
  // The file is data: nothing in it but a key's own text becomes code.
  if (!shape.every((k) => Number.isInteger(k) && k >= 0 && k < keys.length && typeof keys[k] === "string"))
    throw new Error("snapshot: a shape names no key");
  const fields = shape.map((k) => `${JSON.stringify(keys[k])}: cols[${k}][i]`);
  return new Function("cols", "i", `return { ${fields.join(", ")} };`) as Maker;
}

/**
 * Undefined when the value is not a snapshot of this layout (an older one: the caller reads
 * the rows). `ids`: its identities if already read (decodeIdentities of the same value).
 */
export function decodeSnapshot(
  { body: value, chunks }: StoredSnapshot,
  ids: ReadIdentities | undefined = decodeIdentities(value),
): DecodedSnapshot | undefined {
  if (!ids || !chunks) return undefined;
  const headAt = identitiesAt(value)![1] + 1;
  const c = JSON.parse(textOf(value, headAt, lineEnd(value, headAt))) as Columns;
  if (
    !Array.isArray(c.shape) ||
    c.shape.length !== ids.n ||
    !Array.isArray(c.len) ||
    c.len.length !== c.keys.length ||
    !Array.isArray(c.packed) ||
    c.packed.length !== c.keys.length
  )
    return undefined;
  const { keys, lh, lt } = c;
  // One column row per key, each of this generation and as long as the head says (a row
  // left by another snapshot, or one missing: none of this one).
  const prefix = Buffer.from(ids.gen + "\n");
  const isOurs = (chunk: string | Uint8Array, k: number) =>
    chunk.length === prefix.length + c.len[k] && textOf(chunk, 0, prefix.length) === ids.gen + "\n";
  const lazy = "read" in chunks ? chunks : undefined;
  if ((lazy ? lazy.lengths.length : (chunks as ArrayLike<unknown>).length) !== keys.length) return undefined;
  for (let k = 0; k < keys.length; k++) {
    if (lazy ? lazy.lengths[k] !== prefix.length + c.len[k] : !isOurs((chunks as ReadonlyArray<string>)[k], k))
      return undefined;
  }
  // A row read late is checked as the others were at once: it may be another snapshot's by now.
  const chunkAt = (k: number): string | Uint8Array => {
    if (!lazy) return (chunks as ReadonlyArray<string | Uint8Array>)[k];
    const chunk = lazy.read(k);
    if (chunk === undefined || !isOurs(chunk, k)) throw new StaleChunk();
    return chunk;
  };
  const at = ids.at;
  // Columns not written twice are the identity's; the others parsed when first needed.
  const readers: Array<JsonColumn | undefined> = [];
  const reader = (k: number): JsonColumn => {
    if (readers[k]) return readers[k];
    const chunk = chunkAt(k);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    // A packed column unzipped when first asked for (a damaged one throws, as a malformed one does).
    return (readers[k] ??= c.packed[k]
      ? new JsonColumn(gunzipSync(bytes.subarray(prefix.length)), 0, ids.n)
      : new JsonColumn(bytes, prefix.length, ids.n));
  };
  const col = (k: number): unknown[] => (c.same?.[k] ? at[c.same[k]!] : reader(k).all());
  let cols: unknown[][] | undefined;
  const makers: Array<Maker | undefined> = [];
  let listReader: PiecesReader | undefined;
  return {
    ...ids,
    summary(i) {
      const sh = c.shape[i];
      if (sh < 0 || at.diagnostic[i] !== null) return null;
      cols ??= keys.map((_, k) => col(k));
      return (makers[sh] ??= shapeMaker(keys, c.shapes[sh]))(cols, i);
    },
    rowSummary(i, only) {
      const sh = c.shape[i];
      if (sh < 0 || at.diagnostic[i] !== null) return null;
      const out: Record<string, unknown> = {};
      // The shape's key order, as summary(i) makes it.
      for (const k of c.shapes[sh]) {
        if (only && !only.has(keys[k])) continue;
        out[keys[k]] = c.same?.[k] ? at[c.same[k]!][i] : reader(k).at(i);
      }
      return out;
    },
    column(key) {
      const k = keys.indexOf(key);
      return k < 0 ? undefined : col(k);
    },
    pieces(i, kept) {
      return (listReader ??= piecesReader(ids.gen, ids.n, lh, lt, c.lm, c.lz))(i, kept);
    },
    piecesReader() {
      return (listReader ??= piecesReader(ids.gen, ids.n, lh, lt, c.lm, c.lz));
    },
  };
}
