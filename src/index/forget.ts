import type { IndexDb } from "./index-db.js";

/** Removes files' text rows (FTS and lines); call inside a transaction. */
export function forgetText(db: IndexDb, fid: number): void {
  db.q("DELETE FROM text WHERE rowid IN (SELECT rid FROM lines WHERE fid = ?)").run(fid);
  db.q("DELETE FROM lines WHERE fid = ?").run(fid);
}

/** Removes files from the index entirely; call inside a transaction. */
export function forgetFiles(db: IndexDb, fids: readonly number[]): void {
  for (const fid of fids) {
    forgetText(db, fid);
    db.q("DELETE FROM files WHERE fid = ?").run(fid);
  }
}
