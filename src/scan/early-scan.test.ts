import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionProbe, SessionSummary } from "../model/types.js";
import { startEarlyScan } from "./early-scan.js";
import type { SessionFile } from "../store/discover.js";
import { scanOrder, scanStore, type ScanResult } from "./scan-store.js";
import { scanEventHandlers, type ScanEvent } from "./scan-events.js";

// From the TypeScript sources there is no built worker, so these scans run on this thread
// (src/scan/scan-in-worker.test.ts covers the worker itself).
const STORE = join(import.meta.dirname, "..", "..", "fixtures", "pi-generated", "agent", "sessions");

describe("startEarlyScan", () => {
  it("replays what was found before the UI subscribed, then the rest, as a plain scan would", async () => {
    const early = startEarlyScan(STORE);
    await new Promise((r) => setTimeout(r, 30)); // the UI is still loading
    const probes: SessionProbe[] = [];
    const summaries: SessionSummary[] = [];
    let total = -1;
    const result = await early.scan(STORE, {
      onDiscovered: (n) => (total = n),
      onProbes: (p) => probes.push(...p),
      onSummaries: (s) => summaries.push(...s),
    });
    const plain = await scanStore(STORE);
    expect(total).toBe(30);
    // Each session's first row: a probe, or its summary kept by the persistent index.
    const first = new Set([...probes.map((p) => p.path), ...summaries.map((s) => s.path)]);
    expect(first).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(new Set(summaries.map((s) => s.path))).toEqual(new Set(plain.sessions.map((s) => s.path)));
    expect(result.sessions).toHaveLength(plain.sessions.length);
  });

  it("ready() waits for the first rows; take() hands them over and they are not replayed", async () => {
    const early = startEarlyScan(STORE);
    await early.ready(10_000);
    const taken = early.take();
    expect(taken.some((e) => e.kind === "probes" || e.kind === "summaries")).toBe(true);
    const replayed: ScanEvent[] = [];
    await early.scan(
      STORE,
      scanEventHandlers((e) => replayed.push(e)),
    );
    const rows = (events: ScanEvent[], kind: "probes" | "summaries") =>
      events.flatMap((e) => (e.kind === kind ? e.items.map((p) => p.path) : []));
    // Every event arrives exactly once: taken before the UI mounted, or replayed after.
    // (With the persistent index, known sessions come as summaries instead of probes.)
    for (const kind of ["probes", "summaries"] as const) {
      const before = new Set(rows(taken, kind));
      expect(rows(replayed, kind).filter((p) => before.has(p))).toEqual([]);
    }
    const all = [...rows(taken, "probes"), ...rows(taken, "summaries"), ...rows(replayed, "probes")];
    expect(new Set([...all, ...rows(replayed, "summaries")]).size).toBe(30);
  });

  it("with every file kept by the index, ready() waits for the end, and take() hands over the completion too", async () => {
    await startEarlyScan(STORE).scan(STORE); // fills the index
    const early = startEarlyScan(STORE);
    await early.ready(10_000);
    const taken = early.take();
    // One first frame of the whole list, complete: no frame of rows still "scanning" before it.
    expect(taken.some((e) => e.kind === "probes")).toBe(false);
    expect(taken.at(-1)?.kind).toBe("complete");
    const replayed: ScanEvent[] = [];
    let completed: ScanResult | undefined;
    const result = await early.scan(STORE, {
      ...scanEventHandlers((e) => replayed.push(e)),
      onComplete: (r) => (completed = r),
    });
    // Said again to the UI's scan, with nothing more to relink than the completion taken said.
    expect(replayed).toEqual([]);
    expect(result.relinked).toEqual([]);
    expect(result.sessions).toHaveLength(30);
    expect(completed).toBe(result);
  });

  it("ready() returns without rows when the scan ends with none (a missing store)", async () => {
    const early = startEarlyScan(join(STORE, "..", "no-such-store"));
    await early.ready(5);
    expect(early.take().some((e) => e.kind === "probes")).toBe(false);
    await expect(early.scan(join(STORE, "..", "no-such-store"))).rejects.toThrow();
  });

  it("starts afresh on a second call (a rescan)", async () => {
    const early = startEarlyScan(STORE);
    const first = await early.scan(STORE);
    let discovered = 0;
    const again = await early.scan(STORE, { onDiscovered: (n) => (discovered = n) });
    expect(discovered).toBe(30);
    expect(again.sessions).toHaveLength(first.sessions.length);
  });
});

describe("scanOrder (scanStore's firstCwd)", () => {
  const f = (path: string, mtimeMs: number) => ({ path, bytes: 1, mtimeMs }) as SessionFile;
  const files = () => [
    f("/s/--a--/1.jsonl", 1),
    f("/s/--b--/2.jsonl", 5),
    f("/s/--a--/3.jsonl", 3),
    f("/s/--c--/4.jsonl", 9),
  ];
  it("is newest first", () => {
    expect(scanOrder(files(), "/s").map((x) => x.path)).toEqual([
      "/s/--c--/4.jsonl",
      "/s/--b--/2.jsonl",
      "/s/--a--/3.jsonl",
      "/s/--a--/1.jsonl",
    ]);
  });
  it("puts the launch folder's project folder first, each part still newest first", () => {
    expect(scanOrder(files(), "/s", "/a").map((x) => x.path)).toEqual([
      "/s/--a--/3.jsonl",
      "/s/--a--/1.jsonl",
      "/s/--c--/4.jsonl",
      "/s/--b--/2.jsonl",
    ]);
  });
  it("probes that folder's sessions too when the whole store is scanned", async () => {
    const seen: string[] = [];
    await scanStore(STORE, { onProbes: (p) => seen.push(...p.map((x) => x.path)) }, { firstCwd: "/home/dev/src/app" });
    expect(seen.some((p) => p.includes("--home-dev-src-app--"))).toBe(true);
    expect(seen).toHaveLength(30);
  });
});
