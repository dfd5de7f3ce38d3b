import { SUMMARY_FORMAT } from "../model/summary.js";
import type { SessionFile } from "../store/discover.js";
import type { KeptRows, ScanCache } from "../store/scan-cache.js";
import type { FileScan } from "../store/scan-file.js";
import { readIsRacy } from "../store/file-identity.js";
import { releaseReadChunks } from "../store/line-reader.js";
import { NO_LINEAGE } from "../store/lineage.js";
import { forgetFiles } from "./forget.js";
import { isIndexDamage, oneLine, removeIndexFiles, type FilesRow, type IndexDb } from "./index-db.js";
import type { SessionSummary } from "../model/types.js";
import {
  decodeDiagnostic,
  decodeSummary,
  encodeDiagnostic,
  encodeSummary,
  reviveSummary,
  storedSummary,
} from "./summary-codec.js";
import {
  chunksOf,
  decodeSnapshot,
  FIRST_CHUNK_ID,
  identitiesAt,
  identitiesOf,
  type BytePieces,
  type DecodedSnapshot,
  type PiecesReader,
  type SnapshotEntry,
  type ReadIdentities,
  type StoredSnapshot,
  StaleChunk,
} from "./snapshot-codec.js";
import { encodeSnapshot, SnapshotBuilder } from "./snapshot-builder.js";
import { NEWEST_ID } from "./newest-rows.js";
import { listPieces } from "../model/summary-json.js";
import { asciiText } from "../text/ascii-json.js";

/** Rows a command's scan leaves out of the snapshot (in the files table only) before it writes the snapshot again: at least this many, and a fiftieth of them. */
const SNAPSHOT_SLACK = 32;

/** Where a row holdFolded made says its row in the folded snapshot (a symbol: no key of its JSON). */
const FOLDED_ROW = Symbol("folded row");

/** How long a held scan keeps its rows back before it writes them as it goes. */
export const HOLD_ROWS_MS = 5000;

/** A row of this run's snapshot; `row`: its place in the snapshot read at launch (its list pieces are there). */
type Entry = SnapshotEntry & { row?: number };

/** `ctime`: the row's, -1 for a read that may be older than the file (readIsRacy): never matches. */
function entryOf(f: SessionFile, scan: FileScan, ctime = f.ctimeMs ?? -1): Entry {
  return {
    path: f.path,
    ino: f.ino!,
    size: f.bytes,
    mtime: f.mtimeMs,
    ctime,
    // Made as the snapshot is, one at a time, as the pieces are.
    summary: scan.kind === "session" ? () => storedSummary(scan.summary) as Record<string, unknown> : null,
    diagnostic: scan.kind === "diagnostic" ? scan.diagnostic : null,
    // Made as the list text is written, one at a time (ten thousands held at once were tens of megabytes).
    pieces: scan.kind === "session" ? () => listPieces(scan.summary) : undefined,
  };
}

/** The snapshot as stored (its first row and its columns' rows), or undefined when there is none. */
export function readStoredSnapshot(
  prepare: (sql: string) => { get(): unknown; all(): unknown[] },
): StoredSnapshot | undefined {
  const r = prepare("SELECT body FROM snapshot WHERE id = 1").get() as { body: unknown } | undefined;
  const body = r?.body;
  if (!(body instanceof Uint8Array) && typeof body !== "string") return undefined;
  const rows = prepare(`SELECT id, body FROM snapshot WHERE id >= ${FIRST_CHUNK_ID} ORDER BY id`).all();
  return { body, chunks: chunksOf(rows as Array<{ id: unknown; body: unknown }>) };
}

/**
 * readStoredSnapshot with its column rows read only when asked for (LazyChunks: their lengths
 * read now, each row when its column is; one of another snapshot by then is a StaleChunk).
 */
export function readStoredSnapshotLazily(
  prepare: (sql: string) => { get(...params: number[]): unknown; all(): unknown[] },
): StoredSnapshot | undefined {
  const r = prepare("SELECT body FROM snapshot WHERE id = 1").get() as { body: unknown } | undefined;
  const body = r?.body;
  if (!(body instanceof Uint8Array) && typeof body !== "string") return undefined;
  const lengths = prepare(
    `SELECT id, length(body) AS n FROM snapshot WHERE id >= ${FIRST_CHUNK_ID} ORDER BY id`,
  ).all() as Array<{
    id: number;
    n: number;
  }>;
  if (lengths.some((row, k) => row.id !== FIRST_CHUNK_ID + k)) return { body, chunks: undefined };
  const one = prepare("SELECT body FROM snapshot WHERE id = ?");
  const read = (k: number) => {
    const chunk = (one.get(FIRST_CHUNK_ID + k) as { body: unknown } | undefined)?.body;
    return chunk instanceof Uint8Array || typeof chunk === "string" ? chunk : undefined;
  };
  return { body, chunks: { lengths: lengths.map((row) => row.n), read } };
}

