import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, statSync, type Stats } from "node:fs";
import type { SessionEntry } from "../model/types.js";
import { foldAccents } from "../search/fold.js";
import { isToolOutputLine, searchableTexts } from "../search/fulltext.js";
import { readIsRacy } from "../store/file-identity.js";
import { fsPath } from "../store/fs-path.js";
import { MAX_LINE_BYTES, readLines, type LineRef } from "../store/line-reader.js";
import { LineSplitter } from "../store/line-splitter.js";
import { readRange } from "../store/read-range.js";
import { forgetText, TEXT_EPOCH } from "./forget.js";
import type { IndexDb } from "./index-db.js";
import { addRun, hasRuns } from "./runs.js";
import { ReadAhead, type TextReaders } from "./text-readers.js";
import {
  eachOf,
  eachPacked,
  noRows,
  type EachRow,
  type FileText,
  type TextRow,
  type TextSink,
  type TextState,
} from "./text-rows.js";

/*
 * The text half of the index: every text full-text search looks at (src/search/fulltext.ts,
 * searchableTexts), one FTS row per line and kind, lower-cased and accent-folded as the
 * search folds it. Two kinds, in two passes: the conversation (what the user and the
 * assistant wrote: under 1% of a store's bytes, indexed in seconds) first, for every file;
 * then tool calls and output (the rest; FTS takes minutes per gigabyte of it), newest
 * files first, in the background. A file is indexed once; an append is indexed from where
 * the last run stopped, and only an append is: a file that shrank, was replaced, or whose
 * bytes the last run read are not the same now (rewritten in place: readPrint) is
 * indexed again whole.
 */

/** Lines longer than this are not indexed: their file is searched by reading it (text_whole = 0). */
export const MAX_INDEXED_LINE = 4 * 1024 * 1024;

/** Up to this many bytes read, a file's print is a hash of all of them. */
const PRINT_WHOLE_BYTES = 64 * 1024;
/** Past it: its first and last bytes, and samples of this size spread between. */
const PRINT_HEAD_BYTES = 8 * 1024;
const PRINT_TAIL_BYTES = 32 * 1024;
const PRINT_SAMPLE_BYTES = 4096;
const PRINT_SAMPLES = 16;

/**
 * What the text index knows the first `end` bytes of a file by, to tell an append (those
 * bytes as they were, more after them) from a rewrite in place (same inode, same or larger
 * size, a new mtime: pi migrating an old session rewrites it whole). A hash of all of
 * them up to 64 KiB; past that, of the first 8 KiB, the last 32 KiB (where the last run
 * stopped) and 16 samples of 4 KiB spread evenly between, read at places fixed by `end`:
 * 104 KiB whatever the size, a fraction of a millisecond. A rewrite that moves any byte
 * (a line made longer or shorter) changes the last bytes; one that keeps every length
 * changes what it touches, and a migration touches every line. Kept as 22 characters of
 * its base64 (132 bits): 64 hex characters a file were 2 MB of the index at 50,000 sessions.
 */
export function readPrint(fd: number, end: number): string {
  return printOf((at, length) => readRange(fd, at, length), end);
}

/** readPrint of bytes already read (`bytes` holds the file's first `end` bytes or more). */
export function bufferPrint(bytes: Buffer, end: number): string {
  return printOf((at, length) => bytes.subarray(at, Math.min(at + length, end)), end);
}

function printOf(read: (at: number, length: number) => Buffer, end: number): string {
  const h = createHash("sha256").update(`${end}\n`);
  if (end <= PRINT_WHOLE_BYTES) return printText(h.update(read(0, end)));
  h.update(read(0, PRINT_HEAD_BYTES));
  const span = end - PRINT_TAIL_BYTES - PRINT_HEAD_BYTES - PRINT_SAMPLE_BYTES;
  for (let k = 1; k <= PRINT_SAMPLES; k++) {
    const at = PRINT_HEAD_BYTES + Math.floor((span * k) / (PRINT_SAMPLES + 1));
    h.update(read(at, PRINT_SAMPLE_BYTES));
  }
  return printText(h.update(read(end - PRINT_TAIL_BYTES, PRINT_TAIL_BYTES)));
}

