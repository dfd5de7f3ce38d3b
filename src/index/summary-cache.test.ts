import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { collectGarbage } from "../cli/common/collect-garbage.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../test/helpers/tmp-store.js";
import { scanStore } from "../scan/scan-store.js";
import { discoverFiles } from "../store/discover.js";
import { readIsRacy } from "../store/file-identity.js";
import { readChunksKept } from "../store/line-reader.js";
import { scanSessionFile } from "../store/scan-file.js";
import { decodeIdentities, FIRST_CHUNK_ID } from "./snapshot-codec.js";
import { openStoreIndex } from "./store-index.js";
import { HOLD_ROWS_MS } from "./summary-cache.js";
import { listPieces } from "../model/summary-json.js";
import type { SessionSummary } from "../model/types.js";
import { SnapshotBuilder } from "./snapshot-builder.js";
import { runCli } from "../../test/helpers/cli.js";

afterEach(() => cleanupTmp());

/** A copy of the pi 0.73.1 store and its index, filled on this thread (snapshot written). */
async function filled() {
  const store = copyStore(PI_STORE);
  settle(store);
  const path = join(makeTmpDir(), "index.sqlite");
  const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
  await scanStore(store, {}, { cache: index.scans });
  index.close();
  return { store, open: () => openStoreIndex(store, (m) => expect.fail(m), { path })! };
}

describe("a command's first scan, folded as it reads (foldAsRead)", () => {
  it("holds no summary it read, and writes the snapshot one made of them all at the end would be", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const texts = (p: readonly Uint8Array[] | undefined) => p?.map((x) => Buffer.from(x).toString());
    const run = async (fold: boolean) => {
      const path = join(makeTmpDir(), "index.sqlite");
      const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
      index.scans.foldAsRead = fold;
      const refs: Array<WeakRef<SessionSummary>> = [];
      // What `list --json` holds of each: what lineage needs; its text is the index's (listPieces).
      const hold = (s: SessionSummary) => {
        refs.push(new WeakRef(s));
        return index.scans.holdFolded(s, (x) => ({
          path: x.path,
          parentSessionPath: x.parentSessionPath,
          lineage: x.lineage,
        }));
      };
      const { sessions } = await scanStore(
        store,
        {},
        { cache: index.scans, hold: hold as (s: SessionSummary) => SessionSummary },
      );
      await new Promise((r) => setImmediate(r));
      collectGarbage();
      const alive = refs.filter((r) => r.deref() !== undefined).length;
      const pieces = new Map(sessions.map((s) => [s.path, texts(index.scans.listPieces(s))]));
      index.close();
      // The next run's: every file from the snapshot, as the summaries and list text it holds.
      const again = openStoreIndex(store, (m) => expect.fail(m), { path })!;
      const { files } = await discoverFiles(store);
      const kept = [...again.scans.lookup(files)].sort(([a], [b]) => (a < b ? -1 : 1));
      const keptPieces = kept.map(([, k]) => (k.kind === "session" ? texts(again.scans.listPieces(k.summary)) : null));
      again.close();
      return { alive, read: refs.length, pieces, kept, keptPieces };
    };
    const held = await run(false);
    const folded = await run(true);
    expect(folded.read).toBeGreaterThan(2);
    // Without it, every summary read is held as long as the index is open (the snapshot made of them); with it, none.
    expect(held.alive).toBe(held.read);
    expect(folded.alive).toBe(0);
    expect(folded.kept).toStrictEqual(held.kept);
    expect(folded.keptPieces).toStrictEqual(held.keptPieces);
    expect(folded.kept.length).toBeGreaterThanOrEqual(folded.read);
    // The rows the scan held give each session's list text, as its summary makes it.
    for (const [path, kept] of held.kept) {
      if (kept.kind !== "session") continue;
      expect(folded.pieces.get(path)).toEqual(listPieces(kept.summary));
    }
  });
});

