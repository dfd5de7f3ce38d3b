import type { IndexDb } from "./index-db.js";

/** Removes files' text rows (FTS and lines); call inside a transaction. */
export function forgetText(db: IndexDb, fid: number): void {
  db.q("DELETE FROM chat WHERE rowid IN (SELECT rid FROM lines WHERE fid = ? AND tool = 0)").run(fid);
  db.q("DELETE FROM tools WHERE rowid IN (SELECT rid FROM lines WHERE fid = ? AND tool = 1)").run(fid);
  db.q("DELETE FROM lines WHERE fid = ?").run(fid);
}

/** Removes files from the index entirely; call inside a transaction. */
export function forgetFiles(db: IndexDb, fids: readonly number[]): void {
  for (const fid of fids) {
    forgetText(db, fid);
    db.q("DELETE FROM files WHERE fid = ?").run(fid);
  }
}
