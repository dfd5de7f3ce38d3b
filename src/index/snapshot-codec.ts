import type { Diagnostic } from "../model/types.js";

/*
 * The snapshot (every file's identity and stored summary, what a launch reads) as one JSON
 * text laid out by column rather than by row: { v, n, path: [...], ino: [...], ...,
 * keys: [...], cols: [[...], ...], absent: [[...], ...] }. Ten thousand rows of objects
 * cost JSON.parse about three times what the same values cost as arrays (no object per row
 * to build, no key per field to read), and the identities alone can be checked before a
 * single summary is made.
 *
 * Beside it (a second text, written in the same transaction): each session's `list --json`
 * element without its lineage (src/model/summary-json.ts), so `list --json` writes them out
 * instead of making them again. The two carry the same random generation; a second text of
 * another generation is not used.
 */

/** One file in the snapshot: its identity, and its stored summary or why it is no session. */
export interface SnapshotEntry {
  path: string;
  ino: number;
  size: number;
  mtime: number;
  /** The summary as stored (summary-codec's storedSummary), or null. */
  summary: Record<string, unknown> | null;
  diagnostic: Diagnostic | null;
  /** The row's `list --json` element around its lineage (UTF-8), when known. */
  pieces?: BytePieces;
}

/** A `list --json` element's text before and after its lineage, as UTF-8 bytes. */
export type BytePieces = readonly [head: Uint8Array, tail: Uint8Array];

/** Summary keys that are, as a rule, the file's identity: which part. */
const IDENTITY_OF: Record<string, "path" | "size" | "mtime" | undefined> = {
  path: "path",
  bytes: "size",
  mtimeMs: "mtime",
};

/** Written into the text: a snapshot of another layout is not read (the rows are, and it is written anew). */
const LAYOUT = 4;

interface Columns {
  v: number;
  n: number;
  path: string[];
  ino: number[];
  size: number[];
  mtime: number[];
  diagnostic: Array<Diagnostic | null>;
  /** Every key any summary has, in the order met. */
  keys: string[];
  /** Per key, per row: the value (null where the row has no summary or lacks the key; empty when `same`). */
  cols: unknown[][];
  /** Per key, the identity column it equals in every row (then not written), or null. */
  same: Array<"path" | "size" | "mtime" | null>;
  /** Per row, its shape (-1: no summary): which keys it has (so a missing key stays missing, not null). */
  shape: number[];
  /** Per shape, the columns of its keys. */
  shapes: number[][];
  /** The generation the list text must carry. */
  gen: string;
  /** Per row, the byte lengths of its list pieces in the list text (-1: none). */
  lh: number[];
  lt: number[];
}

/**
 * The snapshot's two values, as UTF-8 bytes (SQLite hands bytes back as they are; text it
 * would decode, at a few milliseconds a megabyte): the columns' JSON, and the list text
 * (`gen` and a newline, then every row's pieces).
 */