describe("the snapshot a command's scan folded, written", () => {
  it("lets go of the read chunks kept for the next reads (the scan is over)", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const scan = async (fold: boolean) => {
      const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
      index.scans.foldAsRead = fold;
      await scanStore(store, {}, { cache: index.scans });
      const kept = readChunksKept();
      const written = index.db.q("SELECT body FROM snapshot WHERE id = 1").get() !== undefined;
      index.close();
      return { kept, written };
    };
    // Written unfolded (a snapshot made again from its entries), the scan's chunks stay kept.
    const unfolded = await scan(false);
    expect(unfolded.written).toBe(true);
    expect(unfolded.kept).toBeGreaterThan(0);
    expect(await scan(true)).toEqual({ kept: 0, written: true });
  });
});

describe("a fold that fails", () => {
  it("leaves the index for this run (one line said), and the command answers from the files", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const off = await runCli(["list", "--json", "--session-dir", store], { env: { PI_SESSIONS_INDEX: "0" } });
    expect(off.code).toBe(0);
    // The third summary folded in throws (a bug, or memory short while its pieces are made).
    let calls = 0;
    const add = SnapshotBuilder.prototype.add;
    const spy = vi.spyOn(SnapshotBuilder.prototype, "add").mockImplementation(function (this: SnapshotBuilder, e) {
      if (++calls === 3) throw new Error("fold broke");
      return add.call(this, e);
    });
    try {
      const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
      const r = await runCli(["list", "--json", "--session-dir", store], { env });
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(r.stderr).toContain("index not used from here on: fold broke");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(off.stdout);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("release", () => {
  it("lets go of every summary the scan kept, its rows written, the index then left alone", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const path = join(makeTmpDir(), "index.sqlite");
    const held = async (release: boolean) => {
      const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
      const ref = new WeakRef((await scanStore(store, {}, { cache: index.scans })).sessions[0]);
      if (release) index.scans.release();
      await new Promise((r) => setImmediate(r));
      collectGarbage();
      const alive = ref.deref() !== undefined;
      expect(index.scans.failed).toBe(release);
      index.close();
      return alive;
    };
    // Without it, the cache holds the scan's summaries as long as the index is open.
    rmSync(path, { force: true });
    expect(await held(false)).toBe(true);
    rmSync(path, { force: true });
    expect(await held(true)).toBe(false);
    // What it wrote is there: the next run reads every file from the index.
    const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    const { files } = await discoverFiles(store);
    expect(index.scans.lookup(files).size).toBe(files.length);
    index.close();
  });
});

describe("the snapshot's columns, a row each", () => {
  it("are believed only all there: a row too many or too few, and the files are read again; the next snapshot leaves none extra", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const chunkIds = (index: ReturnType<typeof open>) =>
      (
        index.db.q("SELECT id FROM snapshot WHERE id >= ? ORDER BY id").all(FIRST_CHUNK_ID) as Array<{ id: number }>
      ).map((r) => r.id);
    let index = open();
    const ids = chunkIds(index);
    expect(ids.length).toBeGreaterThan(5);
    expect(ids).toEqual(ids.map((_, k) => FIRST_CHUNK_ID + k));
    expect(index.scans.lookup(files).size).toBe(files.length);
    index.close();
    // A row left by an earlier snapshot with one more key.
    index = open();
    const extra = FIRST_CHUNK_ID + ids.length;
    index.db.q("INSERT INTO snapshot(id, body) VALUES(?, ?)").run(extra, "x\n[]");
    expect(index.scans.lookup(files).size).toBe(0);
    index.close();
    // Read again and written anew: the extra row is gone, the snapshot whole again.
    index = open();
    await scanStore(store, {}, { cache: index.scans });
    expect(chunkIds(index)).toEqual(ids);
    index.close();
    index = open();
    expect(index.scans.lookup(files).size).toBe(files.length);
    // One missing.
    index.db.q("DELETE FROM snapshot WHERE id = ?").run(ids[2]);
    index.close();
    index = open();
    expect(index.scans.lookup(files).size).toBe(0);
    index.close();
  });
});

describe("the index's scan cache, its kept rows told from the snapshot's identities (a scan worker's way)", () => {
  it("tells the rows still true from the identities alone; a file gone is forgotten, one changed is to read", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const [gone, changed] = files;
    rmSync(gone.path);
    const now = files.slice(1).map((f) => (f === changed ? { ...f, mtimeMs: f.mtimeMs + 1 } : f));
    const index = open();
    const kept = index.scans.keptRows(now)!;
    const { gen } = decodeIdentities(
      (index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body,
    )!;
    expect(kept.gen).toBe(gen);
    expect(kept.todo).toEqual([now[0]]);
    expect(new Set(kept.sessions.map((x) => x.row)).size).toBe(kept.sessions.length);
    expect(kept.sessions.length + kept.diagnostics.length).toBe(now.length - 1);
    // In the files' order, as summaries would have come.
    const order = now.map((f) => f.path);
    const at = kept.sessions.map((s) => order.indexOf(s.path));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    const fid = index.db.q("SELECT fid FROM files WHERE path = ?");
    expect(fid.get(gone.path)).toBeUndefined();
    expect(fid.get(changed.path)).toBeDefined();
    index.close();
  });

  it("reads the identities' row once, whole: SQLite loads all of a value for any substr() of it", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const index = open();
    // Every read of row 1's body (its head and its identities asked apart loaded it twice, and copied them).
    const reads: string[] = [];
    const q = index.db.q.bind(index.db);
    vi.spyOn(index.db, "q").mockImplementation((sql: string) => {
      const statement = q(sql);
      if (!/FROM snapshot WHERE id = 1/.test(sql)) return statement;
      return new Proxy(statement, {
        get: (target, key) =>
          key === "get"
            ? (...args: never[]) => (reads.push(sql), target.get(...args))
            : (Reflect.get(target, key) as unknown),
      });
    });
    const kept = index.scans.keptRows(files)!;
    index.close();
    expect(kept.todo).toEqual([]);
    expect(kept.sessions.length + kept.diagnostics.length).toBe(files.length);
    expect(reads).toHaveLength(1);
    expect(reads[0]).not.toMatch(/substr/);
  });

  it("holds the snapshot back until asked (a worker writes it once the list is complete)", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    rmSync(files[0].path);
    const index = open();
    index.scans.holdSnapshot = true;
    const before = index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array };
    await scanStore(store, { onKeptRows: () => {} }, { cache: index.scans });
    const held = index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array };
    expect(Buffer.compare(held.body, before.body)).toBe(0);
    index.scans.writeSnapshot();
    const after = index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array };
    expect(Buffer.compare(after.body, before.body)).not.toBe(0);
    index.close();
    // And what it wrote lists the store as it is.
    const again = open();
    const listed = await scanStore(store, {}, { cache: again.scans });
    again.close();
    expect(listed.sessions.map((s) => s.path).sort()).toEqual(
      (await scanStore(store)).sessions.map((s) => s.path).sort(),
    );
  });
});

