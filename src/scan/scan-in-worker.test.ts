import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import type { Diagnostic, SessionProbe, SessionSummary } from "../model/types.js";
import { scanInWorker } from "./scan-in-worker.js";
import { scanStore } from "./scan-store.js";
import { SnapshotHere } from "./snapshot-here.js";
import { openStoreIndex } from "../index/store-index.js";
import { orphanRows } from "../index/forget.js";
import { indexStaleText } from "../index/text-index.js";
import { copyStore, settle } from "../../test/helpers/tmp-store.js";

const REPO = join(import.meta.dirname, "..", "..");
const STORE = join(REPO, "fixtures", "pi-generated", "agent", "sessions");
const DAMAGED = join(REPO, "fixtures", "damaged", "sessions");
// Vitest runs the TypeScript sources; the worker runs the build `npm test` makes first.
const BUILT_WORKER = pathToFileURL(join(REPO, "dist", "src", "scan", "scan-worker.js"));

function collect() {
  const probes: SessionProbe[] = [];
  const summaries: SessionSummary[] = [];
  const diagnostics: Diagnostic[] = [];
  let discovered = -1;
  const handlers = {
    onDiscovered: (n: number) => (discovered = n),
    onProbes: (p: SessionProbe[]) => probes.push(...p),
    onSummaries: (s: SessionSummary[]) => summaries.push(...s),
    onDiagnostic: (d: Diagnostic) => diagnostics.push(d),
  };
  return { handlers, probes, summaries, diagnostics, discovered: () => discovered };
}

describe("scanInWorker", () => {
  it("is built", () => expect(existsSync(BUILT_WORKER)).toBe(true));

  it.each([STORE, DAMAGED])("gives the same events and result as scanStore on this thread (%s)", async (dir) => {
    const w = collect();
    const result = await scanInWorker(dir, w.handlers, { workerUrl: BUILT_WORKER });
    const plain = await scanStore(dir);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    // Dates, nested objects and lineage survive the trip between threads.
    expect(result.sessions.sort(byPath)).toEqual(plain.sessions.sort(byPath));
    expect(result.diagnostics.sort(byPath)).toEqual(plain.diagnostics.sort(byPath));
    expect(w.discovered()).toBe(
      plain.sessions.length + plain.diagnostics.filter((d) => d.kind !== "unreadable-folder").length,
    );
    expect(new Set(w.summaries.map((s) => s.path))).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(new Set(w.probes.map((p) => p.path))).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(w.probes[0].created).toBeInstanceOf(Date);
  });

  it("with an index: the kept summaries cross as the snapshot's bytes and come out the same", async () => {
    const index = join(mkdtempSync(join(tmpdir(), "pi-sessions-worker-index-")), "index.sqlite");
    const plain = await scanStore(STORE);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    // Filling the index, then from it (every summary kept), then on this thread from it.
    for (const workerUrl of [BUILT_WORKER, BUILT_WORKER, pathToFileURL(join(REPO, "no-such-worker.js"))]) {
      const w = collect();
      const result = await scanInWorker(STORE, w.handlers, { workerUrl, index });
      expect(result.sessions.sort(byPath)).toEqual(plain.sessions.sort(byPath));
      expect(w.summaries.sort(byPath).map((s) => ({ ...s, lineage: undefined }))).toEqual(
        plain.sessions.map((s) => ({ ...s, lineage: undefined })),
      );
      expect(w.summaries[0].modified).toBeInstanceOf(Date);
    }
  });

  it.each([STORE, DAMAGED])(
    "with an index, every file kept: rows of the snapshot, no file read, and what listeners end with is a plain scan's (%s)",
    async (dir) => {
      const index = join(mkdtempSync(join(tmpdir(), "pi-sessions-worker-rows-")), "index.sqlite");
      const plain = await scanStore(dir);
      const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
      // Filled on this thread: its snapshot is written before this returns (a worker writes it after).
      const filling = openStoreIndex(dir, () => {}, { path: index })!;
      await scanStore(dir, {}, { cache: filling.scans });
      filling.close();
      const w = collect();
      // The rows are made here, from the snapshot this thread read (not by a fallback scan
      // of the worker's, which would list the same).
      const rows = vi.spyOn(SnapshotHere.prototype, "rows");
      const result = await scanInWorker(dir, w.handlers, { workerUrl: BUILT_WORKER, index });
      expect(rows).toHaveBeenCalledTimes(1);
      expect(rows.mock.results[0].value).toHaveLength(plain.sessions.length);
      rows.mockRestore();
      // Nothing probed: the kept rows (diagnostics among them) came from the snapshot, not
      // from a scan without the index that a snapshot this thread could not read falls back to.
      expect(w.probes).toEqual([]);
      expect(w.discovered()).toBe(
        plain.sessions.length + plain.diagnostics.filter((d) => d.kind !== "unreadable-folder").length,
      );
      expect(result.sessions.sort(byPath)).toEqual(plain.sessions.sort(byPath));
      expect(result.diagnostics.sort(byPath)).toEqual(plain.diagnostics.sort(byPath));
      // A listener keeps the summaries it was handed, then the relinked ones in their place.
      const seen = new Map(w.summaries.map((s) => [s.path, s]));
      for (const s of result.relinked) seen.set(s.path, s);
      expect([...seen.values()].sort(byPath)).toEqual(plain.sessions);
    },
  );

  it("with an index whose FTS rows mostly name nothing: its text is indexed again from nothing after the scan", async () => {
    const dir = copyStore(STORE);
    settle(dir);
    const index = join(mkdtempSync(join(tmpdir(), "pi-sessions-worker-orphans-")), "index.sqlite");
    const filling = openStoreIndex(dir, () => {}, { path: index })!;
    await scanStore(dir, {}, { cache: filling.scans });
    await indexStaleText(filling.db);
    const lines = () => (filling.db.q("SELECT count(*) AS n FROM lines").get() as { n: number }).n;
    const all = lines();
    // As if most of the rows written had been left behind by files read again or gone.
    filling.db.setMeta("fts_orphans", String(all * 2));
    filling.close();
    let done = false;
    await scanInWorker(
      dir,
      { onIndexing: (pass, n, total) => (done ||= pass === "tools" && n === total) },
      { workerUrl: BUILT_WORKER, index },
    );
    await vi.waitFor(() => expect(done).toBe(true), { timeout: 20_000 });
    const after = openStoreIndex(dir, () => {}, { path: index })!;
    await vi.waitFor(() => expect(orphanRows(after.db)).toBe(0), { timeout: 20_000 });
    expect((after.db.q("SELECT count(*) AS n FROM lines").get() as { n: number }).n).toBe(all);
    after.close();
  });

  it("rejects like scanStore when the store is missing", async () => {
    await expect(scanInWorker(join(REPO, "no-such-store"), {}, { workerUrl: BUILT_WORKER })).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("stops at once when aborted, with no further events", async () => {
    const ac = new AbortController();
    const w = collect();
    const p = scanInWorker(STORE, w.handlers, { workerUrl: BUILT_WORKER, signal: ac.signal });
    ac.abort();
    await expect(p).resolves.toEqual({ sessions: [], diagnostics: [], relinked: [] });
    expect(w.summaries).toHaveLength(0);
  });

  it("scans on this thread when there is no built worker", async () => {
    const w = collect();
    const result = await scanInWorker(STORE, w.handlers, { workerUrl: pathToFileURL(join(REPO, "no-such-worker.js")) });
    expect(result.sessions).toHaveLength(30);
    expect(w.summaries).toHaveLength(30);
  });
});
