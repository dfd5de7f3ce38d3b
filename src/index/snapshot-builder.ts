import { constants, deflateRawSync, gzipSync, inflateRawSync } from "node:zlib";
import { asciiJson } from "../text/ascii-json.js";
import { asciiJsonParts } from "../text/ascii-json-bytes.js";
import { freeBytes } from "../store/free-bytes.js";
import { ListMembers } from "./list-members.js";
import { NewestRows } from "./newest-rows.js";
import {
  LAYOUT,
  type BytePieces,
  type Columns,
  type EntryPieces,
  type Identities,
  type SnapshotEntry,
} from "./snapshot-codec.js";

/*
 * The snapshot's writing side (its layout: snapshot-codec.ts). A builder takes one entry at a
 * time and keeps only what the snapshot will hold, as it will hold it: the identities, each
 * column's text as bytes, the list text gzipped. A command's first scan folds each summary
 * in as it is read and lets it go (at 50,000 sessions the summaries held until the end were
 * 140 MB of heap, the columns' text is 29 MB, 22 of it the columns a launch reads, and the
 * list text 9).
 */

/**
 * Columns no launch reads before it makes whole summaries (the text list, stats, search's
 * rows and the browser's first screen read others): kept gzipped, as the list text is. At
 * 50,000 sessions they are 7.4 MB of JSON (the tokens most of it), under 1 MB gzipped; the
 * index must stay within a quarter of the store.
 */
const PACKED_KEYS: ReadonlySet<string> = new Set([
  "tokens",
  "cost",
  "lineage",
  "models",
  "labels",
  "labelCount",
  "version",
  "entryCount",
  "leafCount",
]);

/** Summary keys that are, as a rule, the file's identity: which part. */
const IDENTITY_OF: Record<string, "path" | "size" | "mtime" | "ctime" | undefined> = {
  path: "path",
  bytes: "size",
  mtimeMs: "mtime",
  ctimeMs: "ctime",
};

/** The list text is gzipped in members of about this many bytes (made and dropped one by one). */
const LIST_MEMBER_BYTES = 1 << 20;
/** gzip's level for it: at 50,000 sessions level 1 made 9.5 MB of its 46 in 0.4 s of CPU, level 3 8.6 MB in 0.5 s. */
const LIST_LEVEL = 3;

/**
 * Values of a column stringified at a time: a summary's values (its usage, tokens, models)
 * held for thousands of rows outlived V8's young generation and filled the old one with
 * garbage (at 50,000 sessions tens of megabytes of heap); a value at a time costs a call each.
 */
const SLICE = 64;
/** A column's text is deflated this many bytes at a time (each deflate call has a cost of its own). */
const DEFLATE_BYTES = 1 << 16;

/**
 * One column's text as it is made: the prefix, `[`, the values (null for a row without the
 * key), `]`, the same text as asciiJson of the whole column after the prefix. Values wait in
 * `pending` until a slice's worth is there, then go into bytes, deflated (at 50,000 sessions
 * the columns' text is 29 MB, held until the scan ends; deflated at level 1, a fifth of
 * that). Each piece is deflated sync-flushed (no last block), so the pieces together are one
 * raw deflate stream, and the column's whole text is inflated in one call straight into a
 * buffer of its own length: inflated a piece at a time, into a buffer shared by the columns,
 * each piece's output (and zlib's chunks of it) was garbage, 30 MB of it waiting for a
 * collection while SQLite copied the column.
 */
class ColumnText {
  /** Deflated text, then text not deflated yet (written into one buffer, reused: no garbage of its own). */
  private parts: Buffer[] = [];
  private raw: Buffer = Buffer.allocUnsafe(DEFLATE_BYTES * 2);
  private rawLength = 0;
  /** The length of the text the parts hold, inflated. */
  private length = 0;
  private pending: unknown[] = [];
  /** Rows accounted for (in parts or pending). */
  private rows = 0;
  private started = false;
  private ended = false;

  constructor(prefix: string) {
    this.rawLength = this.raw.write(prefix, 0, "latin1");
  }

  /** Row i's value (rows before it not set are null). */
  set(i: number, v: unknown): void {
    this.padTo(i);
    this.pending.push(v);
    this.rows++;
    if (this.pending.length >= SLICE) this.flush();
  }

  /** No row is set after the first n: the text is all deflated, and its buffer let go of (once). */
  end(n: number): void {
    if (this.ended) return;
    this.padTo(n);
    this.flush();
    this.ended = true;
    this.append(this.started ? "]" : "[]");
    this.deflate(true);
    freeBytes(this.raw);
    this.raw = Buffer.alloc(0);
  }