/** A filled index, then one of its sessions appended to (its last line again), as pi writes. */
async function oneAppended() {
  const { store, open } = await filled();
  const { files } = await discoverFiles(store);
  const changed = files.find((f) => f.bytes > 0)!;
  const text = readFileSync(changed.path, "utf8");
  appendFileSync(changed.path, text.slice(text.lastIndexOf("\n", text.length - 2) + 1));
  settle(changed.path);
  return { store, open, changed };
}

/** The snapshot's first row, as bytes. */
const snapshot = (db: { q(sql: string): { get(): unknown } }) =>
  (db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body;

describe("a command's scan after a few files changed (a session pi just wrote to)", () => {
  it("leaves the snapshot as it is and keeps their rows, which the next run takes without reading the file", async () => {
    const { store, open, changed } = await oneAppended();
    const index = open();
    const before = snapshot(index.db);
    const scanned = await scanStore(store, {}, { cache: index.scans });
    expect(Buffer.compare(snapshot(index.db), before)).toBe(0);
    index.close();
    const again = open();
    const now = (await discoverFiles(store)).files;
    // lookup never reads a file: what it gives for the changed one came from its row.
    const kept = again.scans.lookup(now).get(changed.path);
    again.close();
    const fresh = scanned.sessions.find((s) => s.path === changed.path)!;
    expect(kept).toMatchObject({ kind: "session", summary: { path: changed.path, bytes: fresh.bytes } });
    expect(fresh.bytes).toBeGreaterThan(changed.bytes);
  });

  it("keeps them out of the snapshot for a scan by rows too, and its next run takes them from their rows", async () => {
    const { store, open, changed } = await oneAppended();
    const index = open();
    const before = snapshot(index.db);
    await scanStore(store, { onKeptRows: () => {} }, { cache: index.scans });
    expect(Buffer.compare(snapshot(index.db), before)).toBe(0);
    index.close();
    const again = open();
    const kept = again.scans.keptRows((await discoverFiles(store)).files)!;
    again.close();
    // Not to be read again: its scan came from its row.
    expect(kept.todo).toEqual([]);
    expect(kept.scans?.get(changed.path)).toMatchObject({ kind: "session", summary: { path: changed.path } });
    expect(kept.sessions.some((x) => x.path === changed.path)).toBe(false);
  });
});

describe("the summaries kept once", () => {
  it("are in the snapshot alone once it is written: the rows say only which files are sessions", async () => {
    const { store, open } = await filled();
    const index = open();
    const rows = index.db.q("SELECT summary FROM files").all() as { summary: string | null }[];
    expect(rows.some((r) => r.summary === "")).toBe(true);
    expect(rows.every((r) => r.summary === null || r.summary === "")).toBe(true);
    // Every file is still kept: none is read again.
    const { files } = await discoverFiles(store);
    const kept = index.scans.lookup(files);
    expect([...kept.values()].filter((x) => x.kind === "session").length).toBe(
      rows.filter((r) => r.summary === "").length,
    );
    index.close();
  });
});

describe("a few columns of the kept rows (the text list's way)", () => {
  it("gives the asked keys' columns of the snapshot keptRows read, as the summaries hold them", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const index = open();
    const whole = index.scans.lookup(files);
    index.close();
    const again = open();
    const kept = again.scans.keptRows(files)!;
    const cols = again.scans.keptColumns(["id", "path", "modified", "nothing"])!;
    again.close();
    expect(kept.sessions.length).toBeGreaterThan(0);
    for (const { row, path } of kept.sessions) {
      const s = whole.get(path);
      if (s?.kind !== "session") expect.fail(`${path} is kept as a session`);
      expect(cols.id![row]).toBe(s.summary.id);
      expect(cols.path![row]).toBe(path);
      expect(cols.modified![row]).toBe(s.summary.modified.getTime());
    }
    expect(cols.nothing).toBeUndefined();
  });

  it("without lineage (the text list, stats) gives the kept sessions' rows alone, and a scan asks for it so", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const withLineage = open();
    const whole = withLineage.scans.keptRows(files)!;
    withLineage.close();
    const index = open();
    const bare = index.scans.keptRows(files, false)!;
    index.close();
    expect(whole.sessions.length).toBeGreaterThan(3);
    expect(whole.rows).toEqual(whole.sessions.map((s) => s.row));
    // No session made for lineage, no parent looked up: the rows, the same as with it.
    expect(bare.sessions).toEqual([]);
    expect(bare.rows).toEqual(whole.rows);
    expect({ ...bare, rows: [], sessions: [] }).toEqual({ ...whole, rows: [], sessions: [] });
    const scanned = open();
    const asked = vi.spyOn(scanned.scans, "keptRows");
    let rows: number[] = [];
    await scanStore(store, { onKeptRows: (r) => (rows = r) }, { cache: scanned.scans, lineage: false, probe: false });
    scanned.close();
    expect(asked).toHaveBeenCalledWith(expect.anything(), false);
    // The same rows (in the scan's order: newest first).
    expect([...rows].sort((a, b) => a - b)).toEqual([...whole.rows].sort((a, b) => a - b));
  });

  it("gives none when the snapshot was written again since keptRows read it", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const index = open();
    expect(index.scans.keptColumns(["id"])).toBeUndefined();
    index.scans.keptRows(files);
    // Another process writes the snapshot again (a new generation).
    const other = open();
    other.scans.lookup(files);
    rmSync(files[0].path);
    other.scans.lookup(files.slice(1));
    other.scans.writeSnapshot();
    other.close();
    expect(index.scans.keptColumns(["id"])).toBeUndefined();
    index.close();
  });

  /** The snapshot's column row of `key` (its id, its text) and a writer of it. */
  function columnRow(index: ReturnType<Awaited<ReturnType<typeof filled>>["open"]>, key: string) {
    const head = index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array };
    const text = Buffer.from(head.body).toString("latin1");
    const layout = text.slice(0, text.indexOf("\n"));
    const idsEnd = text.indexOf("\n") + 1 + Number(layout.split(" ")[2]);
    const end = text.indexOf("\n", idsEnd + 1);
    const cols = JSON.parse(text.slice(idsEnd + 1, end < 0 ? undefined : end)) as { keys: string[] };
    const id = FIRST_CHUNK_ID + cols.keys.indexOf(key);
    const body = Buffer.from(
      (index.db.q(`SELECT body FROM snapshot WHERE id = ${id}`).get() as { body: Uint8Array }).body,
    );
    const write = (b: Uint8Array) => index.db.q(`UPDATE snapshot SET body = ? WHERE id = ${id}`).run(b);
    return { body, write };
  }

  /** A column row's bytes as another snapshot's: the same length, another generation (its first 16 hex digits). */
  function ofAnotherGeneration(body: Buffer): Buffer {
    const other = Buffer.from(body);
    const gen = other.subarray(0, 16).toString("latin1") === "0".repeat(16) ? "1".repeat(16) : "0".repeat(16);
    other.write(gen, 0, "latin1");
    return other;
  }

  it("reads only the rows of the columns asked for: another snapshot's row of a column not asked for changes nothing", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const index = open();
    const usage = columnRow(index, "usage");
    usage.write(ofAnotherGeneration(usage.body));
    index.scans.keptRows(files);
    const cols = index.scans.keptColumns(["id", "modified"]);
    expect(cols?.id?.length).toBe(
      decodeIdentities((index.db.q("SELECT body FROM snapshot WHERE id = 1").get() as { body: Uint8Array }).body)!.n,
    );
    index.close();
  });

  it("gives none, and keeps the index, when a column row asked for is another snapshot's", async () => {
    const { store, open } = await filled();
    const { files } = await discoverFiles(store);
    const index = open();
    const id = columnRow(index, "id");
    id.write(ofAnotherGeneration(id.body));
    index.scans.keptRows(files);
    expect(index.scans.keptColumns(["id"])).toBeUndefined();
    // Not taken for damage: the next run still has the index's rows.
    id.write(id.body);
    index.close();
    const again = open();
    expect(again.scans.keptRows(files)?.sessions.length).toBeGreaterThan(0);
    expect(again.scans.keptColumns(["id"])?.id).toBeDefined();
    again.close();
  });
});