interface FileRow extends FilesRow {
  summary: string | null;
  diagnostic: string | null;
}

/**
 * A files row's kept scan: its summary or its diagnostic (neither: none). An empty summary
 * marks a session whose summary the snapshot alone holds (writeSnapshot): none from the row.
 */
function scanOfRow(r: Pick<FileRow, "summary" | "diagnostic">): FileScan | undefined {
  if (r.summary === "") return undefined;
  if (r.summary !== null) return { kind: "session", summary: decodeSummary(r.summary) };
  if (r.diagnostic !== null) return { kind: "diagnostic", diagnostic: decodeDiagnostic(r.diagnostic) };
  return undefined;
}

/**
 * What a kept summary depends on besides its file: the builder's format and the local time
 * zone (usage is split by local day). The zone as the UTC offset of each month's first day
 * of two fixed years, and TZ: cheap (Intl's zone name costs 20 ms to start up), and a move
 * to a zone with other offsets or other summer time changes one of them.
 */
export function summaryContext(): string {
  const offsets: number[] = [];
  for (const y of [2025, 2026]) for (let m = 0; m < 12; m++) offsets.push(new Date(y, m, 1).getTimezoneOffset());
  return `${SUMMARY_FORMAT}/${process.env.TZ ?? ""}/${offsets.join(",")}`;
}

/** SQLite's "busy": another process holds the write lock past the timeout. */
function isBusy(err: unknown): boolean {
  return (((err as { errcode?: number }).errcode ?? -1) & 0xff) === 5;
}

/**
 * The store scan's cache (ScanCache) kept in the persistent index: a file whose inode,
 * size, mtime and ctime are those of its kept row is not read again (a row made from a
 * read within a tick of the file's last change is kept as never matching: readIsRacy). Errors never reach the
 * scan: a damaged index is deleted (to be rebuilt next run) and this run goes on without
 * it; a write that finds the index busy (another process writing) is skipped.
 */
export class IndexedScans implements ScanCache {
  /** Rows to write: a file, its scan (null: a session folded into the snapshot being made, foldAsRead), its ctime. */
  private pending: Array<[SessionFile, FileScan | null, number]> = [];
  private usable = true;
  /** This run's fresh entries (made when the snapshot is written) and rows read without a snapshot, by path; the launch snapshot's rows still true are in fromSnap. */
  private readonly kept = new Map<string, Entry | (() => Entry)>();
  /** The rows of the launch snapshot still true: entries of this run's snapshot too. */
  private fromSnap: number[] = [];
  private dirty = false;
  /** Rows of the launch snapshot whose files are gone. */
  private goneRows = 0;
  /** The snapshot read at launch (whole when lookup read it; read again by writeSnapshot after keptRows). */
  private snap?: DecodedSnapshot;
  /** Its identities, when keptRows read them alone, and their text as read. */
  private ids?: ReadIdentities;
  private idsText?: string | Uint8Array;
  private readonly rowOf = new WeakMap<SessionSummary, { snap: DecodedSnapshot; row: number }>();
  /** The snapshot's list text, once read (null: none, or not readable). */
  private listText?: Uint8Array | null;
  /**
   * Set by a command before its scan: a scan with nothing kept from before (a first run)
   * folds each summary into the snapshot as it is read, rather than keeping it until the
   * snapshot is written (at 50,000 sessions, 140 MB of heap held to the end); the command
   * keeps what it needs of each (holdFolded).
   */
  foldAsRead = false;
  /**
   * A full garbage collection, set by a command (src/cli/common/collect-garbage.ts): asked
   * for as a folded snapshot is written, before its columns are made: the scan's garbage
   * (30 MB of V8's heap at 50,000 sessions) was otherwise held beside the largest column
   * and SQLite's copy of it. The buffers the writing makes are let go of as they are copied.
   */
  collectGarbage?: () => void;
  /** The snapshot being made as files are read (foldAsRead), until it is written. */
  private fold?: SnapshotBuilder;
  /** The one this run folded into (its list pieces read by listPieces), and whether it was decided yet. */
  private folded?: SnapshotBuilder;
  private foldDecided = false;
  /**
   * The summary folded in last with its list pieces, and its row in `folded`: the scan hands
   * it to holdFolded at once (a WeakMap of 50,000 summaries that die young cost the first text
   * `list` 1.5–2 s more CPU at 50,000 sessions in two interleaved pairs of runs).
   */
  private lastFolded?: { summary: SessionSummary; row: number };