  /** The whole text of n rows (no row is set after), in a buffer of its own; the column lets go of it. */
  bytes(n: number): Buffer {
    this.end(n);
    const deflated = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    // One more byte than the text: zlib makes a second chunk of this size when the first is filled exactly.
    const out = inflateRawSync(deflated, { chunkSize: Math.max(MIN_CHUNK, this.length + 1) });
    freeBytes(deflated);
    if (out.length !== this.length) throw new Error("snapshot: a column's text inflated to another length");
    return out;
  }

  private padTo(i: number): void {
    while (this.rows < i) {
      this.pending.push(null);
      this.rows++;
      if (this.pending.length >= SLICE) this.flush();
    }
  }

  private append(text: string): void {
    this.raw = room(this.raw, this.rawLength, text.length);
    this.rawLength += this.raw.write(text, this.rawLength, "latin1");
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const text = asciiJson(this.pending);
    this.append((this.started ? "," : "[") + text.slice(1, -1));
    this.started = true;
    this.pending = [];
    if (this.rawLength >= DEFLATE_BYTES) this.deflate(false);
  }

  /** The text not deflated yet, deflated after the parts: sync-flushed (more to come), or the stream's end. */
  private deflate(last: boolean): void {
    const flush = last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH;
    this.parts.push(deflateRawSync(this.raw.subarray(0, this.rawLength), { level: 1, finishFlush: flush }));
    this.length += this.rawLength;
    this.rawLength = 0;
  }
}

/** zlib's least chunk size. */
const MIN_CHUNK = 64;

/** `buf`, or a larger copy of its first `used` bytes, with room for `more` bytes after them. */
function room(buf: Buffer, used: number, more: number): Buffer {
  if (used + more <= buf.length) return buf;
  const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, used + more));
  buf.copy(grown, 0, 0, used);
  return grown;
}

/** A column of the summaries: its text, or (while every row that has it holds its identity's value) none yet. */
interface Column {
  name: string;
  /** The identity column it equals so far, or null (then its text is made). */
  same: "path" | "size" | "mtime" | "ctime" | null;
  text?: ColumnText;
  packed: boolean;
}

/** The list text as it is made: each row's pieces, in order, after `gen` and a newline, gzipped a member at a time. */
class ListText {
  private members: Buffer[] = [];
  /** The member being made (reused: the pieces are written into it, not made buffers of their own), and its length. */
  private held: Buffer = Buffer.allocUnsafe(LIST_MEMBER_BYTES * 1.25);
  private size: number;
  readonly lh: number[] = [];
  readonly lt: number[] = [];
  /** Per member, its first row, and (once made) where it starts in the text as kept. */
  private readonly memberRow: number[] = [];
  private memberAt: number[] = [];
  /** No row is added after (close): the last member made. */
  private closed = false;
  /** The text as kept: the members joined (bytes). */
  private sealed?: Buffer;
  /** Its rows' pieces read back (made once the text is). */
  private reader?: ListMembers;
  private readonly head: Buffer;

  constructor(gen: string) {
    this.head = Buffer.from(gen + "\n", "latin1");
    this.size = this.held.write(gen + "\n", 0, "latin1");
    this.memberRow.push(0);
  }

  add(p: EntryPieces | undefined): void {
    if (this.closed) throw new Error("snapshot: a row added to a list text already made");
    this.lh.push(p ? this.put(p[0]) : -1);
    this.lt.push(p ? this.put(p[1]) : -1);
    if (!p) return;
    if (this.size >= LIST_MEMBER_BYTES) {
      this.seal();
      this.memberRow.push(this.lh.length);
    }
  }

  /** The text as kept (made once: no row is added after). */
  bytes(): Buffer {
    if (!this.sealed) {
      this.close();
      this.sealed = Buffer.concat(this.members);
      for (const m of this.members) freeBytes(m);
      this.members = [];
    }
    return this.sealed;
  }

  /** No row is added after: the last member made, and where each starts (the members not joined yet). */
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.size || this.members.length === 0) this.seal();
    freeBytes(this.held);
    this.held = Buffer.alloc(0);
    // A member opened for no row (the last one sealed full) is none.
    this.memberRow.length = this.members.length;
    let at = 0;
    this.memberAt = this.members.map((m) => (at += m.length) - m.length);
    this.memberAt.push(at);
  }

  /** The members' layout, as the snapshot's head keeps it (Columns.lm, lz): no row is added after. */
  layout(): { lm: number[]; lz: number[] } {
    this.close();
    return { lm: this.memberRow, lz: this.memberAt };
  }

  /** Row i's pieces, out of its member unzipped (ListMembers: a few at a time, not the whole text). */
  pieces(i: number): BytePieces | undefined {
    const text = this.bytes();
    this.reader ??= new ListMembers(text, this.head, this.memberRow, this.memberAt, this.lh, this.lt);
    return this.reader.pieces(i);
  }

  /** A piece written after the member's text (UTF-8); its length in bytes. */
  private put(piece: string | Uint8Array): number {
    const length = typeof piece === "string" ? Buffer.byteLength(piece) : piece.length;
    this.held = room(this.held, this.size, length);
    if (typeof piece === "string") this.held.write(piece, this.size);
    else this.held.set(piece, this.size);
    this.size += length;
    return length;
  }

  private seal(): void {
    this.members.push(gzipSync(this.held.subarray(0, this.size), { level: LIST_LEVEL }));
    this.size = 0;
  }
}

