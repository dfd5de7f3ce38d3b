import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import type { DatabaseSync, DatabaseSyncOptions } from "node:sqlite";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { userLine } from "../../test/helpers/session-file.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { loadSqlite } from "../index/load-sqlite.js";
import { openStoreIndex } from "../index/store-index.js";
import { allSessionsTieBreak, sortSessions } from "../search/sort.js";
import type { SessionSummary } from "../model/types.js";
import { scanStore } from "./scan-store.js";
import { bodyGen, fromRecord, newestInSnapshot } from "./snapshot-first.js";
import { FIRST_CHUNK_ID, LAYOUT } from "../index/snapshot-codec.js";
import { NEWEST_FORMAT, NEWEST_ID, type NewestRecord } from "../index/newest-rows.js";
import { holdSnapshotLoads, SnapshotHere } from "./snapshot-here.js";

afterEach(() => cleanupTmp());

/** The store scanned through a new index (its snapshot written); the sessions. */
async function indexed(store: string, path: string): Promise<SessionSummary[]> {
  // Files just copied or written are read again at every run ("racy"): their rows never hold.
  settle(store);
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  const r = await scanStore(store, {}, { cache: index.scans });
  index.scans.writeSnapshot();
  index.close();
  return r.sessions;
}

/** An indexed copy of the store: its first two rows, its index open, and the record's text. */
async function withRecord() {
  const store = copyStore(PI_STORE);
  const path = join(makeTmpDir(), "index.sqlite");
  await indexed(store, path);
  const before = newestInSnapshot(path, 2)!;
  const db = new (loadSqlite().DatabaseSync)(path);
  const row = db.prepare("SELECT body FROM snapshot WHERE id = ?").get(NEWEST_ID) as { body: Uint8Array };
  return { store, path, before, db, text: Buffer.from(row.body).toString("latin1") };
}

/** The snapshot's record of its newest rows deleted, as a snapshot an earlier build wrote has none. */
function dropRecord(path: string): void {
  const db = new (loadSqlite().DatabaseSync)(path);
  db.prepare("DELETE FROM snapshot WHERE id = ?").run(NEWEST_ID);
  db.close();
}

const newestFirst = (store: string, list: readonly SessionSummary[]) =>
  sortSessions(list, "recent", allSessionsTieBreak(store, list)).map((s) => s.path);

describe("--all's first rows out of the index's snapshot", () => {
  it("are the rows the whole list puts first, with what a row shows", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    expect(all.length).toBeGreaterThan(3);
    for (const count of [1, 2, 3, all.length]) {
      const first = newestInSnapshot(path, count)!;
      expect(first.length).toBeGreaterThanOrEqual(count);
      expect(newestFirst(store, first).slice(0, count)).toEqual(newestFirst(store, all).slice(0, count));
      for (const s of first) {
        const whole = all.find((x) => x.path === s.path)!;
        for (const k of ["id", "cwd", "name", "firstMessage", "messageCount", "bytes", "mtimeMs"] as const)
          expect(s[k]).toEqual(whole[k]);
        expect(s.modified.getTime()).toBe(whole.modified.getTime());
        expect(s.created.getTime()).toBe(whole.created.getTime());
      }
    }
  });

  it("are none when one of their files changed or went since (the index is a cache)", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    const newest = newestFirst(store, all)[0];
    appendFileSync(newest, "\n");
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    // Read again: its row holds again.
    await indexed(store, path);
    expect(newestInSnapshot(path, 2)).toBeDefined();
    // A store of fewer sessions than asked for, of the record or of the whole snapshot: none
    // (its whole list is as near); each asks its own.
    expect(newestInSnapshot(path, 2, { record: 1000 })).toBeUndefined();
    expect(newestInSnapshot(path, 2, { record: 3, whole: 1000 })).toBeDefined();
    const whole = join(makeTmpDir(), "whole.sqlite");
    copyFileSync(path, whole);
    dropRecord(whole);
    expect(newestInSnapshot(whole, 2, { record: 0, whole: 1000 })).toBeUndefined();
    expect(newestInSnapshot(whole, 2, { record: 1000, whole: 3 })).toBeDefined();
    rmSync(newestFirst(store, all)[1]);
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    expect(newestInSnapshot(join(makeTmpDir(), "none.sqlite"), 2)).toBeUndefined();
  });

  it("lend what they read to the scan's SnapshotHere, which waits for them to be drawn (no record of the newest rows)", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    await indexed(store, path);
    dropRecord(path);
    const release = holdSnapshotLoads();
    const here = new SnapshotHere(path);
    let loaded = false;
    const load = here.load.bind(here);
    here.load = () => {
      loaded = true;
      load();
    };
    here.loadWhenIdle(() => false);
    await new Promise((r) => setTimeout(r, 20));
    expect(loaded).toBe(false);
    expect(newestInSnapshot(path, 1)).toBeDefined();
    // What was read is lent: the index gone, the summaries are still made from it.
    rmSync(path);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(loaded).toBe(true);
    const gen = (here as unknown as { read: { gen: string } }).read.gen;
    expect(here.rows(gen, [0])).toHaveLength(1);
  });
});