const printText = (h: Hash) => h.digest("base64url").slice(0, 22);

export type { TextRow } from "./text-rows.js";

const TEXT_ROW = `fid, path, ino, size, mtime, ctime, text_ino, text_size, text_end, text_print, text_tools, text_whole`;
/** A file whose text is current but whose tool texts are not indexed yet. */
const TOOLS_PENDING = `summary IS NOT NULL AND text_tools = 0 AND text_size IS size AND text_mtime IS mtime AND text_ino IS ino
  AND text_ctime IS ctime`;
/** A file whose summary is current but whose text is not (never indexed, or changed since). */
export const TEXT_STALE = `summary IS NOT NULL AND (text_size IS NULL OR text_size IS NOT size OR text_mtime IS NOT mtime
  OR text_ino IS NOT ino OR text_ctime IS NOT ctime)`;

/** Files whose summary is current but whose text is not (never indexed, or changed since). */
export function staleTextFiles(db: IndexDb): TextRow[] {
  return db.q(`SELECT ${TEXT_ROW} FROM files WHERE ${TEXT_STALE}`).all() as unknown as TextRow[];
}

/**
 * The ids of the files a pass has to index, newest first. A run holds these and reads each
 * file's row when its turn comes (textRowToDo): 50,000 rows read at once as objects were
 * 55 MB of heap alive through the whole run, and V8 sized its heap by them.
 */
export function filesToDo(db: IndexDb, pass: "new" | "tools"): number[] {
  const ids: number[] = [];
  const where = pass === "new" ? TEXT_STALE : TOOLS_PENDING;
  for (const r of db.q(`SELECT fid FROM files WHERE ${where} ORDER BY coalesce(mtime, 0) DESC, fid`).iterate())
    ids.push((r as { fid: number }).fid);
  return ids;
}

/** The row of file `fid` as it is now, if the pass still has to index it (another run may have meanwhile). */
function textRowToDo(db: IndexDb, fid: number, pass: "new" | "tools"): TextRow | undefined {
  const where = pass === "new" ? TEXT_STALE : TOOLS_PENDING;
  return db.q(`SELECT ${TEXT_ROW} FROM files WHERE fid = ? AND ${where}`).get(fid) as TextRow | undefined;
}

/**
 * Files up to this size are read in one read, their print and their lines taken from the
 * same bytes: at 50,000 small sessions, opening each file twice and reading its bytes for
 * the print, then again for its lines, cost more than the bytes did.
 */
export const ONE_READ_BYTES = 1024 * 1024;

/**
 * The file as it is now: its identity; whether the bytes the index read of it are still
 * there (it grew, or is the same); and (`print`) the print of all of it, made before it is
 * read: if it changes while it is read, the next run's print differs and reads it whole.
 * A file up to `oneRead` bytes is read here whole (`bytes`), and its lines are taken from them;
 * a larger one, with `wholeOnly`, not at all ("big").
 */
function fileNow(
  row: TextRow,
  print: boolean,
  oneRead: number,
  wholeOnly = false,
  scratch?: { buf: Buffer },
): { st: Stats; appendOnly: boolean; print: string | null; bytes?: Buffer } | "big" {
  const fd = openSync(fsPath(row.path), "r");
  try {
    const st = fstatSync(fd);
    if (wholeOnly && st.size > oneRead) return "big";
    const bytes = st.size <= oneRead ? readWhole(fd, st.size, scratch) : undefined;
    // Bytes short of the size (it shrank meanwhile) are of no one state: printed as the rest are.
    const printAt = (end: number) => (bytes && end <= bytes.length ? bufferPrint(bytes, end) : readPrint(fd, end));
    const appendOnly =
      row.text_end !== null &&
      row.text_ino === st.ino &&
      row.text_size !== null &&
      st.size >= row.text_size &&
      row.text_print !== null &&
      printAt(row.text_size) === row.text_print;
    return { st, appendOnly, print: print ? printAt(st.size) : null, bytes };
  } finally {
    closeSync(fd);
  }
}

