import type { ListPieces } from "../model/summary-json.js";
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
  /** The row's `list --json` element around its lineage, when known. */
  pieces?: ListPieces;
}

/** Written into the text: a snapshot of another layout is not read (the rows are, and it is written anew). */
const LAYOUT = 2;

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
  /** Per key, per row: the value (null where the row has no summary or lacks the key). */
  cols: unknown[][];
  /** Per key, the rows with a summary that lack the key (so a missing key stays missing, not null). */
  absent: number[][];
  /** The generation the list text must carry. */
  gen: string;
  /** Per row, the lengths of its list pieces in the list text (-1: none). */
  lh: number[];
  lt: number[];
}

/** The snapshot's two texts: the columns, and the list pieces (`gen` + newline, then every row's pieces). */
export function encodeSnapshot(
  entries: readonly SnapshotEntry[],
  gen: string = Math.random().toString(36).slice(2),
): { body: string; list: string } {
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
  const absent = present.map((p) => {
    const out: number[] = [];
    p.forEach((has, i) => {
      if (!has && entries[i].summary) out.push(i);
    });
    return out;
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
    cols,
    absent,
    gen,
    lh: entries.map((e) => (e.pieces ? e.pieces[0].length : -1)),
    lt: entries.map((e) => (e.pieces ? e.pieces[1].length : -1)),
  };
  const list = [gen + "\n"];
  for (const e of entries) if (e.pieces) list.push(e.pieces[0], e.pieces[1]);
  return { body: JSON.stringify(body), list: list.join("") };
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
  pieces(i: number, list: string): ListPieces | undefined;
}

/** Undefined when the text is not a snapshot of this layout (an older one: the caller reads the rows). */
export function decodeSnapshot(text: string): DecodedSnapshot | undefined {
  if (!text.startsWith("{")) return undefined;
  const c = JSON.parse(text) as Columns;
  if (c.v !== LAYOUT || !Array.isArray(c.path) || c.path.length !== c.n) return undefined;
  const lacking = new Map<number, Set<number>>();
  c.absent.forEach((rows, k) => {
    for (const i of rows) {
      let s = lacking.get(i);
      if (!s) lacking.set(i, (s = new Set()));
      s.add(k);
    }
  });
  const { keys, cols, lh, lt } = c;
  // Where each row's pieces start in the list text; null when that text does not fit these rows.
  let starts: number[] | null | undefined;
  const prefix = c.gen + "\n";
  return {
    n: c.n,
    path: c.path,
    ino: c.ino,
    size: c.size,
    mtime: c.mtime,
    summary(i) {
      if (c.diagnostic[i] !== null || keys.length === 0) return null;
      const gaps = lacking.get(i);
      const s: Record<string, unknown> = {};
      for (let k = 0; k < keys.length; k++) if (!gaps?.has(k)) s[keys[k]] = cols[k][i];
      return s;
    },
    diagnostic: (i) => c.diagnostic[i],
    pieces(i, list) {
      if (!lh || lh[i] < 0 || !list.startsWith(prefix)) return undefined;
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
      return [list.slice(a, a + lh[i]), list.slice(a + lh[i], a + lh[i] + lt[i])];
    },
  };
}