describe("the index's rows while a scan worker holds them", () => {
  /** An empty index of a copy of the pi 0.73.1 store, holding back as a worker does. */
  function held() {
    const store = copyStore(PI_STORE);
    const path = join(makeTmpDir(), "index.sqlite");
    const index = openStoreIndex(store, (m) => expect.fail(m), { path })!;
    index.scans.holdSnapshot = true;
    const rows = () => (index.db.q("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    return { store, index, rows };
  }

  it("writes no row until the list is complete (a first launch is as fast as without the index), then all", async () => {
    const { store, index, rows } = held();
    const { sessions, diagnostics } = await scanStore(store, {}, { cache: index.scans });
    expect(rows()).toBe(0);
    index.scans.writeSnapshot();
    expect(rows()).toBe(sessions.length + diagnostics.filter((d) => d.kind !== "unreadable").length);
    index.close();
  });

  it("writes them as it goes once the scan has run HOLD_ROWS_MS (a user quitting a long first scan keeps its work)", async () => {
    const { store, index, rows } = held();
    try {
      expect(await rememberSpread(index, store, HOLD_ROWS_MS, rows)).toEqual({ early: 0, late: 257 });
    } finally {
      index.close();
    }
  });
});

/**
 * A scan that remembers 256 files at one moment, then one more `laterMs` after (the clock
 * held still between): the index's rows counted after the 256 and after the last.
 */
async function rememberSpread(
  index: NonNullable<ReturnType<typeof openStoreIndex>>,
  store: string,
  laterMs: number,
  rows: () => number,
) {
  const { files } = await discoverFiles(store);
  const scan = { kind: "diagnostic", diagnostic: { path: "", kind: "empty", reason: "empty" } } as const;
  const now = vi.spyOn(Date, "now");
  try {
    now.mockReturnValue(1_000_000);
    for (let i = 0; i < 256; i++) index.scans.remember({ ...files[0], path: `${files[0].path}.${i}` }, scan);
    const early = rows();
    now.mockReturnValue(1_000_000 + laterMs);
    index.scans.remember(files[0], scan);
    return { early, late: rows() };
  } finally {
    now.mockRestore();
  }
}

describe("the index's rows in a command's scan", () => {
  it("are written at its end alone, however long it runs (no summary written to a row that the snapshot empties)", async () => {
    const store = copyStore(PI_STORE);
    const index = openStoreIndex(store, (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
    const rows = () => (index.db.q("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    try {
      expect(await rememberSpread(index, store, 10 * HOLD_ROWS_MS, rows)).toEqual({ early: 0, late: 0 });
      index.scans.flush();
      expect(rows()).toBe(257);
    } finally {
      index.close();
    }
  });
});

describe("a file read within a tick of its last change (two writes in one tick leave the same identity)", () => {
  it("is used, but its row never matches: the next run reads it again; a file not changed since it was read is kept", async () => {
    const { store, open } = await filled();
    const [racy, calm] = (await discoverFiles(store)).files.filter((f) => f.bytes > 0);
    // Written now: a rewrite in the same tick would keep its size, mtime and ctime.
    writeFileSync(racy.path, readFileSync(racy.path));
    appendFileSync(calm.path, "\n");
    settle(calm.path);
    const now = (await discoverFiles(store)).files;
    const index = open();
    for (const f of now.filter((x) => x.path === racy.path || x.path === calm.path))
      // Read as a scan reads it; the racy one from within the tick it was written in.
      index.scans.remember(f, await scanSessionFile(f), f.path === racy.path ? f.ctimeMs : Date.now());
    index.scans.flush();
    const kept = index.scans.lookup(now);
    index.close();
    expect(kept.has(racy.path)).toBe(false);
    expect(kept.has(calm.path)).toBe(true);
    // The next run, once the file has stopped changing, reads it again and keeps that read.
    const next = open();
    const again = now.find((f) => f.path === racy.path)!;
    next.scans.remember(again, await scanSessionFile(again), again.ctimeMs + 60_000);
    next.scans.flush();
    const keptNext = next.scans.lookup(now);
    next.close();
    expect(keptNext.has(racy.path)).toBe(true);
  });

  it("is told by readIsRacy: a change at or after the read, or within the file system's tick before it", () => {
    const t = 1_800_000_000_123.5;
    expect(readIsRacy(t, t, t + 5)).toBe(true);
    expect(readIsRacy(t, t, t - 1000)).toBe(true); // changed after the read began
    expect(readIsRacy(t, t, t + 1000)).toBe(false);
    // An mtime put back (touch -r): a later write cannot leave it as it is.
    expect(readIsRacy(t - 60_000, t, t + 5)).toBe(false);
    // A file system with whole seconds: two seconds.
    expect(readIsRacy(1_800_000_000_000, 1_800_000_000_000, 1_800_000_001_500)).toBe(true);
    expect(readIsRacy(1_800_000_000_000, 1_800_000_000_000, 1_800_000_002_500)).toBe(false);
  });
});
