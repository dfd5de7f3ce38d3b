import { describe, expect, it } from "vitest";
import { hasFastProperties } from "../../test/helpers/fast-properties.js";
import { loadSqlite } from "./load-sqlite.js";
import { KeptTextState, type FileTextState } from "./text-state.js";

describe("KeptTextState", () => {
  // node:sqlite (Node 22) makes each row a dictionary-mode object; whether a later Node does is
  // not ours to test: the kept state is a fast object either way.
  it("holds a node:sqlite row's fields as a fast object", () => {
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(":memory:");
    db.exec(`CREATE TABLE files(fid INTEGER, path TEXT, text_size INTEGER, text_mtime REAL, text_ctime REAL,
      text_whole INTEGER, text_tools INTEGER)`);
    db.exec(`INSERT INTO files VALUES (7, '/s/a.jsonl', 1234, 1700000000123.5, 1700000000456.25, 1, 0),
      (8, '/s/b.jsonl', NULL, NULL, NULL, 0, 0)`);
    const rows = db
      .prepare("SELECT fid, path, text_size, text_mtime, text_ctime, text_whole, text_tools FROM files")
      .all();
    db.close();
    for (const row of rows as unknown as FileTextState[]) {
      const kept = new KeptTextState(row);
      expect(hasFastProperties(kept)).toBe(true);
      expect({ ...kept }).toEqual({ ...row });
    }
  });
});