export function encodeSnapshot(
  entries: readonly SnapshotEntry[],
  gen: string = Math.random().toString(36).slice(2),
): { body: Uint8Array; list: Uint8Array } {
  const n = entries.length;
  const keyIndex = new Map<string, number>();
  const cols: unknown[][] = [];
  const present: boolean[][] = [];
  entries.forEach((e, i) => {
    if (!e.summary) return;
    for (const k of Object.keys(e.summary)) {
      let c = keyIndex.get(k);
      if (c === undefined) {
        keyIndex.set(k, (c = cols.length));
        cols.push(new Array<unknown>(n).fill(null));
        present.push(new Array<boolean>(n).fill(false));
      }
      const v = e.summary[k];
      if (v === undefined) continue; // as JSON.stringify of the row: a key set to undefined is no key
      cols[c][i] = v;
      present[c][i] = true;
    }
  });
  // Each row's keys, as one of a few shapes (most rows have every key; an unnamed session
  // has no name): a shape is the list of its keys' columns.
  const shapeIds = new Map<string, number>();
  const shapes: number[][] = [];
  const shape = entries.map((e, i) => {
    if (!e.summary) return -1;
    const has = cols.map((_, k) => k).filter((k) => present[k][i]);
    const id = has.join(",");
    let at = shapeIds.get(id);
    if (at === undefined) {
      shapeIds.set(id, (at = shapes.length));
      shapes.push(has);
    }
    return at;
  });
  // A summary's path, bytes and mtimeMs are its file's identity, as a rule: such a column is
  // not written twice (read back from the identity's).
  const keyNames = [...keyIndex.keys()];
  const same = keyNames.map((name) => {
    const from = IDENTITY_OF[name];
    if (!from) return null;
    const c = keyIndex.get(name)!;
    return entries.every((e, i) => !e.summary || !present[c][i] || cols[c][i] === e[from]) ? from : null;
  });
  const body: Columns = {
    v: LAYOUT,
    n,
    path: entries.map((e) => e.path),
    ino: entries.map((e) => e.ino),
    size: entries.map((e) => e.size),
    mtime: entries.map((e) => e.mtime),
    diagnostic: entries.map((e) => (e.summary ? null : e.diagnostic)),
    keys: [...keyIndex.keys()],
    cols: cols.map((col, k) => (same[k] ? [] : col)),
    same,
    shape,
    shapes,
    gen,
    lh: entries.map((e) => (e.pieces ? e.pieces[0].length : -1)),
    lt: entries.map((e) => (e.pieces ? e.pieces[1].length : -1)),
  };
  const list: Uint8Array[] = [Buffer.from(gen + "\n")];
  for (const e of entries) if (e.pieces) list.push(e.pieces[0], e.pieces[1]);
  // Every character past ASCII escaped (JSON reads \uXXXX back as the same one): the text
  // is then its own bytes, read back as Latin-1 without decoding, and parsed faster.
  const ascii = JSON.stringify(body).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return { body: Buffer.from(ascii, "latin1"), list: Buffer.concat(list) };
}

/** A snapshot read back: the identities as arrays, each row's summary made when asked for. */
export interface DecodedSnapshot {
  n: number;
  path: readonly string[];
  ino: readonly number[];
  size: readonly number[];
  mtime: readonly number[];
  /** Row i's stored summary (a fresh object), or null. */
  summary(i: number): Record<string, unknown> | null;
  diagnostic(i: number): Diagnostic | null;
  /** Row i's list pieces out of the list text, or undefined (none, or a list text of another generation). */
  pieces(i: number, list: Uint8Array): BytePieces | undefined;
}

const NON_ASCII = /[\u0080-\uffff]/g;

/** Undefined when the value is not a snapshot of this layout (an older one: the caller reads the rows). */
export function decodeSnapshot(value: string | Uint8Array): DecodedSnapshot | undefined {
  // Written as ASCII (encodeSnapshot): bytes that are not are no snapshot of ours (JSON.parse will say so).
  const text =
    typeof value === "string" ? value : Buffer.from(value.buffer, value.byteOffset, value.length).toString("latin1");
  if (!text.startsWith("{")) return undefined;
  const c = JSON.parse(text) as Columns;
  if (c.v !== LAYOUT || !Array.isArray(c.path) || c.path.length !== c.n || !Array.isArray(c.shape)) return undefined;
  const { keys, lh, lt } = c;
  // Columns not written twice are the identity's.
  const cols = c.cols.map((col, k) => (c.same?.[k] ? c[c.same[k]!] : col));
  // Where each row's pieces start in the list text; null when that text does not fit these rows.
  let starts: number[] | null | undefined;
  const prefix = Buffer.from(c.gen + "\n");
  return {
    n: c.n,
    path: c.path,
    ino: c.ino,
    size: c.size,
    mtime: c.mtime,
    summary(i) {
      const sh = c.shape[i];
      if (sh < 0 || c.diagnostic[i] !== null) return null;
      const s: Record<string, unknown> = {};
      for (const k of c.shapes[sh]) s[keys[k]] = cols[k][i];
      return s;
    },
    diagnostic: (i) => c.diagnostic[i],
    pieces(i, list) {
      if (!lh || lh[i] < 0 || Buffer.compare(list.subarray(0, prefix.length), prefix) !== 0) return undefined;
      if (starts === undefined) {
        const at0 = new Array<number>(c.n);
        let at = prefix.length;
        for (let r = 0; r < c.n; r++) {
          at0[r] = at;
          if (lh[r] >= 0) at += lh[r] + lt[r];
        }
        starts = at === list.length ? at0 : null;
      }
      if (starts === null) return undefined;
      const a = starts[i];
      return [list.subarray(a, a + lh[i]), list.subarray(a + lh[i], a + lh[i] + lt[i])];
    },
  };
}
