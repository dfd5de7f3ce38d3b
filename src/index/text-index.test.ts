import {
  appendFileSync,
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProjectSession } from "../../test/helpers/project-session.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { dropOrphanText, orphanRows } from "./forget.js";
import { loadSqlite } from "./load-sqlite.js";
import { openStoreIndex, type StoreIndex } from "./store-index.js";
import {
  bufferPrint,
  indexFileText,
  indexStaleText,
  MAX_INDEXED_LINE,
  readPrint,
  staleTextFiles,
  TextDropped,
  WriteBatch,
  type IndexProgress,
} from "./text-index.js";

afterEach(() => cleanupTmp());

/** A copy of the pi fixture store with its summaries in a fresh index, no text indexed yet. */
async function summarized(): Promise<{ index: StoreIndex; path: string; files: number; store: string }> {
  const store = copyStore(PI_STORE);
  settle(store);
  const path = join(makeTmpDir(), "index.sqlite");
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  const { sessions } = await scanStore(store, {}, { cache: index.scans });
  return { index, path, files: sessions.length, store };
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

  it("reads each file's row when its turn comes, newest first: one whose text another run brought up to date meanwhile is not indexed again", async () => {
    const { index, files, store } = await summarized();
    // Each file a date of its own, in an order neither that of ids nor of paths, nor their
    // reverse (a scan gives ids by date): every seventh file next, around the list.
    const fids = index.db.q("SELECT fid, path FROM files WHERE summary IS NOT NULL ORDER BY fid").all();
    const base = Date.now() / 1000 - 86_400;
    expect(fids.length % 7).not.toBe(0);
    const dates = new Map(fids.map((r, i) => [Number(r.fid), base + ((i * 7) % fids.length) * 60]));
    for (const r of fids) utimesSync(String(r.path), dates.get(Number(r.fid))!, dates.get(Number(r.fid))!);
    await scanStore(store, {}, { cache: index.scans });
    expect(index.db.q("SELECT fid, path FROM files WHERE summary IS NOT NULL ORDER BY fid").all()).toEqual(fids);
    const byAge = [...dates.keys()].sort((a, b) => dates.get(b)! - dates.get(a)!);
    const paths = new Map(fids.map((r) => [Number(r.fid), String(r.path)]));
    for (const other of [
      (a: number, b: number) => a - b,
      (a: number, b: number) => paths.get(a)!.localeCompare(paths.get(b)!),
    ]) {
      expect(byAge).not.toEqual([...byAge].sort(other));
      expect(byAge).not.toEqual([...byAge].sort(other).reverse());
    }
    const oldest = byAge[byAge.length - 1];
    const order: number[] = [];
    let once = false;
    const done = await indexStaleText(
      index.db,
      () => {
        if (once) return;
        once = true;
        // What another run writes once it has indexed the oldest file whole (a run ahead of this one).
        index.db
          .q(
            `UPDATE files SET text_ino = ino, text_size = size, text_mtime = mtime, text_ctime = ctime, text_end = size,
             text_tools = 1, text_whole = 1 WHERE fid = ?`,
          )
          .run(oldest);
      },
      { toolsAtOnce: true },
    );
    for (const r of index.db.q("SELECT fid, min(rid) AS first FROM lines GROUP BY fid ORDER BY first").all())
      order.push((r as { fid: number }).fid);
    // What this run wrote: not the file the other run did (a count said "new or changed" and decides on VACUUM).
    expect(done).toEqual({ text: files - 1, tools: files - 1 });
    expect(order).not.toContain(oldest);
    // The rest in the order they were listed: newest first.
    expect(order.length).toBeGreaterThan(files / 2);
    expect(order).toEqual(byAge.filter((f) => order.includes(f)));
    index.close();
  });

  it("counts the tool pass's progress from its own first file, not from the files whose tool texts came with their conversation", async () => {
    const { index, files, store } = await summarized();
    await indexStaleText(index.db, undefined, { tools: false });
    // A file new since: its tool texts indexed with its conversation (toolsAtOnce); the others' in the tool pass.
    settle(addProjectSession(store, "/srv/new", "a new one", { n: 1 }));
    await scanStore(store, {}, { cache: index.scans });
    const progress: IndexProgress[] = [];
    const done = await indexStaleText(index.db, (p) => progress.push(p), { toolsAtOnce: true });
    expect(done).toEqual({ text: 1, tools: files + 1 });
    const tools = progress.filter((p) => p.pass === "tools");
    expect(tools.map((p) => `${p.done} of ${p.total}`)).toEqual(
      Array.from({ length: files }, (_, i) => `${i + 1} of ${files}`),
    );
    index.close();
  });

  it("counts in the tool pass only the files it wrote, not one another run brought up to date meanwhile", async () => {
    const { index, files } = await summarized();
    await indexStaleText(index.db, undefined, { tools: false });
    // The file the pass reaches last (oldest, then the highest id): the first one's write waits in an open
    // batch, so its row still says text_tools = 0.
    const { last } = index.db
      .q(
        "SELECT max(fid) AS last FROM files WHERE text_tools = 0 AND mtime = (SELECT min(mtime) FROM files WHERE text_tools = 0)",
      )
      .get() as { last: number };
    const progress: number[] = [];
    const done = await indexStaleText(index.db, (p) => {
      // After the first file, another run indexes one this run has listed but not reached.
      if (progress.push(p.done) === 1) index.db.q("UPDATE files SET text_tools = 1 WHERE fid = ?").run(last);
    });
    expect(done).toEqual({ text: 0, tools: files - 1 });
    // Progress still reaches its total.
    expect(progress.at(-1)).toBe(files);
    index.close();
  });

  it("takes the same lines, states and prints from a file read in one read as from one read in chunks, across an append and a torn last line", async () => {
    const a = await summarized();
    const b = await summarized();
    const rel = (p: unknown) => String(p).slice(String(p).lastIndexOf("/sessions/"));
    const all = (x: StoreIndex) => ({
      rows: x.db
        .q("SELECT f.path AS path, l.off AS off, l.len AS len, l.tool AS tool FROM lines l JOIN files f USING (fid)")
        .all()
        .map((r) => JSON.stringify({ ...r, path: rel(r.path) }))
        .sort(),
      states: x.db
        .q("SELECT path, text_end, text_print, text_tools, text_whole FROM files WHERE summary IS NOT NULL")
        .all()
        .map((r) => JSON.stringify({ ...r, path: rel(r.path) }))
        .sort(),
      hits: ["lab", "alp", "tre", "bet", "sum"].map(
        (g) =>
          (x.db.q(`SELECT count(*) AS n FROM chat WHERE chat MATCH '"${g}"'`).get() as { n: number }).n +
          (x.db.q(`SELECT count(*) AS n FROM tools WHERE tools MATCH '"${g}"'`).get() as { n: number }).n,
      ),
    });
    // a: every file in one read (the default); b: every file in chunks (none is read in one).
    const both = async (options: { toolsAtOnce?: boolean; tools?: boolean }) => {
      await indexStaleText(a.index.db, undefined, options);
      await indexStaleText(b.index.db, undefined, { ...options, oneRead: -1 });
      expect(all(a.index)).toEqual(all(b.index));
    };
    await both({ tools: false });
    await both({});
    expect(all(a.index).hits.every((n) => n > 0)).toBe(true);
    // An append (indexed from where the index stopped), and a last line still being written.
    const files = (store: string) =>
      readdirSync(store, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
        .map((f) => join(store, f));
    for (const store of [a.store, b.store]) {
      const [one, two] = files(store);
      const last = readFileSync(one, "utf8").trimEnd().split("\n").pop()!;
      appendFileSync(one, last + "\n");
      appendFileSync(two, last.slice(0, 40));
      settle(store);
    }
    await scanStore(a.store, {}, { cache: a.index.scans });
    await scanStore(b.store, {}, { cache: b.index.scans });
    await both({ toolsAtOnce: true });
    expect(all(a.index).states.some((s) => s.includes('"text_whole":0'))).toBe(true);
    a.index.close();
    b.index.close();
  });

  it("forgets a rewritten file's text by its lines (FTS rows left behind, counted), and indexes all the text again once most rows are left behind", async () => {
    const { index, store } = await summarized();
    const db = index.db;
    await indexStaleText(db, undefined, { toolsAtOnce: true });
    const fresh = textStates(index);
    const count = (sql: string) => (db.q(sql).get() as { n: number }).n;
    const lines = () => count("SELECT count(*) AS n FROM lines");
    // The FTS rows holding common grams, naming a line or not (a contentless table without
    // its rows' sizes has no scan of every row), and those of them that name a line.
    const grams = `'"lab" OR "alp" OR "amm" OR "tre" OR "bet"'`;
    const ftsRows = () =>
      count(`SELECT count(*) AS n FROM chat WHERE chat MATCH ${grams}`) +
      count(`SELECT count(*) AS n FROM tools WHERE tools MATCH ${grams}`);
    const named = () =>
      count(`SELECT count(*) AS n FROM chat JOIN lines ON rid = chat.rowid WHERE chat MATCH ${grams}`) +
      count(`SELECT count(*) AS n FROM tools JOIN lines ON rid = tools.rowid WHERE tools MATCH ${grams}`);
    const all = lines();
    expect(ftsRows()).toBeGreaterThan(10);
    expect(ftsRows()).toBe(named());
    // Every session file rewritten shorter: its first half kept (read whole again, not as an append).
    const files = readdirSync(store, { recursive: true, encoding: "utf8" })
      .map((f) => join(store, f))
      .filter((f) => f.endsWith(".jsonl") && statSync(f).isFile());
    const [first, ...rest] = files;
    const shorten = (f: string) => {
      const l = readFileSync(f, "utf8").split("\n");
      writeFileSync(f, l.slice(0, Math.max(2, Math.ceil(l.length / 2))).join("\n") + "\n");
    };
    shorten(first);
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    const firstLines = () =>
      count(`SELECT count(*) AS n FROM lines JOIN files USING (fid) WHERE path = '${first.replace(/'/g, "''")}'`);
    const before = lines();
    await indexStaleText(db, undefined, { toolsAtOnce: true });
    // Its old lines are gone, counted as rows left in the FTS tables; they name nothing.
    expect(orphanRows(db)).toBeGreaterThan(0);
    expect(lines()).toBe(before - orphanRows(db) + firstLines());
    expect(ftsRows()).toBeGreaterThan(named());
    // Not yet most of the rows: kept as they are.
    expect(dropOrphanText(db)).toBe(false);
    for (const f of rest) shorten(f);
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(db, undefined, { toolsAtOnce: true });
    expect(orphanRows(db) * 2).toBeGreaterThan(all);
    // Most rows name nothing: all the text forgotten, the FTS tables emptied, then indexed again.
    expect(dropOrphanText(db)).toBe(true);
    expect([lines(), ftsRows(), orphanRows(db)]).toEqual([0, 0, 0]);
    await indexStaleText(db, undefined, { toolsAtOnce: true });
    expect(ftsRows()).toBe(named());
    // The same rows as an index of the shortened store built from nothing.
    const other = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    await scanStore(store, {}, { cache: other.scans });
    await indexStaleText(other.db, undefined, { toolsAtOnce: true });
    const rows = (x: StoreIndex) =>
      x.db
        .q("SELECT f.path AS path, l.off AS off, l.len AS len, l.tool AS tool FROM lines l JOIN files f USING (fid)")
        .all()
        .map((r) => JSON.stringify(r))
        .sort();
    expect(rows(index)).toEqual(rows(other));
    expect(textStates(index)).toEqual(textStates(other));
    expect(fresh.length).toBe(files.length);
    index.close();
    other.close();
  });

  it("forgets every run of a file appended to twice when it is rewritten: its lines then as a fresh index's", async () => {
    const { index, store } = await summarized();
    const db = index.db;
    const [file] = readdirSync(store, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => join(store, f));
    const original = readFileSync(file, "utf8");
    // A line with text to index (a user's message), appended as pi would append another.
    const said = original.split("\n").find((line) => line.includes('"role":"user"'))!;
    const indexNow = async (x: StoreIndex) => {
      settle(store);
      await scanStore(store, {}, { cache: x.scans });
      await indexStaleText(x.db, undefined, { toolsAtOnce: true });
    };
    await indexNow(index);
    for (let i = 0; i < 2; i++) {
      appendFileSync(file, said + "\n");
      await indexNow(index);
    }
    const fid = (x: StoreIndex) => (x.db.q("SELECT fid FROM files WHERE path = ?").get(file) as { fid: number }).fid;
    // Three writes of its lines: three runs.
    expect((db.q("SELECT count(*) AS n FROM runs WHERE fid = ?").get(fid(index)) as { n: number }).n).toBe(3);
    // Rewritten shorter, its first half kept: read whole again, not as an append.
    const l = original.split("\n");
    writeFileSync(file, l.slice(0, Math.max(2, Math.ceil(l.length / 2))).join("\n") + "\n");
    await indexNow(index);
    const fresh = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    await indexNow(fresh);
    const lines = (x: StoreIndex) =>
      x.db.q("SELECT off, len, tool FROM lines WHERE fid = ? ORDER BY off, tool").all(fid(x));
    expect(lines(fresh).length).toBeGreaterThan(0);
    expect(lines(index)).toEqual(lines(fresh));
    index.close();
    fresh.close();
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

  it("stops a run whose text states were read before another process dropped all the text, and never marks a file whole from its appended lines alone", async () => {
    const store = makeTmpDir();
    const file = addProjectSession(store, "/srv/p", "the zebraword is here", { n: 1 });
    settle(store);
    const path = join(makeTmpDir(), "index.sqlite");
    const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    await scanStore(store, {}, { cache: index.scans });
    await indexStaleText(index.db);
    const later = { type: "message", id: "u2", parentId: "a1", timestamp: "2026-11-21T07:00:05.000Z" };
    appendFileSync(
      file,
      JSON.stringify({ ...later, message: { role: "user", content: "later words", timestamp: 2 } }) + "\n",
    );
    settle(store);
    await scanStore(store, {}, { cache: index.scans });
    // This run reads where the file's text ends (an append from there)...
    const batch = new WriteBatch(index.db);
    const [row] = staleTextFiles(index.db);
    expect(row.text_end).toBeGreaterThan(0);
    // ...then another process drops all the text (most of the FTS rows left behind).
    const other = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    other.db.setMeta("fts_orphans", "1000000");
    expect(dropOrphanText(other.db)).toBe(true);
    other.close();
    await expect(indexFileText(index.db, row, "new", { batch })).rejects.toBeInstanceOf(TextDropped);
    // Nothing written: the file is still to be indexed, and then whole, from its first byte.
    expect(staleTextFiles(index.db)).toHaveLength(1);
    await indexStaleText(index.db);
    const zebra = index.db
      .q(`SELECT count(*) AS n FROM chat JOIN lines ON rid = chat.rowid WHERE chat MATCH '"zeb" AND "bra" AND "wor"'`)
      .get() as { n: number };
    expect(zebra.n).toBe(1);
    index.close();
  });

  it("gives no line id twice, across a drop of all the text (a search's FTS rowids never name another line)", async () => {
    const { index } = await summarized();
    const db = index.db;
    await indexStaleText(db);
    const top = () => (db.q("SELECT max(rid) AS m FROM lines").get() as { m: number }).m;
    const before = top();
    db.setMeta("fts_orphans", "1000000");
    expect(dropOrphanText(db)).toBe(true);
    await indexStaleText(db);
    expect((db.q("SELECT min(rid) AS m FROM lines").get() as { m: number }).m).toBeGreaterThan(before);
    // Counted from the drop: the rows written since are not "most of them left behind".
    expect(dropOrphanText(db)).toBe(false);
    index.close();
  });

  it("keeps each file's print as 22 characters (132 bits of its hash), and tells changed bytes apart", () => {
    const path = join(makeTmpDir(), "a.jsonl");
    const printOf = (text: string, end = text.length) => {
      writeFileSync(path, text);
      const fd = openSync(path, "r");
      try {
        return readPrint(fd, end);
      } finally {
        closeSync(fd);
      }
    };
    const small = printOf("one\ntwo\n");
    const large = printOf("x".repeat(200_000) + "\n");
    for (const p of [small, large]) expect(p).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(printOf("one\ntwo\n")).toBe(small);
    expect(printOf("one\ntwX\n")).not.toBe(small);
    expect(printOf("one\ntwo\n", 4)).not.toBe(small);
  });

  it("prints bytes already read as it prints them read from the file, small or sampled, whole or a prefix", () => {
    const path = join(makeTmpDir(), "b.jsonl");
    const bytes = Buffer.from(
      Array.from({ length: 300_000 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join(""),
    );
    writeFileSync(path, bytes);
    const fd = openSync(path, "r");
    try {
      for (const end of [0, 9, 65_536, 65_537, 120_001, 300_000])
        expect(bufferPrint(bytes, end)).toBe(readPrint(fd, end));
    } finally {
      closeSync(fd);
    }
  });
});
