import { closeSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import { checkFile, createOwnFile } from "../../index/cache-folder.js";
import { loadSqlite } from "../../index/load-sqlite.js";

/*
 * One background indexer per store at a time. The lock is a file beside the index that the
 * indexer holds SQLite's exclusive lock on for as long as it runs: the system lets go of it
 * when the process ends however it ends (a crash, a kill), so a lock is never left behind
 * by a process that is gone, and no process id is trusted (one may be reused).
 */

/** The lock's file, beside the index's. */
export function indexerLockPath(indexPath: string): string {
  return `${indexPath}-indexer`;
}

/** The lock's database, opened where the file is ours (made 0600 if not there); undefined when it is not ours. */
function openLock(path: string, timeoutMs: number): DatabaseSync | undefined {
  if (checkFile(path)) return undefined;
  try {
    closeSync(createOwnFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  if (checkFile(path)) return undefined;
  const { DatabaseSync } = loadSqlite();
  return new DatabaseSync(path, { timeout: timeoutMs });
}

/** The lock, held until `release`; undefined when another process holds it (or it cannot be had). */
export function takeIndexerLock(indexPath: string, waitMs = 1000): { release(): void } | undefined {
  let db: DatabaseSync | undefined;
  try {
    db = openLock(indexerLockPath(indexPath), waitMs);
    if (!db) return undefined;
    // Rollback-journal mode: EXCLUSIVE keeps every other connection out, not just writers.
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db?.close();
    return undefined;
  }
  const held = db;
  return {
    release() {
      try {
        held.close();
      } catch {
        // Closed already.
      }
    },
  };
}

/** Whether a background indexer holds the lock now ("held"), none does ("free"), or the lock is not ours to use. */
export function indexerLockState(indexPath: string): "free" | "held" | "unusable" {
  let db: DatabaseSync | undefined;
  try {
    db = openLock(indexerLockPath(indexPath), 0);
    if (!db) return "unusable";
    db.exec("BEGIN EXCLUSIVE");
    return "free";
  } catch (err) {
    return isBusy(err) ? "held" : "unusable";
  } finally {
    try {
      db?.close();
    } catch {
      // Closed already.
    }
  }
}

/** SQLite's BUSY (or LOCKED): another connection holds the lock. */
function isBusy(err: unknown): boolean {
  const e = err as { errcode?: number; message?: string };
  const primary = (e.errcode ?? -1) & 0xff;
  return primary === 5 || primary === 6 || /locked|busy/i.test(e.message ?? "");
}