/** A snapshot as made: its body, columns and list text, and the record of its newest rows (newest-rows.ts). */
export interface Encoded {
  body: Uint8Array;
  chunks: Uint8Array[];
  list: Uint8Array;
  newest: Uint8Array;
}

/**
 * A snapshot made one entry at a time (add), then written (finish): the same bytes as
 * encodeSnapshot of the same entries. Each entry's summary and pieces are asked for once, in
 * add, and nothing of them is held but their place in the snapshot's texts.
 */
export class SnapshotBuilder {
  private n = 0;
  private readonly keyIndex = new Map<string, number>();
  private readonly cols: Column[] = [];
  // Each row's keys, as one of a few shapes (most rows have every key; an unnamed session
  // has no name): a shape is the list of its keys' columns.
  private readonly shapeIds = new Map<string, number>();
  private readonly shapes: number[][] = [];
  private readonly shape: number[] = [];
  private readonly ids: Omit<Identities, "n" | "gen"> = {
    path: [],
    ino: [],
    size: [],
    mtime: [],
    ctime: [],
    diagnostic: [],
    parent: [],
  };
  private readonly list: ListText;
  /** The newest rows, the record the first screen of `--all` reads (newest-rows.ts). */
  private readonly newest = new NewestRows();
  private finished = false;

  constructor(readonly gen: string = Math.random().toString(36).slice(2)) {
    this.list = new ListText(gen);
  }

  /** Rows added so far. */
  get rows(): number {
    return this.n;
  }

  /** Takes an entry in (its summary and pieces made now, if the entry says how); its row. */
  add(e: SnapshotEntry): number {
    if (this.finished) throw new Error("snapshot: an entry added after it was made");
    const i = this.n++;
    const summary = typeof e.summary === "function" ? e.summary() : e.summary;
    const { ids } = this;
    ids.path.push(e.path);
    ids.ino.push(e.ino);
    ids.size.push(e.size);
    ids.mtime.push(e.mtime);
    ids.ctime.push(e.ctime);
    ids.diagnostic.push(summary ? null : e.diagnostic);
    const p = summary?.parentSessionPath;
    ids.parent.push(typeof p === "string" ? p : null);
    if (!summary) this.shape.push(-1);
    else {
      this.newest.add(i, e, summary);
      const has: number[] = [];
      for (const k of Object.keys(summary)) {
        const v = summary[k];
        if (v === undefined) continue; // as JSON.stringify of the row: a key set to undefined is no key
        const c = this.keyIndex.get(k) ?? this.newColumn(k);
        const col = this.cols[c];
        if (col.same && v !== e[col.same]) this.unsame(c, i);
        col.text?.set(i, v);
        has.push(c);
      }
      has.sort((a, b) => a - b);
      const id = has.join(",");
      let at = this.shapeIds.get(id);
      if (at === undefined) {
        this.shapeIds.set(id, (at = this.shapes.length));
        this.shapes.push(has);
      }
      this.shape.push(at);
    }
    this.list.add(typeof e.pieces === "function" ? e.pieces() : e.pieces);
    return i;
  }

  /** Whether row i has list pieces (asked while rows are still added). */
  hasPieces(i: number): boolean {
    return (this.list.lh[i] ?? -1) >= 0;
  }

  /** Row i's list pieces (undefined: it has none); the list text is complete from the first call (no entry is added after). */
  pieces(i: number): BytePieces | undefined {
    return this.list.pieces(i);
  }

