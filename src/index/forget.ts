import type { IndexDb } from "./index-db.js";
import { deleteLines } from "./runs.js";

/*
 * Forgetting a file's text deletes its rows of lines and leaves its FTS rows where they
 * are: the FTS tables keep no per-row sizes (a tenth of their bytes), which a contentless
 * table needs to delete a row. A rowid with no line names nothing (search joins lines, and
 * rids are never given again: AUTOINCREMENT), so what is left is dead weight, counted in
 * meta's fts_orphans; once it is more than half of all the rows ever written, the text is
 * indexed again from nothing (dropOrphanText).
 */

const ORPHANS = "fts_orphans";
/** The last line id given when the text was last dropped: rows written since are seq - this. */
const BASE = "fts_base";
/**
 * A new value each time all the text is dropped. A run of indexing that read the files' text
 * states before then (WriteBatch) must not append to what is gone: it stops instead.
 */
export const TEXT_EPOCH = "text_epoch";

/** How many FTS rows name no line now. */
export function orphanRows(db: IndexDb): number {
  return Number(db.meta(ORPHANS) ?? 0);
}

/**
 * Removes a file's text rows (their lines; their FTS rows are left, counted), or only those
 * from line id `fromRid` on (the rows of a read that failed midway); call inside a transaction.
 */
export function forgetText(db: IndexDb, fid: number, fromRid = 0, toRid = Number.MAX_SAFE_INTEGER): void {
  const gone = deleteLines(db, fid, fromRid, toRid);
  if (gone > 0) db.setMeta(ORPHANS, String(orphanRows(db) + gone));
}

/** Removes files from the index entirely; call inside a transaction. */
export function forgetFiles(db: IndexDb, fids: readonly number[]): void {
  for (const fid of fids) {
    forgetText(db, fid);
    db.q("DELETE FROM files WHERE fid = ?").run(fid);
  }
}

/**
 * When most FTS rows name no line (rewritten or deleted sessions), all the text is
 * forgotten, the FTS tables emptied, and every file's text state cleared, in one
 * transaction: the text is then indexed again as at first. Returns whether it did.
 */
export function dropOrphanText(db: IndexDb): boolean {
  const most = () => {
    const orphans = orphanRows(db);
    const seq = db.q("SELECT seq FROM sqlite_sequence WHERE name = 'lines'").get() as { seq: number } | undefined;
    return orphans > 0 && orphans * 2 > (seq?.seq ?? 0) - Number(db.meta(BASE) ?? 0);
  };
  if (!most()) return false;
  return db.transaction(() => {
    // Asked again under the write lock: another process may have just done it.
    if (!most()) return false;
    db.sql.exec("INSERT INTO chat(chat) VALUES('delete-all'); INSERT INTO tools(tools) VALUES('delete-all');");
    // Line ids go on from where they were: a search that took FTS rowids just before this
    // must find no line under them now, never another file's line given the same id.
    db.sql.exec("DELETE FROM lines; DELETE FROM runs;");
    const seq = db.q("SELECT seq FROM sqlite_sequence WHERE name = 'lines'").get() as { seq: number } | undefined;
    db.setMeta(BASE, String(seq?.seq ?? 0));
    db.setMeta(TEXT_EPOCH, `${Date.now()}-${Math.random().toString(36).slice(2)}`);
    db.sql.exec(
      `UPDATE files SET text_ino = NULL, text_size = NULL, text_mtime = NULL, text_ctime = NULL, text_end = NULL,
         text_print = NULL, text_whole = 1, text_tools = 0`,
    );
    db.setMeta(ORPHANS, "0");
    return true;
  });
}
