// `pi-sessions index` resolves no lineage in its scan: the index keeps each summary's own
// (`list --json` resolves it afresh), and the rows lineage needs held every summary's lineage
// object alive to the scan's end, where the snapshot is made (the command's peak of memory).
import { execFileSync } from "node:child_process";
import { readdirSync, utimesSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ScanOptions } from "../src/scan/scan-store.js";
import { decodeSnapshot } from "../src/index/snapshot-codec.js";
import { readStoredSnapshot } from "../src/index/summary-cache.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, REPO, settle, storeFiles } from "./helpers/tmp-store.js";

/** The options of every scan the run made, and what each held of a summary read. */
const scans: Array<{ options: ScanOptions; held: unknown[] }> = [];
vi.mock("../src/scan/scan-store.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/scan/scan-store.js")>();
  return {
    ...real,
    scanStore: (...args: Parameters<typeof real.scanStore>) => {
      const [dir, handlers, options = {}] = args;
      const seen = { options, held: [] as unknown[] };
      scans.push(seen);
      const hold = options.hold;
      const watched = hold && {
        ...options,
        hold: (s: Parameters<typeof hold>[0]) => {
          const r = hold(s);
          seen.held.push(r);
          return r;
        },
      };
      return real.scanStore(dir, handlers, watched ?? options);
    },
  };
});

/** The files rows (but their ids) and every row of the snapshot (but its generation) of the one index in a cache folder. */
function storedIndex(cache: string): { rows: unknown[]; snapshot: Array<Record<string, unknown>> } {
  const dir = join(cache, "index");
  const files = readdirSync(dir).filter((n) => n.endsWith(".sqlite"));
  expect(files).toHaveLength(1);
  const db = new DatabaseSync(join(dir, files[0]!), { readOnly: true });
  try {
    const rows = db.prepare("SELECT path, ino, size, mtime, ctime, summary, diagnostic FROM files ORDER BY path").all();
    const snap = decodeSnapshot(readStoredSnapshot((sql) => db.prepare(sql))!)!;
    const list = (db.prepare("SELECT body FROM snapshot WHERE id = 2").get() as { body: Uint8Array }).body;
    const snapshot = Array.from({ length: snap.n }, (_, i) => ({
      path: snap.path[i],
      ino: snap.ino[i],
      size: snap.size[i],
      mtime: snap.mtime[i],
      ctime: snap.ctime[i],
      summary: snap.summary(i),
      diagnostic: snap.diagnostic(i),
      pieces: snap.pieces(i, list)?.map((b) => Buffer.from(b).toString()),
    }));
    return { rows, snapshot };
  } finally {
    db.close();
  }
}

/** A generated store of 100 sessions (settled) and a cache folder its first index was built in. */
async function indexedGenStore(seed: number): Promise<{ store: string; env: { PI_SESSIONS_CACHE_DIR: string } }> {
  const out = makeTmpDir("pi-sessions-gen-");
  execFileSync(process.execPath, [
    join(REPO, "bench", "gen-store.mjs"),
    ...["--out", out, "--sessions", "100", "--projects", "4", "--avg-kb", "2", "--faults", "0", "--seed", String(seed)],
  ]);
  const store = join(out, "sessions");
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
  expect((await runCli(["index", "--session-dir", store], { env })).code).toBe(0);
  return { store, env };
}

afterAll(cleanupTmp);
beforeEach(() => {
  scans.length = 0;
});

describe("pi-sessions index's scan", () => {
  it("resolves no lineage and holds each summary read as its path alone; the index the same as list's", async () => {
    const store = copyStore(PI_STORE);
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const r = await runCli(["index", "--session-dir", store], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(scans).toHaveLength(1);
    expect(scans[0]!.options.lineage).toBe(false);
    expect(scans[0]!.held.length).toBeGreaterThan(10);
    for (const row of scans[0]!.held) expect(Object.keys(row as object)).toEqual(["path"]);
    // The index list --json makes (its scan resolves lineage) holds the same files rows and
    // snapshot (its summaries with their stored lineage, its list text) but the generation.
    const listEnv = { PI_SESSIONS_CACHE_DIR: makeTmpDir("pi-sessions-cache-") };
    const list = await runCli(["list", "--all", "--json", "--session-dir", store], { env: listEnv });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('"status": "resolved"');
    const fromIndex = storedIndex(env.PI_SESSIONS_CACHE_DIR);
    const fromList = storedIndex(listEnv.PI_SESSIONS_CACHE_DIR);
    expect(fromIndex.rows.length).toBeGreaterThan(10);
    expect(fromIndex.snapshot.length).toBe(fromIndex.rows.length);
    expect(
      fromIndex.snapshot.some((e) => (e.summary as { parentSessionPath?: string } | null)?.parentSessionPath),
    ).toBe(true);
    expect(fromIndex).toEqual(fromList);
  });

  it("holds each summary read as its path alone when the index already has a snapshot", async () => {
    const { store, env } = await indexedGenStore(3);
    // More files changed than a scan leaves out of the snapshot (SNAPSHOT_SLACK): read again, the snapshot made again.
    const changed = storeFiles(store).slice(0, 60);
    const earlier = new Date(Date.now() - 120_000);
    for (const f of changed) utimesSync(f, earlier, earlier);
    const r = await runCli(["index", "--session-dir", store], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(scans).toHaveLength(2);
    expect(scans[1]!.held).toHaveLength(60);
    for (const row of scans[1]!.held) expect(Object.keys(row as object)).toEqual(["path"]);
  });

  it("counts every session, those the files rows give whole as well as those read", async () => {
    const { store, env } = await indexedGenStore(4);
    // A few changed (fewer than a scan leaves out of the snapshot): a list writes their files
    // rows, and the next index takes their summaries from those rows, reading none of them.
    const earlier = new Date(Date.now() - 120_000);
    for (const f of storeFiles(store).slice(0, 5)) utimesSync(f, earlier, earlier);
    expect((await runCli(["list", "--all", "--session-dir", store], { env })).code).toBe(0);
    const r = await runCli(["index", "--session-dir", store], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/index of 100 sessions up to date/);
  });
});