  /**
   * The snapshot's values, as encodeSnapshot returns them; each column given to `put` as
   * made, when given (then not kept: its bytes are only good until `put` returns), and let
   * go of here either way. Once only.
   */
  finish(
    put?: (k: number, chunk: Uint8Array) => void,
    /**
     * Called before the columns are made (a command collects the scan's garbage there: at
     * 50,000 sessions V8's heap held 30 MB of it, beside the largest column and SQLite's copy).
     */
    beforeColumns?: () => void,
    /**
     * Given, the body goes to it as soon as it is made (then let go of: its bytes are good
     * until it returns), before the list text's members are joined into one buffer: at
     * 50,000 sessions SQLite's two copies of the body (10 MB) came on top of that text (9 MB).
     * The body returned is then empty.
     */
    putBody?: (body: Uint8Array) => void,
  ): Encoded {
    if (this.finished) throw new Error("snapshot: made twice");
    this.finished = true;
    const { n, gen } = this;
    beforeColumns?.();
    // Every column's text deflated first: their buffers of text not deflated yet (128 KB
    // each) are let go of before any column is inflated.
    for (const col of this.cols) col.text?.end(n);
    const chunks: Uint8Array[] = [];
    // Each column a launch reads is inflated into a buffer of its own length and handed on;
    // the list text is joined only after them (it and the largest column were held at once).
    const len = this.cols.map((col, k) => {
      const text = col.text;
      let b: Buffer;
      if (!text) b = Buffer.from(`${gen}\n`);
      else if (col.packed) {
        const whole = text.bytes(n);
        b = Buffer.concat([Buffer.from(`${gen}\n`), gzipSync(whole, { level: 6 })]);
        freeBytes(whole);
      } else b = text.bytes(n);
      col.text = undefined;
      const length = b.length - gen.length - 1;
      if (!put) chunks.push(b);
      else {
        put(k, b);
        // Copied by `put`, dead: let go of now, not with the next columns at a collection.
        freeBytes(b);
      }
      return length;
    });
    const columns: Columns = {
      keys: this.cols.map((c) => c.name),
      len,
      same: this.cols.map((c) => c.same),
      packed: this.cols.map((c) => (c.packed ? 1 : 0)),
      shape: this.shape,
      shapes: this.shapes,
      lh: this.list.lh,
      lt: this.list.lt,
      ...this.list.layout(),
    };
    // As ASCII (src/text/ascii-json.ts), which writes no newline of its own: the one between
    // the texts is the only one.
    const idParts = asciiJsonParts({ n, gen, ...this.ids } satisfies Identities);
    const idLength = idParts.reduce((sum, p) => sum + p.length, 0);
    const colParts = asciiJsonParts(columns, "\n");
    const body = Buffer.concat([Buffer.from(`${LAYOUT}${idLength}\n`), ...idParts, ...colParts]);
    for (const p of idParts) freeBytes(p);
    for (const p of colParts) freeBytes(p);
    const newest = this.newest.bytes(gen, n);
    if (!putBody) return { body, chunks, list: this.list.bytes(), newest };
    putBody(body);
    freeBytes(body);
    return { body: new Uint8Array(0), chunks, list: this.list.bytes(), newest };
  }

  private newColumn(name: string): number {
    const c = this.cols.length;
    this.keyIndex.set(name, c);
    const same = IDENTITY_OF[name] ?? null;
    const packed = PACKED_KEYS.has(name);
    // A column the identity's may be is made text only once a row says otherwise (unsame).
    this.cols.push({ name, same, packed, text: same ? undefined : new ColumnText(packed ? "" : `${this.gen}\n`) });
    return c;
  }

  /** Column c holds other than its identity's value at row i: its text is made of the rows before, as they were. */
  private unsame(c: number, i: number): void {
    const col = this.cols[c];
    const from = this.ids[col.same!];
    const text = new ColumnText(col.packed ? "" : `${this.gen}\n`);
    for (let j = 0; j < i; j++) {
      const sh = this.shape[j];
      if (sh >= 0 && this.shapes[sh].includes(c)) text.set(j, from[j]);
    }
    col.same = null;
    col.text = text;
  }
}

/**
 * The snapshot's values of these entries, as UTF-8 bytes (SQLite hands bytes back as they
 * are; text it would decode, at a few milliseconds a megabyte): the body, and the list text
 * (`gen` and a newline, then every row's pieces); and the columns (or `put` each as made: its bytes good until `put` returns).
 * With `putBody`, the body goes to it as soon as it is made, before the list text is joined,
 * and is let go of once it returns (its bytes good until then); the body returned is empty.
 * The body is two JSON texts on two lines: the identities, then the columns' layout, so that
 * which rows still hold is known from a fifth of the bytes (a scan worker reads no more; the
 * thread that shows the rows reads the rest).
 */
export function encodeSnapshot(
  entries: readonly SnapshotEntry[],
  gen?: string,
  put?: (k: number, chunk: Uint8Array) => void,
  putBody?: (body: Uint8Array) => void,
): Encoded {
  const b = new SnapshotBuilder(gen);
  for (const e of entries) b.add(e);
  return b.finish(put, undefined, putBody);
}
