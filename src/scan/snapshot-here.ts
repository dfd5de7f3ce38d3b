import { existsSync } from "node:fs";
import { checkFile } from "../index/cache-folder.js";
import { indexFoldersProblem } from "../index/index-db.js";
import { loadSqlite } from "../index/load-sqlite.js";
import { decodeSnapshot, type DecodedSnapshot } from "../index/snapshot-codec.js";
import { decodedSummaries, readStoredSnapshot } from "../index/summary-cache.js";
import type { SessionSummary } from "../model/types.js";
import { shareFields } from "./shared-fields.js";

type Read = { gen: string; byRow: Array<SessionSummary | null> } | null;

/** The index's snapshot read and decoded on this thread (no summary made yet), or undefined (none, not readable, not of this layout). */
export function openSnapshot(path: string): DecodedSnapshot | undefined {
  // Only an index of ours (no link, in folders of ours: src/index/cache-folder.ts); the
  // scan worker, which opens it first, says why another is not used.
  if (!existsSync(path) || checkFile(path) || indexFoldersProblem(path, false)) return undefined;
  try {
    const { DatabaseSync } = loadSqlite();
    // Never long on this thread: a busy index (another process writing its schema) is read again at rows().
    const db = new DatabaseSync(path, { timeout: 100 });
    try {
      const stored = readStoredSnapshot((sql) => db.prepare(sql));
      return stored && decodeSnapshot(stored);
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/** A snapshot decoded for the first screen (snapshot-first.ts), taken by the next read of the same index. */
let lent: { path: string; decoded: DecodedSnapshot } | undefined;

/** Lends `decoded` to the next SnapshotHere of `path`, which then does not read it again (rows() still checks its generation). */
export function lendSnapshot(path: string, decoded: DecodedSnapshot): void {
  lent = { path, decoded };
}

/** Holds on loads (holdSnapshotLoads), and the loads waiting for them to end. */
let holds = 0;
let waiting: Array<() => void> = [];

/**
 * Until the function returned is called, a SnapshotHere does not read its snapshot of its own
 * accord (loadWhenIdle waits; rows() still reads at once): `--all`'s first screen reads the
 * few rows it draws first (firstScreen.ts), then the 50,000 summaries are made.
 */
export function holdSnapshotLoads(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holds > 0) return;
    const run = waiting;
    waiting = [];
    for (const f of run) setImmediate(f);
  };
}

/** The index's snapshot made into summaries on this thread, or null (none, not readable, not of this layout). */
function readHere(path: string): Read {
  const mine = lent?.path === path ? lent.decoded : undefined;
  lent = undefined;
  const decoded = mine ?? openSnapshot(path);
  try {
    if (!decoded) return null;
    const read = decodedSummaries(decoded);
    // Held for as long as the list shows them: equal fields one value each.
    shareFields(read.byRow);
    return read;
  } catch {
    return null;
  }
}

/**
 * The thread that shows the rows reads the index's snapshot itself, while the scan worker
 * stats every file: the worker then reads only the snapshot's identities and says which
 * rows hold (ScanCache.keptRows), of which generation. The index is a cache: undefined from
 * rows() means none can be made here (the caller scans without it).
 */
export class SnapshotHere {
  private read: Read | undefined;

  constructor(private readonly path: string) {}

  /** Reads it now, unless done already (call when the thread would otherwise wait). */
  load(): void {
    this.read ??= readHere(this.path);
  }

  /** The summaries of these rows of generation `gen`: read again if what was read is another (rewritten since). */
  rows(gen: string, rows: readonly number[]): SessionSummary[] | undefined {
    this.load();
    if (this.read?.gen !== gen) this.read = readHere(this.path);
    const byRow = this.read?.gen === gen ? this.read.byRow : undefined;
    if (!byRow) return undefined;
    const out: SessionSummary[] = [];
    for (const r of rows) {
      const s = byRow[r];
      if (!s) return undefined;
      out.push(s);
    }
    return out;
  }

  /** load() once this thread has nothing else to do, and nothing holds loads (holdSnapshotLoads). */
  loadWhenIdle(stop: () => boolean): void {
    const go = () => {
      if (stop()) return;
      if (holds > 0) waiting.push(go);
      else this.load();
    };
    setImmediate(go);
  }

  /** Lets the summaries go (they live on in what rows() gave). */
  drop(): void {
    this.read = null;
  }
}
