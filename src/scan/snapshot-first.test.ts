import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { loadSqlite } from "../index/load-sqlite.js";
import { openStoreIndex } from "../index/store-index.js";
import { allSessionsTieBreak, sortSessions } from "../search/sort.js";
import type { SessionSummary } from "../model/types.js";
import { scanStore } from "./scan-store.js";
import { newestInSnapshot } from "./snapshot-first.js";
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
    // A store of fewer sessions than asked for: none (its whole list is as near).
    expect(newestInSnapshot(path, 2, 1000)).toBeUndefined();
    expect(newestInSnapshot(path, 2, 3)).toBeDefined();
    rmSync(newestFirst(store, all)[1]);
    expect(newestInSnapshot(path, 2)).toBeUndefined();
    expect(newestInSnapshot(join(makeTmpDir(), "none.sqlite"), 2)).toBeUndefined();
  });

  it("lend what they read to the scan's SnapshotHere, which waits for them to be drawn", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    await indexed(store, path);
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

describe("a damaged snapshot", () => {
  it("gives no first rows rather than throwing (the index is a cache)", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const all = await indexed(store, path);
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
    expect(chunk).toBeDefined();
    const body = Buffer.from(chunk.body);
    body[body.indexOf(key)] = 0x7b;
    db.prepare("UPDATE snapshot SET body = ? WHERE id = ?").run(body, chunk.id);
    db.close();
    expect(newestInSnapshot(path, 2)).toBeUndefined();
  });
});
