import { appendFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProjectSession } from "../../test/helpers/project-session.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { loadSqlite } from "./load-sqlite.js";
import { openStoreIndex, type StoreIndex } from "./store-index.js";
import {
  indexFileText,
  indexStaleText,
  MAX_INDEXED_LINE,
  staleTextFiles,
  WriteBatch,
  type IndexProgress,
} from "./text-index.js";

afterEach(() => cleanupTmp());

/** A copy of the pi fixture store with its summaries in a fresh index, no text indexed yet. */
async function summarized(): Promise<{ index: StoreIndex; path: string; files: number }> {
  const store = copyStore(PI_STORE);
  settle(store);
  const path = join(makeTmpDir(), "index.sqlite");
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  const { sessions } = await scanStore(store, {}, { cache: index.scans });
  return { index, path, files: sessions.length };
}

/** What every session's text state says, in fid order. */
function textStates(index: StoreIndex) {
  return index.db
    .q("SELECT path, text_end, text_tools, text_whole FROM files WHERE summary IS NOT NULL ORDER BY path")
    .all();
}

describe("bringing the text index up to date", () => {
  it("commits many small files together, not once per file", async () => {
    const { index, path, files } = await summarized();
    expect(files).toBeGreaterThan(10);
    // Another connection sees SQLite's data_version change at each commit of this one.
    const { DatabaseSync } = loadSqlite();
    const other = new DatabaseSync(path);
    const version = () => (other.prepare("PRAGMA data_version").get() as { data_version: number }).data_version;
    let commits = 0;
    let seen = version();
    const onProgress = () => {
      const v = version();
      if (v !== seen) commits++;
      seen = v;
    };
    await indexStaleText(index.db, onProgress);
    onProgress();
    other.close();
    // Two passes (the conversation, then the tool texts), each a transaction or two at
    // this size; it was three per file and pass.
    expect(commits).toBeLessThanOrEqual(4);
    expect(textStates(index).every((r) => r.text_tools === 1)).toBe(true);
    index.close();
  });

  it("writes a batch's text as one FTS5 segment per table: no statement between files makes FTS5 write what it holds", async () => {
    const { index } = await summarized();
    const batch = new WriteBatch(index.db, Infinity, Infinity);
    for (const row of staleTextFiles(index.db)) await indexFileText(index.db, row, "new", { batch, tools: true });
    batch.commit();
    // FTS5's segments (each written at a commit or savepoint, then merged by level).
    const segments = (table: string) =>
      (index.db.q(`SELECT count(DISTINCT segid) AS n FROM ${table}_idx`).get() as { n: number }).n;
    expect([segments("chat"), segments("tools")]).toEqual([1, 1]);
    expect(textStates(index).every((r) => r.text_tools === 1 && r.text_end !== null)).toBe(true);
    index.close();
  });

  it("indexes tool texts in the same read when asked (toolsAtOnce), with the same rows as two passes", async () => {
    const twice = await summarized();
    await indexStaleText(twice.index.db);
    const a = await summarized();
    const passes: Array<IndexProgress["pass"]> = [];
    const done = await indexStaleText(a.index.db, (p) => passes.push(p.pass), { toolsAtOnce: true });
    expect(new Set(passes)).toEqual(new Set(["text"]));
    expect(done).toEqual({ text: a.files, tools: a.files });
    // The two copies' paths differ by their temp folder alone.
    const rel = (p: unknown) => String(p).slice(String(p).lastIndexOf("/sessions/"));
    const rows = (x: StoreIndex) =>
      x.db
        .q("SELECT f.path AS path, l.off AS off, l.len AS len, l.tool AS tool FROM lines l JOIN files f USING (fid)")
        .all()
        .map((r) => JSON.stringify({ ...r, path: rel(r.path) }))
        .sort();
    const states = (x: StoreIndex) => textStates(x).map((r) => ({ ...r, path: rel(r.path) }));
    expect(states(a.index)).toEqual(states(twice.index));
    expect(rows(a.index)).toEqual(rows(twice.index));
    a.index.close();
    twice.index.close();
  });
  it("keeps a file with a line too long to index read whole after it is touched (indexed again from where it stopped)", async () => {
    const store = makeTmpDir();
    const file = addProjectSession(store, "/srv/long", "long one", { n: 1 });
    const long = { type: "message", id: "u2", parentId: "a1", timestamp: "2026-11-21T07:00:05.000Z" };
    appendFileSync(
      file,
      JSON.stringify({ ...long, message: { role: "user", content: "x".repeat(MAX_INDEXED_LINE), timestamp: 2 } }) +
        "\n",
    );
    settle(store);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const whole = () => (index.db.q("SELECT text_whole FROM files").get() as { text_whole: number }).text_whole;
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    expect(whole()).toBe(0);
    // The same bytes, another mtime: indexed again from where it stopped, with nothing to add.
    utimesSync(file, new Date("2026-11-02"), new Date("2026-11-02"));
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    expect(staleTextFiles(index.db)).toHaveLength(1);
    await indexStaleText(index.db);
    expect(staleTextFiles(index.db)).toHaveLength(0);
    expect(whole()).toBe(0);
    index.close();
  });
});
