import { SUMMARY_FORMAT } from "../model/summary.js";
import type { SessionFile } from "../store/discover.js";
import type { ScanCache } from "../store/scan-cache.js";
import type { FileScan } from "../store/scan-file.js";
import { forgetFiles } from "./forget.js";
import { isIndexDamage, oneLine, removeIndexFiles, type IndexDb } from "./index-db.js";
import { decodeDiagnostic, decodeSummary, encodeDiagnostic, encodeSummary } from "./summary-codec.js";

interface FileRow {
  fid: number;
  path: string;
  ino: number | null;
  size: number | null;
  mtime: number | null;
  summary: string | null;
  diagnostic: string | null;
}

/** What a kept summary depends on besides its file: the builder's format and the local time zone (usage by day). */
function summaryContext(): string {
  return `${SUMMARY_FORMAT}/${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
}

/** SQLite's "busy": another process holds the write lock past the timeout. */
function isBusy(err: unknown): boolean {
  return (((err as { errcode?: number }).errcode ?? -1) & 0xff) === 5;
}

/**
 * The store scan's cache (ScanCache) kept in the persistent index: a file whose inode,
 * size and mtime are those of its kept row is not read again. Errors never reach the
 * scan: a damaged index is deleted (to be rebuilt next run) and this run goes on without
 * it; a write that finds the index busy (another process writing) is skipped.
 */
export class IndexedScans implements ScanCache {
  private pending: Array<[SessionFile, FileScan]> = [];
  private usable = true;

  constructor(
    private readonly db: IndexDb,
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  lookup(files: readonly SessionFile[]): Map<string, FileScan> {
    const out = new Map<string, FileScan>();
    if (!this.usable) return out;
    try {
      this.checkContext();
      const byPath = new Map(files.map((f) => [f.path, f]));
      const rows = this.db.q("SELECT fid, path, ino, size, mtime, summary, diagnostic FROM files").all() as unknown[];
      for (const r of rows as FileRow[]) {
        const f = byPath.get(r.path);
        if (!f || f.ino === undefined || r.ino !== f.ino || r.size !== f.bytes || r.mtime !== f.mtimeMs) continue;
        if (r.summary !== null) out.set(r.path, { kind: "session", summary: decodeSummary(r.summary) });
        else if (r.diagnostic !== null)
          out.set(r.path, { kind: "diagnostic", diagnostic: decodeDiagnostic(r.diagnostic) });
      }
    } catch (err) {
      this.fail(err);
      return new Map();
    }
    return out;
  }

  remember(file: SessionFile, scan: FileScan): void {
    // An unreadable file may become readable without its mtime changing (chmod): not kept.
    if (!this.usable || file.ino === undefined) return;
    if (scan.kind === "diagnostic" && scan.diagnostic.kind === "unreadable") return;
    this.pending.push([file, scan]);
    if (this.pending.length >= 256) this.flush();
  }

  keepOnly(files: readonly SessionFile[]): void {
    if (!this.usable) return;
    try {
      const keep = new Set(files.map((f) => f.path));
      const rows = this.db.q("SELECT fid, path FROM files").all() as unknown as Array<{ fid: number; path: string }>;
      const gone = rows.filter((r) => !keep.has(r.path)).map((r) => r.fid);
      if (gone.length) this.db.transaction(() => forgetFiles(this.db, gone));
    } catch (err) {
      if (!isBusy(err)) this.fail(err);
    }
  }

  flush(): void {
    if (!this.usable || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      const upsert = this.db.q(
        `INSERT INTO files(path, ino, size, mtime, summary, diagnostic) VALUES(?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET ino = excluded.ino, size = excluded.size, mtime = excluded.mtime,
           summary = excluded.summary, diagnostic = excluded.diagnostic`,
      );
      this.db.transaction(() => {
        for (const [f, scan] of batch) {
          upsert.run(
            f.path,
            f.ino ?? null,
            f.bytes,
            f.mtimeMs,
            scan.kind === "session" ? encodeSummary(scan.summary) : null,
            scan.kind === "diagnostic" ? encodeDiagnostic(scan.diagnostic) : null,
          );
        }
      });
    } catch (err) {
      if (!isBusy(err)) this.fail(err);
    }
  }

  /** Summaries made under another format or time zone are dropped (their files read again). */
  private checkContext(): void {
    const want = summaryContext();
    if (this.db.meta("summaries") === want) return;
    this.db.transaction(() => {
      this.db.q("UPDATE files SET summary = NULL, diagnostic = NULL, size = NULL").run();
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