describe("--all's first rows out of the record of the snapshot's newest rows", () => {
  it("are read out of the record alone: the same rows as out of the whole snapshot", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    const whole = join(makeTmpDir(), "whole.sqlite");
    copyFileSync(path, whole);
    dropRecord(whole);
    for (const count of [1, 2, 3, all.length]) {
      const first = newestInSnapshot(path, count)!;
      const fromWhole = newestInSnapshot(whole, count)!;
      expect(first.map((s) => s.path)).toEqual(fromWhole.map((s) => s.path));
      expect(first).toEqual(fromWhole);
    }
    // Every column gone (the body's head kept): the record alone still gives the rows, the whole snapshot none.
    for (const p of [path, whole]) {
      const db = new (loadSqlite().DatabaseSync)(p);
      db.prepare("DELETE FROM snapshot WHERE id >= ?").run(FIRST_CHUNK_ID);
      db.close();
    }
    expect(newestInSnapshot(path, 2)?.length).toBeGreaterThanOrEqual(2);
    expect(newestInSnapshot(whole, 2)).toBeUndefined();
  });

  it("are read out of the whole snapshot when the record is of another (an earlier build wrote the snapshot since)", async () => {
    const { store, path, before, db, text } = await withRecord();
    const gen = text.slice(0, text.indexOf("\n"));
    // Another generation, and a row that is no session of the store: never shown.
    const other = JSON.parse(text.slice(gen.length + 1)) as NewestRecord;
    other.gen = "other";
    other.rows[0].path = join(store, "gone.jsonl");
    db.prepare("UPDATE snapshot SET body = ? WHERE id = ?").run(
      Buffer.from(`other\n${JSON.stringify(other)}`),
      NEWEST_ID,
    );
    db.close();
    expect(newestInSnapshot(path, 2)).toEqual(before);
  });

  it("cannot tell when the screen is taller than the record, or rows of the threshold's time were left out of it", () => {
    const row = (i: number, modified: number) => ({
      i,
      path: `/s/${i}.jsonl`,
      ino: i,
      size: 1,
      mtime: modified,
      ctime: modified,
      row: { path: `/s/${i}.jsonl`, modified },
    });
    const record: NewestRecord = { gen: "g", n: 10, rows: [row(3, 30), row(1, 20), row(2, 10)], next: 5 };
    expect(fromRecord(record, 4)).toBe("whole");
    expect(fromRecord({ ...record, next: 10 }, 3)).toBe("whole");
    expect(fromRecord({ ...record, next: 20 }, 2)).toBe("whole");
    expect(fromRecord(record, 0)).toBeUndefined();
    // Its rows checked against their files: these are none.
    expect(fromRecord(record, 2)).toBeUndefined();
  });

  it("are the whole snapshot's rows for every count, in a store of more sessions than the record holds, with tied times", async () => {
    const store = makeTmpDir();
    const at = (minute: number) => new Date(Date.parse("2026-11-21T07:00:00Z") + minute * 60_000).toISOString();
    const files: string[] = [];
    for (let i = 0; i < 300; i++) {
      const dir = join(store, `--p${i % 3}--`);
      mkdirSync(dir, { recursive: true });
      const id = `01a1fcb4-0000-7000-8000-${String(i).padStart(12, "0")}`;
      // Two of every three rows share a time: ties at the record's cut (its 256th row) and about.
      const t = at(Math.floor((i * 2) / 3));
      const lines = [
        { type: "session", version: 3, id, timestamp: t, cwd: `/p${i % 3}` },
        {
          type: "message",
          id: "u1",
          parentId: null,
          timestamp: t,
          message: { role: "user", content: `q${i}`, timestamp: Date.parse(t) },
        },
      ];
      const path = join(dir, `${t.replace(/[:.]/g, "-")}_${id}.jsonl`);
      writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      files.push(path);
    }
    // A few copies under other names: the same times, ties broken by the list's own order.
    for (const k of [0, 100, 299]) copyFileSync(files[k], join(store, "--p0--", `copy-${k}.jsonl`));
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    expect(all).toHaveLength(303);
    const whole = join(makeTmpDir(), "whole.sqlite");
    copyFileSync(path, whole);
    dropRecord(whole);
    for (let count = 1; count <= 303; count++) {
      const first = newestInSnapshot(path, count)!;
      expect(first).toEqual(newestInSnapshot(whole, count));
      expect(first).toBeDefined();
      expect(newestFirst(store, first).slice(0, count)).toEqual(newestFirst(store, all).slice(0, count));
    }
  });

  it("are not believed when the snapshot's body says another layout or generation (a build before this layout wrote only the body)", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    await indexed(store, path);
    expect(newestInSnapshot(path, 2)).toBeDefined();
    const db = new (loadSqlite().DatabaseSync)(path);
    const body = Buffer.from((db.prepare("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body);
    const setBody = (b: Buffer) => db.prepare("UPDATE snapshot SET body = ? WHERE id = 1").run(b);
    // The whole snapshot is not read either (its layout or generation is not its columns'): none.
    setBody(Buffer.from(body.toString("latin1").replace(LAYOUT, "snapshot 99 "), "latin1"));
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    const gen = bodyGen(body)!;
    setBody(
      Buffer.from(body.toString("latin1").replace(`"gen":"${gen}"`, `"gen":"${"z".repeat(gen.length)}"`), "latin1"),
    );
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    setBody(body);
    db.close();
    expect(newestInSnapshot(path, 2)).toBeDefined();
  });

  it("are read out of the whole snapshot when the record is of another format", async () => {
    const { store, path, before, db, text } = await withRecord();
    const head = text.slice(0, text.indexOf("\n") + 1);
    // A row that is no session of the store: believed, no first rows; of another format, not believed.
    const other = JSON.parse(text.slice(head.length)) as NewestRecord;
    other.rows[0].path = join(store, "gone.jsonl");
    const put = (h: string) =>
      db.prepare("UPDATE snapshot SET body = ? WHERE id = ?").run(Buffer.from(h + JSON.stringify(other)), NEWEST_ID);
    put(head);
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    put(head.replace(NEWEST_FORMAT, "newest 0 "));
    db.close();
    expect(newestInSnapshot(path, 2)).toEqual(before);
  });

  it("are not written again by a scan that changes nothing when the snapshot has none (an earlier build wrote it), but by the next snapshot written", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    dropRecord(path);
    const hasRecord = () => {
      const db = new (loadSqlite().DatabaseSync)(path);
      const r = db.prepare("SELECT id FROM snapshot WHERE id = ?").get(NEWEST_ID);
      db.close();
      return r !== undefined;
    };
    const rescan = async (worker: boolean) => {
      const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
      index.scans.holdSnapshot = worker;
      // As the scan worker does: the kept rows taken as the snapshot's (keptRows).
      await scanStore(store, { onKeptRows: () => {} }, { cache: index.scans });
      if (worker) index.scans.writeSnapshot();
      index.close();
    };
    // A whole snapshot rewritten for its record alone peaked at 656 MB at 50,000 sessions.
    await rescan(false);
    await rescan(true);
    expect(hasRecord()).toBe(false);
    expect(newestInSnapshot(path, 2)).toBeDefined();
    appendFileSync(all[0].path, userLine("u-again", "again"));
    settle(store);
    await rescan(true);
    expect(hasRecord()).toBe(true);
  });
});

