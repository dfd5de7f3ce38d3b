// `pi-sessions index` from nothing folds each summary into the snapshot as its scan reads
// it (issue 35: at 50,000 sessions the whole summaries, held until the snapshot was made of
// them, were its peak), and writes what a snapshot made at the scan's end would hold.
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { collectGarbage } from "../src/cli/common/collect-garbage.js";
import { indexPathFor } from "../src/index/index-location.js";
import { openStoreIndex, type StoreIndex } from "../src/index/store-index.js";
import { IndexedScans } from "../src/index/summary-cache.js";
import type { SessionSummary } from "../src/model/types.js";
import { scanStore } from "../src/scan/scan-store.js";
import { discoverFiles } from "../src/store/discover.js";
import type { FileScan } from "../src/store/scan-file.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "./helpers/tmp-store.js";
import { join } from "node:path";

afterEach(() => cleanupTmp());

/** Every file's kept scan and list text, by path, as the next run reads them; and the files table's scan columns. */
async function kept(store: string, index: StoreIndex) {
  const { files } = await discoverFiles(store);
  const text = (s: object) => index.scans.listPieces(s)?.map((x) => Buffer.from(x).toString());
  const scans = [...index.scans.lookup(files)]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, k]: [string, FileScan]) => [path, k, k.kind === "session" ? text(k.summary) : null]);
  const rows = index.db.q("SELECT path, ino, size, mtime, ctime, summary, diagnostic FROM files ORDER BY path").all();
  return { n: files.length, scans, rows };
}

describe("index from nothing", () => {
  it("holds no summary it read once its scan ends", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const refs: Array<WeakRef<SessionSummary>> = [];
    // Patched by hand: a spy's record of its calls would hold the summaries itself.
    const { remember, release } = IndexedScans.prototype;
    IndexedScans.prototype.remember = function (this: IndexedScans, f, scan, at) {
      if (scan.kind === "session") refs.push(new WeakRef(scan.summary));
      return remember.call(this, f, scan, at);
    };
    // What the cache holds as the scan hands over to the text, kept as it is there (release
    // would let go of it; a WeakRef's target lives to the end of the turn it was made in).
    const caches: IndexedScans[] = [];
    IndexedScans.prototype.release = function (this: IndexedScans) {
      caches.push(this);
    };
    onTestFinished(() => Object.assign(IndexedScans.prototype, { remember, release }));
    const r = await runCli(["index", "--session-dir", store], { env: { PI_SESSIONS_CACHE_DIR: makeTmpDir() } });
    await new Promise((r) => setImmediate(r));
    collectGarbage();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    expect(caches.length).toBe(1);
    expect(r.stderr).toMatch(/^index of \d+ sessions up to date/);
    expect(r.code).toBe(0);
    expect(refs.length).toBeGreaterThan(2);
    expect(alive).toBe(0);
  });

  it("writes the snapshot and the files rows a snapshot made at the scan's end would", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
    const fail = (m: string) => expect.fail(m);
    const byCommand = openStoreIndex(store, fail, { path: indexPathFor(store, env)! })!;
    const got = await kept(store, byCommand);
    byCommand.close();
    // The same store scanned with the snapshot made of every summary at the end (no fold).
    const path = join(makeTmpDir(), "index.sqlite");
    const atEnd = openStoreIndex(store, fail, { path })!;
    await scanStore(store, {}, { cache: atEnd.scans });
    atEnd.close();
    const again = openStoreIndex(store, fail, { path })!;
    const want = await kept(store, again);
    again.close();
    expect(got.scans.length).toBe(got.n);
    expect(got).toStrictEqual(want);
  });
});