  constructor(
    private readonly db: IndexDb,
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  /** A fresh start from a snapshot read now: what an earlier lookup kept is in it, or read again. */
  private startFrom(snap: DecodedSnapshot | undefined): void {
    // A snapshot read now is what this run's is made from: nothing more folded (folded rows keep their pieces).
    this.fold = undefined;
    this.snap = snap;
    this.listText = undefined;
    this.keptReader = undefined;
    this.keptWhole = undefined;
    this.fromSnap = [];
    this.goneRows = 0;
    this.kept.clear();
  }

  private static same(
    f: SessionFile | undefined,
    ino: unknown,
    size: unknown,
    mtime: unknown,
    ctime: unknown,
  ): f is SessionFile {
    return (
      !!f &&
      f.ino !== undefined &&
      f.ctimeMs !== undefined &&
      ino === f.ino &&
      size === f.bytes &&
      mtime === f.mtimeMs &&
      ctime === f.ctimeMs
    );
  }

  /** The snapshot's identities alone, out of one read of its first row. */
  private readIdentities(): ReadIdentities | undefined {
    // The body in one read, its identities a view of it: SQLite loads the whole value for any
    // substr() of it, so its head and then its identities read apart loaded it twice and copied
    // the identities once more (23 MB each at 100,000 sessions: 70 MB touched, 44 MB of it
    // kept by the allocator after). The rest of the body, the columns' head, is under a twentieth.
    // The statement readStoredSnapshot prepares too: one cached statement for the one read.
    const body = (this.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: unknown } | undefined)?.body;
    if (!(body instanceof Uint8Array || typeof body === "string")) return undefined;
    const at = identitiesAt(body);
    if (!at) return undefined;
    const ids = typeof body === "string" ? body.slice(...at) : body.subarray(...at);
    this.idsText = ids;
    return identitiesOf(ids);
  }

