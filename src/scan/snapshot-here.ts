import { existsSync } from "node:fs";
import { checkFile } from "../index/cache-folder.js";
import { indexFoldersProblem } from "../index/index-db.js";
import { loadSqlite } from "../index/load-sqlite.js";
import { readStoredSnapshot, snapshotSummaries } from "../index/summary-cache.js";
import type { SessionSummary } from "../model/types.js";

type Read = { gen: string; byRow: Array<SessionSummary | null> } | null;

/** The index's snapshot made into summaries on this thread, or null (none, not readable, not of this layout). */
function readHere(path: string): Read {
  // Only an index of ours (no link, in folders of ours: src/index/cache-folder.ts); the
  // scan worker, which opens it first, says why another is not used.
  if (!existsSync(path) || checkFile(path) || indexFoldersProblem(path, false)) return null;
  try {
    const { DatabaseSync } = loadSqlite();
    // Never long on this thread: a busy index (another process writing its schema) is read again at rows().
    const db = new DatabaseSync(path, { timeout: 100 });
    try {
      const stored = readStoredSnapshot((sql) => db.prepare(sql));
      return stored ? (snapshotSummaries(stored) ?? null) : null;
    } finally {
      db.close();
    }
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

  /** Lets the summaries go (they live on in what rows() gave). */
  drop(): void {
    this.read = null;
  }
}