/** A file's first `size` bytes, into `scratch` when given (grown as need be). */
function readWhole(fd: number, size: number, scratch?: { buf: Buffer }): Buffer {
  if (scratch && scratch.buf.length < size)
    scratch.buf = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.buf.length));
  return readRange(fd, 0, size, scratch?.buf);
}

/**
 * readLines over bytes already read, from `start` up to `stop`: the lines that end with a
 * newline before `stop` (as readLines with that limit reports them: a line it cuts is not).
 */
function bytesLines(bytes: Buffer, start: number, stop: number, onLine: (ref: LineRef) => boolean | void): void {
  const limit = Math.min(stop, bytes.length);
  // One chunk, fed as readLines feeds its reads (a line it cuts at `stop` is not reported).
  if (limit > start) new LineSplitter(MAX_LINE_BYTES, onLine).feed(bytes.subarray(start, limit), limit - start, start);
}

/** Whether two stats are of the same file, unchanged. */
function sameStat(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** Which texts of a line to index. */
export interface Kinds {
  chat: boolean;
  tools: boolean;
}

/** The texts of a line to index: [folded text, tool?] pairs; none for a line that is not an entry. */
export function lineTexts(line: string, kinds: Kinds = { chat: true, tools: true }): Array<[string, boolean]> {
  let entry: SessionEntry;
  try {
    entry = JSON.parse(line) as SessionEntry;
  } catch {
    return [];
  }
  if (!entry || typeof entry !== "object") return [];
  const chat = searchableTexts(entry, false);
  const out: Array<[string, boolean]> = [];
  const fold = (xs: string[]) => foldAccents(xs.join("\n").toLowerCase());
  if (kinds.chat && chat.length) out.push([fold(chat), false]);
  if (kinds.tools) {
    const all = searchableTexts(entry, true);
    if (all.length > chat.length) out.push([fold(all.slice(chat.length)), true]);
  }
  return out;
}

/** Texts held before they are written (and committed): a huge file never sits in memory whole. */
const FLUSH_CHARS = 8 * 1024 * 1024;
/** A run's write transaction is committed past this much text, or this long open (another process may be waiting to write). */
const BATCH_CHARS = 8 * 1024 * 1024;
const BATCH_MS = 500;

/**
 * Indexes one file's text. "new": the conversation (and the tool texts too when the file
 * had them) of what is not indexed yet: all of it, or what was appended since. "tools":
 * the tool texts of the part already indexed. Reads with blocking calls: this runs on the
 * scan worker or in a batch command. Returns false when the file is gone, unreadable, or
 * changed since the scan (its row stays stale, and search reads the file).
 */
export async function indexFileText(
  db: IndexDb,
  row: TextRow,
  pass: "new" | "tools" = "new",
  options: { batch?: WriteBatch; tools?: boolean; oneRead?: number } = {},
): Promise<boolean> {
  return (await indexFileTexts(db, row, pass, options)) !== false;
}

/** indexFileText, saying which texts it indexed: false (none, see there), or "chat" or "both" (its tool texts too). */
async function indexFileTexts(
  db: IndexDb,
  row: TextRow,
  pass: "new" | "tools",
  options: { batch?: WriteBatch; tools?: boolean; oneRead?: number },
): Promise<false | "chat" | "both"> {
  const batch = options.batch ?? new WriteBatch(db, 0);
  try {
    return await indexOneFile(db, row, pass, batch, options.tools === true, options.oneRead ?? ONE_READ_BYTES);
  } finally {
    if (!options.batch) batch.commit();
  }
}

/**
 * One write transaction held open across the files of a run, committed once it has taken
 * BATCH_CHARS of text or BATCH_MS: a transaction per file (three, with the rows forgotten
 * and the file's state) cost the first build of 50,000 small sessions most of its time,
 * as FTS5 writes its pending terms as a new segment at every commit and merges them after.
 * Each file's rows and its state are in the same transaction; one that fails rolls back
 * the batch (those files are indexed again next time). The files' states are written last
 * (later()): a statement that opens a savepoint (an UPDATE of files fires its triggers)
 * makes FTS5 write what it holds as a segment of its own, which per file was most of the
 * cost again.
 */
/** All the text was dropped (dropOrphanText) since the batch's run read the files' text states. */
export class TextDropped extends Error {
  constructor() {
    super("the index's text was dropped by another run");
  }
}

export class WriteBatch {
  private open = false;
  /** The text's epoch when the batch was made: its run read the text states after this. */
  private readonly epoch: string | undefined;
  private chars = 0;
  private since = 0;
  private last: Array<() => void> = [];

  constructor(
    private readonly db: IndexDb,
    /** maybeCommit() commits past this many characters of text, or this many milliseconds open. */
    private readonly maxChars = BATCH_CHARS,
    private readonly maxMs = BATCH_MS,
  ) {
    this.epoch = db.meta(TEXT_EPOCH);
  }

  /** Runs `fn` inside the batch's transaction (begun if need be); rolls the batch back if it throws. */
  run<T>(fn: () => T, chars = 0): T {
    if (!this.open) {
      this.db.sql.exec("BEGIN IMMEDIATE");
      this.open = true;
      this.since = Date.now();
      // Another process dropped all the text between two of this run's transactions: the
      // states this run read (where a file's text ends) name lines that are gone.
      if (this.db.meta(TEXT_EPOCH) !== this.epoch) {
        this.rollback();
        throw new TextDropped();
      }
    }
    try {
      const r = fn();
      this.chars += chars;
      return r;
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  /** Runs `fn` in the batch's transaction just before it commits. */
  later(fn: () => void): void {
    this.run(() => {});
    this.last.push(fn);
  }

  /** How much longer the batch may stay open, in ms (0: none is open, or it is old enough to commit). */
  openFor(): number {
    return this.open ? Math.max(0, this.maxMs - (Date.now() - this.since)) : 0;
  }

  /** Commits when the batch is full or old enough (between files). */
  maybeCommit(): void {
    if (this.open && (this.chars >= this.maxChars || Date.now() - this.since >= this.maxMs)) this.commit();
  }

  commit(): void {
    if (!this.open) return;
    const last = this.last;
    this.last = [];
    this.run(() => last.forEach((fn) => fn()));
    this.open = false;
    this.chars = 0;
    this.db.sql.exec("COMMIT");
  }

  rollback(): void {
    this.last = [];
    if (!this.open) return;
    this.open = false;
    this.chars = 0;
    if (this.db.sql.isTransaction) this.db.sql.exec("ROLLBACK");
  }
}

/**
 * Reads a file's text for the index without touching the database (a text reader on a
 * worker runs this too: text-worker.ts): its rows go to `sink`, at most FLUSH_CHARS at a
 * time. false: the file is gone, unreadable, or changed since the scan; "big": larger than
 * `oneRead` and `wholeOnly` asked (left to the caller, which streams it). `scratch`: a buffer
 * every file is read into, for a caller that is done with a file's bytes once this returns.
 */
export async function readFileText(
  row: TextRow,
  pass: "new" | "tools",
  toolsAtOnce: boolean,
  oneRead: number,
  sink: TextSink,
  wholeOnly = false,
  scratch?: { buf: Buffer },
): Promise<FileText | false | "big"> {
  const readFrom = Date.now();
  let file: ReturnType<typeof fileNow>;
  try {
    file = fileNow(row, pass === "new", oneRead, wholeOnly, scratch);
  } catch {
    return false;
  }
  if (file === "big") return "big";
  const { st, appendOnly } = file;
  const now = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  // The summary's row must describe the file as it is now, or the two halves would disagree
  // (a row kept as never matching, ctime -1, is read again by the next scan first).
  if (now.ino !== row.ino || now.size !== row.size || now.mtimeMs !== row.mtime || st.ctimeMs !== row.ctime)
    return false;
  if (pass === "tools" && (!appendOnly || now.size !== row.text_size)) return false;
  const start = pass === "new" && appendOnly ? row.text_end! : 0;
  const stop = pass === "tools" ? row.text_end! : now.size;
  // Tool texts with the conversation: where they were indexed before (an append), or, when
  // asked (toolsAtOnce), for a file read whole (one read of it instead of two).
  const kinds: Kinds =
    pass === "tools"
      ? { chat: false, tools: true }
      : { chat: true, tools: appendOnly ? row.text_tools === 1 : toolsAtOnce };
  let end = start;
  // From where the index stopped: the lines before are as whole as they were (a line too
  // long to index, then the file touched, was marked whole, and search missed its words).
  let whole = start === 0 || row.text_whole === 1;
  let rows = noRows();
  const flush = () => {
    const held = rows;
    rows = noRows();
    sink.rows(held);
  };
  sink.start(pass === "new" && !appendOnly);
  const onLine = (ref: LineRef): boolean | void => {
    if (!ref.terminated) {
      // A line still being written: the file is searched by reading it until it is complete.
      whole = false;
      return false;
    }
    end = ref.offset + (ref.oversize ?? ref.end - ref.start) + 1;
    if (ref.oversize !== undefined) return; // never searched, by either path
    if (ref.end - ref.start > MAX_INDEXED_LINE) {
      whole = false;
      return;
    }
    // Tool output holds no conversation: not even decoded for it.
    if (!kinds.tools && isToolOutputLine(ref)) return;
    for (const [t, tool] of lineTexts(ref.buf.toString("utf8", ref.start, ref.end), kinds)) {
      rows.offs.push(ref.offset);
      rows.lens.push(ref.end - ref.start);
      rows.tools.push(tool ? 1 : 0);
      rows.texts.push(t);
      rows.chars += t.length;
    }
    if (rows.chars > FLUSH_CHARS) flush();
  };
  try {
    if (file.bytes) bytesLines(file.bytes, start, stop, onLine);
    else await readLines(row.path, onLine, { sync: true, start, maxBytes: stop - start });
  } catch {
    return false;
  }
  flush();
  if (pass === "tools") return { kinds: "both" };
  // A last line with no newline is not reported within the limit: not indexed, so this
  // file is searched by reading it (the index-free search does look at such a line).
  if (end < now.size) whole = false;
  // Changed while it was read (or replaced: read by path): what was read is of no one
  // state of the file, so the next run reads it whole. Changed within a tick of the read
  // (readIsRacy): a write in that tick would leave the same identity, so the next run looks
  // at it again (its print says whether it is still what was read).
  let after: Stats | undefined;
  try {
    after = statSync(fsPath(row.path));
  } catch {
    // Gone: its row goes with the next scan.
  }
  const print = after && sameStat(st, after) ? file.print : null;
  const ctime = readIsRacy(st.mtimeMs, st.ctimeMs, readFrom) ? -1 : st.ctimeMs;
  const state: TextState = [now.ino, now.size, now.mtimeMs, ctime, end, print, whole ? 1 : 0, kinds.tools ? 1 : 0];
  return { kinds: kinds.tools ? "both" : "chat", state };
}

/**
 * The database's half of indexing a file: where its forgetting, rows and state go, in `batch`.
 * `undo` forgets the rows it wrote: a read that fails midway may have written and committed
 * some (a huge file is written in parts), and its state, not written, would have the next
 * run read those lines again and index them twice.
 */
function batchSink(
  db: IndexDb,
  fid: number,
  batch: WriteBatch,
): TextSink & { undo(): void; write(rows: EachRow, chars: number): void } {
  const insertLine = db.q("INSERT INTO lines(fid, off, len, tool) VALUES(?, ?, ?, ?)");
  const insertChat = db.q("INSERT INTO chat(rowid, t) VALUES(?, ?)");
  const insertTools = db.q("INSERT INTO tools(rowid, t) VALUES(?, ?)");
  // The line ids each part of this read wrote, first and last: only those are its own (another
  // process, the browser's scan thread, may index the same file between two committed parts).
  const wrote: Array<[number, number]> = [];
  // A closure, not a method calling `this.write`: `rows` works passed on its own too.
  const write = (each: EachRow, chars: number) => {
    batch.run(() => {
      let first = true;
      each((off, len, tool, t) => {
        // Stored as 1 or 0, whatever byte a reader sent: search asks the tools table for lines of tool 1 (runsOf).
        const rid = insertLine.run(fid, off, len, tool ? 1 : 0).lastInsertRowid;
        if (first) {
          wrote.push([Number(rid), Number(rid)]);
          first = false;
        } else wrote[wrote.length - 1][1] = Number(rid);
        (tool ? insertTools : insertChat).run(rid, t);
      });
      // In the same transaction as its lines: a line no run names is never found by its file.
      if (!first) addRun(db, fid, ...wrote[wrote.length - 1]);
    }, chars);
    // A huge file is written in parts, each committed: never all of its text at once.
    if (chars > FLUSH_CHARS) batch.commit();
  };
  return {
    undo() {
      if (wrote.length) batch.run(() => wrote.forEach(([from, to]) => forgetText(db, fid, from, to)));
    },
    start(forget) {
      // Forgetting rows writes to lines and meta: only where there are some.
      if (forget && hasRuns(db, fid)) batch.run(() => forgetText(db, fid));
    },
    rows: (rows) => write(eachOf(rows), rows.chars),
    write,
  };
}

/** Writes a file's state once its rows are (last in the batch's transaction: WriteBatch says why). */
function writeState(db: IndexDb, fid: number, text: FileText, batch: WriteBatch): void {
  const state = text.state;
  if (!state) batch.later(() => db.q("UPDATE files SET text_tools = 1 WHERE fid = ?").run(fid));
  else
    batch.later(() =>
      db
        .q(
          `UPDATE files SET text_ino = ?, text_size = ?, text_mtime = ?, text_ctime = ?, text_end = ?, text_print = ?,
       text_whole = ?, text_tools = ? WHERE fid = ?`,
        )
        .run(...state, fid),
    );
}

/** A file's text read elsewhere (a text reader), written as indexOneFile writes what it reads. */
function writeFileText(
  db: IndexDb,
  fid: number,
  batch: WriteBatch,
  forget: boolean,
  rows: EachRow,
  chars: number,
  text: FileText,
) {
  const sink = batchSink(db, fid, batch);
  sink.start(forget);
  sink.write(rows, chars);
  writeState(db, fid, text, batch);
}

async function indexOneFile(
  db: IndexDb,
  row: TextRow,
  pass: "new" | "tools",
  batch: WriteBatch,
  toolsAtOnce: boolean,
  oneRead: number,
): Promise<false | "chat" | "both"> {
  const sink = batchSink(db, row.fid, batch);
  const text = await readFileText(row, pass, toolsAtOnce, oneRead, sink);
  if (text === false || text === "big") {
    sink.undo();
    return false;
  }
  writeState(db, row.fid, text, batch);
  return text.kinds;
}

export interface IndexProgress {
  /** "text": the conversation of new and changed files; "tools": tool calls and output. */
  pass: "text" | "tools";
  done: number;
  total: number;
}

/**
 * Brings the index's text up to date: the conversation of every new or changed file,
 * then (unless `tools` is false) the tool texts of every file without them; newest first,
 * reporting progress. Stops at `signal`; a file half done is simply done again next time.
 */
export async function indexStaleText(
  db: IndexDb,
  onProgress?: (p: IndexProgress) => void,
  options: StaleTextOptions = {},
): Promise<{ text: number; tools: number }> {
  // Another process dropped all the text meanwhile: the states read are stale, read them again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await indexStaleTextOnce(db, onProgress, options);
    } catch (err) {
      if (!(err instanceof TextDropped) || attempt >= 3) throw err;
    }
  }
}

/** indexStaleText's options: `readers` read files ahead on other threads (text-readers.ts) while this one writes. */
interface StaleTextOptions {
  signal?: AbortSignal;
  tools?: boolean;
  toolsAtOnce?: boolean;
  oneRead?: number;
  readers?: TextReaders;
  /** How long a batch may stay open (BATCH_MS; tests set it long to see the lock held while a reader is waited for). */
  batchMs?: number;
}

/**
 * Indexes file `fid` if the pass still has to (its row read in the batch's transaction),
 * from what a reader read ahead when it read it from that same row, else here.
 */
async function indexListed(
  db: IndexDb,
  fid: number,
  pass: "new" | "tools",
  batch: WriteBatch,
  ahead: ReadAhead | undefined,
  options: { tools: boolean; oneRead?: number },
): Promise<false | "chat" | "both" | undefined> {
  // Read in the batch's write transaction (begun here if none is open), even when the file
  // turns out to need nothing: read before it, another run could index the file between the
  // read and this run's write, and its lines would be indexed twice. A file skipped costs an
  // empty transaction at most, held no longer than one that writes (maybeCommit).
  // A read not answered yet is waited for with the batch open only as long as a batch may be
  // (BATCH_MS), then with it committed: a reader slow to answer (a large file, a busy machine,
  // `nice`) must not keep the write lock from another process (the browser's scan waits 3 s at
  // most); committing at every wait made more, smaller batches.
  const pending = ahead?.pending(fid);
  if (pending) {
    const left = batch.openFor();
    if (left > 0) await Promise.race([pending, new Promise((wake) => setTimeout(wake, left).unref())]);
    if (ahead!.pending(fid)) {
      batch.commit();
      await pending;
    }
  }
  const row = batch.run(() => textRowToDo(db, fid, pass));
  const read = await ahead?.take(fid, row);
  if (!row) return undefined;
  if (read) {
    try {
      const { text, forget, rows } = read.reply;
      if (text !== false && text !== "big") {
        writeFileText(db, fid, batch, forget, eachPacked(read.buf, rows), rows.chars, text);
        ahead!.readers.written++;
        return text.kinds;
      }
    } finally {
      read.release();
    }
  }
  return indexFileTexts(db, row, pass, { batch, ...options });
}

async function indexStaleTextOnce(
  db: IndexDb,
  onProgress: ((p: IndexProgress) => void) | undefined,
  options: StaleTextOptions,
): Promise<{ text: number; tools: number }> {
  // Made before the text states are read: a drop after that is seen at its next transaction.
  const batch = new WriteBatch(db, BATCH_CHARS, options.batchMs ?? BATCH_MS);
  const toolsAtOnce = options.toolsAtOnce === true && options.tools !== false;
  try {
    const stale = filesToDo(db, "new");
    const oneRead = options.oneRead ?? ONE_READ_BYTES;
    // A pass of a few files is read here alone (READERS_FROM_FILES): no reader is started for it.
    const aheadOf = (fids: number[], pass: "new" | "tools") =>
      options.readers && fids.length >= options.readers.fromFiles
        ? new ReadAhead(options.readers, fids, (fid) => textRowToDo(db, fid, pass), {
            pass,
            toolsAtOnce: pass === "new" && toolsAtOnce,
            oneRead,
          })
        : undefined;
    // What this run wrote, returned; progress counts every file listed, written or skipped
    // (another run indexed it meanwhile), so that it reaches its total.
    const written = { text: 0, tools: 0 };
    let done = 0;
    const ahead = aheadOf(stale, "new");
    for (const fid of stale) {
      if (options.signal?.aborted) return written;
      const kinds = await indexListed(db, fid, "new", batch, ahead, { tools: toolsAtOnce, oneRead });
      if (kinds !== undefined) written.text++;
      // Its tool texts indexed with its conversation (toolsAtOnce).
      if (kinds === "both" && toolsAtOnce) written.tools++;
      batch.maybeCommit();
      onProgress?.({ pass: "text", done: ++done, total: stale.length });
    }
    batch.commit();
    if (options.tools === false) return written;
    const tools = filesToDo(db, "tools");
    const toolsAhead = aheadOf(tools, "tools");
    // Of this pass's list alone (the files whose tool texts came with their conversation are not in it).
    let toolsDone = 0;
    for (const fid of tools) {
      if (options.signal?.aborted) break;
      if ((await indexListed(db, fid, "tools", batch, toolsAhead, { tools: false, oneRead })) !== undefined)
        written.tools++;
      batch.maybeCommit();
      onProgress?.({ pass: "tools", done: ++toolsDone, total: tools.length });
    }
    return written;
  } finally {
    batch.commit();
  }
}