  keptRows(files: readonly SessionFile[], lineage = true): KeptRows | undefined {
    if (!this.usable) return undefined;
    try {
      this.checkContext();
      const ids = this.readIdentities();
      if (!ids) return undefined;
      this.startFrom(undefined);
      this.ids = ids;
      // Rows found by inode, then the path compared: a map of numbers is a third of the cost
      // of one of 10,000 long paths (each hashed). By path only for a file whose inode is
      // not its row's (new, replaced), the map made at the first such file.
      const rowOfIno = new Map<number, number>();
      for (let i = 0; i < ids.n; i++) rowOfIno.set(ids.ino[i], i);
      let rowOfPath: Map<string, number> | undefined;
      const byPath = (path: string) => {
        rowOfPath ??= new Map(ids.path.map((p, i) => [p, i]));
        return rowOfPath.get(path);
      };
      const found = new Uint8Array(ids.n);
      const out: KeptRows = { gen: ids.gen, todo: [], diagnostics: [], rows: [], sessions: [] };
      // In the files' order (newest first), as the summaries would have come.
      for (const f of files) {
        const at = f.ino === undefined ? undefined : rowOfIno.get(f.ino);
        const i = at !== undefined && ids.path[at] === f.path ? at : byPath(f.path);
        if (i !== undefined) found[i] = 1;
        if (i === undefined || !IndexedScans.same(f, ids.ino[i], ids.size[i], ids.mtime[i], ids.ctime[i])) {
          out.todo.push(f);
          continue;
        }
        const diagnostic = ids.diagnostic(i);
        if (diagnostic) out.diagnostics.push(diagnostic);
        else {
          out.rows.push(i);
          if (lineage)
            out.sessions.push({
              row: i,
              path: f.path,
              parentSessionPath: ids.parent(i) ?? undefined,
              lineage: NO_LINEAGE,
            });
        }
        this.fromSnap.push(i);
      }
      // Files the snapshot has otherwise: their own rows, where a run that did not write the
      // snapshot again (flush) left them true.
      if (out.todo.length) {
        const scans = new Map<string, FileScan>();
        this.fromRows(out.todo, scans);
        if (scans.size) {
          out.scans = scans;
          out.todo = out.todo.filter((f) => !scans.has(f.path));
        }
      }
      // Files no longer in the store (deleted, renamed away) leave the index.
      const gone = ids.path.filter((_, i) => !found[i]);
      this.goneRows = gone.length;
      if (gone.length) {
        this.dirty = true;
        this.forgetPaths(gone);
      }
      return out;
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  /**
   * After keptRows: these summary keys' columns of the snapshot it read (by row, as
   * stored: dates as epoch milliseconds), parsing no other column's text. Undefined when
   * that snapshot is no longer the one kept (another process wrote one since) or on a problem.
   */
  keptColumns<K extends string>(keys: readonly K[]): Record<K, readonly unknown[] | undefined> | undefined {
    if (!this.usable || !this.ids || !this.idsText) return undefined;
    try {
      // Only the rows of the columns asked for are read (their lengths checked first, each
      // row's generation when read).
      const stored = readStoredSnapshotLazily((sql) => this.db.q(sql));
      const body = stored?.body;
      if (!stored?.chunks || !(body instanceof Uint8Array)) return undefined;
      const at = identitiesAt(body);
      const idsText = this.idsText;
      const same =
        at !== undefined &&
        (typeof idsText === "string"
          ? asciiText(body, ...at) === idsText
          : Buffer.compare(body.subarray(...at), idsText) === 0);
      if (!same) return undefined;
      const snap = decodeSnapshot(stored, this.ids);
      if (!snap) return undefined;
      const cols = Object.fromEntries(keys.map((k) => [k, snap.column(k)])) as Record<
        K,
        readonly unknown[] | undefined
      >;
      this.keptReader = snap.piecesReader();
      this.keptWhole = undefined;
      return cols;
    } catch (err) {
      // Another process wrote a snapshot between the reads: none of this one's columns.
      if (err instanceof StaleChunk) return undefined;
      this.fail(err);
      return undefined;
    }
  }

  /** The reader of list pieces of the snapshot keptColumns read (none of its columns' bytes held), and that snapshot whole when asked for. */
  private keptReader?: PiecesReader;
  private keptWhole?: DecodedSnapshot | null;

  /**
   * After keptColumns: row i's `list --json` pieces (without its lineage) out of that
   * snapshot's list text, or undefined (none kept for it, or the text is of another snapshot).
   */
  keptPieces(i: number): BytePieces | undefined {
    if (!this.usable || !this.keptReader) return undefined;
    const list = this.loadList();
    return list === null ? undefined : this.keptReader(i, list);
  }

  /** After keptColumns: whether row i has `list --json` pieces in that snapshot's list text (PiecesReader.has: its members not all unzipped to tell). */
  keptHasPieces(i: number): boolean {
    if (!this.usable || !this.keptReader) return false;
    const list = this.loadList();
    return list !== null && this.keptReader.has(i, list);
  }

  /** After keptColumns: the rows' pieces will be asked for in an order that jumps (PiecesReader.jumpy). */
  keptPiecesJumpy(): void {
    if (!this.usable || !this.keptReader) return;
    const list = this.loadList();
    if (list !== null) this.keptReader.jumpy(list);
  }

  /** After keptColumns: row i's whole summary out of that snapshot, read again (null: none, or not the same snapshot). */
  keptSummary(i: number): SessionSummary | null {
    if (!this.usable || !this.ids || !this.keptReader) return null;
    try {
      if (this.keptWhole === undefined) {
        const stored = readStoredSnapshot((sql) => this.db.q(sql));
        const snap = stored ? decodeSnapshot(stored) : undefined;
        this.keptWhole = snap?.gen === this.ids.gen ? snap : null;
      }
      const s = this.keptWhole?.summary(i);
      return s ? reviveSummary(s) : null;
    } catch (err) {
      this.fail(err);
      return null;
    }
  }

  lookup(files: readonly SessionFile[]): Map<string, FileScan> {
    const out = new Map<string, FileScan>();
    if (!this.usable) return out;
    try {
      this.checkContext();
      const byPath = new Map(files.map((f) => [f.path, f]));
      const stored = readStoredSnapshot((sql) => this.db.q(sql));
      const decoded = stored ? decodeSnapshot(stored) : undefined;
      if (decoded) {
        this.startFrom(decoded);
        const gone: string[] = [];
        const { path: paths, ino, size, mtime, ctime } = decoded;
        for (let i = 0; i < decoded.n; i++) {
          const path = paths[i];
          const f = byPath.get(path);
          if (!f) gone.push(path);
          if (!IndexedScans.same(f, ino[i], size[i], mtime[i], ctime[i])) continue;
          const summary = decoded.summary(i);
          const diagnostic = summary ? null : decoded.diagnostic(i);
          if (summary) {
            const revived = reviveSummary(summary);
            this.rowOf.set(revived, { snap: decoded, row: i });
            out.set(path, { kind: "session", summary: revived });
          } else if (diagnostic) out.set(path, { kind: "diagnostic", diagnostic });
          else continue;
          // Made into this run's snapshot entries only if one is written (flush).
          this.fromSnap.push(i);
        }
        this.goneRows = gone.length;
        if (gone.length) {
          this.dirty = true;
          this.forgetPaths(gone);
        }
        // Files the snapshot has otherwise (changed since it was written, or new): their
        // rows, written by a run that did not write the snapshot again (flush).
        if (out.size < files.length)
          this.fromRows(
            files.filter((f) => !out.has(f.path)),
            out,
          );
        return out;
      }
      // No snapshot yet (an index from before, or another process's first run): the rows.
      this.dirty = true;
      const rows = this.db
        .q("SELECT fid, path, ino, size, mtime, ctime, summary, diagnostic FROM files")
        .all() as unknown[];
      const gone: number[] = [];
      for (const r of rows as FileRow[]) {
        const f = byPath.get(r.path);
        if (!f) gone.push(r.fid);
        if (!IndexedScans.same(f, r.ino, r.size, r.mtime, r.ctime)) continue;
        const scan = scanOfRow(r);
        if (!scan) continue;
        out.set(r.path, scan);
        this.kept.set(r.path, entryOf(f, scan));
      }
      // Files no longer in the store (deleted, renamed away) leave the index.
      if (gone.length) this.forget(gone);
    } catch (err) {
      this.fail(err);
      return new Map();
    }
    return out;
  }

  /**
   * A cache for a scan of a few of the store's files (a command kept what it needs of the
   * rest): their rows alone, by path; it neither reads nor writes the snapshot, nor
   * forgets the files it was not given.
   */
  forFew(): ScanCache {
    return {
      lookup: (files) => {
        const out = new Map<string, FileScan>();
        if (!this.usable) return out;
        try {
          this.checkContext();
          this.fromRows(files, out);
        } catch (err) {
          this.fail(err);
          out.clear();
        }
        return out;
      },
      remember: (file, scan, readFrom) => this.remember(file, scan, readFrom),
      flush: () => this.writeRows(),
    };
  }

  /** The files' kept rows where they are still true, into `out` (and this run's entries). */
  private fromRows(files: readonly SessionFile[], out: Map<string, FileScan>): void {
    const row = this.db.q("SELECT ino, size, mtime, ctime, summary, diagnostic FROM files WHERE path = ?");
    for (const f of files) {
      const r = row.get(f.path) as Omit<FileRow, "fid" | "path"> | undefined;
      if (!r || !IndexedScans.same(f, r.ino, r.size, r.mtime, r.ctime)) continue;
      const scan = scanOfRow(r);
      if (!scan) continue;
      out.set(f.path, scan);
      this.kept.set(f.path, entryOf(f, scan));
      this.dirty = true;
    }
  }

  private forgetPaths(paths: string[]): void {
    const fid = this.db.q("SELECT fid FROM files WHERE path = ?");
    this.forget(paths.flatMap((p) => (fid.get(p) as { fid: number } | undefined)?.fid ?? []));
  }

  private forget(fids: number[]): void {
    // Gone files the snapshot still lists (it is not written again for a few) are met at
    // every run: no write transaction for them once their rows are gone.
    if (fids.length === 0 || this.busy) return;
    try {
      this.db.transaction(() => forgetFiles(this.db, fids));
    } catch (err) {
      if (!isBusy(err)) throw err;
      this.busy = true;
    }
  }

  /**
   * True once a write found the index locked by another process past the wait (SQLite's
   * busy timeout): this run writes nothing more (each try would wait as long again), and
   * reads what is there.
   */
  busy = false;

  /** True once the index failed (damaged, full, unreadable), or after release(): this run goes on without it. */
  get failed(): boolean {
    return !this.usable;
  }

  remember(file: SessionFile, scan: FileScan, readFrom = Date.now()): void {
    // An unreadable file may become readable without its mtime changing (chmod): not kept.
    if (!this.usable || file.ino === undefined) return;
    if (scan.kind === "diagnostic" && scan.diagnostic.kind === "unreadable") return;
    // Read within a tick of its last change: kept, but as never matching (read again next run).
    const ctime = file.ctimeMs === undefined || readIsRacy(file.mtimeMs, file.ctimeMs, readFrom) ? -1 : file.ctimeMs;
    const fold = this.foldFor();
    if (fold) {
      let row: number;
      try {
        row = fold.add(entryOf(file, scan, ctime));
      } catch (err) {
        // A snapshot half made is never written: this run goes on without the index (rows
        // folded before keep their list pieces in `folded`; the rest are held whole).
        this.fold = undefined;
        this.lastFolded = undefined;
        this.fail(err);
        return;
      }
      this.lastFolded = scan.kind === "session" && fold.hasPieces(row) ? { summary: scan.summary, row } : undefined;
      this.pending.push([file, scan.kind === "session" ? null : scan, ctime]);
      this.dirty = true;
      return;
    }
    this.pending.push([file, scan, ctime]);
    this.kept.set(file.path, () => entryOf(file, scan, ctime));
    this.dirty = true;
    // Written once the list is complete (writeSnapshot, or flush): the first launch on a store
    // the index does not know yet is then no slower than one without it, and rows written
    // with the snapshot need no summary of their own. A browser's scan that runs long writes
    // them as it goes after all, so a user who quits before its end still leaves the next
    // launch less to read. A command's scan does not: its end comes without a user waiting
    // on a screen, and a row written with its summary, emptied when the snapshot is written,
    // leaves its page half empty (at 50,000 sessions, 54 MB of the index's 393).
    if (!this.holdSnapshot) return;
    this.firstHeld ??= Date.now();
    const held = Date.now() - this.firstHeld < HOLD_ROWS_MS;
    if (!held && this.pending.length >= 256) this.writeRows();
  }

  /**
   * The snapshot this run folds into, made at the first file read when asked for
   * (foldAsRead) and nothing is kept from before: no snapshot was read, and the files' own
   * rows kept (read without one) go in first, as writeSnapshot would have put them.
   */
  private foldFor(): SnapshotBuilder | undefined {
    if (this.foldDecided) return this.fold;
    this.foldDecided = true;
    if (!this.foldAsRead || this.holdSnapshot || this.snap || this.ids || this.fromSnap.length) return undefined;
    this.fold = this.folded = new SnapshotBuilder();
    for (const e of this.kept.values()) this.fold.add(typeof e === "function" ? e() : e);
    this.kept.clear();
    return this.fold;
  }

  /**
   * What the scan holds of a summary read (ScanOptions.hold, called just after remember):
   * `make`'s smaller row when the summary was the last folded into this run's snapshot with
   * its list pieces (listPieces gives them for that row), else the summary itself.
   */
  holdFolded<T extends object>(s: SessionSummary, make: (s: SessionSummary) => T): T | SessionSummary {
    const last = this.lastFolded;
    this.lastFolded = undefined;
    if (last?.summary !== s) return s;
    const held = make(s) as T & { [FOLDED_ROW]?: number };
    held[FOLDED_ROW] = last.row;
    return held;
  }

  /**
   * A summary's `list --json` element around its lineage, as kept: for a summary this cache
   * gave from its snapshot (unchanged since, but for its lineage), or one folded into this
   * run's (the row holdFolded made of it). Undefined otherwise.
   */
  listPieces(s: object): BytePieces | undefined {
    const folded = (s as { [FOLDED_ROW]?: number })[FOLDED_ROW];
    if (folded !== undefined) {
      // Only a row whose pieces were there is folded: without them its text cannot be made.
      const p = this.folded?.pieces(folded);
      if (!p) throw new Error("index: a session's list text, made as it was read, is missing");
      return p;
    }
    const at = this.rowOf.get(s as SessionSummary);
    if (at === undefined || at.snap !== this.snap) return undefined;
    const list = this.loadList();
    return list === null ? undefined : at.snap.pieces(at.row, list);
  }

  /** The launch snapshot's list text (its generation is checked by the snapshot's pieces()). */
  private loadList(): Uint8Array | null {
    if (this.listText === undefined) {
      try {
        const r = this.db.q("SELECT body FROM snapshot WHERE id = 2").get() as { body: unknown } | undefined;
        this.listText = r?.body instanceof Uint8Array ? r.body : null;
      } catch {
        this.listText = null;
      }
    }
    return this.listText;
  }

  /** At the end of a scan: the rows, then (unless held) the snapshot if anything changed. */
  flush(): void {
    if (this.holdSnapshot) return;
    // A few files changed or new (a session pi just wrote to): their rows are enough, the
    // next run takes them from there (fromRows). Making the snapshot again for them cost a
    // launch on 10,000 sessions twice its time; the browser's scan worker makes it anyway.
    const held = (this.snap ?? this.ids)?.n;
    if (held !== undefined && this.kept.size + this.goneRows <= Math.max(SNAPSHOT_SLACK, held / 50)) {
      this.writeRows();
      return;
    }
    this.writeSnapshot();
  }

  /**
   * Leaves the snapshot, and the rows of the files read (for HOLD_ROWS_MS), to
   * writeSnapshot(): a scan worker writes them once the list is complete, as making the
   * snapshot again takes a tenth of a second or more and writing 10,000 rows several.
   */
  holdSnapshot = false;
  /** When the first row of this scan was held back. */
  private firstHeld?: number;

  /** The snapshot, made again if anything changed. */
  writeSnapshot(): void {
    this.writeRows(true);
    if (!this.usable || !this.dirty || this.busy) return;
    try {
      // Rows kept by keptRows: their summaries read now, from the snapshot it read (or none
      // written: another process wrote one since, as true as this one would be).
      if (!this.snap && this.ids && this.fromSnap.length) {
        const stored = readStoredSnapshot((sql) => this.db.q(sql));
        const snap = stored ? decodeSnapshot(stored) : undefined;
        if (snap?.gen !== this.ids.gen) return;
        this.snap = snap;
      }
      const put = this.db.q(
        "INSERT INTO snapshot(id, body) VALUES(?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
      );
      const fold = this.fold;
      this.fold = undefined; // made once
      // Nothing more is folded: the last summary read is not kept for holdFolded (`index` asks for none).
      this.lastFolded = undefined;
      if (fold) {
        // Every file is read: the reads' buffers are let go of before the snapshot is written.
        releaseReadChunks();
        // Entries kept after folding began (none in a command's one scan) go last.
        for (const e of this.kept.values()) fold.add(typeof e === "function" ? e() : e);
        this.putSnapshot(put, (p, pb) => fold.finish(p, this.collectGarbage, pb));
        return;
      }
      const snap = this.snap;
      const entries: Entry[] = [];
      for (const row of snap ? this.fromSnap : []) {
        const path = snap!.path[row];
        if (this.kept.has(path)) continue;
        // A kept row is a session unless it has a diagnostic (keptRows, lookup); its summary made as the snapshot is.
        const diagnostic = snap!.diagnostic(row);
        entries.push({
          path,
          ino: snap!.ino[row],
          size: snap!.size[row],
          mtime: snap!.mtime[row],
          ctime: snap!.ctime[row],
          summary: diagnostic ? null : () => snap!.summary(row),
          diagnostic,
          row,
        });
      }
      for (const e of this.kept.values()) entries.push(typeof e === "function" ? e() : e);
      // Rows kept from the launch's snapshot keep their list pieces (read once, here).
      for (const e of entries) {
        if (e.row === undefined || e.pieces || !e.summary || !this.snap) continue;
        const list = this.loadList();
        if (list === null) break;
        e.pieces = this.snap.pieces(e.row, list);
      }
      this.putSnapshot(put, (p, pb) => encodeSnapshot(entries, undefined, p, pb));
    } catch (err) {
      if (isBusy(err)) this.busy = true;
      else this.fail(err);
    }
  }

  /** The snapshot `encode` makes (giving each column to its `put` as made), written in one transaction. */
  private putSnapshot(
    put: { run(id: number, body: Uint8Array): unknown },
    encode: (
      put: (k: number, chunk: Uint8Array) => void,
      putBody: (body: Uint8Array) => void,
    ) => { list: Uint8Array; newest: Uint8Array },
  ): void {
    try {
      // The snapshot holds every summary now: the rows keep only that they are sessions (an
      // empty summary), as a second copy of every summary was a tenth of the index. A row
      // another process wrote meanwhile loses its summary too: that file is read again.
      const emptyRows = this.db.q("UPDATE files SET summary = '' WHERE summary <> ''");
      const dropChunks = this.db.q("DELETE FROM snapshot WHERE id >= ?");
      // Made in the transaction, each column written as it is made (none held with the others).
      this.db.transaction(() => {
        let count = 0;
        // The body is put (and let go of) as soon as it is made, before the list text is joined.
        const { list, newest } = encode(
          (k, chunk) => {
            put.run(FIRST_CHUNK_ID + k, chunk);
            count = k + 1;
          },
          (body) => put.run(1, body),
        );
        put.run(2, list);
        put.run(NEWEST_ID, newest);
        // Columns of an earlier snapshot with more keys: not left to be taken for this one's.
        dropChunks.run(FIRST_CHUNK_ID + count);
        emptyRows.run();
      });
      this.dirty = false;
    } catch (err) {
      if (isBusy(err)) this.busy = true;
      else this.fail(err);
    }
  }

  /** The pending rows; `inSnapshot`: their summaries go into the snapshot written next, not into them (see writeSnapshot). */
  private writeRows(inSnapshot = false): void {
    if (!this.usable || this.pending.length === 0) return;
    if (this.busy) {
      this.pending = [];
      return;
    }
    const batch = this.pending;
    this.pending = [];
    try {
      const upsert = this.db.q(
        `INSERT INTO files(path, ino, size, mtime, ctime, summary, diagnostic) VALUES(?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET ino = excluded.ino, size = excluded.size, mtime = excluded.mtime,
           ctime = excluded.ctime, summary = excluded.summary, diagnostic = excluded.diagnostic`,
      );
      this.db.transaction(() => {
        for (const [f, scan, ctime] of batch) {
          upsert.run(
            f.path,
            f.ino ?? null,
            f.bytes,
            f.mtimeMs,
            ctime,
            // A folded session's summary is the snapshot's alone: "" (read again if that is not written).
            !scan ? "" : scan.kind === "session" ? (inSnapshot ? "" : encodeSummary(scan.summary)) : null,
            scan?.kind === "diagnostic" ? encodeDiagnostic(scan.diagnostic) : null,
          );
        }
      });
    } catch (err) {
      if (isBusy(err)) this.busy = true;
      else this.fail(err);
    }
  }

  /**
   * Lets go of every summary this run kept (for a snapshot written again), once the scan is
   * over and nothing more is asked of this cache: `index` indexes the text of 50,000
   * sessions after its scan, and held them all the while. Its rows are written first.
   */
  release(): void {
    this.writeRows();
    this.pending = [];
    this.kept.clear();
    this.fromSnap = [];
    this.snap = undefined;
    this.ids = undefined;
    this.idsText = undefined;
    this.listText = undefined;
    this.keptReader = undefined;
    this.keptWhole = undefined;
    this.fold = this.folded = this.lastFolded = undefined;
    this.dirty = false;
    this.usable = false; // reads and writes nothing more
  }

  /** Summaries made under another format or time zone are dropped (their files read again). */
  private checkContext(): void {
    const want = summaryContext();
    if (this.db.meta("summaries") === want) return;
    this.db.transaction(() => {
      this.db.q("UPDATE files SET summary = NULL, diagnostic = NULL, size = NULL").run();
      this.db.q("DELETE FROM snapshot").run();
      this.db.setMeta("summaries", want);
    });
  }

  private fail(err: unknown): void {
    this.usable = false;
    this.pending = [];
    if (isIndexDamage(err)) {
      this.db.close();
      removeIndexFiles(this.db.path);
      this.onProblem(`the index was damaged: not used now, rebuilt next run (${oneLine(err)})`);
    } else this.onProblem(`index not used from here on: ${oneLine(err)}`);
  }
}

/**
 * Every summary of a snapshot's bytes by row (null where a row has none), as lookup makes
 * them, and the snapshot's generation: for the thread a scan worker says kept rows to (see
 * ScanCache.keptRows). Undefined when they are no snapshot of this layout.
 */
export function snapshotSummaries(
  stored: StoredSnapshot,
): { gen: string; byRow: Array<SessionSummary | null> } | undefined {
  const decoded = decodeSnapshot(stored);
  return decoded && decodedSummaries(decoded);
}

/** snapshotSummaries of a snapshot already decoded (its columns parsed now, unless they were). */
export function decodedSummaries(decoded: DecodedSnapshot): { gen: string; byRow: Array<SessionSummary | null> } {
  const byRow = new Array<SessionSummary | null>(decoded.n);
  for (let i = 0; i < decoded.n; i++) {
    const s = decoded.summary(i);
    byRow[i] = s && reviveSummary(s);
  }
  return { gen: decoded.gen, byRow };
}
