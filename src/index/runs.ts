import type { IndexDb } from "./index-db.js";

/*
 * Where a file's lines are. Each write of a file's lines (one transaction) gives them
 * consecutive ids, so a row of runs, its first and last id, finds them on lines' own b-tree:
 * an index on lines(fid) was 13 MB at 50,000 sessions, runs are a row per write. A run is
 * only where to look: the lines found in it are still asked for their fid, so a run that
 * names more than its file's lines (another's between, or lines since forgotten) finds
 * those alone.
 */

/** A file's lines (`?1` its fid) as `cols` of lines `l`, the tool texts' too unless `chatOnly`, by offset. */
export function fileLinesSql(cols: string, chatOnly: boolean): string {
  return `SELECT ${cols} FROM runs r CROSS JOIN lines l ON l.rid BETWEEN r.first AND r.last
    WHERE r.fid = ?1 AND l.fid = ?1${chatOnly ? " AND l.tool = 0" : ""} ORDER BY l.off`;
}

/** Records that `fid`'s lines were written with ids `first` to `last`; call in the transaction that wrote them. */
export function addRun(db: IndexDb, fid: number, first: number, last: number): void {
  db.q("INSERT OR REPLACE INTO runs(fid, first, last) VALUES(?, ?, ?)").run(fid, first, last);
}

/** Whether the index holds any line of `fid`, as far as its runs tell (a run may outlive its lines: then none is deleted). */
export function hasRuns(db: IndexDb, fid: number): boolean {
  return db.q("SELECT 1 FROM runs WHERE fid = ? LIMIT 1").get(fid) !== undefined;
}

/**
 * Deletes `fid`'s lines with ids `from` to `to`, and the runs wholly among them (a run cut
 * in two keeps naming the rest); returns how many lines went. Call inside a transaction.
 */
export function deleteLines(db: IndexDb, fid: number, from: number, to: number): number {
  const runs = db
    .q("SELECT first, last FROM runs WHERE fid = ? AND last >= ? AND first <= ?")
    .all(fid, from, to) as Array<{ first: number; last: number }>;
  let gone = 0;
  const del = db.q("DELETE FROM lines WHERE rid BETWEEN ? AND ? AND fid = ?");
  for (const r of runs) gone += Number(del.run(Math.max(r.first, from), Math.min(r.last, to), fid).changes);
  if (runs.length) db.q("DELETE FROM runs WHERE fid = ? AND first >= ? AND last <= ?").run(fid, from, to);
  return gone;
}
