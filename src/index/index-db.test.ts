import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { openIndex, SCHEMA_VERSION } from "./index-db.js";
import { indexPathFor, indexWanted } from "./index-location.js";
import { openStoreIndex } from "./store-index.js";
import { indexStaleText } from "./text-index.js";

afterEach(() => cleanupTmp());

/** A built index of a copy of the pi 0.73.1 store: [store, index file]. */
async function builtIndex(): Promise<[string, string]> {
  const store = copyStore(PI_STORE);
  const path = join(makeTmpDir(), "index.sqlite");
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  await scanStore(store, {}, { cache: index.scans });
  await indexStaleText(index.db);
  index.close();
  return [store, path];
}

/** Sessions listed through whatever is at `path` now, and what was said about it. */
async function listThrough(store: string, path: string) {
  const said: string[] = [];
  const index = openStoreIndex(store, (m) => said.push(m), { path });
  const { sessions } = await scanStore(store, {}, { cache: index?.scans });
  index?.close();
  return { count: sessions.length, said, used: index !== undefined };
}

describe("a persistent index that is only ever a cache", () => {
  it("is rebuilt, with one line said, when its file is garbage", async () => {
    const [store, path] = await builtIndex();
    const want = (await scanStore(store)).sessions.length;
    writeFileSync(path, "this is not a database ".repeat(500));
    rmSync(path + "-wal", { force: true });
    const r = await listThrough(store, path);
    expect(r.count).toBe(want);
    // Rebuilt at once: no complaint, and a real database again.
    expect(r.used).toBe(true);
    expect(readFileSync(path).subarray(0, 15).toString()).toBe("SQLite format 3");
  });

  it("is never trusted when truncated: the listing is complete whatever is left of it", async () => {
    const [store, path] = await builtIndex();
    const want = (await scanStore(store)).sessions.length;
    for (const keep of [0, 100, 4096, 9000]) {
      truncateSync(path, keep);
      rmSync(path + "-wal", { force: true });
      rmSync(path + "-shm", { force: true });
      const r = await listThrough(store, path);
      expect({ keep, count: r.count }).toEqual({ keep, count: want });
    }
  });

  it("is left alone, and not used, when a newer pi-sessions wrote it", async () => {
    const [store, path] = await builtIndex();
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const r = await listThrough(store, path);
    expect(r.used).toBe(false);
    expect(r.said.join("\n")).toMatch(/newer pi-sessions/);
    expect(r.count).toBe((await scanStore(store)).sessions.length);
    // Still the newer one's: not dropped.
    const again = new DatabaseSync(path);
    expect((again.prepare("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(
      SCHEMA_VERSION + 1,
    );
    again.close();
  });

  /**
   * An index built, then made as an earlier format left it (`older`: SQL), then opened by a
   * list: it is used, with nothing said, and is of this format again. Its tables, to check.
   */
  async function rebuiltFrom(older: string) {
    const [store, path] = await builtIndex();
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path);
    db.exec(older);
    db.close();
    expect(await listThrough(store, path)).toMatchObject({ used: true, said: [] });
    const again = new DatabaseSync(path);
    const one = (sql: string) => again.prepare(sql).get() as Record<string, unknown>;
    expect(one("PRAGMA user_version")).toEqual({ user_version: SCHEMA_VERSION });
    return { one, close: () => again.close() };
  }

  it("is built again, not believed, when an earlier format wrote it (format 5: FTS rows with their sizes)", async () => {
    // As format 5 left it: its text indexed, its FTS tables keeping each row's size.
    const { one, close } = await rebuiltFrom(`DROP TABLE chat; CREATE VIRTUAL TABLE chat USING fts5(
      t, content='', contentless_delete=1, tokenize='trigram', detail=none); PRAGMA user_version = 5`);
    expect(String(one("SELECT sql FROM sqlite_master WHERE name = 'chat'").sql)).toMatch(/columnsize=0/);
    // None of its text believed: every file's text is to be indexed again.
    expect(one("SELECT count(*) AS n FROM lines")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM files WHERE text_size IS NOT NULL")).toEqual({ n: 0 });
    close();
  });

  it("is built again, not believed, when format 6 wrote it (each file's print as 64 hex characters)", async () => {
    // As format 6 left it: each file's text indexed, its print 64 hex characters.
    const { one, close } =
      await rebuiltFrom(`UPDATE files SET text_ino = ino, text_size = size, text_mtime = mtime, text_ctime = ctime,
      text_end = size, text_print = lower(hex(randomblob(32))); PRAGMA user_version = 6`);
    expect(one("SELECT count(*) AS n FROM lines")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM files WHERE text_print IS NOT NULL")).toEqual({ n: 0 });
    close();
  });

  it("is built again, not believed, when format 7 wrote it (a file's lines found by an index on lines(fid), no runs)", async () => {
    // As format 7 left it: each file's text indexed, its lines found by lines_fid, no runs table.
    const { one, close } = await rebuiltFrom(`DROP TABLE runs; CREATE INDEX lines_fid ON lines(fid);
      INSERT INTO lines(fid, off, len, tool) SELECT fid, 0, 1, 0 FROM files;
      UPDATE files SET text_ino = ino, text_size = size, text_mtime = mtime, text_ctime = ctime,
      text_end = size, text_whole = 1, text_tools = 1; PRAGMA user_version = 7`);
    expect(one("SELECT count(*) AS n FROM lines")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM sqlite_master WHERE name = 'runs'")).toEqual({ n: 1 });
    expect(one("SELECT count(*) AS n FROM sqlite_master WHERE name = 'lines_fid'")).toEqual({ n: 0 });
    expect(one("SELECT count(*) AS n FROM files WHERE text_size IS NOT NULL OR text_end IS NOT NULL")).toEqual({
      n: 0,
    });
    close();
  });

  it("drops the answers table earlier builds of this format kept in it (answers are files now)", async () => {
    const [store, path] = await builtIndex();
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path);
    db.exec("CREATE TABLE answers(key TEXT PRIMARY KEY, out BLOB)");
    db.close();
    const r = await listThrough(store, path);
    expect(r).toMatchObject({ used: true, said: [] });
    const again = new DatabaseSync(path);
    expect(again.prepare("SELECT name FROM sqlite_master WHERE name = 'answers'").get()).toBeUndefined();
    again.close();
  });

  it("has a text generation that changes with every write of a file's text state (any writer), and only then", async () => {
    const [, path] = await builtIndex();
    const opened = openIndex(path);
    if (!("db" in opened)) throw new Error(opened.problem);
    opened.db.close();
    const { DatabaseSync } = await import("node:sqlite");
    // A plain connection, as an older build writing to this index would be.
    const db = new DatabaseSync(path);
    const gen = () => (db.prepare("SELECT value FROM meta WHERE key = 'text_gen'").get() as { value: string }).value;
    const { fid } = db.prepare("SELECT fid FROM files LIMIT 1").get() as { fid: number };
    const seen = new Set([gen()]);
    const changes = (sql: string) => {
      db.prepare(sql).run(fid);
      const g = gen();
      const changed = !seen.has(g);
      seen.add(g);
      return changed;
    };
    expect(changes("UPDATE files SET summary = summary WHERE fid = ?")).toBe(false);
    expect(changes("UPDATE files SET size = size WHERE fid = ?")).toBe(false);
    for (const col of ["text_size", "text_mtime", "text_ino", "text_end", "text_whole", "text_tools", "path"])
      expect({ col, changed: changes(`UPDATE files SET ${col} = ${col} WHERE fid = ?`) }).toEqual({
        col,
        changed: true,
      });
    expect(changes("UPDATE files SET fid = fid + 1000 WHERE fid = ?")).toBe(true);
    expect(changes("DELETE FROM files WHERE fid = ? + 1000")).toBe(true);
    expect(changes("INSERT INTO files(fid, path) VALUES(?, 'x')")).toBe(true);
    db.close();
  });

  it.skipIf(process.getuid?.() === 0)("goes without, with one line, when its folder is read-only", async () => {
    const store = copyStore(PI_STORE);
    const dir = join(makeTmpDir(), "ro");
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    try {
      const r = await listThrough(store, join(dir, "index.sqlite"));
      expect(r.used).toBe(false);
      expect(r.said).toHaveLength(1);
      expect(r.count).toBe((await scanStore(store)).sessions.length);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it("goes without when it is a folder (unopenable), and says so once", async () => {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    mkdirSync(path);
    const r = await listThrough(store, path);
    expect(r.used).toBe(false);
    expect(r.said).toHaveLength(1);
    expect(r.count).toBe((await scanStore(store)).sessions.length);
  });

  it("lives in the user's cache folder, one file per store, and PI_SESSIONS_INDEX=0 turns it off", () => {
    const env = { PI_SESSIONS_CACHE_DIR: "/c" };
    const a = indexPathFor("/stores/a", env)!;
    expect(a.startsWith(join("/c", "index"))).toBe(true);
    expect(indexPathFor("/stores/b", env)).not.toBe(a);
    expect(indexPathFor("/stores/a/", env)).toBe(a);
    // A store reached through a symlink has an index of its own: the index keeps files by
    // their paths, and one index for both spellings lost its text at every switch.
    const real = makeTmpDir();
    const link = join(makeTmpDir(), "link");
    symlinkSync(real, link);
    expect(indexPathFor(link, env)).not.toBe(indexPathFor(real, env));
    expect(indexPathFor("/s", { XDG_CACHE_HOME: "/x" })!.startsWith(join("/x", "pi-sessions", "index"))).toBe(true);
    expect(indexWanted({ PI_SESSIONS_INDEX: "0" })).toBe(false);
    expect(indexWanted({})).toBe(true);
    expect(openStoreIndex("/stores/a", () => expect.fail(), { env: { ...env, PI_SESSIONS_INDEX: "0" } })).toBe(
      undefined,
    );
  });

  it("keeps its file private to the user", async () => {
    const path = join(makeTmpDir(), "deep", "index.sqlite");
    const r = openIndex(path);
    if ("problem" in r) expect.fail(r.problem);
    r.db.close();
    expect(existsSync(path)).toBe(true);
    const { statSync } = await import("node:fs");
    expect(statSync(path).mode & 0o077).toBe(0);
  });
});
