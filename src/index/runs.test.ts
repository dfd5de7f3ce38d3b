import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { openIndex, type IndexDb } from "./index-db.js";
import { addRun, deleteLines, fileLinesSql, hasRuns } from "./runs.js";

afterEach(() => cleanupTmp());

function emptyIndex(): IndexDb {
  const opened = openIndex(join(makeTmpDir(), "index.sqlite"));
  if (!("db" in opened)) throw new Error(opened.problem);
  return opened.db;
}

/** Writes lines of `fid` at these offsets (tool 1 when odd) as one run, as a write does; their ids. */
function write(db: IndexDb, fid: number, offs: number[]): number[] {
  const rids = offs.map((off) =>
    Number(db.q("INSERT INTO lines(fid, off, len, tool) VALUES(?, ?, 1, ?)").run(fid, off, off % 2).lastInsertRowid),
  );
  addRun(db, fid, rids[0], rids.at(-1)!);
  return rids;
}

const offsOf = (db: IndexDb, fid: number, chatOnly = false) =>
  (db.q(fileLinesSql("l.off AS off", chatOnly)).all(fid) as Array<{ off: number }>).map((r) => r.off);

describe("a file's lines found by their runs of line ids", () => {
  it("finds a file's lines of every run, by offset, and no other file's within them", () => {
    const db = emptyIndex();
    write(db, 1, [40, 10]);
    write(db, 2, [5]);
    write(db, 1, [30, 21]);
    // A run that names another file's line (as none is written, but a run is only where to look).
    const [other] = write(db, 2, [7]);
    addRun(db, 1, other, other);
    expect(offsOf(db, 1)).toEqual([10, 21, 30, 40]);
    expect(offsOf(db, 1, true)).toEqual([10, 30, 40]);
    expect(offsOf(db, 2)).toEqual([5, 7]);
    expect(db.q("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'lines'").all()).toEqual([]);
    db.close();
  });

  it("deletes a file's lines in a range of ids alone, and the runs wholly in it", () => {
    const db = emptyIndex();
    const a = write(db, 1, [1, 2, 3]);
    write(db, 2, [4]);
    const b = write(db, 1, [5, 6]);
    expect(deleteLines(db, 1, b[0], b[1])).toBe(2);
    expect(offsOf(db, 1)).toEqual([1, 2, 3]);
    // Part of a run: the rest still found by it.
    expect(deleteLines(db, 1, a[0], a[1])).toBe(2);
    expect(offsOf(db, 1)).toEqual([3]);
    expect(hasRuns(db, 1)).toBe(true);
    expect(deleteLines(db, 1, 0, Number.MAX_SAFE_INTEGER)).toBe(1);
    expect(hasRuns(db, 1)).toBe(false);
    expect(offsOf(db, 2)).toEqual([4]);
    db.close();
  });

  it("deletes every run's lines when a file with several runs is forgotten, not the first run's alone", () => {
    const db = emptyIndex();
    write(db, 1, [1, 2]);
    write(db, 1, [3]);
    write(db, 1, [4, 5]);
    expect(deleteLines(db, 1, 0, Number.MAX_SAFE_INTEGER)).toBe(5);
    expect(db.q("SELECT rid FROM lines WHERE fid = 1").all()).toEqual([]);
    expect(hasRuns(db, 1)).toBe(false);
    db.close();
  });
});