describe("the index read for the record", () => {
  it("is opened read-only, a WAL index whose -shm is absent too", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    await indexed(store, path);
    expect(existsSync(`${path}-shm`)).toBe(false);
    const sqlite = loadSqlite() as { DatabaseSync: unknown };
    const Real = sqlite.DatabaseSync as typeof DatabaseSync;
    const opened: unknown[] = [];
    sqlite.DatabaseSync = class extends Real {
      constructor(p: string, o?: DatabaseSyncOptions) {
        opened.push(o);
        super(p, o);
      }
    };
    try {
      expect(newestInSnapshot(path, 2)?.length).toBeGreaterThanOrEqual(2);
    } finally {
      sqlite.DatabaseSync = Real;
    }
    expect(opened).toEqual([expect.objectContaining({ readOnly: true })]);
  });
});

describe("a damaged snapshot", () => {
  it.each([
    ["the record of the newest rows (as none: the whole snapshot is read)", true],
    ["a column (no record)", false],
  ])("gives no first rows from it rather than throwing (the index is a cache): %s", async (_, record) => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
    if (!record) dropRecord(path);
    const newest = all.find((s) => s.path === newestFirst(store, all)[0])!;
    expect(newestInSnapshot(path, 2)).toBeDefined();
    // One byte of the firstMessage column changed, same length: its JSON no longer parses.
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(path);
    // The column's strings are ASCII, the rest written as \uXXXX.
    const key = JSON.stringify(newest.firstMessage).replace(
      /[\u007f-\uffff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
    );
    const rows = db.prepare("SELECT id, body FROM snapshot").all() as { id: number; body: Uint8Array }[];
    const chunk = rows.find((r) => Buffer.from(r.body).includes(key))!;
    expect(chunk.id === NEWEST_ID).toBe(record);
    const body = Buffer.from(chunk.body);
    body[body.indexOf(key)] = 0x7b;
    db.prepare("UPDATE snapshot SET body = ? WHERE id = ?").run(body, chunk.id);
    db.close();
    if (!record) expect(newestInSnapshot(path, 2)).toBeUndefined();
    else {
      const whole = join(makeTmpDir(), "whole.sqlite");
      copyFileSync(path, whole);
      dropRecord(whole);
      expect(newestInSnapshot(whole, 2)).toBeDefined();
      expect(newestInSnapshot(path, 2)).toEqual(newestInSnapshot(whole, 2));
    }
  });
});
